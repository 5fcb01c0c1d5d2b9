#include "gemm_f64.h"
#include "gemm_avx512.h"
#include "par.h"

enum {
	MR = MXGO_DGEMM_MR,
	NR = MXGO_DGEMM_NR,
	KC = MXGO_DGEMM_KC,
	MC = MXGO_DGEMM_MC,
	NC = MXGO_DGEMM_NC,
};

static long lmin(long x, long y) { return x < y ? x : y; }
static long roundup(long x, long r) { return (x + r - 1) / r * r; }

long mxgo_dgemm_work(long m, long n, long k) {
	return lmin(k, KC) * (roundup(lmin(n, NC), NR) + roundup(lmin(m, MC), MR));
}

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2,fma")))

int mxgo_dgemm_supported(void) {
	return mxgo_cpu_avx2(1);
}

// pack copies n lines (rows of a, or columns of b) of kc elements into slivers of w
// lines stored k-step by k-step (w doubles per step), zero-padding the last sliver.
// step is the distance between lines, kstep between the k-steps of one line. Lines
// contiguous along k are read 4 k-steps at a time and transposed in registers.
AVX2 static inline void pack(long n, long kc, const double *src, long step, long kstep, int w, double *dst) {
	for (long l0 = 0; l0 < n; l0 += w, src += w * step) {
		long lines = lmin(w, n - l0), p = 0;
		if (kstep == 1 && step != 1 && lines == w)
			for (; p + 4 <= kc; p += 4, dst += 4 * w)
				for (int h = 0; h < w; h += 2) { // two lines, 4 k-steps: 4 pairs
					__m256d r0 = _mm256_loadu_pd(src + p + h * step);
					__m256d r1 = _mm256_loadu_pd(src + p + (h + 1) * step);
					__m256d lo = _mm256_unpacklo_pd(r0, r1), hi = _mm256_unpackhi_pd(r0, r1);
					_mm_storeu_pd(dst + h, _mm256_castpd256_pd128(lo));
					_mm_storeu_pd(dst + w + h, _mm256_castpd256_pd128(hi));
					_mm_storeu_pd(dst + 2 * w + h, _mm256_extractf128_pd(lo, 1));
					_mm_storeu_pd(dst + 3 * w + h, _mm256_extractf128_pd(hi, 1));
				}
		for (; p < kc; p++, dst += w) {
			const double *s = src + p * kstep;
			long l = 0;
			if (lines == w && step == 1) { // the sliver's lines are neighbours in memory
				for (; l + 4 <= w; l += 4)
					_mm256_storeu_pd(dst + l, _mm256_loadu_pd(s + l));
				for (; l < w; l++)
					dst[l] = s[l];
				continue;
			}
			for (; l < lines; l++)
				dst[l] = s[l * step];
			for (; l < w; l++)
				dst[l] = 0;
		}
	}
}

AVX2 static void pack_a(long mc, long kc, const double *a, long rs, long cs, double *dst) { pack(mc, kc, a, rs, cs, MR, dst); }

AVX2 static void pack_b(long kc, long nc, const double *b, long rs, long cs, double *dst) { pack(nc, kc, b, cs, rs, NR, dst); }

// kernel computes the MR x NR product of a packed sliver pair over kc and stores
// alpha times it plus beta c (first: the first k block; later ones add alpha times it)
// in the mr x nr tile at c. A partial tile goes through a buffer so that nothing
// outside the tile is read or written.
AVX2 static void kernel(long kc, const double *pa, const double *pb, double *c, long ldc,
			long mr, long nr, int first, double alpha, double beta) {
	__m256d acc[MR][2];
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++)
		acc[i][0] = acc[i][1] = _mm256_setzero_pd();
