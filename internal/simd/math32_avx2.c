#include "math32_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_math32_supported(void) {
	return mxgo_cpu_avx2(0);
}

// Every function is exact or one IEEE operation rounded once, as in the Go loops
// (pkg/ops/elemwise/math_rows32.go): rounding to an integer is exact, the differences below
// (x - floor(x), ceil(x) - x, x - trunc(x)) are exact in float32 where they decide
// anything.

AVX2 INLINE __m256 rint_down(__m256 x) {
	__m256 lo = _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
	__m256 hi = _mm256_round_ps(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
	__m256 take_lo = _mm256_cmp_ps(_mm256_sub_ps(x, lo), _mm256_sub_ps(hi, x), _CMP_LE_OQ); // NaN: hi (NaN)
	return _mm256_blendv_ps(hi, lo, take_lo);
}

AVX2 INLINE __m256 round_away(__m256 x) {
	const __m256 sign = _mm256_set1_ps(-0.0f);
	__m256 t = _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
	__m256 frac = _mm256_andnot_ps(sign, _mm256_sub_ps(x, t));
	__m256 up = _mm256_cmp_ps(frac, _mm256_set1_ps(0.5f), _CMP_GE_OQ);
	__m256 one = _mm256_or_ps(_mm256_and_ps(x, sign), _mm256_set1_ps(1.0f)); // copysign(1, x)
	return _mm256_blendv_ps(t, _mm256_add_ps(t, one), up);                    // (t + 0 would lose -0)
}

// MULD is a double product rounded on its own (no FMA with what is added to it, as in
// Go): the empty asm hides it from the compiler (see exp32_avx2.c's MUL).
AVX2 INLINE __m256d MULD(__m256d a, __m256d b) {
	__m256d x = _mm256_mul_pd(a, b);
	__asm__("" : "+x"(x));
	return x;
}

// in_double applies the double functions to 4 lanes widened from float.
AVX2 INLINE __m128 in_double(int op, __m128 x4, const double *p) {
	__m256d x = _mm256_cvtps_pd(x4), y;
	if (op == MXGO_M32_HARD_SIGMOID) {
		y = _mm256_add_pd(MULD(_mm256_set1_pd(p[0]), x), _mm256_set1_pd(p[1]));
		y = _mm256_blendv_pd(y, _mm256_set1_pd(1.0), _mm256_cmp_pd(y, _mm256_set1_pd(1.0), _CMP_GT_OQ));
		y = _mm256_blendv_pd(y, _mm256_setzero_pd(), _mm256_cmp_pd(y, _mm256_setzero_pd(), _CMP_LT_OQ));
	} else { // MXGO_M32_SMOOTH_L1
		__m256d lim = _mm256_set1_pd(p[0]), half = _mm256_set1_pd(p[1]);
		__m256d nx = _mm256_xor_pd(x, _mm256_set1_pd(-0.0));
		y = MULD(MULD(MULD(_mm256_set1_pd(0.5), x), x), _mm256_set1_pd(p[2]));
		y = _mm256_blendv_pd(y, _mm256_sub_pd(nx, half), _mm256_cmp_pd(x, _mm256_xor_pd(lim, _mm256_set1_pd(-0.0)), _CMP_LT_OQ));
		y = _mm256_blendv_pd(y, _mm256_sub_pd(x, half), _mm256_cmp_pd(x, lim, _CMP_GT_OQ));
	}
	return _mm256_cvtpd_ps(y);
}

AVX2 INLINE __m256 apply(int op, __m256 x, __m256 c, const double *p) {
	switch (op) {
	case MXGO_M32_FLOOR:
		return _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
	case MXGO_M32_CEIL:
		return _mm256_round_ps(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
	case MXGO_M32_TRUNC:
		return _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
	case MXGO_M32_RINT_DOWN:
		return rint_down(x);
	case MXGO_M32_ROUND_AWAY:
		return round_away(x);
	case MXGO_M32_RECIP:
		return _mm256_div_ps(_mm256_set1_ps(1.0f), x);
	case MXGO_M32_RSQRT:
		return _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(x));
	case MXGO_M32_SCALE:
		return _mm256_mul_ps(x, c);
	case MXGO_M32_SQRT:
		return _mm256_sqrt_ps(x);
	case MXGO_M32_ABS:
		return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
	case MXGO_M32_NEG:
		return _mm256_xor_ps(_mm256_set1_ps(-0.0f), x);
	case MXGO_M32_SQUARE:
		return _mm256_mul_ps(x, x);
	case MXGO_M32_SIGN: {
		__m256 z = _mm256_setzero_ps();
		__m256 pos = _mm256_and_ps(_mm256_cmp_ps(x, z, _CMP_GT_OQ), _mm256_set1_ps(1.0f));
		return _mm256_or_ps(pos, _mm256_and_ps(_mm256_cmp_ps(x, z, _CMP_LT_OQ), _mm256_set1_ps(-1.0f)));
	}
	case MXGO_M32_HARD_SIGMOID:
	case MXGO_M32_SMOOTH_L1:
		return _mm256_set_m128(in_double(op, _mm256_extractf128_ps(x, 1), p), in_double(op, _mm256_castps256_ps128(x), p));
	default: // MXGO_M32_SOFTSIGN
		return _mm256_div_ps(x, _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x)));
	}
}

