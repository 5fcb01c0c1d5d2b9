// float32 erfinv, lgamma and gamma in AVX-512 double lanes (special32_avx512.c), where
// the CPU runs AVX-512F: special32_avx2.c's methods (special32_body.h) with logarithms by
// log2_avx512.h's register tables and reciprocals by vrcp14pd in place of divisions, and
// for erfinv polynomials fitted to float32's need; within 2 ulp
// (tests_go/ops_special_ulp_test.go), Go's values at the special points.
#ifndef MXGO_SPECIAL32_AVX512_H
#define MXGO_SPECIAL32_AVX512_H

// mxgo_special512_supported reports whether the CPU (and OS) run AVX-512F.
int mxgo_special512_supported(void);

// mxgo_special16 sets dst[i] = f(src[i]) for i < n, f one of MXGO_SP_*; dst may be src
// itself (not otherwise overlapping).
void mxgo_special16(int op, float *dst, const float *src, long n);

#endif
