#include "ger_f64.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))

AVX2 void mxgo_dger(long m, long n, double alpha, const double *x, long incx, const double *y, double *a, long lda) {
	for (long i = 0; i < m; i++) {
		double t = alpha * x[i * incx];
		double *r = a + i * lda;
		__m256d vt = _mm256_set1_pd(t);
		long j = 0;
		for (; j + 8 <= n; j += 8) {
			_mm256_storeu_pd(r + j, _mm256_fmadd_pd(vt, _mm256_loadu_pd(y + j), _mm256_loadu_pd(r + j)));
			_mm256_storeu_pd(r + j + 4, _mm256_fmadd_pd(vt, _mm256_loadu_pd(y + j + 4), _mm256_loadu_pd(r + j + 4)));
		}
		for (; j < n; j++)
			r[j] = __builtin_fma(t, y[j], r[j]);
	}
}

#else

void mxgo_dger(long m, long n, double alpha, const double *x, long incx, const double *y, double *a, long lda) {}

#endif
