// float32 transcendental functions over slices, 8 or 16 lanes at a time, by glibc's
// vector math library (libmvec, glibc 2.35+: its AVX2 "_ZGVdN8v_" variants, and its
// AVX-512 "_ZGVeN16v_" ones where the CPU runs them), loaded at run time
// with dlopen so that the wheels neither link nor need it (mvec.go falls back to Go
// where it is missing). libmvec's float32 functions are within 4 ulp of the true values
// (glibc's manual), not the Go kernels' bits.
#ifndef MXGO_MVEC_H
#define MXGO_MVEC_H

enum {
	MXGO_MV_ACOS = 0,
	MXGO_MV_ASIN,
	MXGO_MV_ATAN,
	MXGO_MV_ACOSH,
	MXGO_MV_ASINH,
	MXGO_MV_ATANH,
	MXGO_MV_COSH,
	MXGO_MV_SINH,
	MXGO_MV_TAN,
	MXGO_MV_CBRT,
	MXGO_MV_EXPM1,
	MXGO_MV_LOG1P,
	MXGO_MV_LOG2,
	MXGO_MV_LOG10,
	MXGO_MV_ERF,
	MXGO_MV_LOG,
	MXGO_MV_SIN,
	MXGO_MV_COS,
	MXGO_MV_COUNT,
	MXGO_MV_RCBRT = MXGO_MV_COUNT, // 1/cbrtf(x), from CBRT
};

// mxgo_mvec_load loads libmvec (where the CPU runs AVX2) and reports whether it has
// every function above. Call it once, before any mxgo_mvec.
int mxgo_mvec_load(void);

// mxgo_mvec sets dst[i] = f(src[i]) for i < n, f one of MXGO_MV_*; dst may be src
// itself (not otherwise overlapping).
void mxgo_mvec(int fn, float *dst, const float *src, long n);

// mxgo_mvec_wide turns the AVX-512 functions on (where they loaded) or off, leaving the
// AVX2 ones for every row, and returns whether they were on: a hook for tests.
int mxgo_mvec_wide(int on);

// mxgo_mvec_pow sets dst[i] = powf(a[i], b[i]) for i < n (libmvec's 8 lanes, C99's
// special cases); dst may be a or b (not otherwise overlapping).
void mxgo_mvec_pow(float *dst, const float *a, const float *b, long n);

#endif
