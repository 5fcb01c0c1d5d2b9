#include "maxmin_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
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
// caller then folds in order); NaNs are counted apart. Four running vectors: each waits
// on its last max's latency, and two left the unit idle half the time (1e5 float32: 8.5
// us, now 5.1; NumPy 6.7). The last n%8 elements are the last 8 again (max and min are
// idempotent).
#define REDUCE(SFX, T, V, W, P)                                                                      \
	AVX2 int mxgo_maxmin_reduce_##SFX(int is_max, const T *x, long n, T *r) {                   \
		V m0 = _mm256_loadu_##P(x), m1 = m0, m2 = m0, m3 = m0, nan = _mm256_setzero_##P();  \
		long i = 0;                                                                          \
		for (; i + 4 * W <= n; i += 4 * W) {                                                 \
			V a = _mm256_loadu_##P(x + i), b = _mm256_loadu_##P(x + i + W);             \
			V c = _mm256_loadu_##P(x + i + 2 * W), d = _mm256_loadu_##P(x + i + 3 * W); \
			nan = _mm256_or_##P(nan, _mm256_cmp_##P(a, b, _CMP_UNORD_Q));              \
			nan = _mm256_or_##P(nan, _mm256_cmp_##P(c, d, _CMP_UNORD_Q));              \
			m0 = is_max ? _mm256_max_##P(m0, a) : _mm256_min_##P(m0, a);                \
			m1 = is_max ? _mm256_max_##P(m1, b) : _mm256_min_##P(m1, b);                \
			m2 = is_max ? _mm256_max_##P(m2, c) : _mm256_min_##P(m2, c);                \
			m3 = is_max ? _mm256_max_##P(m3, d) : _mm256_min_##P(m3, d);                \
		}                                                                                    \
		m0 = is_max ? _mm256_max_##P(m0, m2) : _mm256_min_##P(m0, m2);                      \
		m1 = is_max ? _mm256_max_##P(m1, m3) : _mm256_min_##P(m1, m3);                      \
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

// The index of the first maximum (is_max) or minimum in one pass. CHAINS independent
// (value, step) accumulators in lanes, each lane keeping the step of the loop at which
// its share of x was first strictly better than before; the smallest position among the
// lanes that hold the overall best is then the first position of the best (one
// accumulator would wait a compare's and a blend's latency per vector). A NaN makes it
// decline; ±0 compare equal, as in the serial fold. A lane that never beat the worst
// infinity holds step -1. argmax_* and argmin_* inline the loop with is_max a constant.
enum { CHAINS = 4 };

// FIRST_BEST defines first_best_T: the first position of the best among the lanes
// (value v[l] and step at[l] of lane l of chain l / w, w lanes a vector) and the tail
// x[i..n); 0 when nothing beats the worst infinity.
#define FIRST_BEST(T)                                                                                  \
	static long first_best_##T(int is_max, const T *v, const long *at, int w, const T *x, long i, long n) { \
		long bi = -1;                                                                           \
		T bv = 0;                                                                               \
		for (int l = 0; l < CHAINS * w; l++) {                                                  \
			long p = at[l] * CHAINS * w + l;                                                \
			if (at[l] >= 0 && (bi < 0 || (is_max ? v[l] > bv : v[l] < bv) || (v[l] == bv && p < bi))) \
				bv = v[l], bi = p;                                                      \
		}                                                                                       \
		for (; i < n; i++)                                                                      \
			if (bi < 0 ? (is_max ? x[i] > -(T)INFINITY : x[i] < (T)INFINITY)                \
				   : (is_max ? x[i] > bv : x[i] < bv))                                  \
				bv = x[i], bi = i;                                                      \
		return bi < 0 ? 0 : bi;                                                                 \
	}

FIRST_BEST(float)
FIRST_BEST(double)

#define INLINE static inline __attribute__((always_inline))

