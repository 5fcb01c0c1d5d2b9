#include "powf_avx512.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <math.h>
#include "cpu.h"
#include "log2_avx512.h"

// powf as exp2(y * log2(x)) in double, 8 lanes per ZMM register, with its tables
// of 16 entries (log2_avx512.h's and exp_t) looked up by vpermt2pd instead of a gather:
// libmvec's powf gathers from larger tables, and this CPU family's gathers cost more
// than the whole computation here. The result carries about 1e-12 relative error before
// its one rounding to float32, so it is the correctly rounded powf except within that
// distance of a halfway case (TestMvecPowULPBound holds it to 1 ulp). Lanes whose x is
// not a positive normal number or whose y is infinite or NaN take libm's powf: C99's
// special cases exactly.

#define AVX512 MXGO_AVX512

// 2^t = 2^(k + j/16) 2^r with |r| <= 1/32: exp_t[j] is the bits of 2^(j/16) less j << 48,
// so that adding round(16 t) << 48 to it adds k to the exponent. EXP_SHIFT (1.5 2^48)
// added to t leaves round(16 t) in the low bits of the sum.
static const unsigned long long exp_t[16] = {
	0x3ff0000000000000ull, 0x3fefb5586cf9890full, 0x3fef72b83c7d517bull, 0x3fef387a6e756238ull,
	0x3fef06fe0a31b715ull, 0x3feedea64c123422ull, 0x3feebfdad5362a27ull, 0x3feeab07dd485429ull,
	0x3feea09e667f3bcdull, 0x3feea11473eb0187ull, 0x3feeace5422aa0dbull, 0x3feec49182a3f090ull,
	0x3feee89f995ad3adull, 0x3fef199bdd85529cull, 0x3fef5818dcfba487ull, 0x3fefa4afa2a490daull,
};
#define EXP_SHIFT 0x1.8p48
// 2^r = 1 + r (c1 + r (c2 + r (c3 + r c4))), fitted to (2^r - 1) / r over |r| <= 1/32
// (Lawson's near-minimax): relative error below 2.4e-10, 1/250 of a float32 ulp.
static const double exp_series[4] = {
	0x1.62e42fee4615bp-1, 0x1.ebfbdff5a671cp-3, 0x1.c6b34882226cdp-5, 0x1.3b2c9b7be646fp-7,
};

// |t| is clamped to 300: past 128 powf overflows and below -150 it is 0 either way,
// and round(16 t) must fit in the 16 bits that the exponent shift keeps.
#define T_MAX 300.0

typedef struct {
	mxgo_log2_tab log;
	__m512i exp_lo, exp_hi;
} tables;

// pow8 is the powf of 8 lanes: z and k from x's bits as below, i z's bucket.
AVX512 static inline __m256 pow8(const tables *tb, __m256 z, __m256i k, __m256i i, __m256 y) {
	__m512d l = mxgo_log2_split(&tb->log, _mm512_cvtps_pd(z), _mm512_cvtepi32_pd(k), _mm512_cvtepi32_epi64(i));
	__m512d t = _mm512_mul_pd(_mm512_cvtps_pd(y), l);
	t = _mm512_min_pd(_mm512_max_pd(t, _mm512_set1_pd(-T_MAX)), _mm512_set1_pd(T_MAX));

	__m512d kd = _mm512_add_pd(t, _mm512_set1_pd(EXP_SHIFT));
	__m512i ki = _mm512_castpd_si512(kd);
	__m512d rt = _mm512_sub_pd(t, _mm512_sub_pd(kd, _mm512_set1_pd(EXP_SHIFT)));
	__m512i s = _mm512_permutex2var_epi64(tb->exp_lo, ki, tb->exp_hi);
	s = _mm512_add_epi64(s, _mm512_slli_epi64(ki, 48));
	__m512d p = _mm512_add_pd(_mm512_set1_pd(1.0), mxgo_series(rt, exp_series, 4));
	return _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_castsi512_pd(s), p));
}

// redo sets the lanes of dst in bad to libm's powf of x and y (the operands as loaded:
// dst may be a or b).
AVX512 __attribute__((noinline)) static void redo(float *dst, __m512 x, __m512 y, __mmask16 bad) {
	float xa[16], ya[16];
	_mm512_storeu_ps(xa, x);
	_mm512_storeu_ps(ya, y);
	for (int l = 0; l < 16; l++) {
		if (bad >> l & 1) dst[l] = powf(xa[l], ya[l]);
	}
}

// pow16 stores powf of the lanes of m (16 or fewer, from a and b) at dst.
AVX512 MXGO_INLINE void pow16(const tables *tb, float *dst, const float *a,
							      const float *b, __mmask16 m) {
	__m512 x = _mm512_maskz_loadu_ps(m, a), y = _mm512_maskz_loadu_ps(m, b);
	__m512i ix = _mm512_castps_si512(x), iy = _mm512_castps_si512(y);
	// x - the smallest normal is unsigned below the largest normal's excess: x is a positive
	// normal number. y's magnitude below infinity's bits: finite.
	__mmask16 bad = _mm512_mask_cmpge_epu32_mask(m, _mm512_sub_epi32(ix, _mm512_set1_epi32(0x00800000)),
						     _mm512_set1_epi32(0x7f000000));
	bad |= _mm512_mask_cmpge_epu32_mask(m, _mm512_and_si512(iy, _mm512_set1_epi32(0x7fffffff)),
					    _mm512_set1_epi32(0x7f800000));
	__m512i tmp = _mm512_sub_epi32(ix, _mm512_set1_epi32(MXGO_LOG2_OFF));
	__m512i i = _mm512_srli_epi32(tmp, 19); // vpermt2pd reads the low 4 bits: the bucket
	__m512i k = _mm512_srai_epi32(tmp, 23);
	__m512 z = _mm512_castsi512_ps(_mm512_sub_epi32(ix, _mm512_and_si512(tmp, _mm512_set1_epi32((int)0xff800000))));
	__m256 lo = pow8(tb, _mm512_castps512_ps256(z), _mm512_castsi512_si256(k), _mm512_castsi512_si256(i),
			 _mm512_castps512_ps256(y));
	__m256 hi = pow8(tb, mxgo_upper(z), mxgo_upper_i(k), mxgo_upper_i(i), mxgo_upper(y));
	_mm512_mask_storeu_ps(dst, m, mxgo_join(lo, hi));
	if (bad) redo(dst, x, y, bad);
}

AVX512 void mxgo_powf16(float *dst, const float *a, const float *b, long n) {
	tables tb = {mxgo_log2_tab_load(), _mm512_loadu_si512(exp_t), _mm512_loadu_si512(exp_t + 8)};
	for (long i = 0; i < n; i += 16) pow16(&tb, dst + i, a + i, b + i, mxgo_row_mask(i, n));
}

int mxgo_powf16_supported(void) { return mxgo_cpu_avx512(); }

#else

int mxgo_powf16_supported(void) { return 0; }
void mxgo_powf16(float *dst, const float *a, const float *b, long n) { (void)dst, (void)a, (void)b, (void)n; }

#endif
