#include "gemm_f32.h"
#include "gemm_avx512.h"
#include "par.h"

enum {
	MR = MXGO_SGEMM_MR,
	NR = MXGO_SGEMM_NR,
	KC = MXGO_SGEMM_KC,
	MC = MXGO_SGEMM_MC,
	NC = MXGO_SGEMM_NC,
};

static long lmin(long x, long y) { return x < y ? x : y; }
static long roundup(long x, long r) { return (x + r - 1) / r * r; }

long mxgo_sgemm_work(long m, long n, long k) {
	return lmin(k, KC) * (roundup(lmin(n, NC), NR) + roundup(lmin(m, MC), MR));
}

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2,fma")))

int mxgo_sgemm_supported(void) {
	return mxgo_cpu_avx2(1);
}

// transpose8 writes, for q < 8, element p + q of the `lines` (<= 8) lines at s (step
// apart; the missing ones read as zeros) to d + q*w, w floats apart: the first `width`
// of them (8, or 6 when w is MR).
AVX2 static inline void transpose8(const float *s, long step, long lines, float *d, int w, int width) {
	__m256 r[8], t[8], u[8];
	for (int l = 0; l < 8; l++)
		r[l] = l < lines ? _mm256_loadu_ps(s + l * step) : _mm256_setzero_ps();
	for (int l = 0; l < 8; l += 2) {
		t[l] = _mm256_unpacklo_ps(r[l], r[l + 1]);
		t[l + 1] = _mm256_unpackhi_ps(r[l], r[l + 1]);
	}
	for (int l = 0; l < 8; l += 4) {
		u[l] = _mm256_shuffle_ps(t[l], t[l + 2], 0x44);
		u[l + 1] = _mm256_shuffle_ps(t[l], t[l + 2], 0xee);
		u[l + 2] = _mm256_shuffle_ps(t[l + 1], t[l + 3], 0x44);
		u[l + 3] = _mm256_shuffle_ps(t[l + 1], t[l + 3], 0xee);
	}
	for (int q = 0; q < 8; q++) {
		__m256 col = _mm256_permute2f128_ps(u[q % 4], u[q % 4 + 4], q < 4 ? 0x20 : 0x31);
		if (width == 8) {
			_mm256_storeu_ps(d + q * w, col);
		} else { // 4 + 2 floats (a masked store is slow on AMD)
			_mm_storeu_ps(d + q * w, _mm256_castps256_ps128(col));
			_mm_storel_pi((__m64 *)(d + q * w + 4), _mm256_extractf128_ps(col, 1));
		}
	}
}

