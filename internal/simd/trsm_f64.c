#include "trsm_f64.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))

// row_axpy sets r -= t x over n doubles.
AVX2 static inline void row_axpy(double *r, double t, const double *x, long n) {
	__m256d vt = _mm256_set1_pd(-t);
	long j = 0;
	for (; j + 8 <= n; j += 8) {
		_mm256_storeu_pd(r + j, _mm256_fmadd_pd(vt, _mm256_loadu_pd(x + j), _mm256_loadu_pd(r + j)));
		_mm256_storeu_pd(r + j + 4, _mm256_fmadd_pd(vt, _mm256_loadu_pd(x + j + 4), _mm256_loadu_pd(r + j + 4)));
	}
	for (; j < n; j++) r[j] = __builtin_fma(-t, x[j], r[j]);
}

AVX2 static inline void row_scale(double *r, double s, long n) {
	__m256d vs = _mm256_set1_pd(s);
	long j = 0;
	for (; j + 4 <= n; j += 4) _mm256_storeu_pd(r + j, _mm256_mul_pd(vs, _mm256_loadu_pd(r + j)));
	for (; j < n; j++) r[j] *= s;
}

AVX2 void mxgo_dtrsm_left(int lower, int trans, int unit, long k, long n, double alpha, const double *a, long lda,
			  double *b, long ldb) {
	for (long s = 0; s < k; s++) {
		long i = lower ? s : k - 1 - s; // rows in the order they are solved
		double *bi = b + i * ldb;
		if (alpha != 1) row_scale(bi, alpha, n);
		long j0 = lower ? 0 : i + 1, j1 = lower ? i : k; // the solved rows i depends on
		for (long j = j0; j < j1; j++) {
			double aij = trans ? a[j * lda + i] : a[i * lda + j];
			if (aij != 0) row_axpy(bi, aij, b + j * ldb, n);
		}
		if (!unit) row_scale(bi, 1 / a[i * lda + i], n);
	}
}

AVX2 void mxgo_dtrsm_right(int lower, int trans, int unit, long m, long k, double alpha, const double *a, long lda,
			   double *b, long ldb, double *work) {
	for (long r = 0; r < m; r++)
		for (long c = 0; c < k; c++) work[c * m + r] = b[r * ldb + c];
	// X op(A) = B: op(A)^T X^T = B^T, where op(A)^T is lower exactly when op(A) is upper
	mxgo_dtrsm_left(!lower, !trans, unit, k, m, alpha, a, lda, work, m);
	for (long r = 0; r < m; r++)
		for (long c = 0; c < k; c++) b[r * ldb + c] = work[c * m + r];
}

#else

void mxgo_dtrsm_left(int lower, int trans, int unit, long k, long n, double alpha, const double *a, long lda,
		     double *b, long ldb) {
	(void)lower, (void)trans, (void)unit, (void)k, (void)n, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb;
}

void mxgo_dtrsm_right(int lower, int trans, int unit, long m, long k, double alpha, const double *a, long lda,
		      double *b, long ldb, double *work) {
	(void)lower, (void)trans, (void)unit, (void)m, (void)k, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb,
		(void)work;
}

#endif
