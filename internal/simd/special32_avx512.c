#include "special32_avx512.h"
#include "special32_avx2.h" // MXGO_SP_*

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

// ---- lgamma and gamma: special32_body.h in 8 lanes, with the natural logarithm by the
// register tables and 1/x by vrcp14pd and two Newton steps: no divisions (lgamma made
// three an element). One core, lgamma 5.1 -> 3.5 ns an element, gamma 7.0 -> 3.8, against
// the AVX2 forms.

typedef __m512d D;
typedef __mmask8 M;
#define KERNEL MXGO_AVX512
#define INLINE MXGO_INLINE
#define SET1 _mm512_set1_pd
#define ADD _mm512_add_pd
#define SUB _mm512_sub_pd
#define MUL _mm512_mul_pd
#define FMA _mm512_fmadd_pd
#define SQRT _mm512_sqrt_pd
#define MAX _mm512_max_pd
#define MIN _mm512_min_pd
#define ZERO _mm512_setzero_pd
#define ROUND _mm512_roundscale_pd
#define CMP _mm512_cmp_pd_mask
#define BLEND(a, b, m) _mm512_mask_blend_pd(m, a, b)
#define ANY(m) ((m) != 0)
#define MOR(a, b) ((M)((a) | (b)))
#define MAND(a, b) ((M)((a) & (b)))
#define ZERO_WHERE(m, x) _mm512_maskz_mov_pd((M)~(m), x)
#define ABS _mm512_abs_pd
#define POW2(k) _mm512_scalef_pd(SET1(1), k)

KERNEL INLINE D BITOR(D a, D b) { return _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(a), _mm512_castpd_si512(b))); }
KERNEL INLINE D FLIP(D a, D b) { return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(a), _mm512_castpd_si512(b))); }

KERNEL INLINE D SIGN_OF(D x) {
	return _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(x), _mm512_set1_epi64((long long)0x8000000000000000ULL)));
}

// PARITY is the sign bit where n is odd (n + 2**52's lowest bit is n's parity).
KERNEL INLINE D PARITY(D n) {
	return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_castpd_si512(ADD(ABS(n), SET1(0x1p52))), 63));
}

KERNEL INLINE D RECIP(D x) {
	D y = _mm512_rcp14_pd(x), one = SET1(1); // within 2^-14; each step squares the error
	y = FMA(y, _mm512_fnmadd_pd(x, y, one), y);
	return FMA(y, _mm512_fnmadd_pd(x, y, one), y);
}

KERNEL INLINE D vlog(D x) {
	mxgo_log2_tab t = mxgo_log2_tab_load();
	return mxgo_ln_pd(&t, x);
}

#include "special32_body.h"

// ROWS16 applies OP to n floats, 16 at a time in two vectors of 8 doubles, the last
// partial group through masked loads and stores.
#define ROWS16(name, OP)                                                                        \
	MXGO_AVX512 static void name(float *dst, const float *src, long n) {                     \
		for (long i = 0; i < n; i += 16) {                                                \
			__mmask16 m = mxgo_row_mask(i, n);                                        \
			__m512 x = _mm512_maskz_loadu_ps(m, src + i);                             \
			__m256 lo = _mm512_cvtpd_ps(OP(_mm512_cvtps_pd(_mm512_castps512_ps256(x)))); \
			__m256 hi = _mm512_cvtpd_ps(OP(_mm512_cvtps_pd(mxgo_upper(x))));          \
			_mm512_mask_storeu_ps(dst + i, m, mxgo_join(lo, hi));                     \
		}                                                                                 \
	}

MXGO_AVX512 MXGO_INLINE __m512d erfinv_fast(__m512d x) {
	mxgo_log2_tab tab = mxgo_log2_tab_load();
	return erfinv8(&tab, x);
}

ROWS16(erfinv_rows, erfinv_fast)
ROWS16(lgamma_rows, lgamma_lanes)
ROWS16(gamma_rows, gamma_lanes)

SPECIAL_ENTRY(mxgo_special16)

#else

int mxgo_special512_supported(void) { return 0; }
void mxgo_special16(int op, float *dst, const float *src, long n) { (void)op, (void)dst, (void)src, (void)n; }

#endif
