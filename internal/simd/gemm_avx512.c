// The products' AVX-512 tiles: where the CPU has AVX-512F, the loops over one packed
// block (gemm_f32.c's and gemm_f64.c's drivers) run tiles of two slivers of a against two
// of b in 24 ZMM accumulators (float32 12 x 32, float64 12 x 16) instead of AVX2's one
// against one: twice the lanes per FMA, on the same packed layout. Each element still sums
// its terms in the same order with the same FMAs, and is scaled and added to c with the
// same operations (c + acc as fma(1, c, acc): one rounding either way), so the bits equal
// the AVX2 kernels'.
#include "gemm_avx512.h"
#include "gemm_f32.h"
#include "gemm_f64.h"

static int wide; // whether the drivers use these tiles; read and written atomically

void mxgo_gemm_set_avx512(int on) { __atomic_store_n(&wide, on, __ATOMIC_RELAXED); }

int mxgo_gemm_avx512_on(void) { return __atomic_load_n(&wide, __ATOMIC_RELAXED); }

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX512 __attribute__((target("avx512f")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_gemm_avx512_supported(void) { return mxgo_cpu_avx512(); }

static long lmin(long x, long y) { return x < y ? x : y; }

// The first n of w lanes (none when n <= 0).
static unsigned lanes(long n, int w) { return n >= w ? (1u << w) - 1 : n <= 0 ? 0 : (1u << n) - 1; }

// TILES defines, for element type T in vectors V of NR lanes (one sliver of b), NAME_tile:
// the product of na slivers of a (MR rows each) and nb slivers of b over kc, scaled by
// alpha unless plain, plus vb times c where addc, stored in the mr x nr corner at c
// (masked: the slivers are zero-padded, only the stores need masks; inlined with na and nb
// constants, which fold the branches away). Element (i, p) of a sliver of a is at
// pa[i*ars + p*acs], its second sliver MR*rs elements on: packed (ars 1, acs MR, rs kc),
// or a's own rows (ars = rs = their distance, acs 1), read without packing (a partial
// tile reads its last row again for the rows it lacks, where packing pads). NAME_rows
// runs the tiles over an mc x kc block of a and a packed kc x nc block of b; NAME and
// NAME_direct are its packed and unpacked forms.
#define TILES(NAME, T, V, MR, NR, set1, setzero, load, fmadd, mul, maskz_loadu, mask_storeu)               \
	AVX512 INLINE void NAME##_tile(long kc, const T *pa, long ars, long acs, long rs, int direct, const T *pb, \
				       T *c, long ldc, long mr, long nr, int plain, T alpha, int addc, T vb,    \
				       int na, int nb) {                                                        \
		V acc[2 * MR][2];                                                                              \
		const T *pa1 = pa + MR * rs, *pb1 = pb + kc * NR;                                              \
		_Pragma("GCC unroll 12") for (int i = 0; i < na * MR; i++) acc[i][0] = acc[i][1] = setzero(); \
		_Pragma("GCC unroll 2") for (long p = 0; p < kc; p++, pa += acs, pa1 += acs, pb += NR, pb1 += NR) { \
			V b0 = load(pb), b1 = nb == 2 ? load(pb1) : b0;                                        \
			_Pragma("GCC unroll 12") for (int i = 0; i < na * MR; i++) {                           \
				long r = !direct || i < mr ? i : mr - 1; /* a's own rows: none past mr */       \
				V ai = set1(i < MR ? pa[r * ars] : pa1[(r - MR) * ars]);                       \
				acc[i][0] = fmadd(ai, b0, acc[i][0]);                                          \
				if (nb == 2)                                                                   \
					acc[i][1] = fmadd(ai, b1, acc[i][1]);                                  \
			}                                                                                      \
		}                                                                                              \
		const V va = set1(alpha), vbv = set1(vb);                                                      \
		unsigned m[2] = {lanes(nr, NR), lanes(nr - NR, NR)};                                           \
		_Pragma("GCC unroll 12") for (int i = 0; i < na * MR; i++, c += ldc) {                        \
			if (i >= mr)                                                                           \
				break;                                                                         \
			_Pragma("GCC unroll 2") for (int h = 0; h < nb; h++) {                                 \
				if (!plain)                                                                    \
					acc[i][h] = mul(va, acc[i][h]);                                        \
				if (addc)                                                                      \
					acc[i][h] = fmadd(vbv, maskz_loadu(m[h], c + h * NR), acc[i][h]);      \
				mask_storeu(c + h * NR, m[h], acc[i][h]);                                      \
			}                                                                                      \
		}                                                                                              \
	}                                                                                                      \
                                                                                                               \
	AVX512 INLINE void NAME##_rows(long mc, long nc, long kc, const T *pa, long ars, long acs, long rs,       \
				       int direct, const T *pb, T *c, long ldc, int plain, T alpha, int addc,   \
				       T vb) {                                                                  \
		for (long jr = 0; jr < nc; jr += 2 * NR) {                                                     \
			long nr = lmin(2 * NR, nc - jr);                                                       \
			for (long ir = 0; ir < mc; ir += 2 * MR) {                                             \
				long mr = lmin(2 * MR, mc - ir);                                               \
				const T *a = pa + ir * rs, *b = pb + jr * kc;                                  \
				T *t = c + ir * ldc + jr;                                                      \
				if (mr > MR && nr > NR)                                                        \
					NAME##_tile(kc, a, ars, acs, rs, direct, b, t, ldc, mr, nr, plain, alpha, addc, vb, 2, 2); \
				else if (mr > MR)                                                              \
					NAME##_tile(kc, a, ars, acs, rs, direct, b, t, ldc, mr, nr, plain, alpha, addc, vb, 2, 1); \
				else if (nr > NR)                                                              \
					NAME##_tile(kc, a, ars, acs, rs, direct, b, t, ldc, mr, nr, plain, alpha, addc, vb, 1, 2); \
				else                                                                           \
					NAME##_tile(kc, a, ars, acs, rs, direct, b, t, ldc, mr, nr, plain, alpha, addc, vb, 1, 1); \
			}                                                                                      \
		}                                                                                              \
	}                                                                                                      \
	AVX512 static void NAME(long mc, long nc, long kc, const T *pa, const T *pb, T *c, long ldc, int plain,  \
				T alpha, int addc, T vb) {                                                       \
		NAME##_rows(mc, nc, kc, pa, 1, MR, kc, 0, pb, c, ldc, plain, alpha, addc, vb);                \
	}                                                                                                      \
	__attribute__((unused)) AVX512 static void NAME##_direct(long mc, long nc, long kc, const T *a, long lda, const T *pb, T *c,    \
					 long ldc, int plain, T alpha, int addc, T vb) {                        \
		NAME##_rows(mc, nc, kc, a, lda, 1, lda, 1, pb, c, ldc, plain, alpha, addc, vb);               \
	}