// ARGBEST defines argbest_NAME(is_max, x, n, v, at) for vectors V of W elements T under
// target TGT: it runs the chains over x's whole steps, stores the lanes' values in v and
// steps in at, and returns the first position it left, or -1 on a NaN. BETTER(a, b, p)
// is the mask (vector or opmask) of a's lanes better than b's, NAN(a) of a's NaNs, ANY(m)
// whether any is set, OR(m, k) joins masks; KEEP(m, old, new) takes new where m is set
// (values and steps); STEP(s) is the step counter broadcast, STORE_AT(at, vec) widens.
#define ARGBEST(NAME, TGT, T, V, VI, M, W, load, set1, setzero_m, BETTER, NAN, OR, ANY, KEEP, KEEPI, STEP, STORE_V, STORE_AT) \
	TGT INLINE long argbest_##NAME(const int is_max, const T *x, long n, T *v, long *at) {              \
		V best[CHAINS];                                                                             \
		VI step[CHAINS];                                                                            \
		M nan = setzero_m;                                                                          \
		for (int c = 0; c < CHAINS; c++)                                                            \
			best[c] = set1(is_max ? -(T)INFINITY : (T)INFINITY), step[c] = STEP(-1);            \
		long i = 0, s = 0;                                                                          \
		for (; i + CHAINS * W <= n; i += CHAINS * W, s++) {                                        \
			VI now = STEP(s);                                                                   \
			_Pragma("GCC unroll 4") for (int c = 0; c < CHAINS; c++) {                         \
				V a = load(x + i + W * c);                                                  \
				nan = OR(nan, NAN(a));                                                      \
				M wins = is_max ? BETTER(a, best[c], _CMP_GT_OQ) : BETTER(a, best[c], _CMP_LT_OQ); \
				best[c] = KEEP(wins, best[c], a);                                           \
				step[c] = KEEPI(wins, step[c], now);                                        \
			}                                                                                   \
		}                                                                                           \
		if (ANY(nan))                                                                               \
			return -1;                                                                          \
		for (int c = 0; c < CHAINS; c++) {                                                          \
			STORE_V(v + W * c, best[c]);                                                        \
			STORE_AT(at + W * c, step[c]);                                                      \
		}                                                                                           \
		return i;                                                                                   \
	}                                                                                                   \
	TGT static long argmax_##NAME(const T *x, long n, T *v, long *at) { return argbest_##NAME(1, x, n, v, at); } \
	TGT static long argmin_##NAME(const T *x, long n, T *v, long *at) { return argbest_##NAME(0, x, n, v, at); }

#define NAN_F32(a) _mm256_cmp_ps(a, a, _CMP_UNORD_Q)
#define NAN_F64(a) _mm256_cmp_pd(a, a, _CMP_UNORD_Q)
#define ANY_F32(m) _mm256_movemask_ps(m)
#define ANY_F64(m) _mm256_movemask_pd(m)
#define KEEP_F32(m, o, a) _mm256_blendv_ps(o, a, m)
#define KEEP_F64(m, o, a) _mm256_blendv_pd(o, a, m)
#define KEEPI_F32(m, o, a) _mm256_blendv_epi8(o, a, _mm256_castps_si256(m))
#define KEEPI_F64(m, o, a) _mm256_blendv_epi8(o, a, _mm256_castpd_si256(m))
#define STEP32(s) _mm256_set1_epi32((int)(s))
#define STEP64(s) _mm256_set1_epi64x(s)

AVX2 INLINE void store_at32(long *at, __m256i s) {
	int32_t t[8];
	_mm256_storeu_si256((__m256i *)t, s);
	for (int l = 0; l < 8; l++)
		at[l] = t[l];
}
AVX2 INLINE void store_at64(long *at, __m256i s) { _mm256_storeu_si256((__m256i *)at, s); }

ARGBEST(f32_avx2, AVX2, float, __m256, __m256i, __m256, 8, _mm256_loadu_ps, _mm256_set1_ps, _mm256_setzero_ps(),
	_mm256_cmp_ps, NAN_F32, _mm256_or_ps, ANY_F32, KEEP_F32, KEEPI_F32, STEP32, _mm256_storeu_ps, store_at32)
ARGBEST(f64_avx2, AVX2, double, __m256d, __m256i, __m256d, 4, _mm256_loadu_pd, _mm256_set1_pd, _mm256_setzero_pd(),
	_mm256_cmp_pd, NAN_F64, _mm256_or_pd, ANY_F64, KEEP_F64, KEEPI_F64, STEP64, _mm256_storeu_pd, store_at64)

