// The cheap float32 functions of MXNet's elementwise math (rounding, reciprocals,
// scaling, softsign) over float32 slices with AVX2 (math32_avx2.c); driven from Go by
// math32.go. Each is the same IEEE operations as pkg/ops/elemwise/math_rows32.go's Go loop, so the
// C and Go kernels give the same bits.
#ifndef MXGO_MATH32_AVX2_H
#define MXGO_MATH32_AVX2_H

enum {
	MXGO_M32_FLOOR = 0,
	MXGO_M32_CEIL = 1,
	MXGO_M32_TRUNC = 2,
	MXGO_M32_RINT_DOWN = 3,  // MXNet's rint: the nearer integer, the lower one on a tie
	MXGO_M32_ROUND_AWAY = 4, // round: halves away from zero
	MXGO_M32_RECIP = 5,      // 1/x
	MXGO_M32_RSQRT = 6,      // 1/sqrtf(x)
	MXGO_M32_SCALE = 7,      // x*p[0], in float
	MXGO_M32_SOFTSIGN = 8,   // x/(1 + |x|)
	MXGO_M32_SQRT = 11,      // sqrtf(x), correctly rounded as Go's float32(math.Sqrt(float64(x)))
	MXGO_M32_ABS = 12,       // x with its sign bit cleared
	MXGO_M32_NEG = 13,       // x with its sign bit flipped (Go's -x)
	MXGO_M32_SQUARE = 14,    // x*x
	MXGO_M32_SIGN = 15,      // 1 above 0, -1 below, else +0 (zeros and NaN: MXNet's sign)
	// in double, rounded once to float:
	MXGO_M32_HARD_SIGMOID = 9, // p[0]*x + p[1] clipped to [0, 1], NaN passing
	MXGO_M32_SMOOTH_L1 = 10,   // x - p[1] above p[0], -x - p[1] below -p[0], else 0.5*x*x*p[2]
};

// mxgo_math32_supported reports whether the CPU (and OS) run AVX2.
int mxgo_math32_supported(void);

// mxgo_math32 sets dst[i] = f(src[i]) for i < n, f one of MXGO_M32_* with parameters
// p[0..2] (where it has any); dst may be src itself (not otherwise overlapping).
void mxgo_math32(int op, float *dst, const float *src, long n, const double *p);

// mxgo_sqrt_f64 sets dst[i] = sqrt(src[i]) for i < n (correctly rounded, as Go's
// math.Sqrt); dst may be src.
void mxgo_sqrt_f64(double *dst, const double *src, long n);

#endif
