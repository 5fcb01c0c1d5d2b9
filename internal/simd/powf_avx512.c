#include "powf_avx512.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <math.h>
#include "cpu.h"

// powf as exp2(y * log2(x)) in double, 8 lanes per ZMM register, with its two tables
// of 16 entries looked up by vpermt2pd (a register shuffle) instead of a gather:
// libmvec's powf gathers from larger tables, and this CPU family's gathers cost more
// than the whole computation here. The result carries about 1e-12 relative error before
// its one rounding to float32, so it is the correctly rounded powf except within that
// distance of a halfway case (TestMvecPowULPBound holds it to 1 ulp). Lanes whose x is
// not a positive normal number or whose y is infinite or NaN take libm's powf: C99's
// special cases exactly.

#define AVX512 __attribute__((target("avx512f")))

// log2(x) = k + log2(z) for x = 2^k z with z's float bits in [LOG_OFF, LOG_OFF + 2^23)
// (z in [0.699, 1.398)); z's bucket i (16 of 2^19 bit patterns each) has invc, 1 over
// the bucket's midpoint (1 for the bucket that holds 1, so that log2(1) is exactly 0),
// and logc = -log2(invc) rounded to double, so log2(z) = logc + log2(1 + r) with
// r = z invc - 1, |r| < 0.0297.
#define LOG_OFF 0x3f330000
static const double log_invc[16] = {
	0x1.661ec6a5122f9p+0, 0x1.571ed3c506b3ap+0, 0x1.49539e3b2d067p+0, 0x1.3c995a47babe7p+0,
	0x1.30d190130d190p+0, 0x1.25e22708092f1p+0, 0x1.1bb4a4046ed29p+0, 0x1.12358e75d3033p+0,
	0x1.0953f39010954p+0, 0x1.0000000000000p+0, 0x1.e573ac901e574p-1, 0x1.ca4b3055ee191p-1,
	0x1.b2036406c80d9p-1, 0x1.9c2d14ee4a102p-1, 0x1.886e5f0abb04ap-1, 0x1.767dce434a9b1p-1,
};
static const double log_c[16] = {
	-0x1.efec61b011f85p-2, -0x1.b0b67f4f46812p-2, -0x1.7418acebbf18fp-2, -0x1.39de8e1559f6ep-2,
	-0x1.01d9bbcfa61d4p-2, -0x1.97c1cb13c7ec0p-3, -0x1.2f9e32d5bfdd1p-3, -0x1.960caf9abb7c1p-4,
	-0x1.a6f9c377dd31dp-5, 0x0p+0, 0x1.3aa2fdd27f1bfp-4, 0x1.476a9f983f74dp-3,
	0x1.e840be74e6a4dp-3, 0x1.406463b1b0448p-2, 0x1.88e9c72e0b224p-2, 0x1.ce0a4923a587dp-2,
};
// log2(1 + r) = r (c1 + r (c2 + ... + r c6)), cn = (-1)^(n+1) / (n ln 2): truncation
// error below 4e-12 for |r| < 0.0297.
static const double log_series[6] = {
	0x1.71547652b82fep+0, -0x1.71547652b82fep-1, 0x1.ec709dc3a03fep-2,
	-0x1.71547652b82fep-2, 0x1.2776c50ef9bfep-2, -0x1.ec709dc3a03fep-3,
};

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
	__m512d invc_lo, invc_hi, logc_lo, logc_hi;
	__m512i exp_lo, exp_hi;
} tables;

// series is r (c[0] + r (c[1] + ... + r c[n-1])).
AVX512 static inline __m512d series(__m512d r, const double *c, int n) {
	__m512d p = _mm512_set1_pd(c[n - 1]);
	for (int j = n - 2; j >= 0; j--) p = _mm512_fmadd_pd(r, p, _mm512_set1_pd(c[j]));
	return _mm512_mul_pd(r, p);
}