// pack copies n lines (rows of a, or columns of b) of kc elements into slivers of w
// lines stored k-step by k-step (w floats per step), zero-padding the last sliver. step
// is the distance between lines, kstep between the k-steps of one line. Inlined with w a
// constant, so the contiguous case is a fixed-length vector copy. Lines contiguous along k
// (a row-major a, a transposed b) are transposed 8 k-steps at a time in registers.
AVX2 static inline void pack(long n, long kc, const float *src, long step, long kstep, int w, float *dst) {
	for (long l0 = 0; l0 < n; l0 += w, src += w * step) {
		long lines = lmin(w, n - l0), p = 0;
		if (kstep == 1 && step != 1)
			for (; p + 8 <= kc; p += 8, dst += 8 * w)
				for (int h = 0; h < w; h += 8)
					transpose8(src + p + h * step, step, lines - h, dst + h, w, lmin(8, w - h));
		for (; p < kc; p++, dst += w) {
			const float *s = src + p * kstep;
			long l = 0;
			if (lines == w && step == 1) { // the sliver's lines are neighbours in memory
				for (; l + 8 <= w; l += 8)
					_mm256_storeu_ps(dst + l, _mm256_loadu_ps(s + l));
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

// pack_a: an mc x kc block of a into slivers of MR rows, column by column.
AVX2 static void pack_a(long mc, long kc, const float *a, long rs, long cs, float *dst) { pack(mc, kc, a, rs, cs, MR, dst); }

// pack_b: a kc x nc block of b into slivers of NR columns, row by row.
AVX2 static void pack_b(long kc, long nc, const float *b, long rs, long cs, float *dst) { pack(nc, kc, b, cs, rs, NR, dst); }

// kernel computes the MR x NR product of a packed sliver pair over kc and stores it in
// (add: adds it to) the mr x nr tile at c. A partial tile goes through a buffer so that
// nothing outside the tile is read or written.
AVX2 static void kernel(long kc, const float *pa, const float *pb, float *c, long ldc,
			long mr, long nr, int add) {
	__m256 acc[MR][2];
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++)
		acc[i][0] = acc[i][1] = _mm256_setzero_ps();
#pragma GCC unroll 4
	for (long p = 0; p < kc; p++, pa += MR, pb += NR) {
		__m256 b0 = _mm256_load_ps(pb), b1 = _mm256_load_ps(pb + 8);
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			__m256 ai = _mm256_broadcast_ss(pa + i);
			acc[i][0] = _mm256_fmadd_ps(ai, b0, acc[i][0]);
			acc[i][1] = _mm256_fmadd_ps(ai, b1, acc[i][1]);
		}
	}
	if (mr == MR && nr == NR) {
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++, c += ldc) {
			if (add) {
				acc[i][0] = _mm256_add_ps(acc[i][0], _mm256_loadu_ps(c));
				acc[i][1] = _mm256_add_ps(acc[i][1], _mm256_loadu_ps(c + 8));
			}
			_mm256_storeu_ps(c, acc[i][0]);
			_mm256_storeu_ps(c + 8, acc[i][1]);
		}
		return;
	}
	float tile[MR][NR] __attribute__((aligned(32)));
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++) {
		_mm256_store_ps(tile[i], acc[i][0]);
		_mm256_store_ps(tile[i] + 8, acc[i][1]);
	}
	for (long i = 0; i < mr; i++, c += ldc)
		for (long j = 0; j < nr; j++)
			c[j] = add ? c[j] + tile[i][j] : tile[i][j];
}

// split reports how 8 columns from j read the image: the lane q (1 to 8) where the run of
// neighbours from lane 0 ends (one output line at unit stride), when lanes q to 7 are a
// run too (the next line); 0 otherwise. A row of them is then one or two masked loads,
// else a masked gather.
static int split(const mxgo_gather *g, long j) {
	int q = 1;
	while (q < 8 && g->ch[j + q] == g->ch[j] && g->cw[j + q] == g->cw[j] + q && g->co[j + q] == g->co[j] + q)
		q++;
	for (int l = q + 1; l < 8; l++)
		if (g->ch[j + l] != g->ch[j + q] || g->cw[j + l] != g->cw[j + q] + l - q ||
		    g->co[j + l] != g->co[j + q] + l - q)
			return 0;
	return q;
}

