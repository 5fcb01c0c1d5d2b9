// The AVX-512 tiles of both packed products (gemm_avx512.c), which their drivers
// (gemm_f32.c, gemm_f64.c) run on each packed block while they are on.
#ifndef MXGO_GEMM_AVX512_H
#define MXGO_GEMM_AVX512_H

// Whether the CPU runs them; turning them on or off (the caller checks support); whether
// they are on.
int mxgo_gemm_avx512_supported(void);
void mxgo_gemm_set_avx512(int on);
int mxgo_gemm_avx512_on(void);

// The loops over one packed mc x kc block of a and kc x nc block of b: mxgo_sgemm's
// (storing the product into c, or adding it with add) and mxgo_dgemm's (alpha times the
// product plus beta times c in the first k block, plus c in later ones).
void mxgo_sgemm_block512(long mc, long nc, long kc, const float *pa, const float *pb, float *c, long ldc, int add);
// mxgo_sgemm_block512_direct is mxgo_sgemm_block512 reading the mc x kc block of a from
// its rows (lda elements apart, contiguous along k) instead of packed slivers.
void mxgo_sgemm_block512_direct(long mc, long nc, long kc, const float *a, long lda, const float *pb, float *c,
				long ldc, int add);
void mxgo_dgemm_block512(long mc, long nc, long kc, const double *pa, const double *pb, double *c, long ldc,
			 int first, double alpha, double beta);

#endif
