#include "maxmin_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))

int mxgo_maxmin_supported(void) {
	return mxgo_cpu_avx2(0);
}

// Blends, not vmaxps: vmaxps returns its second operand where either is NaN or both
// are zeros, which is neither NumPy's NaN propagation nor its ties (y).
AVX2 long mxgo_maxmin_f32(int is_max, int quiet, float *o, const float *x, const float *y, long n) {
	const __m256 qbit = _mm256_castsi256_ps(_mm256_set1_epi32(0x00400000));
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256 a = _mm256_loadu_ps(x + i), b = _mm256_loadu_ps(y + i);
		__m256 wins = is_max ? _mm256_cmp_ps(a, b, _CMP_GT_OQ) : _mm256_cmp_ps(a, b, _CMP_LT_OQ);
		wins = _mm256_or_ps(wins, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
		__m256 r = _mm256_blendv_ps(b, a, wins);
		if (quiet)
			r = _mm256_or_ps(r, _mm256_and_ps(_mm256_cmp_ps(r, r, _CMP_UNORD_Q), qbit));
		_mm256_storeu_ps(o + i, r);
	}
	return i;
}

AVX2 long mxgo_maxmin_f64(int is_max, double *o, const double *x, const double *y, long n) {
	long i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256d a = _mm256_loadu_pd(x + i), b = _mm256_loadu_pd(y + i);
		__m256d wins = is_max ? _mm256_cmp_pd(a, b, _CMP_GT_OQ) : _mm256_cmp_pd(a, b, _CMP_LT_OQ);
		wins = _mm256_or_pd(wins, _mm256_cmp_pd(a, a, _CMP_UNORD_Q));
		_mm256_storeu_pd(o + i, _mm256_blendv_pd(b, a, wins));
	}
	return i;
}

// The reductions: vmaxps/vminps in lanes, exact without NaN and zeros (which the
// caller then folds in order); NaNs are counted apart. The last n%8 elements are the
// last 8 again (max and min are idempotent).
#define REDUCE(SFX, T, V, W, P)                                                                      \
	AVX2 int mxgo_maxmin_reduce_##SFX(int is_max, const T *x, long n, T *r) {                   \
		V m0 = _mm256_loadu_##P(x), m1 = m0, nan = _mm256_setzero_##P();                    \
		long i = 0;                                                                          \
		for (; i + 2 * W <= n; i += 2 * W) {                                                 \
			V a = _mm256_loadu_##P(x + i), b = _mm256_loadu_##P(x + i + W);             \
			nan = _mm256_or_##P(nan, _mm256_cmp_##P(a, b, _CMP_UNORD_Q));              \
			m0 = is_max ? _mm256_max_##P(m0, a) : _mm256_min_##P(m0, a);                \
			m1 = is_max ? _mm256_max_##P(m1, b) : _mm256_min_##P(m1, b);                \
		}                                                                                    \
		for (; i + W <= n; i += W) {                                                         \
			V a = _mm256_loadu_##P(x + i);                                               \
			nan = _mm256_or_##P(nan, _mm256_cmp_##P(a, a, _CMP_UNORD_Q));              \
			m0 = is_max ? _mm256_max_##P(m0, a) : _mm256_min_##P(m0, a);                \
		}                                                                                    \
		V a = _mm256_loadu_##P(x + n - W);                                                   \
		nan = _mm256_or_##P(nan, _mm256_cmp_##P(a, a, _CMP_UNORD_Q));                       \
		m0 = is_max ? _mm256_max_##P(m0, a) : _mm256_min_##P(m0, a);                        \
		m0 = is_max ? _mm256_max_##P(m0, m1) : _mm256_min_##P(m0, m1);                      \
		if (_mm256_movemask_##P(nan))                                                        \
			return 0;                                                                    \
		T lanes[W];                                                                          \
		_mm256_storeu_##P(lanes, m0);                                                        \
		T v = lanes[0];                                                                      \
		for (int k = 1; k < W; k++)                                                          \
			v = (is_max ? lanes[k] > v : lanes[k] < v) ? lanes[k] : v;                  \
		*r = v;                                                                              \
		return 1;                                                                            \
	}

REDUCE(f32, float, __m256, 8, ps)
REDUCE(f64, double, __m256d, 4, pd)

#else

int mxgo_maxmin_supported(void) { return 0; }
long mxgo_maxmin_f32(int is_max, int quiet, float *o, const float *x, const float *y, long n) { return 0; }
long mxgo_maxmin_f64(int is_max, double *o, const double *x, const double *y, long n) { return 0; }
int mxgo_maxmin_reduce_f32(int is_max, const float *x, long n, float *r) { return 0; }
int mxgo_maxmin_reduce_f64(int is_max, const double *x, long n, double *r) { return 0; }

#endif