// pack_gathered: a kc x nc block of the gathered matrix g (rows from r0, columns from j0)
// into slivers of NR columns, row by row; elements outside the image read as zeros
// (masked loads and gathers, which touch no masked-out address).
AVX2 static void pack_gathered(long kc, long nc, const mxgo_gather *g, long r0, long j0, float *dst) {
	const __m256i flip = _mm256_set1_epi32((int)0x80000000), lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	const __m256i hh = _mm256_xor_si256(_mm256_set1_epi32(g->h), flip), ww = _mm256_xor_si256(_mm256_set1_epi32(g->w), flip);
	for (long l0 = 0; l0 < nc; l0 += NR) {
		__m256i co[2], ch[2], cw[2], first[2];
		int q[2];
		long base[2][2];
		for (int h = 0; h < 2; h++) {
			long j = j0 + l0 + 8 * h, lines = lmin(8, nc - l0 - 8 * h);
			if (lines == 8) {
				co[h] = _mm256_loadu_si256((const __m256i *)(g->co + j));
				ch[h] = _mm256_loadu_si256((const __m256i *)(g->ch + j));
				cw[h] = _mm256_loadu_si256((const __m256i *)(g->cw + j));
				q[h] = split(g, j);
				if (q[h]) { // lanes below q[h] from the first run, the others from the second
					first[h] = _mm256_cmpgt_epi32(_mm256_set1_epi32(q[h]), lane);
					base[h][0] = g->co[j];
					base[h][1] = q[h] < 8 ? g->co[j + q[h]] - q[h] : 0;
				}
				continue;
			}
			int32_t o[8] = {0}, y[8], x[8];
			for (int l = 0; l < 8; l++) { // missing columns: out of every image
				y[l] = l < lines ? g->ch[j + l] : -(1 << 30);
				x[l] = l < lines ? g->cw[j + l] : 0;
				if (l < lines)
					o[l] = g->co[j + l];
			}
			co[h] = _mm256_loadu_si256((const __m256i *)o);
			ch[h] = _mm256_loadu_si256((const __m256i *)y);
			cw[h] = _mm256_loadu_si256((const __m256i *)x);
			q[h] = 0;
		}
		for (long p = r0; p < r0 + kc; p++, dst += NR) {
			__m256i ro = _mm256_set1_epi32(g->ro[p]), rh = _mm256_set1_epi32(g->rh[p]), rw = _mm256_set1_epi32(g->rw[p]);
			for (int h = 0; h < 2; h++) {
				// 0 <= y < h as one signed compare of the sign-flipped values
				__m256i y = _mm256_xor_si256(_mm256_add_epi32(rh, ch[h]), flip);
				__m256i x = _mm256_xor_si256(_mm256_add_epi32(rw, cw[h]), flip);
				__m256i in = _mm256_and_si256(_mm256_cmpgt_epi32(hh, y), _mm256_cmpgt_epi32(ww, x));
				__m256 v;
				if (q[h]) {
					const float *row = g->x + g->ro[p];
					v = _mm256_maskload_ps(row + base[h][0], _mm256_and_si256(in, first[h]));
					if (q[h] < 8)
						v = _mm256_or_ps(v, _mm256_maskload_ps(row + base[h][1], _mm256_andnot_si256(first[h], in)));
				} else {
					v = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), g->x, _mm256_add_epi32(ro, co[h]),
								    _mm256_castsi256_ps(in), 4);
				}
				_mm256_store_ps(dst + 8 * h, v);
			}
		}
	}
}

enum { DIRECT_N = 512 }; // the most columns of c for which drive reads a unpacked

// reads_a reports whether drive reads a (n columns of c, rows ars apart, elements acs
// apart) unpacked: see drive.
static int reads_a(int wide, long n, long ars, long acs) {
	return wide && acs == 1 && ars % 1024 != 0 && n <= DIRECT_N;
}

// The loops around the kernel (Goto's algorithm): pack a KC x NC block of b, then for
// each MC x KC block of a pack it and run the kernel over its tiles, the b sliver
// outermost so that it stays in L1. b is strided, or gathered when g is set. The AVX-512
// tiles read a row-major a from its rows (broadcasts from any address cost the same),
// where packing would transpose it: ~15% of a 64x784x512 product's time. Only where few
// columns (DIRECT_N) share each packed element of a, and rows not 4 KiB apart (or a
// multiple), where the tile's 12 rows share one L1 set: a 1024x1024 product on both
// cores ran at 180-230 GFLOP/s instead of 225-255.
AVX2 static void drive(long m, long n, long k, const float *a, long ars, long acs, const float *b, long brs,
		       long bcs, const mxgo_gather *g, float *c, long ldc, float *work, int wide) {
	float *pb = work; // first: its size is a multiple of 16 floats, pa stays aligned
	float *pa = work + lmin(k, KC) * roundup(lmin(n, NC), NR);
	int direct = reads_a(wide, n, ars, acs);
	for (long jc = 0; jc < n; jc += NC) {
		long nc = lmin(NC, n - jc);
		for (long pc = 0; pc < k; pc += KC) {
			long kc = lmin(KC, k - pc);
			if (g)
				pack_gathered(kc, nc, g, pc, jc, pb);
			else
				pack_b(kc, nc, b + pc * brs + jc * bcs, brs, bcs, pb);
			for (long ic = 0; ic < m; ic += MC) {
				long mc = lmin(MC, m - ic);
				if (direct) { // a's rows as they are: packing them was transposing
					mxgo_sgemm_block512_direct(mc, nc, kc, a + ic * ars + pc, ars, pb, c + ic * ldc + jc,
								   ldc, pc > 0);
					continue;
				}
				pack_a(mc, kc, a + ic * ars + pc * acs, ars, acs, pa);
				if (wide) {
					mxgo_sgemm_block512(mc, nc, kc, pa, pb, c + ic * ldc + jc, ldc, pc > 0);
					continue;
				}
				for (long jr = 0; jr < nc; jr += NR)
					for (long ir = 0; ir < mc; ir += MR)
						kernel(kc, pa + ir * kc, pb + jr * kc, c + (ic + ir) * ldc + jc + jr,
						       ldc, lmin(MR, mc - ir), lmin(NR, nc - jr), pc > 0);
			}
		}
	}
}

