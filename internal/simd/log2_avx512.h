// log2 in AVX-512 double lanes with its tables held in registers (vpermt2pd looks them
// up: no gathers, which AMD's Zen issues slowly), for the kernels that need a logarithm
// to about 1e-12 (powf_avx512.c, special32_avx512.c). Include it only in code for
// x86-64; its functions are AVX-512F.
#ifndef MXGO_LOG2_AVX512_H
#define MXGO_LOG2_AVX512_H

#include "lanes_avx512.h"

// log2(x) = k + log2(z) for x = 2^k z with z in [0.69921875, 1.3984375): its float bits
// in [MXGO_LOG2_OFF, MXGO_LOG2_OFF + 2^23), its double bits likewise from
// MXGO_LOG2_OFF64. z's bucket i (16 of 2^19 float bit patterns each) has invc, 1 over the
// bucket's midpoint (1 for the bucket that holds 1, so that log2(1) is exactly 0), and
// c = -log2(invc) rounded to double, so log2(z) = c + log2(1 + r) with r = z invc - 1,
// |r| < 0.0297.
#define MXGO_LOG2_OFF 0x3f330000
#define MXGO_LOG2_OFF64 0x3fe6600000000000LL
static const double mxgo_log2_invc[16] = {
	0x1.661ec6a5122f9p+0, 0x1.571ed3c506b3ap+0, 0x1.49539e3b2d067p+0, 0x1.3c995a47babe7p+0,
	0x1.30d190130d190p+0, 0x1.25e22708092f1p+0, 0x1.1bb4a4046ed29p+0, 0x1.12358e75d3033p+0,
	0x1.0953f39010954p+0, 0x1.0000000000000p+0, 0x1.e573ac901e574p-1, 0x1.ca4b3055ee191p-1,
	0x1.b2036406c80d9p-1, 0x1.9c2d14ee4a102p-1, 0x1.886e5f0abb04ap-1, 0x1.767dce434a9b1p-1,
};
static const double mxgo_log2_c[16] = {
	-0x1.efec61b011f85p-2, -0x1.b0b67f4f46812p-2, -0x1.7418acebbf18fp-2, -0x1.39de8e1559f6ep-2,
	-0x1.01d9bbcfa61d4p-2, -0x1.97c1cb13c7ec0p-3, -0x1.2f9e32d5bfdd1p-3, -0x1.960caf9abb7c1p-4,
	-0x1.a6f9c377dd31dp-5, 0x0p+0, 0x1.3aa2fdd27f1bfp-4, 0x1.476a9f983f74dp-3,
	0x1.e840be74e6a4dp-3, 0x1.406463b1b0448p-2, 0x1.88e9c72e0b224p-2, 0x1.ce0a4923a587dp-2,
};
// log2(1 + r) = r (c1 + r (c2 + ... + r c6)), cn = (-1)^(n+1) / (n ln 2): truncation
// error below 4e-12 for |r| < 0.0297.
static const double mxgo_log2_series[6] = {
	0x1.71547652b82fep+0, -0x1.71547652b82fep-1, 0x1.ec709dc3a03fep-2,
	-0x1.71547652b82fep-2, 0x1.2776c50ef9bfep-2, -0x1.ec709dc3a03fep-3,
};

// The same in natural logarithms, for mxgo_ln_pd: -ln(invc) rounded to double, and
// ln(1 + r) = r (c1 + ... + r c11), cn = (-1)^(n+1) / n, truncation error below 4e-20.
static const double mxgo_ln_c[16] = {
	-0x1.57bf753c8d1fbp-2, -0x1.2bef07cdc9355p-2, -0x1.01eae5626c691p-2, -0x1.b31d8575bce3bp-3,
	-0x1.6574ebe8c1339p-3, -0x1.1aa2b7e23f729p-3, -0x1.a4e7640b1bc38p-4, -0x1.1973bd1465561p-4,
	-0x1.252f32f8d1840p-5, 0x0p+0, 0x1.b42dd711971b9p-5, 0x1.c5e548f5bc743p-4,
	0x1.526e5e3a1b438p-3, 0x1.bc286742d8cd4p-3, 0x1.1058bf9ae4ad4p-2, 0x1.404308686a7e4p-2,
};
static const double mxgo_ln_series[11] = {
	0x1.0000000000000p+0, -0x1.0000000000000p-1, 0x1.5555555555555p-2, -0x1.0000000000000p-2,
	0x1.999999999999ap-3, -0x1.5555555555555p-3, 0x1.2492492492492p-3, -0x1.0000000000000p-3,
	0x1.c71c71c71c71cp-4, -0x1.999999999999ap-4, 0x1.745d1745d1746p-4,
};

