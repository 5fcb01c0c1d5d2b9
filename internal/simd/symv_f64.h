// The symmetric matrix-vector product from one stored triangle (symv_f64.c), the
// level-2 half of the Householder tridiagonalisation; driven from Go by symv64.go.
#ifndef MXGO_SYMV_F64_H
#define MXGO_SYMV_F64_H

// mxgo_dsymv sets y = alpha A x + beta y (y not read when beta is 0) for the symmetric
// n x n A of which the lower (lower != 0) or upper triangle is stored row-major with
// leading dimension lda; x and y are contiguous, t is a work vector of n doubles.
void mxgo_dsymv(int lower, long n, double alpha, const double *a, long lda, const double *x,
		double beta, double *y, double *t);

#endif
