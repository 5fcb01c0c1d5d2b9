#include "exp32_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"
#include <string.h>

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_f32_unary_supported(void) {
	return mxgo_cpu_avx2(0);
}

// pkg/ops/unary/exp32.go's algorithm (explained there) on 8 float32 lanes at a time: the constants
// are pkg/ops/unary/exp32.go's, bit for bit, and every step is the same IEEE float32 operation, in
// the same order, as there, so the C and Go kernels agree on every input, NaN
// payloads included (every NaN derives from the input's; where an operation has two,
// they are the same). No FMA: Go has none for float32. Built with -fno-fast-math:
// -ffast-math would let the compiler drop NaN and Inf handling and reassociate.
//
// The kernels are bound by the latency of their dependency chains (~50 cycles, more
// than the out-of-order window covers at this throughput), so the code shortens them:
// k from ROUNDPS (Go adds and subtracts SHIFT: the same value, one step more), P by
// Estrin's scheme, and the two-stage loop of rows.

static const float LOG2E = 0x1.715476p+0f, SHIFT = 0x1.8p23f;
static const float LN2HI = 0x1.62e4p-1f, LN2LO = 0x1.7f7d1cp-20f;
static const float E0 = 0x1.fffffcp-2f, E1 = 0x1.555492p-3f, E2 = 0x1.5558f2p-5f,
		   E3 = 0x1.123a0ap-7f, E4 = 0x1.6a23f2p-10f;
static const float T0 = -0x1.555532p-2f, T1 = 0x1.110726p-3f, T2 = -0x1.b83c5ap-5f,
		   T3 = 0x1.52269cp-6f, T4 = -0x1.75e1cep-8f;
static const float EXP_CLAMP = 110, EXP_FAST = 87, TANH_CLAMP = 40, TANH_POLY = 0.625f;

typedef __m256 V;
#define SET1 _mm256_set1_ps
#define ADD _mm256_add_ps
#define SUB _mm256_sub_ps
#define DIV _mm256_div_ps

// MUL is a product rounded to float32: GNU C contracts a*b + c into an FMA where the
// target has one (-ffp-contract=fast, which -fno-fast-math keeps; this file's target
// has no FMA, but CGO_CFLAGS may add one), which would change bits against Go. The
// empty asm makes the product a value the compiler cannot see through.
AVX2 INLINE V MUL(V a, V b) {
	V x = _mm256_mul_ps(a, b);
	__asm__("" : "+x"(x));
	return x;
}

// exp_parts returns y = 1 + t rounded, t ~ e**r - 1, and kd, which holds k, for
// e**x = y * 2**k, |x| <= EXP_CLAMP or NaN (pkg/ops/unary/exp32.go's expParts).
typedef struct {
	V y, kd;
} parts;

AVX2 INLINE parts exp_parts(V x) {
	parts e;
	V kf = _mm256_round_ps(MUL(x, SET1(LOG2E)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
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
AVX2 INLINE V pow2(V kd, int j) {
	__m256i b = _mm256_slli_epi32(_mm256_castps_si256(kd), 23);
	return _mm256_castsi256_ps(_mm256_add_epi32(b, _mm256_set1_epi32((j + 127) << 23)));
}

// Each op runs in two stages, so that the loop can overlap the second stage of one
// vector with the first of the next (see rows); st carries what the second needs
// (fields an op does not use are optimized away).
typedef struct {
	V a, b, c, d;
} st;

// exp: |x| <= EXP_FAST (or NaN) in all 8 lanes, the common case, takes y * 2**k in
// one product: 2**k and the result are normal, so it is the exact y * s1 * s2 of
// pkg/ops/unary/exp32.go. Otherwise stage 2 starts over from x with the clamp and the two factors.
AVX2 INLINE V exp_slow(V x) {
	// MINPS/MAXPS return their second operand when either is NaN, so x goes second
	// to stay NaN, as in Go's if x > lim.
	x = _mm256_max_ps(SET1(-EXP_CLAMP), _mm256_min_ps(SET1(EXP_CLAMP), x));
	parts e = exp_parts(x);
	__m256i k = _mm256_sub_epi32(_mm256_castps_si256(e.kd), _mm256_castps_si256(SET1(SHIFT)));
	__m256i k1 = _mm256_srai_epi32(k, 1), bias = _mm256_set1_epi32(127);
	V s1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k1, bias), 23));
	V s2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(k, k1), bias), 23));
	return MUL(MUL(e.y, s1), s2);
}

AVX2 INLINE st exp_1(V x) {
	parts e = exp_parts(x);
	V far = _mm256_cmp_ps(_mm256_andnot_ps(SET1(-0.0f), x), SET1(EXP_FAST), _CMP_GT_OQ);
	return (st){.a = e.y, .b = e.kd, .c = x, .d = far};
}

