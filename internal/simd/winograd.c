#include "winograd.h"

#include <stdlib.h>
#include <string.h>
#include "cpu.h"

#if defined(__x86_64__)
#define WIDE __attribute__((target("avx2,fma")))
static int wide(void) {
	static int w = -1;
	if (w < 0) w = mxgo_cpu_avx2(1);
	return w;
}
#else
#define WIDE
static int wide(void) { return 0; }
#endif

#define INLINE static inline __attribute__((always_inline))

// Each transform is an always-inline body called from two entry points, one compiled for
// AVX2 and FMA and one for the baseline, chosen at run time.

// FB filter pairs (filter, channel) are transformed at a time: their taps are first
// turned tap-major (kt[tap][pair]), so that the arithmetic runs down contiguous lanes and
// each of the 16 outputs is one contiguous store.
enum { FB = 64 };

INLINE void filters(const mxgo_wino *g, float *u, long ldu, const float *w, long f0, long f1) {
	float kt[9][FB];
	for (long p0 = f0 * g->c; p0 < f1 * g->c; p0 += FB) {
		long nb = f1 * g->c - p0 < FB ? f1 * g->c - p0 : FB;
		for (long q = 0; q < nb; q++)
			for (int k = 0; k < 9; k++) kt[k][q] = w[9 * (p0 + q) + k];
		for (int i = 0; i < 4; i++) { // row i of G g: taps combined down the kernel's columns
			float *o = u + 4 * i * ldu + p0;
			for (long q = 0; q < nb; q++) {
				float a0, a1, a2; // (G g)[i][0..2]
				if (i == 0) a0 = kt[0][q], a1 = kt[1][q], a2 = kt[2][q];
				else if (i == 3) a0 = kt[6][q], a1 = kt[7][q], a2 = kt[8][q];
				else {
					float sg = i == 1 ? 1.0f : -1.0f;
					a0 = 0.5f * (kt[0][q] + sg * kt[3][q] + kt[6][q]);
					a1 = 0.5f * (kt[1][q] + sg * kt[4][q] + kt[7][q]);
					a2 = 0.5f * (kt[2][q] + sg * kt[5][q] + kt[8][q]);
				}
				o[q] = a0; // (G g) G'
				o[ldu + q] = 0.5f * (a0 + a1 + a2);
				o[2 * ldu + q] = 0.5f * (a0 - a1 + a2);
				o[3 * ldu + q] = a2;
			}
		}
	}
}

// tile_run finds tile t's image and tile row, and the run of that row's tiles from t up
// to tile end (or the row's last): tx in [*tx0, *tx1).
INLINE void tile_run(const mxgo_wino *g, long t, long end, long *img, long *ty, long *tx0, long *tx1) {
	long tiles = g->th * g->tw;
	*img = t / tiles, *ty = t % tiles / g->tw, *tx0 = t % g->tw, *tx1 = g->tw;
	if (end - t < *tx1 - *tx0) *tx1 = *tx0 + (end - t);
}

// CL channels are transformed at a time, one in each lane: their 4 input rows under a
// tile row are first turned channel-minor (p[row][column][lane], zero in the padding and
// in lanes past the last channel), so that every step of a tile's transform is one
// 16-lane operation and its 16 results 16 contiguous floats of V (tiles by channels).
enum { CL = 16 };

// gather_rows fills p (4 rows of pwid columns of CL lanes) with the input rows under
// tile row ty of image img, channels [cb, cb + nl).
INLINE void gather_rows(const mxgo_wino *g, float *restrict p, long pwid, const float *x, long img, long ty, long cb,
			long nl) {
	memset(p, 0, (size_t)(4 * pwid * CL) * sizeof(float));
	for (int i = 0; i < 4; i++) {
		long y = 2 * ty - g->ph + i;
		if (y < 0 || y >= g->h) continue;
		float *row = p + (i * pwid + g->pw) * CL;
		for (long l = 0; l < nl; l++) {
			const float *src = x + ((img * g->c + cb + l) * g->h + y) * g->w;
			for (long k = 0; k < g->w; k++) row[k * CL + l] = src[k];
		}
	}
}

INLINE void inputs(const mxgo_wino *g, float *v, const float *x, long t0, long t1, long c0, long c1) {
	long nt = t1 - t0, ldxi = g->c * nt, pwid = 2 * g->tw + 2;
	float *p = malloc((size_t)(4 * pwid * CL) * sizeof(float));
	if (!p) abort(); // 4 rows of at most 2 MXGO_WINO_MAX_TW + 2 columns
	for (long cb = c0; cb < c1; cb += CL) {
		long nl = c1 - cb < CL ? c1 - cb : CL;
		for (long t = t0; t < t1;) {
			long img, ty, tx0, tx1;
			tile_run(g, t, t1, &img, &ty, &tx0, &tx1);
			gather_rows(g, p, pwid, x, img, ty, cb, nl);
			for (long tx = tx0; tx < tx1; tx++) {
				const float *d = p + 2 * tx * CL; // d[(i pwid + j) CL + l]: row i, column j of the tile
				float vt[16][CL]; // B' d: row i of it, column j, at vt[4 i + j]
				for (int j = 0; j < 4; j++) {
					for (long l = 0; l < CL; l++) {
						float d0 = d[j * CL + l], d1 = d[(pwid + j) * CL + l], d2 = d[(2 * pwid + j) * CL + l],
						      d3 = d[(3 * pwid + j) * CL + l];
						vt[j][l] = d0 - d2, vt[4 + j][l] = d1 + d2, vt[8 + j][l] = d2 - d1, vt[12 + j][l] = d1 - d3;
					}
				}
				float *out = v + (t - t0 + tx - tx0) * g->c + cb;
				for (int i = 0; i < 4; i++) {
					const float *a0 = vt[4 * i], *a1 = vt[4 * i + 1], *a2 = vt[4 * i + 2], *a3 = vt[4 * i + 3];
					float *o = out + 4 * i * ldxi;
					for (long l = 0; l < nl; l++) {
						o[l] = a0[l] - a2[l];
						o[ldxi + l] = a1[l] + a2[l];
						o[2 * ldxi + l] = a2[l] - a1[l];
						o[3 * ldxi + l] = a1[l] - a3[l];
					}
				}
			}
			t += tx1 - tx0;
		}
	}
	free(p);
}

