// The functions of special32_avx2.c and special32_avx512.c, written once over a vector of
// doubles whatever its width: each file defines, before including this one,
//
//	D, M             a vector of doubles, and a mask of its lanes
//	SET1 ADD SUB MUL FMA SQRT MAX MIN ZERO ABS      arithmetic (FMA(a, b, c) = a b + c)
//	ROUND(x, mode)   rounding by _MM_FROUND_* mode
//	CMP(a, b, pred)  a mask; BLEND(a, b, m): b where m, a elsewhere; ANY(m)
//	MOR MAND         masks combined; ZERO_WHERE(m, x): x with the lanes of m zero
//	SIGN_OF(x)       the sign bits of x alone; FLIP(x, odd): x negated where odd's sign bit is set
//	RECIP(x)         1/x to within an ulp or two of double
//	vlog(x)          log(x) for normal x > 0, to within a few ulp of double
//	KERNEL INLINE    the target attribute, and forced inlining
//
// Every function works in double: a float32 result needs ~1e-8 relative accuracy, and
// double leaves room for the cancellations of lgamma near its roots 1 and 2 (~1e-15
// absolute error against values down to 3e-8) without the special cases a float32
// algorithm needs there. Special inputs are replaced by 1 before the arithmetic and their
// results blended in at the end, so that no loop or logarithm sees them.

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

// vexp is e**x for |x| <= 700: x = k ln2 + r, |r| <= ln2/2, e**r by its Taylor series
// to r**10 (relative error below 3e-13: gamma's float result needs 1e-8, and has no
// cancellation to amplify it).
static const double EXPT[] = {1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24,
			      1.0 / 6, 0.5, 1, 1};

