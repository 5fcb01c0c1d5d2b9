#include "special32_avx512.h"

#if defined(__x86_64__)

#include "cpu.h"
#include "log2_avx512.h"

int mxgo_special512_supported(void) { return mxgo_cpu_avx512(); }

// erfinv(x) = x p(w), w = -log((1-x)(1+x)), exact product in double for a float32 x, as
// in special32_avx2.c (Giles' form), but the polynomials fitted (Lawson's near-minimax)
// to erfinv(x)/x at degree 9: relative error below 5.6e-9 in w - 2.5 for w < 5 and
// below 6e-9 in sqrt(w) - 3 up to w = 15.95 (the float32 nearest 1), a tenth of a float32
// ulp. Coefficients highest first.
static const double MID[10] = {
	-8.790882876131351e-09, 2.3232929404112465e-08, 4.6616850770814187e-07, -3.4627076728913503e-06,
	-4.963339041724053e-06, 0.00021834444839811539, -0.0012527418915946752, -0.0041773867894779595,
	0.24664028615866873, 1.5014093592836295,
};
static const double TAIL[10] = {
	0.00012815863702788697, -0.0003182965872222273, -7.540161836011637e-05, 0.0014953785482683592,
	-0.003587620806022683, 0.005683330310099318, -0.0076392854305754165, 0.009445669193479053,
	1.0016750801139356, 2.8329767958641714,
};
static const double MINUS_LN2 = -0x1.62e42fefa39efp-1;

MXGO_AVX512 MXGO_INLINE __m512d erfinv8(const mxgo_log2_tab *tab, __m512d x) {
	__m512d one = _mm512_set1_pd(1), a = _mm512_abs_pd(x);
	__mmask8 inside = _mm512_cmp_pd_mask(a, one, _CMP_LT_OQ); // NaN and |x| >= 1 are outside
	__m512d as = _mm512_mask_blend_pd(inside, _mm512_set1_pd(0.5), a);
	__m512d u = _mm512_mul_pd(_mm512_sub_pd(one, as), _mm512_add_pd(one, as));
	__m512d w = _mm512_mul_pd(mxgo_log2_pd(tab, u), _mm512_set1_pd(MINUS_LN2));
	__m512d p = mxgo_horner(MID, 10, _mm512_sub_pd(w, _mm512_set1_pd(2.5)));
	__mmask8 tail = _mm512_cmp_pd_mask(w, _mm512_set1_pd(5), _CMP_GE_OQ);
	if (tail) p = _mm512_mask_blend_pd(tail, p, mxgo_horner(TAIL, 10, _mm512_sub_pd(_mm512_sqrt_pd(w), _mm512_set1_pd(3))));
	// ±1: ±inf; beyond: NaN (x's own where x is NaN)
	__m512i sign = _mm512_and_si512(_mm512_castpd_si512(x), _mm512_set1_epi64((long long)0x8000000000000000ULL));
	__m512d edge = _mm512_castsi512_pd(_mm512_or_si512(sign, _mm512_castpd_si512(_mm512_set1_pd(__builtin_inf()))));
	__m512d out = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, one, _CMP_EQ_OQ), _mm512_set1_pd(__builtin_nan("")), edge);
	out = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q), out, x);
	return _mm512_mask_blend_pd(inside, out, _mm512_mul_pd(p, x));
}

MXGO_AVX512 void mxgo_erfinv16(float *dst, const float *src, long n) {
	mxgo_log2_tab tab = mxgo_log2_tab_load();
	for (long i = 0; i < n; i += 16) {
		__mmask16 m = mxgo_row_mask(i, n);
		__m512 x = _mm512_maskz_loadu_ps(m, src + i);
		__m256 lo = _mm512_cvtpd_ps(erfinv8(&tab, _mm512_cvtps_pd(_mm512_castps512_ps256(x))));
		__m256 hi = _mm512_cvtpd_ps(erfinv8(&tab, _mm512_cvtps_pd(mxgo_upper(x))));
		_mm512_mask_storeu_ps(dst + i, m, mxgo_join(lo, hi));
	}
}

#else

int mxgo_special512_supported(void) { return 0; }
void mxgo_erfinv16(float *dst, const float *src, long n) { (void)dst, (void)src, (void)n; }

#endif
