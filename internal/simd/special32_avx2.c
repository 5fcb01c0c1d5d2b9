#include "special32_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>
#include "cpu.h"

#define KERNEL __attribute__((target("avx2,fma")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_special32_supported(void) {
	return mxgo_cpu_avx2(1);
}

// Every function works in double on 4 lanes: a float32 result needs ~1e-8 relative
// accuracy, and double leaves room for the cancellations of lgamma near its roots 1 and
// 2 (~1e-15 absolute error against values down to 3e-8) without the special cases a
// float32 algorithm needs there. Special inputs are replaced by 1 before the arithmetic
// and their results blended in at the end, so that no loop or logarithm sees them.

typedef __m256d D;
#define SET1 _mm256_set1_pd
#define ADD _mm256_add_pd
#define SUB _mm256_sub_pd
#define MUL _mm256_mul_pd
#define DIV _mm256_div_pd
#define FMA _mm256_fmadd_pd
#define BLEND _mm256_blendv_pd // (a, b, m): b where m
#define CMP _mm256_cmp_pd
#define ANY(m) (_mm256_movemask_pd(m) != 0)

static const double LN2 = 0x1.62e42fefa39efp-1;
static const double PI = 0x1.921fb54442d18p+1, LOG_PI = 0x1.250d048e7a1bdp+0, HALF_LOG_2PI = 0x1.d67f1c864beb5p-1;

// poly evaluates c[0] t**d + ... + c[d], d = n - 1 >= 1, as even(t*t) + t odd(t*t):
// two Horner chains of half the length, which run in parallel (the kernels wait on
// these chains more than on the FMA units).
KERNEL INLINE D poly(const double *c, int n, D t) {
	int d = n - 1;
	D t2 = MUL(t, t), even = SET1(c[d % 2]), odd = SET1(c[(d + 1) % 2]);
	for (int i = d % 2 + 2; i <= d; i += 2) even = FMA(even, t2, SET1(c[i]));
	for (int i = (d + 1) % 2 + 2; i < d; i += 2) odd = FMA(odd, t2, SET1(c[i]));
	return FMA(odd, t, even);
}

KERNEL INLINE D vabs(D x) {
	return _mm256_andnot_pd(SET1(-0.0), x);
}

// vlog is log(x) for normal x > 0: x = m * 2**e with m in [sqrt(1/2), sqrt(2)), and
// log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172, by its series to s**21 (the next
// term is below 1e-17). Adding BIAS moves the exponent boundary from m = 1 to
// m = sqrt(1/2), so that the integer exponent and mantissa split there.
static const double ATANH[] = {2.0 / 21, 2.0 / 19, 2.0 / 17, 2.0 / 15, 2.0 / 13, 2.0 / 11, 2.0 / 9, 2.0 / 7, 2.0 / 5, 2.0 / 3};

KERNEL INLINE D vlog(D x) {
	const long long sqrt_half = 0x3fe6a09e667f3bcdLL, one = 0x3ff0000000000000LL;
	__m256i u = _mm256_add_epi64(_mm256_castpd_si256(x), _mm256_set1_epi64x(one - sqrt_half));
	__m256i eb = _mm256_srli_epi64(u, 52); // the biased exponent of x (of 2x below sqrt(1/2))
	__m256i mb = _mm256_add_epi64(_mm256_and_si256(u, _mm256_set1_epi64x((1LL << 52) - 1)), _mm256_set1_epi64x(sqrt_half));
	// eb as a double: its bits in the mantissa of 2**52, less 2**52 and the bias
	D e = SUB(_mm256_castsi256_pd(_mm256_or_si256(eb, _mm256_set1_epi64x(0x4330000000000000LL))), SET1(0x1p52 + 1023));
	D f = SUB(_mm256_castsi256_pd(mb), SET1(1));
	D s = DIV(f, ADD(SET1(2), f)), z = MUL(s, s);
	D r = FMA(MUL(s, z), poly(ATANH, 10, z), MUL(SET1(2), s));
	return FMA(e, SET1(LN2), r);
}

