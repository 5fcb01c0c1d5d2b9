// Pairwise row sums with AVX2 (reduce_simd.c), driven from Go by sum.go.
#ifndef MXGO_REDUCE_SIMD_H
#define MXGO_REDUCE_SIMD_H

// mxgo_redsum_supported reports whether the CPU (and OS) run AVX2.
int mxgo_redsum_supported(void);

// mxgo_redsum_f32 and mxgo_redsum_f64 return the pairwise sum of v[0..n), accumulated
// in double, bit for bit as redPairwiseSumOf in reduce_kernels.go computes it.
double mxgo_redsum_f32(const float *v, long n);
double mxgo_redsum_f64(const double *v, long n);

// mxgo_redsum_rows_f32 and mxgo_redsum_rows_f64 set out[r] to the pairwise sum of the n
// elements from v + r*step, for r < rows: many short rows in one call.
void mxgo_redsum_rows_f32(const float *v, long rows, long step, long n, double *out);
void mxgo_redsum_rows_f64(const double *v, long rows, long step, long n, double *out);

// mxgo_redsum_par is mxgo_redsum_f32 (esize 4) or mxgo_redsum_f64 (8) of v[0..n), the
// same bits, computed in up to parts pieces of at least min (> 128) elements on the
// pool's threads (par.h).
double mxgo_redsum_par(const void *v, long esize, long n, long parts, long min);

#endif
