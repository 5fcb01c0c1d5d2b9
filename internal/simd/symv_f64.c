#include "symv_f64.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))

// Each stored row is read once and serves twice: as a row (a dot product with x, into
// t[i]) and as a column (x[i] times it added to t over the same span).
AVX2 void mxgo_dsymv(int lower, long n, double alpha, const double *a, long lda, const double *x,
		     double beta, double *y, double *t) {
	for (long i = 0; i < n; i++)
		t[i] = 0;
	for (long i = 0; i < n; i++) {
		const double *row = a + i * lda;
		long lo = lower ? 0 : i + 1, hi = lower ? i : n, j = lo;
		double xi = x[i];
		__m256d vx = _mm256_set1_pd(xi), s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
		for (; j + 8 <= hi; j += 8) {
			__m256d r0 = _mm256_loadu_pd(row + j), r1 = _mm256_loadu_pd(row + j + 4);
			s0 = _mm256_fmadd_pd(r0, _mm256_loadu_pd(x + j), s0);
			s1 = _mm256_fmadd_pd(r1, _mm256_loadu_pd(x + j + 4), s1);
			_mm256_storeu_pd(t + j, _mm256_fmadd_pd(r0, vx, _mm256_loadu_pd(t + j)));
			_mm256_storeu_pd(t + j + 4, _mm256_fmadd_pd(r1, vx, _mm256_loadu_pd(t + j + 4)));
		}
		__m256d s = _mm256_add_pd(s0, s1);
		__m128d h = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
		double sum = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
		for (; j < hi; j++) {
			sum = __builtin_fma(row[j], x[j], sum);
			t[j] = __builtin_fma(row[j], xi, t[j]);
		}
		t[i] += __builtin_fma(row[i], xi, sum);
	}
	for (long i = 0; i < n; i++)
		y[i] = beta == 0 ? alpha * t[i] : __builtin_fma(beta, y[i], alpha * t[i]);
}

#else

void mxgo_dsymv(int lower, long n, double alpha, const double *a, long lda, const double *x,
		double beta, double *y, double *t) {}

#endif