AVX2 INLINE V exp_2(st s) {
	if (__builtin_expect(_mm256_movemask_ps(s.d), 0))
		return exp_slow(s.c);
	return MUL(s.a, pow2(s.b, 0));
}

// sigmoid: e = e**-|x| = (y * 2**(k+64)) * 2**-64, normal in the first product for
// every k <= 0 down to the clamp's, rounded once in the second (subnormal e).
AVX2 INLINE st sigmoid_1(V x) {
	V nx = _mm256_max_ps(SET1(-EXP_CLAMP), _mm256_or_ps(x, SET1(-0.0f))); // -|x|
	parts ep = exp_parts(nx);
	V e = MUL(MUL(ep.y, pow2(ep.kd, 64)), SET1(0x1p-64f));
	// BLENDVPS picks by the sign bit: e where x < 0, and where x is -0 or a NaN
	// with its sign bit, whose result is the same either way (0.5; NaN).
	return (st){.a = _mm256_blendv_ps(SET1(1), e, x), .b = ADD(SET1(1), e)};
}

AVX2 INLINE V sigmoid_2(st s) {
	return DIV(s.a, s.b);
}

AVX2 INLINE st tanh_1(V x) {
	V sign = _mm256_and_ps(x, SET1(-0.0f)), a = _mm256_andnot_ps(SET1(-0.0f), x);
	V z = MUL(a, a), z2 = MUL(z, z);
	V p = ADD(ADD(MUL(SET1(T1), z), SET1(T0)),
		  MUL(z2, ADD(ADD(MUL(SET1(T3), z), SET1(T2)), MUL(SET1(T4), z2))));
	V small = ADD(MUL(MUL(a, z), p), a);
	parts ep = exp_parts(_mm256_min_ps(SET1(TANH_CLAMP), ADD(a, a)));
	V den = ADD(MUL(ep.y, pow2(ep.kd, 0)), SET1(1)); // e**2a + 1, 2a <= TANH_CLAMP
	return (st){.a = small, .b = den, .c = _mm256_cmp_ps(a, SET1(TANH_POLY), _CMP_LT_OQ), .d = sign};
}

AVX2 INLINE V tanh_2(st s) {
	V large = SUB(SET1(1), DIV(SET1(2), s.b));
	return _mm256_or_ps(_mm256_blendv_ps(large, s.a, s.c), s.d);
}

AVX2 INLINE st stage1(int op, V x) {
	switch (op) {
	case MXGO_F32_EXP:
		return exp_1(x);
	case MXGO_F32_SIGMOID:
		return sigmoid_1(x);
	default:
		return tanh_1(x);
	}
}

AVX2 INLINE V stage2(int op, st s) {
	switch (op) {
	case MXGO_F32_EXP:
		return exp_2(s);
	case MXGO_F32_SIGMOID:
		return sigmoid_2(s);
	default:
		return tanh_2(s);
	}
}

// rows runs op over n floats, 8 at a time, software-pipelined: stage 1 of vector i
// comes before stage 2 of vector i-1 in program order, so the out-of-order core has
// independent work while the tail of i-1's chain (the division) completes; about
// 20% faster for sigmoid. Loads run one vector ahead of stores, so dst == src is
// fine. The last n%8 go through the same code in a padded buffer.
AVX2 INLINE void rows(int op, float *dst, const float *src, long n) {
	long i = 0;
	if (n >= 16) {
		st s = stage1(op, _mm256_loadu_ps(src));
		for (i = 8; i + 8 <= n; i += 8) {
			st next = stage1(op, _mm256_loadu_ps(src + i));
			_mm256_storeu_ps(dst + i - 8, stage2(op, s));
			s = next;
		}
		_mm256_storeu_ps(dst + i - 8, stage2(op, s));
	}
	for (; i + 8 <= n; i += 8)
		_mm256_storeu_ps(dst + i, stage2(op, stage1(op, _mm256_loadu_ps(src + i))));
	if (i < n) {
		float buf[8] = {0};
		memcpy(buf, src + i, (n - i) * sizeof(float));
		_mm256_storeu_ps(buf, stage2(op, stage1(op, _mm256_loadu_ps(buf))));
		memcpy(dst + i, buf, (n - i) * sizeof(float));
	}
}

// The softmax family's lanes (pkg/ops/nn/softmax_lane.go's softmaxRow, step for step):
// max (any NaN makes it NaN; a zero max is +0), d = (v - max) / t (no division when t is
// 1), e = exp(d), the sum of e in double in eight lanes (element i in lane i % 8 while a
// full eight remain, the lanes added ((0+1)+(2+3))+((4+5)+(6+7)), the rest in order).
// The last n % 8 elements go through the vector code in a zero-padded buffer.

