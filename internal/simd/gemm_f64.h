// Packed, cache-blocked float64 matrix product with an AVX2+FMA micro-kernel
// (gemm_f64.c), the float64 twin of gemm_f32.c; driven from Go by gemm64.go.
#ifndef MXGO_GEMM_F64_H
#define MXGO_GEMM_F64_H

// Register tile (MR x NR doubles: 12 accumulators), and the blocking as gemm_f32.h's
// with half as many elements per byte.
enum {
	MXGO_DGEMM_MR = 6,
	MXGO_DGEMM_NR = 8,
	MXGO_DGEMM_KC = 256,
	MXGO_DGEMM_MC = 96,
	MXGO_DGEMM_NC = 2040,
};

// mxgo_dgemm_supported reports whether the CPU (and OS) run AVX2 and FMA.
int mxgo_dgemm_supported(void);

// mxgo_dgemm sets c[i*ldc + j] = alpha * sum_p a[i*ars + p*acs] * b[p*brs + j*bcs]
// + beta * c[i*ldc + j] for i < m, j < n, p < k (m, n, k > 0; any strides). c is not
// read when beta is 0 (it may hold garbage); with alpha 1 and beta 0 the result is the
// plain sum. work is 64-byte aligned and holds mxgo_dgemm_work(m, n, k) doubles.
void mxgo_dgemm(long m, long n, long k, double alpha, const double *a, long ars, long acs,
		const double *b, long brs, long bcs, double beta, double *c, long ldc, double *work);

// mxgo_dgemm_par is mxgo_dgemm cut into blocks of c as mxgo_sgemm_par cuts its product.
void mxgo_dgemm_par(long width, int rows, long chunk, long m, long n, long k, double alpha, const double *a,
		    long ars, long acs, const double *b, long brs, long bcs, double beta, double *c, long ldc,
		    double *work, long wstride);

// mxgo_dgemm_work is the size of mxgo_dgemm's work buffer in doubles.
long mxgo_dgemm_work(long m, long n, long k);

#endif