// The tables in registers: load them once per row (or let the compiler hoist them).
typedef struct {
	__m512d invc_lo, invc_hi, c_lo, c_hi;
} mxgo_log2_tab;

MXGO_AVX512 MXGO_INLINE mxgo_log2_tab mxgo_log2_tab_load(void) {
	mxgo_log2_tab t = {_mm512_loadu_pd(mxgo_log2_invc), _mm512_loadu_pd(mxgo_log2_invc + 8),
			   _mm512_loadu_pd(mxgo_log2_c), _mm512_loadu_pd(mxgo_log2_c + 8)};
	return t;
}

// mxgo_log2_split is log2(x) from its parts: z, k, and z's bucket in the low 4 bits of
// each 64-bit lane of i (vpermt2pd reads no others).
MXGO_AVX512 MXGO_INLINE __m512d mxgo_log2_split(const mxgo_log2_tab *t, __m512d z, __m512d k, __m512i i) {
	__m512d invc = _mm512_permutex2var_pd(t->invc_lo, i, t->invc_hi);
	__m512d c = _mm512_permutex2var_pd(t->c_lo, i, t->c_hi);
	__m512d r = _mm512_fmsub_pd(z, invc, _mm512_set1_pd(1.0));
	return _mm512_add_pd(_mm512_add_pd(k, c), mxgo_series(r, mxgo_log2_series, 6));
}

// mxgo_log_split returns z for positive normal doubles x = 2^k z, and sets *k and z's
// bucket (in the low 4 bits of each 64-bit lane of *i).
MXGO_AVX512 MXGO_INLINE __m512d mxgo_log_split(__m512d x, __m512d *k, __m512i *i) {
	__m512i ix = _mm512_castpd_si512(x), tmp = _mm512_sub_epi64(ix, _mm512_set1_epi64(MXGO_LOG2_OFF64));
	__m512i top = _mm512_and_si512(tmp, _mm512_set1_epi64((long long)0xfff0000000000000ULL));
	// k as a double without AVX-512DQ's conversion: k added to the bits of 1.5 2^52 is that
	// number plus k (|k| < 2^51)
	const __m512d magic = _mm512_set1_pd(0x1.8p52);
	__m512i kb = _mm512_add_epi64(_mm512_srai_epi64(tmp, 52), _mm512_castpd_si512(magic));
	*k = _mm512_sub_pd(_mm512_castsi512_pd(kb), magic);
	*i = _mm512_srli_epi64(tmp, 48);
	return _mm512_castsi512_pd(_mm512_sub_epi64(ix, top));
}

// mxgo_log2_pd is log2(x) for positive normal doubles x (about 1e-12 relative).
MXGO_AVX512 MXGO_INLINE __m512d mxgo_log2_pd(const mxgo_log2_tab *t, __m512d x) {
	__m512d k;
	__m512i i;
	__m512d z = mxgo_log_split(x, &k, &i);
	return mxgo_log2_split(t, z, k, i);
}

// mxgo_ln_pd is ln(x) for positive normal doubles x to double's precision (within a few
// ulp): k ln 2 + ln(1/invc) + ln(1 + r), each term's error below 1e-16 of the result's
// magnitude.
MXGO_AVX512 MXGO_INLINE __m512d mxgo_ln_pd(const mxgo_log2_tab *t, __m512d x) {
	__m512d k;
	__m512i i;
	__m512d z = mxgo_log_split(x, &k, &i);
	__m512d invc = _mm512_permutex2var_pd(t->invc_lo, i, t->invc_hi);
	__m512d c = _mm512_permutex2var_pd(_mm512_loadu_pd(mxgo_ln_c), i, _mm512_loadu_pd(mxgo_ln_c + 8));
	__m512d r = _mm512_fmsub_pd(z, invc, _mm512_set1_pd(1.0));
	__m512d p = _mm512_add_pd(c, mxgo_series(r, mxgo_ln_series, 11));
	return _mm512_fmadd_pd(k, _mm512_set1_pd(0x1.62e42fefa39efp-1), p);
}

#endif