AVX2 INLINE V load_row(const float *r, long i, long n, V sign) {
	if (i + 8 <= n)
		return _mm256_xor_ps(_mm256_loadu_ps(r + i), sign);
	float buf[8] = {0};
	memcpy(buf, r + i, (n - i) * sizeof(float));
	return _mm256_xor_ps(_mm256_loadu_ps(buf), sign);
}

AVX2 INLINE void store_row(float *r, long i, long n, V v) {
	if (i + 8 <= n) {
		_mm256_storeu_ps(r + i, v);
		return;
	}
	float buf[8];
	_mm256_storeu_ps(buf, v);
	memcpy(r + i, buf, (n - i) * sizeof(float));
}

AVX2 INLINE float row_max(const float *r, long n, int neg) {
	V sign = neg ? SET1(-0.0f) : _mm256_setzero_ps();
	V m = SET1(-__builtin_inff()), nan = _mm256_setzero_ps();
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		V v = load_row(r, i, n, sign);
		nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
		m = _mm256_max_ps(m, v);
	}
	float l[8], mx;
	_mm256_storeu_ps(l, m);
	mx = l[0];
	for (int j = 1; j < 8; j++)
		mx = l[j] > mx ? l[j] : mx;
	int any_nan = _mm256_movemask_ps(nan) != 0;
	for (; i < n; i++) {
		float v = neg ? -r[i] : r[i];
		any_nan |= v != v;
		mx = v > mx ? v : mx;
	}
	return any_nan ? __builtin_nanf("") : mx + 0.0f;
}

// shifted is (v - max) / t of the 8 elements from i (v: the row, negated by sign for
// softmin), without the division when t is 1.
AVX2 INLINE V shifted(const float *r, long i, long n, V sign, V m, float t, V tt) {
	V d = SUB(load_row(r, i, n, sign), m);
	return t != 1 ? DIV(d, tt) : d;
}

AVX2 void mxgo_softmax_rows_f32(int kind, const float *x, const long *xo, float *y, const long *yo, long rows,
				 long n, float t, double *sums) {
	V sign = kind == MXGO_SOFTMIN ? SET1(-0.0f) : _mm256_setzero_ps(), tt = SET1(t);
	for (long r = 0; r < rows; r++) {
		const float *xr = x + xo[r];
		float *yr = y + yo[r];
		V m = SET1(row_max(xr, n, kind == MXGO_SOFTMIN));
		__m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
		long i = 0;
		for (; i + 8 <= n; i += 8) {
			V d = shifted(xr, i, n, sign, m, t, tt), e = exp_2(exp_1(d));
			_mm256_storeu_ps(yr + i, kind == MXGO_LOG_SOFTMAX ? d : e);
			lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(e)));
			hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(e, 1)));
		}
		double l[8];
		_mm256_storeu_pd(l, lo);
		_mm256_storeu_pd(l + 4, hi);
		double sum = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
		if (i < n) {
			V d = shifted(xr, i, n, sign, m, t, tt), e = exp_2(exp_1(d));
			float tail[8];
			_mm256_storeu_ps(tail, e);
			for (long j = 0; j < n - i; j++)
				sum += (double)tail[j];
			store_row(yr, i, n, kind == MXGO_LOG_SOFTMAX ? d : e);
		}
		if (kind == MXGO_LOG_SOFTMAX) {
			sums[r] = sum;
			continue;
		}
		V scale = SET1((float)(1 / sum));
		for (i = 0; i < n; i += 8)
			store_row(yr, i, n, _mm256_mul_ps(load_row(yr, i, n, _mm256_setzero_ps()), scale));
	}
}

AVX2 void mxgo_rows_sub_f32(float *y, const long *yo, long rows, long n, const float *c) {
	for (long r = 0; r < rows; r++) {
		float *yr = y + yo[r];
		V cr = SET1(c[r]);
		for (long i = 0; i < n; i += 8)
			store_row(yr, i, n, SUB(load_row(yr, i, n, _mm256_setzero_ps()), cr));
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

void mxgo_softmax_rows_f32(int kind, const float *x, const long *xo, float *y, const long *yo, long rows,
			   long n, float t, double *sums) {
	(void)kind, (void)x, (void)xo, (void)y, (void)yo, (void)rows, (void)n, (void)t, (void)sums;
}
void mxgo_rows_sub_f32(float *y, const long *yo, long rows, long n, const float *c) {
	(void)y, (void)yo, (void)rows, (void)n, (void)c;
}
int mxgo_f32_unary_supported(void) { return 0; }
void mxgo_f32_unary(int op, float *dst, const float *src, long n) {
	(void)op, (void)dst, (void)src, (void)n;
}

#endif