// vexp is e**x for |x| <= 700: x = k ln2 + r, |r| <= ln2/2, e**r by its Taylor series
// to r**10 (relative error below 3e-13: gamma's float result needs 1e-8, and has no
// cancellation to amplify it).
static const double EXPT[] = {1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24,
			      1.0 / 6, 0.5, 1, 1};

KERNEL INLINE D vexp(D x) {
	static const double LN2_HI = 0x1.62e42p-1, LN2_LO = 0x1.fdf473de6af28p-22; // LN2_HI*k is exact
	D k = _mm256_round_pd(MUL(x, SET1(1 / LN2)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
	D r = FMA(k, SET1(-LN2_LO), FMA(k, SET1(-LN2_HI), x));
	// 2**k: k + 1023 in the exponent field, read off k + 2**52 + 1023's low bits
	__m256i kb = _mm256_castpd_si256(ADD(k, SET1(0x1p52 + 1023)));
	D p2 = _mm256_castsi256_pd(_mm256_slli_epi64(kb, 52));
	return MUL(poly(EXPT, 11, r), p2);
}

// ---- erfinv

// erfinv(x) = x p(w), w = -log((1-x)(1+x)) (the product is exact in double for a
// float32 x), p a polynomial in w - 2.5 for w < 5 and in sqrt(w) - 3 beyond (up to 4 at
// the float32 nearest 1): this is Giles' form ("Approximating the erfinv function",
// 2010), with coefficients fitted afresh in double to erfinv(x)/x (relative error below
// 4e-11 and 8e-11).
static const double ERFINV_MID[] = {
	-2.0530255018981605e-11, 1.2294079736806159e-10, 8.2005701054783932e-10,
	-1.0852875930691261e-08, 1.3780551452290291e-08, 4.7863526148919686e-07,
	-3.4174044806704366e-06, -4.9958551034577927e-06, 0.00021825107430975974,
	-0.0012527081133215355, -0.0041773180386289258, 0.24664027679468037,
	1.5014093511307289};
static const double ERFINV_TAIL[] = {
	1.1984477335000447e-05, -2.8208422282229382e-05, -3.2666436507506751e-05,
	0.00020692390249175686, -0.00029160711542907097, -0.00014861069289096593,
	0.0014863105514011158, -0.0035589777429295049, 0.0056848148902834275,
	-0.0076437821592875215, 0.0094455417725544128, 1.0016752760121861,
	2.8329767985526328};

KERNEL INLINE D erfinv4(D x) {
	D a = vabs(x), one = SET1(1);
	D inside = CMP(a, one, _CMP_LT_OQ); // NaN and |x| >= 1 are outside
	D as = BLEND(SET1(0.5), a, inside);
	D w = SUB(_mm256_setzero_pd(), vlog(MUL(SUB(one, as), ADD(one, as))));
	D p = poly(ERFINV_MID, 13, SUB(w, SET1(2.5)));
	D tail = CMP(w, SET1(5), _CMP_GE_OQ);
	if (ANY(tail)) p = BLEND(p, poly(ERFINV_TAIL, 13, SUB(_mm256_sqrt_pd(w), SET1(3))), tail);
	D y = MUL(p, x);
	// ±1: ±inf; beyond: NaN (x's own where x is NaN)
	D edge = _mm256_or_pd(_mm256_and_pd(x, SET1(-0.0)), SET1(__builtin_inf()));
	D out = BLEND(SET1(__builtin_nan("")), edge, CMP(a, one, _CMP_EQ_OQ));
	out = BLEND(out, x, CMP(x, x, _CMP_UNORD_Q));
	return BLEND(out, y, inside);
}

// ---- lgamma and tgamma

// STIRLING are the terms B(2k) / (2k (2k-1)) of the asymptotic series of lgamma in
// 1/z**2, k = 7 ... 1: at z >= 8 the first left out is below 1e-15.
static const double STIRLING[] = {1.0 / 156, -691.0 / 360360, 1.0 / 1188, -1.0 / 1680, 1.0 / 1260, -1.0 / 360,
				  1.0 / 12};

// shift8 moves x > 0 up to z = x + n >= 8 (n = 0 from 8 on) and returns z with
// x (x+1) ... (x+n-1), gamma(z) over gamma(x): its factors are the x + k below 8 of
// k < 8, each 1 otherwise, multiplied as a tree (no loop or branch: the lanes need
// different n).
typedef struct {
	D z, prod;
} shifted;

KERNEL INLINE shifted shift8(D x) {
	D eight = SET1(8), f[8];
	for (int k = 0; k < 8; k++) {
		D xk = ADD(x, SET1(k));
		f[k] = BLEND(SET1(1), xk, CMP(xk, eight, _CMP_LT_OQ));
	}
	D n = _mm256_max_pd(_mm256_round_pd(SUB(eight, x), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC), _mm256_setzero_pd());
	shifted s = {ADD(x, n), MUL(MUL(MUL(f[0], f[1]), MUL(f[2], f[3])), MUL(MUL(f[4], f[5]), MUL(f[6], f[7])))};
	return s;
}

// stirling is lgamma(z) for z >= 8 by Stirling's series.
KERNEL INLINE D stirling(D z) {
	D r = DIV(SET1(1), z);
	D series = MUL(r, poly(STIRLING, 7, MUL(r, r)));
	return ADD(FMA(SUB(z, SET1(0.5)), vlog(z), SUB(SET1(HALF_LOG_2PI), z)), series);
}

// SINPI are the Taylor coefficients of sin(pi r), r**21 ... r**1 (the next term is below
// 1e-16 at |r| = 1/2).
static const double SINPI[] = {
	5.392664662608129e-10, -2.2948428997269873e-08, 7.9520540014755126e-07, -2.1915353447830217e-05,
	0.00046630280576761255, -0.0073704309457143504, 0.082145886611128233, -0.59926452932079211,
	2.5501640398773455, -5.1677127800499703, 3.1415926535897931};

// sinpi is sin(pi x) for finite x of magnitude below 2**52: x = n + r, |r| <= 1/2,
// (-1)**n sin(pi r).
KERNEL INLINE D sinpi(D x) {
	D n = _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
	D r = SUB(x, n);
	D s = MUL(r, poly(SINPI, 11, MUL(r, r)));
	// odd n: the sign flips (n + 2**52's lowest bit is n's parity)
	__m256i odd = _mm256_slli_epi64(_mm256_castpd_si256(ADD(vabs(n), SET1(0x1p52))), 63);
	return _mm256_xor_pd(s, _mm256_castsi256_pd(odd));
}

// reflect prepares finite x other than the poles: y = x above 0 and, by the reflection
// gamma(x) gamma(1-x) = pi / sin(pi x), y = 1 - x below, shifted (y.z, y.prod), with
// s = sin(pi x) where x < 0 (1 elsewhere).
typedef struct {
	shifted y;
	D neg, s;
} reflected;

KERNEL INLINE reflected reflect(D x) {
	D neg = CMP(x, _mm256_setzero_pd(), _CMP_LT_OQ);
	reflected r = {shift8(BLEND(x, SUB(SET1(1), x), neg)), neg, SET1(1)};
	if (ANY(neg)) r.s = BLEND(r.s, sinpi(x), neg);
	return r;
}

// pole: x is 0 or a negative integer (not NaN, not -inf).
KERNEL INLINE D pole(D x) {
	D fl = _mm256_round_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
	return _mm256_and_pd(CMP(fl, x, _CMP_EQ_OQ), CMP(x, SET1(0), _CMP_LE_OQ));
}

KERNEL INLINE D inf_mask(D x) {
	return CMP(vabs(x), SET1(__builtin_inf()), _CMP_EQ_OQ);
}

// lgamma4: +inf at the poles and ±inf, x at NaN; 0 at 1 and 2, exactly, as Go has it.
KERNEL INLINE D lgamma4(D x) {
	D inf = SET1(__builtin_inf()), poles = _mm256_or_pd(pole(x), inf_mask(x));
	D special = _mm256_or_pd(poles, CMP(x, x, _CMP_UNORD_Q));
	// lgamma(y) = stirling(z) - log(prod); below 0 log(pi / |s|) - lgamma(y)
	reflected r = reflect(BLEND(x, SET1(3), special));
	D st = stirling(r.y.z), l = vlog(ANY(r.neg) ? DIV(r.y.prod, vabs(r.s)) : r.y.prod);
	D y = BLEND(SUB(st, l), ADD(SUB(SET1(LOG_PI), st), l), r.neg);
	D root = _mm256_or_pd(CMP(x, SET1(1), _CMP_EQ_OQ), CMP(x, SET1(2), _CMP_EQ_OQ));
	y = _mm256_andnot_pd(root, y);
	return BLEND(BLEND(y, x, special), inf, poles);
}

// gamma4: ±inf at ±0, NaN at the negative integers and -inf, +inf at +inf, x at NaN.
// Beyond |x| ~ 40 the float result is 0 or inf, so e**stirling is clamped to e**700
// (within double's range).
KERNEL INLINE D gamma4(D x) {
	D zero = _mm256_setzero_pd(), inf = SET1(__builtin_inf());
	D nan_out = _mm256_or_pd(_mm256_andnot_pd(CMP(x, zero, _CMP_EQ_OQ), pole(x)), CMP(x, SET1(-__builtin_inf()), _CMP_EQ_OQ));
	D special = _mm256_or_pd(_mm256_or_pd(pole(x), inf_mask(x)), CMP(x, x, _CMP_UNORD_Q));
	// gamma(y) = e**stirling(z) / prod; below 0 pi / (s gamma(y))
	reflected r = reflect(BLEND(x, SET1(3), special));
	D e = vexp(_mm256_min_pd(stirling(r.y.z), SET1(700)));
	D num = BLEND(e, MUL(SET1(PI), r.y.prod), r.neg), den = BLEND(r.y.prod, MUL(r.s, e), r.neg);
	D y = DIV(num, den);
	D sx = _mm256_or_pd(_mm256_and_pd(x, SET1(-0.0)), inf); // ±0 -> ±inf, +inf -> +inf
	D out = BLEND(BLEND(sx, SET1(__builtin_nan("")), nan_out), x, CMP(x, x, _CMP_UNORD_Q));
	return BLEND(y, out, special);
}

// rows converts 4 floats at a time to double, applies op, and rounds back; the last
// 1-3 go through a buffer padded with 1s.
#define ROWS(name, OP)                                                                     \
	KERNEL static void name(float *dst, const float *src, long n) {                     \
		long i = 0;                                                                  \
		for (; i + 4 <= n; i += 4)                                                   \
			_mm_storeu_ps(dst + i, _mm256_cvtpd_ps(OP(_mm256_cvtps_pd(_mm_loadu_ps(src + i))))); \
		if (i < n) {                                                                 \
			float buf[4] = {1, 1, 1, 1};                                         \
			memcpy(buf, src + i, (size_t)(n - i) * sizeof(float));              \
			_mm_storeu_ps(buf, _mm256_cvtpd_ps(OP(_mm256_cvtps_pd(_mm_loadu_ps(buf))))); \
			memcpy(dst + i, buf, (size_t)(n - i) * sizeof(float));               \
		}                                                                            \
	}

ROWS(erfinv_rows, erfinv4)
ROWS(lgamma_rows, lgamma4)
ROWS(gamma_rows, gamma4)

void mxgo_special32(int op, float *dst, const float *src, long n) {
	switch (op) {
	case MXGO_SP_ERFINV:
		erfinv_rows(dst, src, n);
		break;
	case MXGO_SP_LGAMMA:
		lgamma_rows(dst, src, n);
		break;
	default:
		gamma_rows(dst, src, n);
	}
}

#else

int mxgo_special32_supported(void) {
	return 0;
}

void mxgo_special32(int op, float *dst, const float *src, long n) {
	(void)op, (void)dst, (void)src, (void)n;
}

#endif
