// Sums of squares of float32 rows with AVX2 and FMA (sumsq.c), driven from Go by sumsq.go.
#ifndef MXGO_SUMSQ_H
#define MXGO_SUMSQ_H

// mxgo_sumsq_supported reports whether the CPU (and OS) run AVX2 and FMA.
int mxgo_sumsq_supported(void);

// mxgo_sumsq_f32 returns the sum of v[i]*v[i] for i < n, accumulated in double.
double mxgo_sumsq_f32(const float *v, long n);

#endif