#pragma GCC unroll 4
	for (long p = 0; p < kc; p++, pa += MR, pb += NR) {
		__m256d b0 = _mm256_load_pd(pb), b1 = _mm256_load_pd(pb + 4);
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			__m256d ai = _mm256_broadcast_sd(pa + i);
			acc[i][0] = _mm256_fmadd_pd(ai, b0, acc[i][0]);
			acc[i][1] = _mm256_fmadd_pd(ai, b1, acc[i][1]);
		}
	}
	double tile[MR][NR] __attribute__((aligned(32)));
	double *t = &tile[0][0];
	long ldt = NR;
	int full = mr == MR && nr == NR;
	if (full) { // straight into c
		t = c;
		ldt = ldc;
	}
	__m256d va = _mm256_set1_pd(alpha), vb = _mm256_set1_pd(first ? beta : 1);
	int plain = alpha == 1 && first && beta == 0;
	for (int i = 0; i < MR; i++) {
		if (!plain) {
			acc[i][0] = _mm256_mul_pd(va, acc[i][0]);
			acc[i][1] = _mm256_mul_pd(va, acc[i][1]);
		}
		if (full && !(first && beta == 0)) {
			acc[i][0] = _mm256_fmadd_pd(vb, _mm256_loadu_pd(c + i * ldc), acc[i][0]);
			acc[i][1] = _mm256_fmadd_pd(vb, _mm256_loadu_pd(c + i * ldc + 4), acc[i][1]);
		}
		_mm256_storeu_pd(t + i * ldt, acc[i][0]);
		_mm256_storeu_pd(t + i * ldt + 4, acc[i][1]);
	}
	if (full)
		return;
	double b = first ? beta : 1;
	for (long i = 0; i < mr; i++, c += ldc)
		for (long j = 0; j < nr; j++)
			c[j] = b == 0 ? tile[i][j] : __builtin_fma(b, c[j], tile[i][j]);
}

// The loops around the kernel (Goto's algorithm), as in gemm_f32.c.
AVX2 void mxgo_dgemm(long m, long n, long k, double alpha, const double *a, long ars, long acs,
		     const double *b, long brs, long bcs, double beta, double *c, long ldc, double *work) {
	double *pb = work; // first: its size is a multiple of 8 doubles, pa stays aligned
	double *pa = work + lmin(k, KC) * roundup(lmin(n, NC), NR);
	for (long jc = 0; jc < n; jc += NC) {
		long nc = lmin(NC, n - jc);
		for (long pc = 0; pc < k; pc += KC) {
			long kc = lmin(KC, k - pc);
			pack_b(kc, nc, b + pc * brs + jc * bcs, brs, bcs, pb);
			for (long ic = 0; ic < m; ic += MC) {
				long mc = lmin(MC, m - ic);
				pack_a(mc, kc, a + ic * ars + pc * acs, ars, acs, pa);
				if (mxgo_gemm_avx512_on()) {
					mxgo_dgemm_block512(mc, nc, kc, pa, pb, c + ic * ldc + jc, ldc, pc == 0, alpha, beta);
					continue;
				}
				for (long jr = 0; jr < nc; jr += NR)
					for (long ir = 0; ir < mc; ir += MR)
						kernel(kc, pa + ir * kc, pb + jr * kc, c + (ic + ir) * ldc + jc + jr, ldc,
						       lmin(MR, mc - ir), lmin(NR, nc - jr), pc == 0, alpha, beta);
			}
		}
	}
}

#else

int mxgo_dgemm_supported(void) { return 0; }

void mxgo_dgemm(long m, long n, long k, double alpha, const double *a, long ars, long acs,
		const double *b, long brs, long bcs, double beta, double *c, long ldc, double *work) {}

#endif

static void dgemm_block(const mxgo_gemm_split *s, long m, long n, const char *a, const char *b, char *c,
			char *work) {
	mxgo_dgemm(m, n, s->k, s->alpha, (const double *)a, s->ars, s->acs, (const double *)b, s->brs, s->bcs,
		   s->beta, (double *)c, s->ldc, (double *)work);
}

void mxgo_dgemm_par(long width, int rows, long chunk, long m, long n, long k, double alpha, const double *a,
		    long ars, long acs, const double *b, long brs, long bcs, double beta, double *c, long ldc,
		    double *work, long wstride) {
	mxgo_gemm_split s = {.run = dgemm_block, .m = m, .n = n, .k = k, .esize = sizeof(double),
			     .a = (const char *)a, .b = (const char *)b, .c = (char *)c, .ars = ars, .acs = acs,
			     .brs = brs, .bcs = bcs, .ldc = ldc, .work = (char *)work,
			     .wstride = wstride * (long)sizeof(double), .chunk = chunk, .rows = rows,
			     .alpha = alpha, .beta = beta};
	mxgo_gemm_split_run(&s, width);
}