// untranspose copies t, n rows of m, into c (m rows, ldc apart) as its transpose.
AVX2 static void untranspose(long m, long n, const float *t, float *c, long ldc) {
	long j = 0;
	for (; j + 8 <= n; j += 8) {
		long i = 0;
		for (; i + 8 <= m; i += 8)
			transpose8(t + j * m + i, m, 8, c + i * ldc + j, ldc, 8);
		for (; i < m; i++)
			for (long q = 0; q < 8; q++)
				c[i * ldc + j + q] = t[(j + q) * m + i];
	}
	for (; j < n; j++)
		for (long i = 0; i < m; i++)
			c[i * ldc + j] = t[j * m + i];
}

// A product whose b is transposed (its columns contiguous along k: a dense layer's
// weights) packed b by transposing it. With the AVX-512 tiles, which read a row-major a
// as it is, the product of the transposes, c^T = b^T a^T, reads b that way instead and
// packs a, the smaller when m < n; c^T goes to the work buffer and is transposed into c
// at the end. Every element sums the same terms in the same order, so the bits are the
// same. It takes the swap when c^T and the packed a fit where packing b and a would, and
// b's rows are read as they are (drive).
AVX2 void mxgo_sgemm(long m, long n, long k, const float *a, long ars, long acs,
		     const float *b, long brs, long bcs, float *c, long ldc, float *work) {
	long packed = lmin(k, KC) * roundup(m, NR);
	int wide = mxgo_gemm_avx512_on(); // once: the swapped product's c^T lies where a would be packed
	if (m < n && n <= NC && acs == 1 && bcs != 1 && reads_a(wide, m, bcs, brs) &&
	    packed + n * m <= mxgo_sgemm_work(m, n, k)) {
		float *t = work + packed; // 64-byte aligned: packed is a multiple of 16 floats
		drive(n, m, k, b, bcs, brs, a, acs, ars, NULL, t, m, work, wide);
		untranspose(m, n, t, c, ldc);
		return;
	}
	drive(m, n, k, a, ars, acs, b, brs, bcs, NULL, c, ldc, work, wide);
}

typedef struct {
	long m, n, k, ars, acs, ldc, chunk, wstride;
	const float *a;
	const mxgo_gather *g;
	float *c, *work;
} gathered_split;

AVX2 static void gathered_block(void *ctx, long t) {
	const gathered_split *s = ctx;
	long lo = t * s->chunk, n = lmin(s->chunk, s->n - lo);
	mxgo_gather g = *s->g;
	g.co += lo, g.ch += lo, g.cw += lo;
	drive(s->m, n, s->k, s->a, s->ars, s->acs, NULL, 0, 0, &g, s->c + lo, s->ldc, s->work + t * s->wstride,
	      mxgo_gemm_avx512_on());
}

void mxgo_sgemm_gathered(long width, long chunk, long m, long n, long k, const float *a, long ars, long acs,
			 const float *x, const int32_t *tabs, int32_t h, int32_t w, float *c, long ldc, float *work,
			 long wstride) {
	mxgo_gather g = {.x = x, .ro = tabs, .rh = tabs + k, .rw = tabs + 2 * k, .co = tabs + 3 * k,
			 .ch = tabs + 3 * k + n, .cw = tabs + 3 * k + 2 * n, .h = h, .w = w};
	gathered_split s = {.m = m, .n = n, .k = k, .ars = ars, .acs = acs, .ldc = ldc, .chunk = chunk,
			    .wstride = wstride, .a = a, .g = &g, .c = c, .work = work};
	mxgo_par((n + chunk - 1) / chunk, width, gathered_block, &s);
}

