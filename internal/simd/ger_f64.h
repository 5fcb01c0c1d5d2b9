// The rank-1 update of row-major rows (ger_f64.c), the inner step of the unblocked LU
// factorization; driven from Go by ger64.go.
#ifndef MXGO_GER_F64_H
#define MXGO_GER_F64_H

// mxgo_dger adds, for i < m, (alpha x[i*incx]) y to row i of a (rows lda apart, n
// elements each, y contiguous): a[i*lda + j] = fma(alpha x[i*incx], y[j], a[i*lda + j]).
void mxgo_dger(long m, long n, double alpha, const double *x, long incx, const double *y, double *a, long lda);

#endif
