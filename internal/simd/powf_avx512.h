// float32 power over slices in AVX-512 lanes (powf_avx512.c): the correctly rounded
// powf but within about 1e-12 of a halfway case, C99's special cases by libm's powf.
#ifndef MXGO_POWF_AVX512_H
#define MXGO_POWF_AVX512_H

// mxgo_powf16 sets dst[i] = powf(a[i], b[i]) for i < n; dst may be a or b (not
// otherwise overlapping). Only where mxgo_cpu_avx512() reports the CPU runs it.
void mxgo_powf16(float *dst, const float *a, const float *b, long n);

// mxgo_powf16_supported reports whether this CPU and OS run mxgo_powf16.
int mxgo_powf16_supported(void);

#endif
