// Small triangular solves with many right-hand sides (trsm_f64.c): the base case of
// pkg/ops/linalg's recursive Dtrsm, whose Go loops (gonum's axpys, and a transposition
// for the right side) took a quarter of a 256 x 256 inverse. Driven from Go by trsm64.go.
#ifndef MXGO_TRSM_F64_H
#define MXGO_TRSM_F64_H

// mxgo_dtrsm_left solves op(A) X = alpha B for X, in place of B (k rows of n, ldb
// apart), with A k x k (rows lda apart): lower says whether op(A) is lower triangular,
// trans whether op(A) is A's transpose, unit whether op(A)'s diagonal is taken as ones.
// As gonum's loops: each row scaled by alpha, the solved rows subtracted (as fused
// multiply-adds here), then scaled by 1 / its diagonal element.
void mxgo_dtrsm_left(int lower, int trans, int unit, long k, long n, double alpha, const double *a, long lda,
		     double *b, long ldb);

// mxgo_dtrsm_right solves X op(A) = alpha B in place of B (m rows of k, ldb apart), as
// op(A)^T X^T = alpha B^T on a transposed copy in work (k m doubles).
void mxgo_dtrsm_right(int lower, int trans, int unit, long m, long k, double alpha, const double *a, long lda,
		      double *b, long ldb, double *work);

#endif
