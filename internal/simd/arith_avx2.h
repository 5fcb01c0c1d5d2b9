// + - * / over contiguous float32 and float64 rows with AVX2 (arith_avx2.c); driven
// from Go by arith.go. Each element is one IEEE operation, as in pkg/ops/elemwise/arith.go's loops,
// so the C and Go kernels give the same bits.
#ifndef MXGO_ARITH_AVX2_H
#define MXGO_ARITH_AVX2_H

// The operators, numbered as pkg/ops' BinaryOp.
enum { MXGO_ARITH_ADD = 0, MXGO_ARITH_SUB = 1, MXGO_ARITH_MUL = 2, MXGO_ARITH_DIV = 3 };

// mxgo_arith_supported reports whether the CPU (and OS) run AVX2.
int mxgo_arith_supported(void);

// mxgo_arith_f32 and mxgo_arith_f64 set o[i] = x[i] op y[i] for i < n, n >= 8. o may
// be x or y itself (the same start), but must not otherwise overlap them.
void mxgo_arith_f32(int op, float *o, const float *x, const float *y, long n);
void mxgo_arith_f64(int op, double *o, const double *x, const double *y, long n);

// mxgo_arith_scalar_f32 and mxgo_arith_scalar_f64 set o[i] = x[i] op c, or c op x[i]
// where reverse is non-zero, for i < n, n >= 8; o as above.
void mxgo_arith_scalar_f32(int op, float *o, const float *x, float c, int reverse, long n);
void mxgo_arith_scalar_f64(int op, double *o, const double *x, double c, int reverse, long n);

#endif
