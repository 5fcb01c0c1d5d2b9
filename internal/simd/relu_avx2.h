// relu and its gradient over float32 rows with AVX2 (relu_avx2.c); driven from Go by
// relu.go. Both work on the bits with integer operations, as pkg/ops' Go loops do
// (unary.relu32Rows, elemwise.reluBackward32), so the C and Go kernels give the same bits.
#ifndef MXGO_RELU_AVX2_H
#define MXGO_RELU_AVX2_H

// mxgo_relu_supported reports whether the CPU (and OS) run AVX2.
int mxgo_relu_supported(void);

// mxgo_relu_f32 sets o[i] = relu(x[i]) for i < n: x's bits with a negative number's
// (sign bit set, not a NaN) cleared; o may be x itself (not otherwise overlapping).
void mxgo_relu_f32(float *o, const float *x, long n);

// mxgo_relu_backward_f32 sets o[i] = g[i] where y[i] > 0 (bits 0 < b <= +inf's), else
// +0; o may be g or y itself (not otherwise overlapping).
void mxgo_relu_backward_f32(float *o, const float *g, const float *y, long n);

#endif