AVX2 INLINE void rows(int op, float *dst, const float *src, long n, const double *p) {
	__m256 vc = _mm256_set1_ps((float)p[0]);
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		_mm256_storeu_ps(dst + i, apply(op, _mm256_loadu_ps(src + i), vc, p));
	}
	if (i < n) {
		float buf[8] = {0};
		memcpy(buf, src + i, (n - i) * sizeof(float));
		_mm256_storeu_ps(buf, apply(op, _mm256_loadu_ps(buf), vc, p));
		memcpy(dst + i, buf, (n - i) * sizeof(float));
	}
}

// One copy of the loop per op, each with op a constant.
AVX2 void mxgo_math32(int op, float *dst, const float *src, long n, const double *p) {
	switch (op) {
	case MXGO_M32_FLOOR:
		rows(MXGO_M32_FLOOR, dst, src, n, p);
		break;
	case MXGO_M32_CEIL:
		rows(MXGO_M32_CEIL, dst, src, n, p);
		break;
	case MXGO_M32_TRUNC:
		rows(MXGO_M32_TRUNC, dst, src, n, p);
		break;
	case MXGO_M32_RINT_DOWN:
		rows(MXGO_M32_RINT_DOWN, dst, src, n, p);
		break;
	case MXGO_M32_ROUND_AWAY:
		rows(MXGO_M32_ROUND_AWAY, dst, src, n, p);
		break;
	case MXGO_M32_RECIP:
		rows(MXGO_M32_RECIP, dst, src, n, p);
		break;
	case MXGO_M32_RSQRT:
		rows(MXGO_M32_RSQRT, dst, src, n, p);
		break;
	case MXGO_M32_SCALE:
		rows(MXGO_M32_SCALE, dst, src, n, p);
		break;
	case MXGO_M32_SQRT:
		rows(MXGO_M32_SQRT, dst, src, n, p);
		break;
	case MXGO_M32_SOFTSIGN:
		rows(MXGO_M32_SOFTSIGN, dst, src, n, p);
		break;
	case MXGO_M32_ABS:
		rows(MXGO_M32_ABS, dst, src, n, p);
		break;
	case MXGO_M32_NEG:
		rows(MXGO_M32_NEG, dst, src, n, p);
		break;
	case MXGO_M32_SQUARE:
		rows(MXGO_M32_SQUARE, dst, src, n, p);
		break;
	case MXGO_M32_SIGN:
		rows(MXGO_M32_SIGN, dst, src, n, p);
		break;
	case MXGO_M32_HARD_SIGMOID:
		rows(MXGO_M32_HARD_SIGMOID, dst, src, n, p);
		break;
	case MXGO_M32_SMOOTH_L1:
		rows(MXGO_M32_SMOOTH_L1, dst, src, n, p);
		break;
	}
}

AVX2 void mxgo_sqrt_f64(double *dst, const double *src, long n) {
	long i = 0;
	for (; i + 4 <= n; i += 4) _mm256_storeu_pd(dst + i, _mm256_sqrt_pd(_mm256_loadu_pd(src + i)));
	for (; i < n; i++) _mm_store_sd(dst + i, _mm_sqrt_sd(_mm_setzero_pd(), _mm_load_sd(src + i)));
}

#else

int mxgo_math32_supported(void) { return 0; }
void mxgo_math32(int op, float *dst, const float *src, long n, const double *p) {
	(void)op, (void)dst, (void)src, (void)n, (void)p;
}
void mxgo_sqrt_f64(double *dst, const double *src, long n) { (void)dst, (void)src, (void)n; }

#endif
