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

// The forms of mxgo_arith_rows: both operands rows, y one number a row (x op y[r]), x
// one number a row (x[r] op y, computed as ArithScalar's reverse is).
enum { MXGO_ROWS_ARRAYS = 0, MXGO_ROWS_Y_SCALAR = 1, MXGO_ROWS_X_SCALAR = 2 };

// mxgo_arith_rows_f32 and mxgo_arith_rows_f64 run mxgo_arith (or mxgo_arith_scalar) on
// rows rows of n >= 8 elements, row r of o, x and y starting r*so, r*sx and r*sy
// elements after o, x and y: a broadcast's rows in one call.
void mxgo_arith_rows_f32(int op, int mode, float *o, const float *x, const float *y, long rows, long n, long so,
			 long sx, long sy);
void mxgo_arith_rows_f64(int op, int mode, double *o, const double *x, const double *y, long rows, long n,
			 long so, long sx, long sy);

// mxgo_arith_rows_par is mxgo_arith_rows on elements of esize bytes (4: float32, 8:
// float64) cut into parts parts run on the pool's threads (par.h): ranges of rows (parts
// <= rows), or of one row's columns when rows is 1 (parts <= n / 8).
void mxgo_arith_rows_par(int op, int mode, long esize, void *o, const void *x, const void *y, long rows, long n,
			 long so, long sx, long sy, long parts);

#endif
