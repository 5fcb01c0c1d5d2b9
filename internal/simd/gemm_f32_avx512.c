// The float32 product's AVX-512 tiles: where the CPU has AVX-512F, the loops over one
// packed block (gemm_f32.c's drive) run 12 x 32 tiles, two slivers of a against two of b
// in 24 ZMM accumulators, instead of AVX2's 6 x 16: twice the lanes per FMA, on the same
// packed layout. Each element still sums its terms in the same order with the same FMAs,
// so the bits equal the AVX2 kernel's.
#include "gemm_f32.h"

enum { MR = MXGO_SGEMM_MR, NR = MXGO_SGEMM_NR };

static int wide; // whether drive uses these tiles; read and written atomically

void mxgo_sgemm_set_avx512(int on) { __atomic_store_n(&wide, on, __ATOMIC_RELAXED); }

int mxgo_sgemm_avx512_on(void) { return __atomic_load_n(&wide, __ATOMIC_RELAXED); }

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX512 __attribute__((target("avx512f")))

int mxgo_sgemm_avx512_supported(void) { return mxgo_cpu_avx512(); }

static long lmin(long x, long y) { return x < y ? x : y; }

static __mmask16 lanes(long n) { return n >= 16 ? 0xffff : n <= 0 ? 0 : (__mmask16)((1u << n) - 1); }

// tile computes the product of na slivers of a (MR rows each, kc*MR floats apart) and nb
// slivers of b (NR columns each) over kc and stores it in (add: adds it to) the mr x nr
// corner at c. The slivers are zero-padded, so only the stores are masked. Inlined with
// na and nb constants, which fold the branches away.
AVX512 static inline __attribute__((always_inline)) void tile(long kc, const float *pa, const float *pb, float *c,
							      long ldc, long mr, long nr, int add, int na, int nb) {
	__m512 acc[2 * MR][2];
	const float *pa1 = pa + kc * MR, *pb1 = pb + kc * NR;
#pragma GCC unroll 12
	for (int i = 0; i < na * MR; i++)
		acc[i][0] = acc[i][1] = _mm512_setzero_ps();
#pragma GCC unroll 2
	for (long p = 0; p < kc; p++, pa += MR, pa1 += MR, pb += NR, pb1 += NR) {
		__m512 b0 = _mm512_load_ps(pb), b1 = nb == 2 ? _mm512_load_ps(pb1) : b0;
#pragma GCC unroll 12
		for (int i = 0; i < na * MR; i++) {
			__m512 ai = _mm512_set1_ps(i < MR ? pa[i] : pa1[i - MR]);
			acc[i][0] = _mm512_fmadd_ps(ai, b0, acc[i][0]);
			if (nb == 2)
				acc[i][1] = _mm512_fmadd_ps(ai, b1, acc[i][1]);
		}
	}
	__mmask16 m[2] = {lanes(nr), lanes(nr - NR)};
#pragma GCC unroll 12
	for (int i = 0; i < na * MR; i++, c += ldc) {
		if (i >= mr)
			break;
#pragma GCC unroll 2
		for (int h = 0; h < nb; h++) {
			if (add)
				acc[i][h] = _mm512_add_ps(acc[i][h], _mm512_maskz_loadu_ps(m[h], c + h * NR));
			_mm512_mask_storeu_ps(c + h * NR, m[h], acc[i][h]);
		}
	}
}

AVX512 void mxgo_sgemm_block512(long mc, long nc, long kc, const float *pa, const float *pb, float *c, long ldc,
				int add) {
	for (long jr = 0; jr < nc; jr += 2 * NR) {
		long nr = lmin(2 * NR, nc - jr);
		for (long ir = 0; ir < mc; ir += 2 * MR) {
			long mr = lmin(2 * MR, mc - ir);
			const float *a = pa + ir * kc, *b = pb + jr * kc;
			float *t = c + ir * ldc + jr;
			if (mr > MR && nr > NR)
				tile(kc, a, b, t, ldc, mr, nr, add, 2, 2);
			else if (mr > MR)
				tile(kc, a, b, t, ldc, mr, nr, add, 2, 1);
			else if (nr > NR)
				tile(kc, a, b, t, ldc, mr, nr, add, 1, 2);
			else
				tile(kc, a, b, t, ldc, mr, nr, add, 1, 1);
		}
	}
}

#else

int mxgo_sgemm_avx512_supported(void) { return 0; }

void mxgo_sgemm_block512(long mc, long nc, long kc, const float *pa, const float *pb, float *c, long ldc,
			 int add) {}

#endif
