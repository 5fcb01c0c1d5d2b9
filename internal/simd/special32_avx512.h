// float32 erfinv in AVX-512 double lanes (special32_avx512.c), where the CPU runs
// AVX-512F: special32_avx2.c's method with a logarithm by log2_avx512.h's register
// tables in place of a division and a long series, and polynomials fitted to float32's
// need; within 2 ulp (tests_go/ops_special_ulp_test.go), Go's values at NaN, ±inf, ±1.
#ifndef MXGO_SPECIAL32_AVX512_H
#define MXGO_SPECIAL32_AVX512_H

// mxgo_special512_supported reports whether the CPU (and OS) run AVX-512F.
int mxgo_special512_supported(void);

// mxgo_erfinv16 sets dst[i] = erfinv(src[i]) for i < n; dst may be src itself (not
// otherwise overlapping).
void mxgo_erfinv16(float *dst, const float *src, long n);

#endif
