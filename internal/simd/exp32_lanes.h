// The float32 exp, sigmoid and tanh lanes of pkg/ops/unary/exp32.go (its algorithm is
// explained there), written once for every vector width: exp32_avx2.c includes this with
// 8 lanes, exp32_avx512.c with 16. The includer defines the vocabulary first:
//
//	V, M, SI     a vector of W floats, a lane mask, a vector of W int32
//	LANES        the target attribute of the functions (their instruction set)
//	SET1 ADD SUB DIV MIN MAX ROUND   float lanes (MIN/MAX return the second operand
//	             when either is NaN, as MINPS/MAXPS do; ROUND to nearest even)
//	VMUL BARRIER the product, and the asm constraint that holds a V (see MUL)
//	AND OR ANDNOT  float lanes as bits (ANDNOT(a, b) = ~a & b)
//	CMPGT CMPLT  ordered comparisons into an M; ANY(m) whether a lane is set;
//	             SIGNS(x) the lanes whose sign bit is set; BLEND(m, a, b) b where m, else a
//	PS SI_OF SLLI SRAI ADDI SUBI SET1I  the int32 lanes and casts between the two
//	LOADU STOREU unaligned loads and stores of W floats
//
// The constants are pkg/ops/unary/exp32.go's, bit for bit, and every step is the same
// IEEE float32 operation, in the same order, as there, so every width and the Go kernels
// agree on every input, NaN payloads included (every NaN derives from the input's;
// where an operation has two, they are the same). No FMA: Go has none for float32. Built
// with -fno-fast-math: -ffast-math would let the compiler drop NaN and Inf handling and
// reassociate.
//
// The kernels are bound by the latency of their dependency chains (~50 cycles, more
// than the out-of-order window covers at this throughput), so the code shortens them:
// k from ROUND (Go adds and subtracts SHIFT: the same value, one step more), P by
// Estrin's scheme, and the two-stage loop of rows.
#include <string.h>

static const float LOG2E = 0x1.715476p+0f, SHIFT = 0x1.8p23f;
static const float LN2HI = 0x1.62e4p-1f, LN2LO = 0x1.7f7d1cp-20f;
static const float E0 = 0x1.fffffcp-2f, E1 = 0x1.555492p-3f, E2 = 0x1.5558f2p-5f,
		   E3 = 0x1.123a0ap-7f, E4 = 0x1.6a23f2p-10f;
static const float T0 = -0x1.555532p-2f, T1 = 0x1.110726p-3f, T2 = -0x1.b83c5ap-5f,
		   T3 = 0x1.52269cp-6f, T4 = -0x1.75e1cep-8f;
static const float EXP_CLAMP = 110, EXP_FAST = 87, TANH_CLAMP = 40, TANH_POLY = 0.625f;

#define INLINE static inline __attribute__((always_inline))

// MUL is a product rounded to float32: GNU C contracts a*b + c into an FMA where the
// target has one (-ffp-contract=fast, which -fno-fast-math keeps), which would change
// bits against Go. The empty asm makes the product a value the compiler cannot see
// through.
LANES INLINE V MUL(V a, V b) {
	V x = VMUL(a, b);
	__asm__("" : BARRIER(x));
	return x;
}

// exp_parts returns y = 1 + t rounded, t ~ e**r - 1, and kd, which holds k, for
// e**x = y * 2**k, |x| <= EXP_CLAMP or NaN (pkg/ops/unary/exp32.go's expParts).
typedef struct {
	V y, kd;
} parts;

LANES INLINE parts exp_parts(V x) {
	parts e;
	V kf = ROUND(MUL(x, SET1(LOG2E)));
	e.kd = ADD(kf, SET1(SHIFT)); // k in the low mantissa bits
	V r = SUB(x, MUL(kf, SET1(LN2HI))); // exact
	r = SUB(r, MUL(kf, SET1(LN2LO)));
	V r2 = MUL(r, r), r4 = MUL(r2, r2);
	V a = ADD(MUL(SET1(E1), r), SET1(E0));
	V b = ADD(ADD(MUL(SET1(E3), r), SET1(E2)), MUL(SET1(E4), r2));
	e.y = ADD(SET1(1), ADD(r, ADD(MUL(r2, a), MUL(r4, b))));
	return e;
}

// pow2 is 2**(k+j) for the k in kd, as float32 bits (k+j+127) << 23: k << 23 is kd's
// bits << 23, as SHIFT's low 9 bits are 0. A power of 2, 0 or Inf, never NaN.
LANES INLINE V pow2(V kd, int j) {
	return PS(ADDI(SLLI(SI_OF(kd), 23), SET1I((j + 127) << 23)));
}

// Each op runs in two stages, so that the loop can overlap the second stage of one
// vector with the first of the next (see rows); st carries what the second needs
// (fields an op does not use are optimized away).
typedef struct {
	V a, b, c, d;
	M m;
} st;