// pow8 is the powf of 8 lanes: z and k from x's bits as below, i z's bucket.
AVX512 static inline __m256 pow8(const tables *tb, __m256 z, __m256i k, __m256i i, __m256 y) {
	__m512i idx = _mm512_cvtepi32_epi64(i);
	__m512d invc = _mm512_permutex2var_pd(tb->invc_lo, idx, tb->invc_hi);
	__m512d logc = _mm512_permutex2var_pd(tb->logc_lo, idx, tb->logc_hi);
	__m512d r = _mm512_fmsub_pd(_mm512_cvtps_pd(z), invc, _mm512_set1_pd(1.0));
	__m512d l = _mm512_add_pd(_mm512_add_pd(_mm512_cvtepi32_pd(k), logc), series(r, log_series, 6));
	__m512d t = _mm512_mul_pd(_mm512_cvtps_pd(y), l);
	t = _mm512_min_pd(_mm512_max_pd(t, _mm512_set1_pd(-T_MAX)), _mm512_set1_pd(T_MAX));

	__m512d kd = _mm512_add_pd(t, _mm512_set1_pd(EXP_SHIFT));
	__m512i ki = _mm512_castpd_si512(kd);
	__m512d rt = _mm512_sub_pd(t, _mm512_sub_pd(kd, _mm512_set1_pd(EXP_SHIFT)));
	__m512i s = _mm512_permutex2var_epi64(tb->exp_lo, ki, tb->exp_hi);
	s = _mm512_add_epi64(s, _mm512_slli_epi64(ki, 48));
	__m512d p = _mm512_add_pd(_mm512_set1_pd(1.0), series(rt, exp_series, 4));
	return _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_castsi512_pd(s), p));
}

AVX512 static inline __m512 join(__m256 lo, __m256 hi) {
	__m512d v = _mm512_castpd256_pd512(_mm256_castps_pd(lo));
	return _mm512_castpd_ps(_mm512_insertf64x4(v, _mm256_castps_pd(hi), 1));
}

AVX512 static inline __m256 upper(__m512 v) {
	return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

AVX512 static inline __m256i upper_i(__m512i v) { return _mm512_extracti64x4_epi64(v, 1); }

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
AVX512 static inline __attribute__((always_inline)) void pow16(const tables *tb, float *dst, const float *a,
							      const float *b, __mmask16 m) {
	__m512 x = _mm512_maskz_loadu_ps(m, a), y = _mm512_maskz_loadu_ps(m, b);
	__m512i ix = _mm512_castps_si512(x), iy = _mm512_castps_si512(y);
	// x - the smallest normal is unsigned below the largest normal's excess: x is a positive
	// normal number. y's magnitude below infinity's bits: finite.
	__mmask16 bad = _mm512_mask_cmpge_epu32_mask(m, _mm512_sub_epi32(ix, _mm512_set1_epi32(0x00800000)),
						     _mm512_set1_epi32(0x7f000000));
	bad |= _mm512_mask_cmpge_epu32_mask(m, _mm512_and_si512(iy, _mm512_set1_epi32(0x7fffffff)),
					    _mm512_set1_epi32(0x7f800000));
	__m512i tmp = _mm512_sub_epi32(ix, _mm512_set1_epi32(LOG_OFF));
	__m512i i = _mm512_srli_epi32(tmp, 19); // vpermt2pd reads the low 4 bits: the bucket
	__m512i k = _mm512_srai_epi32(tmp, 23);
	__m512 z = _mm512_castsi512_ps(_mm512_sub_epi32(ix, _mm512_and_si512(tmp, _mm512_set1_epi32((int)0xff800000))));
	__m256 lo = pow8(tb, _mm512_castps512_ps256(z), _mm512_castsi512_si256(k), _mm512_castsi512_si256(i),
			 _mm512_castps512_ps256(y));
	__m256 hi = pow8(tb, upper(z), upper_i(k), upper_i(i), upper(y));
	_mm512_mask_storeu_ps(dst, m, join(lo, hi));
	if (bad) redo(dst, x, y, bad);
}

AVX512 void mxgo_powf16(float *dst, const float *a, const float *b, long n) {
	tables tb = {
		_mm512_loadu_pd(log_invc), _mm512_loadu_pd(log_invc + 8), _mm512_loadu_pd(log_c), _mm512_loadu_pd(log_c + 8),
		_mm512_loadu_si512(exp_t), _mm512_loadu_si512(exp_t + 8),
	};
	long i = 0;
	for (; i + 16 <= n; i += 16) pow16(&tb, dst + i, a + i, b + i, 0xffff);
	if (i < n) pow16(&tb, dst + i, a + i, b + i, (__mmask16)((1u << (n - i)) - 1));
}

int mxgo_powf16_supported(void) { return mxgo_cpu_avx512(); }

#else

int mxgo_powf16_supported(void) { return 0; }
void mxgo_powf16(float *dst, const float *a, const float *b, long n) { (void)dst, (void)a, (void)b, (void)n; }

#endif