// mxgo_sgemv: the rows of m are dot products with x when they are contiguous;
// otherwise (contiguous columns) y is a sum of columns, built in chunks of GEMV_ROWS
// rows that stay in L1.
enum { GEMV_ROWS = 1024 };

AVX2 void mxgo_sgemv(long rows, long k, const float *m, long rs, long cs, const float *x,
		     float *y, long ys) {
	if (cs == 1) {
		for (long i = 0; i < rows; i++) {
			const float *r = m + i * rs;
			__m256 s[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
				       _mm256_setzero_ps()};
			long p = 0;
			for (; p + 32 <= k; p += 32)
#pragma GCC unroll 4
				for (int u = 0; u < 4; u++)
					s[u] = _mm256_fmadd_ps(_mm256_loadu_ps(r + p + 8 * u),
							       _mm256_loadu_ps(x + p + 8 * u), s[u]);
			for (; p + 8 <= k; p += 8)
				s[0] = _mm256_fmadd_ps(_mm256_loadu_ps(r + p), _mm256_loadu_ps(x + p), s[0]);
			__m256 t = _mm256_add_ps(_mm256_add_ps(s[0], s[1]), _mm256_add_ps(s[2], s[3]));
			__m128 h = _mm_add_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
			h = _mm_add_ps(h, _mm_movehl_ps(h, h));
			float sum = _mm_cvtss_f32(_mm_add_ss(h, _mm_movehdup_ps(h)));
			for (; p < k; p++)
				sum += r[p] * x[p];
			y[i * ys] = sum;
		}
		return;
	}
	float acc[GEMV_ROWS] __attribute__((aligned(32)));
	for (long i0 = 0; i0 < rows; i0 += GEMV_ROWS, m += GEMV_ROWS * rs) {
		long nr = lmin(GEMV_ROWS, rows - i0);
		for (long i = 0; i < nr; i++)
			acc[i] = 0;
		for (long p = 0; p < k; p++) {
			const float *col = m + p * cs;
			__m256 xp = _mm256_set1_ps(x[p]);
			long i = 0;
			for (; i + 8 <= nr; i += 8)
				_mm256_store_ps(acc + i, _mm256_fmadd_ps(xp, _mm256_loadu_ps(col + i), _mm256_load_ps(acc + i)));
			for (; i < nr; i++)
				acc[i] = __builtin_fmaf(x[p], col[i], acc[i]); // as the vector lanes: bits independent of the split
		}
		for (long i = 0; i < nr; i++)
			y[(i0 + i) * ys] = acc[i];
	}
}

#else

int mxgo_sgemm_supported(void) { return 0; }

void mxgo_sgemm(long m, long n, long k, const float *a, long ars, long acs,
		const float *b, long brs, long bcs, float *c, long ldc, float *work) {}

void mxgo_sgemv(long rows, long k, const float *m, long rs, long cs, const float *x,
		float *y, long ys) {}

void mxgo_sgemm_gathered(long width, long chunk, long m, long n, long k, const float *a, long ars, long acs,
			 const float *x, const int32_t *tabs, int32_t h, int32_t w, float *c, long ldc, float *work,
			 long wstride) {}

#endif

static void sgemm_block(const mxgo_gemm_split *s, long m, long n, const char *a, const char *b, char *c,
			char *work) {
	mxgo_sgemm(m, n, s->k, (const float *)a, s->ars, s->acs, (const float *)b, s->brs, s->bcs, (float *)c,
		   s->ldc, (float *)work);
}

void mxgo_sgemm_par(long width, int rows, long chunk, long m, long n, long k, const float *a, long ars,
		    long acs, const float *b, long brs, long bcs, float *c, long ldc, float *work, long wstride) {
	mxgo_gemm_split s = {.run = sgemm_block, .m = m, .n = n, .k = k, .esize = sizeof(float),
			     .a = (const char *)a, .b = (const char *)b, .c = (char *)c, .ars = ars, .acs = acs,
			     .brs = brs, .bcs = bcs, .ldc = ldc, .work = (char *)work,
			     .wstride = wstride * (long)sizeof(float), .chunk = chunk, .rows = rows};
	mxgo_gemm_split_run(&s, width);
}