// exp: |x| <= EXP_FAST (or NaN) in every lane, the common case, takes y * 2**k in one
// product: 2**k and the result are normal, so it is the exact y * s1 * s2 of
// pkg/ops/unary/exp32.go. Otherwise stage 2 starts over from x with the clamp and the two factors.
LANES INLINE V exp_slow(V x) {
	// MIN and MAX return their second operand when either is NaN, so x goes second to
	// stay NaN, as in Go's if x > lim.
	x = MAX(SET1(-EXP_CLAMP), MIN(SET1(EXP_CLAMP), x));
	parts e = exp_parts(x);
	SI k = SUBI(SI_OF(e.kd), SI_OF(SET1(SHIFT)));
	SI k1 = SRAI(k, 1), bias = SET1I(127);
	V s1 = PS(SLLI(ADDI(k1, bias), 23));
	V s2 = PS(SLLI(ADDI(SUBI(k, k1), bias), 23));
	return MUL(MUL(e.y, s1), s2);
}

LANES INLINE st exp_1(V x) {
	parts e = exp_parts(x);
	return (st){.a = e.y, .b = e.kd, .c = x, .m = CMPGT(ANDNOT(SET1(-0.0f), x), SET1(EXP_FAST))};
}

LANES INLINE V exp_2(st s) {
	if (__builtin_expect(ANY(s.m), 0))
		return exp_slow(s.c);
	return MUL(s.a, pow2(s.b, 0));
}

// sigmoid: e = e**-|x| = (y * 2**(k+64)) * 2**-64, normal in the first product for
// every k <= 0 down to the clamp's, rounded once in the second (subnormal e).
LANES INLINE st sigmoid_1(V x) {
	V nx = MAX(SET1(-EXP_CLAMP), OR(x, SET1(-0.0f))); // -|x|
	parts ep = exp_parts(nx);
	V e = MUL(MUL(ep.y, pow2(ep.kd, 64)), SET1(0x1p-64f));
	// e where the sign bit is set: x < 0, and x = -0 or a NaN with its sign bit, whose
	// result is the same either way (0.5; NaN).
	return (st){.a = BLEND(SIGNS(x), SET1(1), e), .b = ADD(SET1(1), e)};
}

LANES INLINE V sigmoid_2(st s) {
	return DIV(s.a, s.b);
}

LANES INLINE st tanh_1(V x) {
	V sign = AND(x, SET1(-0.0f)), a = ANDNOT(SET1(-0.0f), x);
	V z = MUL(a, a), z2 = MUL(z, z);
	V p = ADD(ADD(MUL(SET1(T1), z), SET1(T0)),
		  MUL(z2, ADD(ADD(MUL(SET1(T3), z), SET1(T2)), MUL(SET1(T4), z2))));
	V small = ADD(MUL(MUL(a, z), p), a);
	parts ep = exp_parts(MIN(SET1(TANH_CLAMP), ADD(a, a)));
	V den = ADD(MUL(ep.y, pow2(ep.kd, 0)), SET1(1)); // e**2a + 1, 2a <= TANH_CLAMP
	return (st){.a = small, .b = den, .d = sign, .m = CMPLT(a, SET1(TANH_POLY))};
}

LANES INLINE V tanh_2(st s) {
	V large = SUB(SET1(1), DIV(SET1(2), s.b));
	return OR(BLEND(s.m, large, s.a), s.d);
}

LANES INLINE st stage1(int op, V x) {
	switch (op) {
	case MXGO_F32_EXP:
		return exp_1(x);
	case MXGO_F32_SIGMOID:
		return sigmoid_1(x);
	default:
		return tanh_1(x);
	}
}

LANES INLINE V stage2(int op, st s) {
	switch (op) {
	case MXGO_F32_EXP:
		return exp_2(s);
	case MXGO_F32_SIGMOID:
		return sigmoid_2(s);
	default:
		return tanh_2(s);
	}
}

// rows runs op over n floats, W at a time, software-pipelined: stage 1 of vector i
// comes before stage 2 of vector i-1 in program order, so the out-of-order core has
// independent work while the tail of i-1's chain (the division) completes; about
// 20% faster for sigmoid. Loads run one vector ahead of stores, so dst == src is
// fine. The last n%W go through the same code in a padded buffer.
LANES INLINE void rows(int op, float *dst, const float *src, long n) {
	long i = 0;
	if (n >= 2 * W) {
		st s = stage1(op, LOADU(src));
		for (i = W; i + W <= n; i += W) {
			st next = stage1(op, LOADU(src + i));
			STOREU(dst + i - W, stage2(op, s));
			s = next;
		}
		STOREU(dst + i - W, stage2(op, s));
	}
	for (; i + W <= n; i += W)
		STOREU(dst + i, stage2(op, stage1(op, LOADU(src + i))));
	if (i < n) {
		float buf[W] = {0};
		memcpy(buf, src + i, (n - i) * sizeof(float));
		STOREU(buf, stage2(op, stage1(op, LOADU(buf))));
		memcpy(dst + i, buf, (n - i) * sizeof(float));
	}
}

// unary_rows is rows with op a constant in each copy of the loop.
LANES INLINE void unary_rows(int op, float *dst, const float *src, long n) {
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
