#include "exp32_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_f32_unary_supported(void) {
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

// Each float32 lane is widened to float64 and rounded back once at the end, as in
// exp32.go (which explains the algorithm): float64 needs no Cody-Waite split and no
// table (a table would need a gather, which measured slower than the longer
// polynomial), overflow and subnormal results come from the final rounding (CVTPD2PS
// rounds directly to float32, subnormals included), and the error stays at most 1 ulp
// with no special case but a clamp. The constants are exp32.go's, bit for bit, and
// every step is the same IEEE operation as there (fused exactly where it fuses: see
// rounded), so the C and Go kernels agree on every input. Built with -fno-fast-math:
// gopy's -ffast-math would let the compiler drop NaN and Inf handling and reassociate.

// e**x = 2**k * 2**r with k = round(x*log2e), |r| <= 1/2, and 2**r - 1 a degree-7
// Taylor polynomial in r (relative error below 1.3e-8, a fifth of a float32 ulp,
// also near r = 0 where tanh needs it).
static const double LOG2E = 0x1.71547652b82fep+0, SHIFT = 0x1.8p52;
static const double C1 = 0x1.62e42fefa39efp-1, C2 = 0x1.ebfbdff82c58fp-3,
		    C3 = 0x1.c6b08d704a0c0p-5, C4 = 0x1.3b2ab6fba4e77p-7,
		    C5 = 0x1.5d87fe78a6731p-10, C6 = 0x1.430912f86c787p-13,
		    C7 = 0x1.ffcbfc588b0c7p-17;
static const double EXP_CLAMP = 110, TANH_CLAMP = 40;

#define SET1 _mm256_set1_pd

// rounded returns x as it is, after the compiler has rounded it to a register: GNU C
// contracts a*b + c into an FMA by default (-ffp-contract=fast, which -fno-fast-math
// keeps), which would change bits against the Go kernel (that fuses only where it
// calls math.FMA). Applied to each product that is then added to.
AVX2 INLINE __m256d rounded(__m256d x) {
	__asm__("" : "+x"(x));
	return x;
}

// exp2split returns 2**k and sets *q = 2**r - 1 for z = k + r (|z| < 1022; NaN gives
// a NaN *q).
AVX2 INLINE __m256d exp2split(__m256d z, __m256d *q) {
	__m256d kd = _mm256_add_pd(z, SET1(SHIFT)); // k in the low mantissa bits
	__m256d r = _mm256_sub_pd(z, _mm256_sub_pd(kd, SET1(SHIFT)));
	__m256d p = _mm256_fmadd_pd(SET1(C7), r, SET1(C6));
	p = _mm256_fmadd_pd(p, r, SET1(C5));
	p = _mm256_fmadd_pd(p, r, SET1(C4));
	p = _mm256_fmadd_pd(p, r, SET1(C3));
	p = _mm256_fmadd_pd(p, r, SET1(C2));
	p = _mm256_fmadd_pd(p, r, SET1(C1));
	*q = rounded(_mm256_mul_pd(p, r));
	// k<<52 (mod 2**64) added to the bits of 1.0 is 2**k.
	__m256i e = _mm256_slli_epi64(_mm256_castpd_si256(kd), 52);
	return _mm256_castsi256_pd(_mm256_add_epi64(e, _mm256_set1_epi64x(0x3ff0000000000000)));
}

// exp4 is e**x for x in [-EXP_CLAMP, EXP_CLAMP] or NaN.
AVX2 INLINE __m256d exp4(__m256d x) {
	__m256d q, s = exp2split(rounded(_mm256_mul_pd(x, SET1(LOG2E))), &q);
	return _mm256_fmadd_pd(s, q, s);
}

// clamp4 limits x to [-EXP_CLAMP, EXP_CLAMP]; MINPD/MAXPD return their second
// operand when either is NaN, so x goes second to stay NaN.
AVX2 INLINE __m256d clamp4(__m256d x) {
	return _mm256_max_pd(SET1(-EXP_CLAMP), _mm256_min_pd(SET1(EXP_CLAMP), x));
}

AVX2 INLINE __m256d op4(int op, __m256d x) {
	switch (op) {
	case MXGO_F32_EXP:
		return exp4(clamp4(x));
	case MXGO_F32_SIGMOID: // e**-x overflows to no Inf in float64: 1/(1+e) is 0 or 1 there
		return _mm256_div_pd(SET1(1), _mm256_add_pd(SET1(1), exp4(clamp4(_mm256_xor_pd(x, SET1(-0.0))))));
	default: { // tanh: sign(x) * m/(m+2), m = e**2|x| - 1 = (s-1) + s*q (see exp32.go)
		__m256d sign = _mm256_and_pd(x, SET1(-0.0));
		__m256d a = _mm256_add_pd(_mm256_andnot_pd(SET1(-0.0), x), _mm256_andnot_pd(SET1(-0.0), x));
		a = _mm256_min_pd(SET1(TANH_CLAMP), a);
		__m256d q, s = exp2split(rounded(_mm256_mul_pd(a, SET1(LOG2E))), &q);
		__m256d m = _mm256_fmadd_pd(s, q, _mm256_sub_pd(s, SET1(1)));
		__m256d t = _mm256_div_pd(m, _mm256_add_pd(m, SET1(2)));
		return _mm256_or_pd(t, sign); // keeps -0 (t is +0 there) and tiny x's sign
	}
	}
}

// op8 applies op to 8 floats as two halves of 4 doubles, rounding once each.
AVX2 INLINE __m256 op8(int op, __m256 x) {
	__m256d lo = op4(op, _mm256_cvtps_pd(_mm256_castps256_ps128(x)));
	__m256d hi = op4(op, _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)));
	return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

// rows runs op over n floats, 8 at a time; the last n%8 go through the same vector
// code in a padded buffer, so every element gets the same bits wherever it falls.
AVX2 INLINE void rows(int op, float *dst, const float *src, long n) {
	long i = 0;
	for (; i + 8 <= n; i += 8)
		_mm256_storeu_ps(dst + i, op8(op, _mm256_loadu_ps(src + i)));
	if (i < n) {
		float buf[8] = {0};
		memcpy(buf, src + i, (n - i) * sizeof(float));
		_mm256_storeu_ps(buf, op8(op, _mm256_loadu_ps(buf)));
		memcpy(dst + i, buf, (n - i) * sizeof(float));
	}
}

// One copy of the loop per op, each with op a constant.
AVX2 void mxgo_f32_unary(int op, float *dst, const float *src, long n) {
	switch (op) {
	case MXGO_F32_EXP:
		rows(MXGO_F32_EXP, dst, src, n);
		break;
	case MXGO_F32_SIGMOID:
		rows(MXGO_F32_SIGMOID, dst, src, n);
		break;
	case MXGO_F32_TANH:
		rows(MXGO_F32_TANH, dst, src, n);
		break;
	}
}

#else

int mxgo_f32_unary_supported(void) { return 0; }
void mxgo_f32_unary(int op, float *dst, const float *src, long n) {
	(void)op, (void)dst, (void)src, (void)n;
}

#endif