TILES(sblock, float, __m512, MXGO_SGEMM_MR, MXGO_SGEMM_NR, _mm512_set1_ps, _mm512_setzero_ps, _mm512_load_ps,
      _mm512_fmadd_ps, _mm512_mul_ps, _mm512_maskz_loadu_ps, _mm512_mask_storeu_ps)
TILES(dblock, double, __m512d, MXGO_DGEMM_MR, MXGO_DGEMM_NR, _mm512_set1_pd, _mm512_setzero_pd, _mm512_load_pd,
      _mm512_fmadd_pd, _mm512_mul_pd, _mm512_maskz_loadu_pd, _mm512_mask_storeu_pd)

void mxgo_sgemm_block512(long mc, long nc, long kc, const float *pa, const float *pb, float *c, long ldc, int add) {
	sblock(mc, nc, kc, pa, pb, c, ldc, 1, 1, add, 1);
}

void mxgo_sgemm_block512_direct(long mc, long nc, long kc, const float *a, long lda, const float *pb, float *c,
				long ldc, int add) {
	sblock_direct(mc, nc, kc, a, lda, pb, c, ldc, 1, 1, add, 1);
}

void mxgo_dgemm_block512(long mc, long nc, long kc, const double *pa, const double *pb, double *c, long ldc,
			 int first, double alpha, double beta) {
	dblock(mc, nc, kc, pa, pb, c, ldc, alpha == 1 && first && beta == 0, alpha, !(first && beta == 0),
	       first ? beta : 1);
}

#else

int mxgo_gemm_avx512_supported(void) { return 0; }

void mxgo_sgemm_block512(long mc, long nc, long kc, const float *pa, const float *pb, float *c, long ldc, int add) {}

void mxgo_sgemm_block512_direct(long mc, long nc, long kc, const float *a, long lda, const float *pb, float *c,
				long ldc, int add) {}

void mxgo_dgemm_block512(long mc, long nc, long kc, const double *pa, const double *pb, double *c, long ldc,
			 int first, double alpha, double beta) {}

#endif
