// Packed, cache-blocked float32 matrix product with an AVX2+FMA micro-kernel
// (gemm_f32.c); driven from Go by gemm.go.
#ifndef MXGO_GEMM_F32_H
#define MXGO_GEMM_F32_H

#include <stdint.h>

// Register tile (MR x NR), and the blocking: a KC x NC block of b is packed once and
// reused for every MC x KC block of a (L2), whose MR-row slivers stream past one
// KC x NR sliver of b (L1).
enum {
	MXGO_SGEMM_MR = 6,
	MXGO_SGEMM_NR = 16,
	MXGO_SGEMM_KC = 256,
	MXGO_SGEMM_MC = 168,
	MXGO_SGEMM_NC = 4080,
};

// mxgo_sgemm_supported reports whether the CPU (and OS) run AVX2 and FMA.
int mxgo_sgemm_supported(void);

// mxgo_sgemm sets c[i*ldc + j] = sum_p a[i*ars + p*acs] * b[p*brs + j*bcs] for
// i < m, j < n, p < k (m, n, k > 0; any strides, c may hold garbage). work is 64-byte
// aligned and holds mxgo_sgemm_work(m, n, k) floats.
void mxgo_sgemm(long m, long n, long k, const float *a, long ars, long acs,
		const float *b, long brs, long bcs, float *c, long ldc, float *work);

// mxgo_sgemm_par is mxgo_sgemm cut into blocks of chunk rows of c (rows set) or chunk
// columns, run on up to width threads (par.h); block t uses the wstride floats of work
// from t * wstride, which hold mxgo_sgemm_work of a block's size.
void mxgo_sgemm_par(long width, int rows, long chunk, long m, long n, long k, const float *a, long ars,
		    long acs, const float *b, long brs, long bcs, float *c, long ldc, float *work, long wstride);

// A matrix gathered from an image (a convolution's im2col, never built): element (r, j)
// is x[ro[r] + co[j]] where 0 <= rh[r] + ch[j] < h and 0 <= rw[r] + cw[j] < w, else 0.
// The row tables have k entries, the column ones n (the product's b).
typedef struct {
	const float *x;
	const int32_t *ro, *rh, *rw, *co, *ch, *cw;
	int32_t h, w;
} mxgo_gather;

// mxgo_sgemm_gathered is mxgo_sgemm_par with b gathered from x, cut into blocks of chunk
// columns of c; tabs holds the tables ro, rh, rw (k each) then co, ch, cw (n each).
void mxgo_sgemm_gathered(long width, long chunk, long m, long n, long k, const float *a, long ars, long acs,
			 const float *x, const int32_t *tabs, int32_t h, int32_t w, float *c, long ldc, float *work,
			 long wstride);

// mxgo_sgemv sets y[i*ys] = sum_p m[i*rs + p*cs] * x[p] for i < rows, p < k
// (rows, k > 0), where cs == 1, rs == 1 or rows == 1: a product with a vector.
void mxgo_sgemv(long rows, long k, const float *m, long rs, long cs, const float *x,
		float *y, long ys);

// mxgo_sgemm_work is the size of mxgo_sgemm's work buffer in floats.
long mxgo_sgemm_work(long m, long n, long k);

#endif