// OB tiles' outputs are computed at a time, into q, before they are written out.
enum { OB = 256 };

INLINE void outputs(const mxgo_wino *g, float *y, const float *m, const float *bias, long t0, long t1, long f0,
		    long f1) {
	long nt = t1 - t0, ldxi = g->f * nt;
	float q[4][OB]; // q[2a + b][t]: output (a, b) of tile t
	for (long f = f0; f < f1; f++) {
		float b0 = bias ? bias[f] : 0;
		for (long s0 = t0; s0 < t1; s0 += OB) {
			long s1 = t1 - s0 < OB ? t1 : s0 + OB;
			const float *in = m + f * nt + (s0 - t0);
			for (long k = 0; k < s1 - s0; k++) { // A' M A over a run of tiles
				const float *p = in + k;
				float u00 = p[0] + p[4 * ldxi] + p[8 * ldxi], u10 = p[4 * ldxi] - p[8 * ldxi] - p[12 * ldxi];
				float u01 = p[ldxi] + p[5 * ldxi] + p[9 * ldxi], u11 = p[5 * ldxi] - p[9 * ldxi] - p[13 * ldxi];
				float u02 = p[2 * ldxi] + p[6 * ldxi] + p[10 * ldxi], u12 = p[6 * ldxi] - p[10 * ldxi] - p[14 * ldxi];
				float u03 = p[3 * ldxi] + p[7 * ldxi] + p[11 * ldxi], u13 = p[7 * ldxi] - p[11 * ldxi] - p[15 * ldxi];
				q[0][k] = u00 + u01 + u02 + b0;
				q[1][k] = u01 - u02 - u03 + b0;
				q[2][k] = u10 + u11 + u12 + b0;
				q[3][k] = u11 - u12 - u13 + b0;
			}
			for (long t = s0; t < s1;) { // written out a tile row at a time
				long img, ty, tx0, tx1;
				tile_run(g, t, s1, &img, &ty, &tx0, &tx1);
				float *plane = y + (img * g->f + f) * g->oh * g->ow;
				long full = tx1, k0 = t - s0 - tx0; // full: tiles whose two columns are both inside
				if (2 * full > g->ow) full = g->ow / 2;
				for (int a = 0; a < 2 && 2 * ty + a < g->oh; a++) {
					float *row = plane + (2 * ty + a) * g->ow;
					const float *qa = q[2 * a] + k0, *qb = q[2 * a + 1] + k0;
					for (long tx = tx0; tx < full; tx++) {
						row[2 * tx] = qa[tx];
						row[2 * tx + 1] = qb[tx];
					}
					if (full < tx1) row[2 * full] = qa[full]; // an odd width's last column
				}
				t += tx1 - tx0;
			}
		}
	}
}

WIDE static void filters_wide(const mxgo_wino *g, float *u, long ldu, const float *w, long f0, long f1) {
	filters(g, u, ldu, w, f0, f1);
}
static void filters_base(const mxgo_wino *g, float *u, long ldu, const float *w, long f0, long f1) {
	filters(g, u, ldu, w, f0, f1);
}
WIDE static void inputs_wide(const mxgo_wino *g, float *v, const float *x, long t0, long t1, long c0, long c1) {
	inputs(g, v, x, t0, t1, c0, c1);
}
static void inputs_base(const mxgo_wino *g, float *v, const float *x, long t0, long t1, long c0, long c1) {
	inputs(g, v, x, t0, t1, c0, c1);
}
WIDE static void outputs_wide(const mxgo_wino *g, float *y, const float *m, const float *bias, long t0, long t1,
			      long f0, long f1) {
	outputs(g, y, m, bias, t0, t1, f0, f1);
}
static void outputs_base(const mxgo_wino *g, float *y, const float *m, const float *bias, long t0, long t1, long f0,
			 long f1) {
	outputs(g, y, m, bias, t0, t1, f0, f1);
}

void mxgo_wino_filters(const mxgo_wino *g, float *u, long ldu, const float *w, long f0, long f1) {
	(wide() ? filters_wide : filters_base)(g, u, ldu, w, f0, f1);
}

void mxgo_wino_inputs(const mxgo_wino *g, float *v, const float *x, long t0, long t1, long c0, long c1) {
	(wide() ? inputs_wide : inputs_base)(g, v, x, t0, t1, c0, c1);
}

void mxgo_wino_outputs(const mxgo_wino *g, float *y, const float *m, const float *bias, long t0, long t1, long f0,
		       long f1) {
	(wide() ? outputs_wide : outputs_base)(g, y, m, bias, t0, t1, f0, f1);
}

int mxgo_wino_finite(const float *x, long n) {
	unsigned acc = 0; // the exponent bits of a non-finite value are all ones
	for (long i = 0; i < n; i++) {
		unsigned b;
		memcpy(&b, x + i, sizeof b);
		acc |= (b & 0x7f800000u) == 0x7f800000u;
	}
	return !acc;
}
