#include "cmp_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_cmp_supported(void) { return mxgo_cpu_avx2(0); }

// The predicates: ordered and quiet (false with NaN) but != (unordered: true with NaN),
// as Go's operators.
#define PRED(op)                                                                        \
	((op) == MXGO_CMP_EQ ? _CMP_EQ_OQ : (op) == MXGO_CMP_NE ? _CMP_NEQ_UQ : (op) == MXGO_CMP_GT ? _CMP_GT_OQ \
	 : (op) == MXGO_CMP_GE ? _CMP_GE_OQ : (op) == MXGO_CMP_LT ? _CMP_LT_OQ : _CMP_LE_OQ)

// One loop per type and predicate (the predicate must be an immediate); the tail goes
// element by element through the same instruction's scalar form.
#define LOOPS(T, V, W, load, set1, cmp, and, store, scmp, sand)                                  \
	AVX2 INLINE void rows_##T(const int p, T *o, const T *x, const T *y, int ys, long n) {   \
		const V one = set1((T)1);                                                        \
		long i = 0;                                                                       \
		if (ys) {                                                                         \
			const V c = set1(y[0]);                                                   \
			for (; i + W <= n; i += W) store(o + i, and(cmp(load(x + i), c, p), one)); \
		} else {                                                                          \
			for (; i + W <= n; i += W) store(o + i, and(cmp(load(x + i), load(y + i), p), one)); \
		}                                                                                 \
		for (; i < n; i++) {                                                              \
			T b = y[ys ? 0 : i];                                                      \
			o[i] = sand(scmp(x[i], b, p), (T)1);                                      \
		}                                                                                 \
	}

AVX2 INLINE float cmp_ss(float a, float b, const int p) { return _mm_cvtss_f32(_mm_cmp_ss(_mm_set_ss(a), _mm_set_ss(b), p)); }
AVX2 INLINE double cmp_sd(double a, double b, const int p) { return _mm_cvtsd_f64(_mm_cmp_sd(_mm_set_sd(a), _mm_set_sd(b), p)); }
AVX2 INLINE float and_ss(float m, float one) { return _mm_cvtss_f32(_mm_and_ps(_mm_set_ss(m), _mm_set_ss(one))); }
AVX2 INLINE double and_sd(double m, double one) { return _mm_cvtsd_f64(_mm_and_pd(_mm_set_sd(m), _mm_set_sd(one))); }

LOOPS(float, __m256, 8, _mm256_loadu_ps, _mm256_set1_ps, _mm256_cmp_ps, _mm256_and_ps, _mm256_storeu_ps, cmp_ss, and_ss)
LOOPS(double, __m256d, 4, _mm256_loadu_pd, _mm256_set1_pd, _mm256_cmp_pd, _mm256_and_pd, _mm256_storeu_pd, cmp_sd, and_sd)

#define DISPATCH(f)                                                  \
	switch (op) {                                                \
	case MXGO_CMP_EQ: f(PRED(MXGO_CMP_EQ), o, x, y, ys, n); break; \
	case MXGO_CMP_NE: f(PRED(MXGO_CMP_NE), o, x, y, ys, n); break; \
	case MXGO_CMP_GT: f(PRED(MXGO_CMP_GT), o, x, y, ys, n); break; \
	case MXGO_CMP_GE: f(PRED(MXGO_CMP_GE), o, x, y, ys, n); break; \
	case MXGO_CMP_LT: f(PRED(MXGO_CMP_LT), o, x, y, ys, n); break; \
	default: f(PRED(MXGO_CMP_LE), o, x, y, ys, n); break;          \
	}

AVX2 void mxgo_cmp_f32(int op, float *o, const float *x, const float *y, int ys, long n) { DISPATCH(rows_float) }
AVX2 void mxgo_cmp_f64(int op, double *o, const double *x, const double *y, int ys, long n) { DISPATCH(rows_double) }

// spread[m] has byte i set to bit i of m: a movemask's lanes as bool bytes.
static uint64_t spread[256];

__attribute__((constructor)) static void fill_spread(void) {
	for (int m = 0; m < 256; m++)
		for (int b = 0; b < 8; b++)
			spread[m] |= (uint64_t)((m >> b) & 1) << (8 * b);
}

// The same comparisons into bool bytes (mx.np's results): W lanes' mask, spread to W
// bytes; the tail through the same instruction's scalar form.
#define BOOLS(T, V, W, load, set1, cmp, movemask, scmp)                                             \
	AVX2 INLINE void bools_##T(const int p, uint8_t *o, const T *x, const T *y, int ys, long n) { \
		long i = 0;                                                                        \
		if (ys) {                                                                          \
			const V c = set1(y[0]);                                                    \
			for (; i + W <= n; i += W)                                                 \
				memcpy(o + i, &spread[movemask(cmp(load(x + i), c, p))], W);      \
		} else {                                                                           \
			for (; i + W <= n; i += W)                                                 \
				memcpy(o + i, &spread[movemask(cmp(load(x + i), load(y + i), p))], W); \
		}                                                                                  \
		for (; i < n; i++)                                                                 \
			o[i] = scmp(x[i], y[ys ? 0 : i], p);                                       \
	}

AVX2 INLINE uint8_t bool_ss(float a, float b, const int p) { return _mm_movemask_ps(_mm_cmp_ss(_mm_set_ss(a), _mm_set_ss(b), p)) & 1; }
AVX2 INLINE uint8_t bool_sd(double a, double b, const int p) { return _mm_movemask_pd(_mm_cmp_sd(_mm_set_sd(a), _mm_set_sd(b), p)) & 1; }

BOOLS(float, __m256, 8, _mm256_loadu_ps, _mm256_set1_ps, _mm256_cmp_ps, _mm256_movemask_ps, bool_ss)
BOOLS(double, __m256d, 4, _mm256_loadu_pd, _mm256_set1_pd, _mm256_cmp_pd, _mm256_movemask_pd, bool_sd)

AVX2 void mxgo_cmp_bool_f32(int op, uint8_t *o, const float *x, const float *y, int ys, long n) { DISPATCH(bools_float) }
AVX2 void mxgo_cmp_bool_f64(int op, uint8_t *o, const double *x, const double *y, int ys, long n) { DISPATCH(bools_double) }

#else

int mxgo_cmp_supported(void) { return 0; }
void mxgo_cmp_f32(int op, float *o, const float *x, const float *y, int ys, long n) {
	(void)op, (void)o, (void)x, (void)y, (void)ys, (void)n;
}
void mxgo_cmp_f64(int op, double *o, const double *x, const double *y, int ys, long n) {
	(void)op, (void)o, (void)x, (void)y, (void)ys, (void)n;
}
void mxgo_cmp_bool_f32(int op, uint8_t *o, const float *x, const float *y, int ys, long n) {
	(void)op, (void)o, (void)x, (void)y, (void)ys, (void)n;
}
void mxgo_cmp_bool_f64(int op, uint8_t *o, const double *x, const double *y, int ys, long n) {
	(void)op, (void)o, (void)x, (void)y, (void)ys, (void)n;
}

#endif
