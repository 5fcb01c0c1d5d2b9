// exp, sigmoid and tanh over float32 slices, with AVX2 (exp32_avx2.c) and AVX-512
// (exp32_avx512.c), and the softmax family's rows, with AVX2; driven from Go by
// unary32.go. The algorithm is pkg/ops/unary/exp32.go's, operation for operation
// (exp32_lanes.h), so the C and Go kernels give the same bits.
#ifndef MXGO_EXP32_AVX2_H
#define MXGO_EXP32_AVX2_H

enum { MXGO_F32_EXP = 0, MXGO_F32_SIGMOID = 1, MXGO_F32_TANH = 2 };

// mxgo_f32_unary_supported reports whether the CPU (and OS) run AVX2.
int mxgo_f32_unary_supported(void);

// mxgo_f32_unary sets dst[i] = f(src[i]) for i < n, f one of MXGO_F32_*; dst may be
// src itself (not otherwise overlapping).
void mxgo_f32_unary(int op, float *dst, const float *src, long n);

// The same on 16 lanes, where mxgo_f32_unary512_supported: the CPU (and OS) run AVX-512F.
int mxgo_f32_unary512_supported(void);
void mxgo_f32_unary512(int op, float *dst, const float *src, long n);

// The softmax family on rows rows of n floats (n > 0), row r read from x + xo[r] and
// written to y + yo[r] (which may be x + xo[r]): softmax, or softmin, with temperature t;
// for log_softmax, (v - max) / t into y and the sum of its exponentials into sums[r], and
// the caller then subtracts log(sums[r]) (mxgo_rows_sub_f32 subtracts c[r] from row r).
// The steps and the order of the sum are pkg/ops/nn/softmax_lane.go's.
enum { MXGO_SOFTMAX = 0, MXGO_LOG_SOFTMAX = 1, MXGO_SOFTMIN = 2 };
void mxgo_softmax_rows_f32(int kind, const float *x, const long *xo, float *y, const long *yo, long rows,
			   long n, float t, double *sums);
void mxgo_rows_sub_f32(float *y, const long *yo, long rows, long n, const float *c);

#endif
