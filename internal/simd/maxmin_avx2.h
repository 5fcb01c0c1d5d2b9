// NumPy's maximum and minimum over contiguous float32 and float64 rows with AVX2
// (maxmin_avx2.c); driven from Go by maxmin.go. Each element is x where x > y (x < y)
// or x is NaN, else y: pkg/ops/elemwise's Go loops, with the same bits.
#ifndef MXGO_MAXMIN_AVX2_H
#define MXGO_MAXMIN_AVX2_H

// mxgo_maxmin_supported reports whether the CPU (and OS) run AVX2.
int mxgo_maxmin_supported(void);

// mxgo_maxmin_f32 and mxgo_maxmin_f64 set o[i] to the maximum (is_max non-zero) or
// minimum of x[i] and y[i] for i < n - n%8 (n%4 for float64) and return that count.
// float32 NaN results get their quiet bit set (quiet non-zero), as a float32 NaN
// converted to float64 and back does. o may be x or y, not otherwise overlapping them.
long mxgo_maxmin_f32(int is_max, int quiet, float *o, const float *x, const float *y, long n);
long mxgo_maxmin_f64(int is_max, double *o, const double *x, const double *y, long n);

// mxgo_maxmin_reduce_f32 and mxgo_maxmin_reduce_f64 set *r to the maximum (is_max
// non-zero) or minimum of x[0..n), n >= 8, and return 1; or return 0 where x holds a
// NaN. A zero result's sign depends on the order the lanes met 0 and -0.
int mxgo_maxmin_reduce_f32(int is_max, const float *x, long n, float *r);
int mxgo_maxmin_reduce_f64(int is_max, const double *x, long n, double *r);

// mxgo_argmaxmin_f32 and mxgo_argmaxmin_f64 set *r to the first index of the maximum
// (is_max non-zero) or minimum of x[0..n), n >= 1 (float32: n < 2^35), in one pass
// (AVX-512F where wide is set, else AVX2), and return 1; or return 0 where x holds a
// NaN. ±0 compare equal.
int mxgo_argmaxmin_f32(int is_max, int wide, const float *x, long n, long *r);
int mxgo_argmaxmin_f64(int is_max, int wide, const double *x, long n, long *r);

// mxgo_argmaxmin_avx512_supported reports whether the CPU (and OS) run AVX-512F.
int mxgo_argmaxmin_avx512_supported(void);

#endif
