// The six comparisons of float32 and float64 rows, or of a row and a scalar, into 1.0
// and 0.0 of the operands' type (mx.nd's comparison results), with AVX2 (cmp_avx2.c);
// driven from Go by cmp.go. Each lane is one IEEE comparison (false with NaN; != true),
// the Go loops' bits exactly.
#ifndef MXGO_CMP_AVX2_H
#define MXGO_CMP_AVX2_H

#include <stdint.h>

// The operations, numbered as pkg/ops/elemwise's cmpOp.
enum { MXGO_CMP_EQ = 0, MXGO_CMP_NE, MXGO_CMP_GT, MXGO_CMP_GE, MXGO_CMP_LT, MXGO_CMP_LE };

// mxgo_cmp_supported reports whether the CPU (and OS) run AVX2.
int mxgo_cmp_supported(void);

// mxgo_cmp_f32 sets o[i] = x[i] op y[i] (y[0] for every i when yscalar) as 1.0f or
// 0.0f, for i < n; o may be x or y.
void mxgo_cmp_f32(int op, float *o, const float *x, const float *y, int yscalar, long n);
void mxgo_cmp_f64(int op, double *o, const double *x, const double *y, int yscalar, long n);

// mxgo_cmp_bool_f32 is mxgo_cmp_f32 into bool bytes (1 and 0: mx.np's results).
void mxgo_cmp_bool_f32(int op, uint8_t *o, const float *x, const float *y, int yscalar, long n);
void mxgo_cmp_bool_f64(int op, uint8_t *o, const double *x, const double *y, int yscalar, long n);

#endif
