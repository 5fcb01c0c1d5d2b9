#include "sumsq.h"

// The sum of squares of norm (pkg/ops/reduce/norm_kernels.go): elements widened to double and
// squared into sixteen running sums (four 4-lane vectors, one FMA each), so the row is
// read once at memory speed; the order differs from the Go loop's, the precision not.

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2FMA __attribute__((target("avx2,fma")))

int mxgo_sumsq_supported(void) {
	return mxgo_cpu_avx2(1);
}

AVX2FMA double mxgo_sumsq_f32(const float *v, long n) {
	__m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(),
		a3 = _mm256_setzero_pd();
	long i = 0;
	for (; i + 16 <= n; i += 16) {
		__m256d x0 = _mm256_cvtps_pd(_mm_loadu_ps(v + i));
		__m256d x1 = _mm256_cvtps_pd(_mm_loadu_ps(v + i + 4));
		__m256d x2 = _mm256_cvtps_pd(_mm_loadu_ps(v + i + 8));
		__m256d x3 = _mm256_cvtps_pd(_mm_loadu_ps(v + i + 12));
		a0 = _mm256_fmadd_pd(x0, x0, a0);
		a1 = _mm256_fmadd_pd(x1, x1, a1);
		a2 = _mm256_fmadd_pd(x2, x2, a2);
		a3 = _mm256_fmadd_pd(x3, x3, a3);
	}
	__m256d t = _mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3));
	__m128d h = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
	double s = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
	for (; i < n; i++)
		s += (double)v[i] * (double)v[i];
	return s;
}

#else

int mxgo_sumsq_supported(void) {
	return 0;
}

double mxgo_sumsq_f32(const float *v, long n) {
	(void)v;
	(void)n;
	return 0;
}

#endif