// AVX-512F: opmask compares and blends, one instruction each, on 16 (8) lanes.
#define AVX512 __attribute__((target("avx512f")))
#define NAN512_F32(a) _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q)
#define NAN512_F64(a) _mm512_cmp_pd_mask(a, a, _CMP_UNORD_Q)
#define OR512(m, k) ((m) | (k))
#define ANY512(m) ((m) != 0)
#define KEEP512_F32(m, o, a) _mm512_mask_blend_ps(m, o, a)
#define KEEP512_F64(m, o, a) _mm512_mask_blend_pd(m, o, a)
#define KEEPI512_F32(m, o, a) _mm512_mask_blend_epi32(m, o, a)
#define KEEPI512_F64(m, o, a) _mm512_mask_blend_epi64(m, o, a)
#define STEP512_32(s) _mm512_set1_epi32((int)(s))
#define STEP512_64(s) _mm512_set1_epi64(s)

AVX512 INLINE void store512_at32(long *at, __m512i s) {
	int32_t t[16];
	_mm512_storeu_si512(t, s);
	for (int l = 0; l < 16; l++)
		at[l] = t[l];
}
AVX512 INLINE void store512_at64(long *at, __m512i s) { _mm512_storeu_si512(at, s); }

ARGBEST(f32_avx512, AVX512, float, __m512, __m512i, __mmask16, 16, _mm512_loadu_ps, _mm512_set1_ps, 0,
	_mm512_cmp_ps_mask, NAN512_F32, OR512, ANY512, KEEP512_F32, KEEPI512_F32, STEP512_32, _mm512_storeu_ps,
	store512_at32)
ARGBEST(f64_avx512, AVX512, double, __m512d, __m512i, __mmask8, 8, _mm512_loadu_pd, _mm512_set1_pd, 0,
	_mm512_cmp_pd_mask, NAN512_F64, OR512, ANY512, KEEP512_F64, KEEPI512_F64, STEP512_64, _mm512_storeu_pd,
	store512_at64)

int mxgo_argmaxmin_avx512_supported(void) { return mxgo_cpu_avx512(); }

// ARGMAXMIN defines mxgo_argmaxmin_SFX: the chains (is_max a constant in each call), the
// NaNs in the tail, and the first best of lanes and tail.
#define ARGMAXMIN(SFX, T)                                                                                \
	AVX2 int mxgo_argmaxmin_##SFX(int is_max, int wide, const T *x, long n, long *r) {            \
		T v[CHAINS * 16];                                                                          \
		long at[CHAINS * 16], i;                                                                   \
		int w = wide ? 64 / (int)sizeof(T) : 32 / (int)sizeof(T);                                  \
		if (wide)                                                                                  \
			i = is_max ? argmax_##SFX##_avx512(x, n, v, at) : argmin_##SFX##_avx512(x, n, v, at); \
		else                                                                                       \
			i = is_max ? argmax_##SFX##_avx2(x, n, v, at) : argmin_##SFX##_avx2(x, n, v, at); \
		if (i < 0)                                                                                 \
			return 0;                                                                          \
		for (long j = i; j < n; j++)                                                               \
			if (x[j] != x[j])                                                                  \
				return 0;                                                                  \
		*r = first_best_##T(is_max, v, at, w, x, i, n);                                            \
		return 1;                                                                                  \
	}

ARGMAXMIN(f32, float)
ARGMAXMIN(f64, double)

#else

int mxgo_maxmin_supported(void) { return 0; }
long mxgo_maxmin_f32(int is_max, int quiet, float *o, const float *x, const float *y, long n) { return 0; }
long mxgo_maxmin_f64(int is_max, double *o, const double *x, const double *y, long n) { return 0; }
int mxgo_maxmin_reduce_f32(int is_max, const float *x, long n, float *r) { return 0; }
int mxgo_maxmin_reduce_f64(int is_max, const double *x, long n, double *r) { return 0; }
int mxgo_argmaxmin_avx512_supported(void) { return 0; }
int mxgo_argmaxmin_f32(int is_max, int wide, const float *x, long n, long *r) { return 0; }
int mxgo_argmaxmin_f64(int is_max, int wide, const double *x, long n, long *r) { return 0; }

#endif
