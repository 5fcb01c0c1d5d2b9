// exp, sigmoid and tanh over float32 slices with AVX2 (exp32_avx2.c); driven from Go
// by unary32.go. The algorithm is pkg/ops/unary/exp32.go's, operation for operation, so the C
// and Go kernels give the same bits.
#ifndef MXGO_EXP32_AVX2_H
#define MXGO_EXP32_AVX2_H

enum { MXGO_F32_EXP = 0, MXGO_F32_SIGMOID = 1, MXGO_F32_TANH = 2 };

// mxgo_f32_unary_supported reports whether the CPU (and OS) run AVX2.
int mxgo_f32_unary_supported(void);

// mxgo_f32_unary sets dst[i] = f(src[i]) for i < n, f one of MXGO_F32_*; dst may be
// src itself (not otherwise overlapping).
void mxgo_f32_unary(int op, float *dst, const float *src, long n);

#endif
