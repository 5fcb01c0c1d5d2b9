#include "conv2d_avx512.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX512 __attribute__((target("avx512f")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_conv2d_supported(void) { return mxgo_cpu_avx512(); }

enum {
	FB = 8,  // filters a tile: 8 x 2 accumulators, two input vectors and a broadcast
	XV = 16, // outputs a vector
};

// lanes is the mask of the first n of 16 lanes (none when n <= 0).
static __mmask16 lanes(long n) { return n >= 16 ? 0xffff : n <= 0 ? 0 : (__mmask16)((1u << n) - 1); }

// tile computes, for filters [f0, f0 + nf) (nf <= FB) of one image over taps [p0, p1)
// (their weights at wp, tap by tap, FB filters each: image packs them),
// two vectors of outputs: vector v is outputs [ox[v], ox[v] + nx[v]) (nx[v] <= XV, 0 for
// none) of output row oy[v]; it adds the block to y unless first. Input lanes outside the
// image read zeros (masked loads, which touch no masked-out address), and taps there
// still multiply them. The loops step through (channel, tap row, tap column) so that the
// inner one only loads, broadcasts and multiplies; the masks of each tap column are made
// once a tile (kw <= KWMAX).
enum { KWMAX = 16, KCMAX = 256 };

// store writes (or, unless first, adds) the first n lanes of r at o.
AVX512 INLINE void store(float *o, long n, __m512 r, int first) {
	if (n <= 0)
		return;
	__mmask16 m = lanes(n);
	if (!first)
		r = _mm512_add_ps(_mm512_maskz_loadu_ps(m, o), r);
	_mm512_mask_storeu_ps(o, m, r);
}

AVX512 INLINE void tile(const mxgo_conv2d *g, const float *x, const float *wp, float *y, const long *oy,
			const long *ox, const long *nx, long f0, long nf, long p0, long p1, int first) {
	__m512 a0[FB], a1[FB]; // the two vectors' accumulators, never indexed at run time
#pragma GCC unroll 8
	for (int f = 0; f < FB; f++)
		a0[f] = a1[f] = _mm512_setzero_ps();
	__mmask16 m[2][KWMAX];
	for (int v = 0; v < 2; v++)
		for (long kx = 0; kx < g->kw; kx++) { // lanes l < nx[v] with 0 <= lo + l < w
			long lo = ox[v] + kx - g->pw;
			__mmask16 mk = lanes(nx[v]) & lanes(g->w - lo);
			m[v][kx] = lo < 0 ? mk & (__mmask16)~lanes(-lo) : mk;
		}
	long p = 0;
	for (long c = 0; c < g->cg; c++)
		for (long ky = 0; ky < g->kh; ky++) {
			if (p + g->kw <= p0 || p >= p1) {
				p += g->kw;
				continue;
			}
			const float *row[2];
			for (int v = 0; v < 2; v++) {
				long iy = oy[v] + ky - g->ph;
				row[v] = iy >= 0 && iy < g->h && nx[v] > 0 ? x + (c * g->h + iy) * g->w + ox[v] - g->pw : NULL;
			}
			for (long kx = 0; kx < g->kw; kx++, p++) {
				if (p < p0 || p >= p1)
					continue;
				__m512 in0 = row[0] ? _mm512_maskz_loadu_ps(m[0][kx], row[0] + kx) : _mm512_setzero_ps();
				__m512 in1 = row[1] ? _mm512_maskz_loadu_ps(m[1][kx], row[1] + kx) : _mm512_setzero_ps();
#pragma GCC unroll 8
				for (int f = 0; f < FB; f++) {
					__m512 wv = _mm512_set1_ps(wp[(p - p0) * FB + f]);
					a0[f] = _mm512_fmadd_ps(wv, in0, a0[f]);
					a1[f] = _mm512_fmadd_ps(wv, in1, a1[f]);
				}
			}
		}
#pragma GCC unroll 8
	for (int f = 0; f < FB; f++)
		if (f < nf) {
			store(y + ((f0 + f) * g->oh + oy[0]) * g->ow + ox[0], nx[0], a0[f], first);
			store(y + ((f0 + f) * g->oh + oy[1]) * g->ow + ox[1], nx[1], a1[f], first);
		}
}

AVX512 static void image(const mxgo_conv2d *g, const float *x, const float *w, float *y) {
	long k = g->cg * g->kh * g->kw;
	float wp[KCMAX * FB];
	for (long p0 = 0; p0 < k; p0 += g->kc) {
		long p1 = p0 + g->kc < k ? p0 + g->kc : k;
		for (long f0 = 0; f0 < g->fg; f0 += FB) {
			long nf = g->fg - f0 < FB ? g->fg - f0 : FB;
			for (long p = p0; p < p1; p++) // filters past nf repeat the last: computed, not stored
				for (int f = 0; f < FB; f++)
					wp[(p - p0) * FB + f] = w[(f0 + (f < nf ? f : nf - 1)) * k + p];
			if (g->ow <= XV) { // two output rows a tile
				for (long oy = 0; oy < g->oh; oy += 2) {
					long ys[2] = {oy, oy + 1}, xs[2] = {0, 0}, ns[2] = {g->ow, oy + 1 < g->oh ? g->ow : 0};
					tile(g, x, wp, y, ys, xs, ns, f0, nf, p0, p1, p0 == 0);
				}
				continue;
			}
			for (long oy = 0; oy < g->oh; oy++) // 32 outputs of a row a tile
				for (long ox = 0; ox < g->ow; ox += 2 * XV) {
					long ys[2] = {oy, oy}, xs[2] = {ox, ox + XV};
					long ns[2] = {g->ow - ox < XV ? g->ow - ox : XV, g->ow - ox - XV < XV ? g->ow - ox - XV : XV};
					tile(g, x, wp, y, ys, xs, ns, f0, nf, p0, p1, p0 == 0);
				}
		}
	}
}

void mxgo_conv2d_f32(const mxgo_conv2d *g, const float *x, const float *w, float *y, long n0, long n1) {
	for (long i = n0; i < n1; i++)
		image(g, x + i * g->xs, w, y + i * g->ys);
}

#else

int mxgo_conv2d_supported(void) { return 0; }

void mxgo_conv2d_f32(const mxgo_conv2d *g, const float *x, const float *w, float *y, long n0, long n1) {
	(void)g, (void)x, (void)w, (void)y, (void)n0, (void)n1;
}

#endif