KERNEL INLINE D vexp(D x) {
	static const double LN2_HI = 0x1.62e42p-1, LN2_LO = 0x1.fdf473de6af28p-22; // LN2_HI*k is exact
	D k = ROUND(MUL(x, SET1(0x1.71547652b82fep+0)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
	D r = FMA(k, SET1(-LN2_LO), FMA(k, SET1(-LN2_HI), x));
	return MUL(poly(EXPT, 11, r), POW2(k));
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

// erfinv_edges is erfinv outside (-1, 1): ±inf at ±1, NaN beyond, x itself at NaN; y
// (the polynomial's value) inside.
KERNEL INLINE D erfinv_edges(D x, D y) {
	D a = ABS(x), one = SET1(1);
	D out = BLEND(SET1(__builtin_nan("")), BITOR(SIGN_OF(x), SET1(__builtin_inf())), CMP(a, one, _CMP_EQ_OQ));
	out = BLEND(out, x, CMP(x, x, _CMP_UNORD_Q));
	return BLEND(out, y, CMP(a, one, _CMP_LT_OQ));
}

KERNEL INLINE D erfinv_lanes(D x) {
	D a = ABS(x), one = SET1(1);
	D as = BLEND(SET1(0.5), a, CMP(a, one, _CMP_LT_OQ)); // NaN and |x| >= 1 are outside
	D w = SUB(ZERO(), vlog(MUL(SUB(one, as), ADD(one, as))));
	D p = poly(ERFINV_MID, 13, SUB(w, SET1(2.5)));
	M tail = CMP(w, SET1(5), _CMP_GE_OQ);
	if (ANY(tail)) p = BLEND(p, poly(ERFINV_TAIL, 13, SUB(SQRT(w), SET1(3))), tail);
	return erfinv_edges(x, MUL(p, x));
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
	D n = MAX(ROUND(SUB(eight, x), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC), ZERO());
	shifted s = {ADD(x, n), MUL(MUL(MUL(f[0], f[1]), MUL(f[2], f[3])), MUL(MUL(f[4], f[5]), MUL(f[6], f[7])))};
	return s;
}

// stirling is lgamma(z) for z >= 8 by Stirling's series.
KERNEL INLINE D stirling(D z) {
	D r = RECIP(z);
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
	D n = ROUND(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
	D r = SUB(x, n);
	D s = MUL(r, poly(SINPI, 11, MUL(r, r)));
	return FLIP(s, PARITY(n));
}

// reflect prepares finite x other than the poles: y = x above 0 and, by the reflection
// gamma(x) gamma(1-x) = pi / sin(pi x), y = 1 - x below, shifted (y.z, y.prod), with
// s = sin(pi x) where x < 0 (1 elsewhere).
typedef struct {
	shifted y;
	M neg;
	D s;
} reflected;

KERNEL INLINE reflected reflect(D x) {
	M neg = CMP(x, ZERO(), _CMP_LT_OQ);
	reflected r = {shift8(BLEND(x, SUB(SET1(1), x), neg)), neg, SET1(1)};
	if (ANY(neg)) r.s = BLEND(r.s, sinpi(x), neg);
	return r;
}

// pole: x is 0 or a negative integer (not NaN, not -inf).
KERNEL INLINE M pole(D x) {
	D fl = ROUND(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
	return MAND(CMP(fl, x, _CMP_EQ_OQ), CMP(x, ZERO(), _CMP_LE_OQ));
}

KERNEL INLINE M inf_mask(D x) {
	return CMP(ABS(x), SET1(__builtin_inf()), _CMP_EQ_OQ);
}

// lgamma_lanes: +inf at the poles and ±inf, x at NaN; 0 at 1 and 2, exactly, as Go has it.
KERNEL INLINE D lgamma_lanes(D x) {
	D inf = SET1(__builtin_inf());
	M poles = MOR(pole(x), inf_mask(x));
	M special = MOR(poles, CMP(x, x, _CMP_UNORD_Q));
	// lgamma(y) = stirling(z) - log(prod); below 0 log(pi / |s|) - lgamma(y)
	reflected r = reflect(BLEND(x, SET1(3), special));
	D st = stirling(r.y.z), l = vlog(ANY(r.neg) ? MUL(r.y.prod, RECIP(ABS(r.s))) : r.y.prod);
	D y = BLEND(SUB(st, l), ADD(SUB(SET1(LOG_PI), st), l), r.neg);
	y = ZERO_WHERE(MOR(CMP(x, SET1(1), _CMP_EQ_OQ), CMP(x, SET1(2), _CMP_EQ_OQ)), y);
	return BLEND(BLEND(y, x, special), inf, poles);
}

// gamma_lanes: ±inf at ±0, NaN at the negative integers and -inf, +inf at +inf, x at NaN.
// Beyond |x| ~ 40 the float result is 0 or inf, so e**stirling is clamped to e**700
// (within double's range).
KERNEL INLINE D gamma_lanes(D x) {
	D zero = ZERO(), inf = SET1(__builtin_inf());
	M at_pole = pole(x);
	M nan_out = MOR(MAND(at_pole, CMP(x, zero, _CMP_NEQ_OQ)), CMP(x, SET1(-__builtin_inf()), _CMP_EQ_OQ));
	M special = MOR(MOR(at_pole, inf_mask(x)), CMP(x, x, _CMP_UNORD_Q));
	// gamma(y) = e**stirling(z) / prod; below 0 pi / (s gamma(y))
	reflected r = reflect(BLEND(x, SET1(3), special));
	D e = vexp(MIN(stirling(r.y.z), SET1(700)));
	D num = BLEND(e, MUL(SET1(PI), r.y.prod), r.neg), den = BLEND(r.y.prod, MUL(r.s, e), r.neg);
	D y = MUL(num, RECIP(den));
	D sx = BITOR(SIGN_OF(x), inf); // ±0 -> ±inf, +inf -> +inf
	D out = BLEND(BLEND(sx, SET1(__builtin_nan("")), nan_out), x, CMP(x, x, _CMP_UNORD_Q));
	return BLEND(y, out, special);
}

// SPECIAL_ENTRY defines the entry point name(op, dst, src, n) over the file's row loops
// erfinv_rows, lgamma_rows and gamma_rows (MXGO_SP_* picks one).
#define SPECIAL_ENTRY(name)                                          \
	void name(int op, float *dst, const float *src, long n) {    \
		switch (op) {                                        \
		case MXGO_SP_ERFINV:                                 \
			erfinv_rows(dst, src, n);                    \
			break;                                       \
		case MXGO_SP_LGAMMA:                                 \
			lgamma_rows(dst, src, n);                    \
			break;                                       \
		default:                                             \
			gamma_rows(dst, src, n);                     \
		}                                                    \
	}
