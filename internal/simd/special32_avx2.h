// erfinv, lgamma and tgamma of float32 rows with AVX2 and FMA (special32_avx2.c); driven
// from Go by special32.go. Each element is computed in double (4 lanes) and rounded
// once to float: within 2 ulp of the true value (tests_go/ops_special_ulp_test.go
// measures it against Go's math package), with Go's values at NaN, ±inf, ±0, ±1
// (erfinv) and the non-positive integers (lgamma, tgamma).
#ifndef MXGO_SPECIAL32_AVX2_H
#define MXGO_SPECIAL32_AVX2_H

enum {
	MXGO_SP_ERFINV = 0, // ±inf at ±1, NaN beyond
	MXGO_SP_LGAMMA = 1, // log|gamma(x)|: +inf at 0, the negative integers and ±inf
	MXGO_SP_GAMMA = 2,  // ±inf at ±0, NaN at the negative integers and -inf
};

// mxgo_special32_supported reports whether the CPU (and OS) run AVX2 and FMA.
int mxgo_special32_supported(void);

// mxgo_special32 sets dst[i] = f(src[i]) for i < n, f one of MXGO_SP_*; dst may be src
// itself (not otherwise overlapping).
void mxgo_special32(int op, float *dst, const float *src, long n);

#endif
