// The transforms of Winograd's F(2x2, 3x3) convolution of float32 NCHW images
// (winograd.c): each 2x2 block of outputs (a tile) from the 4x4 block of inputs under it,
// so that a 3x3 convolution takes 16 matrix products of filters by channels by tiles,
// 2.25 times fewer multiplications than the direct sums. Plain C that the compiler
// vectorises (with AVX2 and FMA where the CPU runs them).
//
//	V = B' d B, d a tile's 4x4 inputs:  B' = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
//	U = G g G', g a filter's 3x3 taps:   G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]
//	Y = A' M A, M = U . V summed over channels:  A' = [1 1 1 0; 0 1 -1 -1]
//
// Element xi = 4i + j of each 4x4 transform lives in its own matrix: U[xi] is filters
// by channels, V[xi] tiles by channels, M[xi] filters by tiles. Tiles are numbered
// across the batch: t = (image th + ty) tw + tx.
#ifndef MXGO_WINOGRAD_H
#define MXGO_WINOGRAD_H

// MXGO_WINO_MAX_TW is the most tiles a row of output takes (a plane's width to 1024).
#define MXGO_WINO_MAX_TW 512

typedef struct {
	long c, f;         // channels, filters
	long h, w, ph, pw; // input planes and their padding
	long oh, ow;       // output planes (h + 2 ph - 2, w + 2 pw - 2)
	long th, tw;       // tiles an image: ceil(oh / 2), ceil(ow / 2)
} mxgo_wino;

// mxgo_wino_filters sets U (16 matrices of g->f by g->c, each ldu apart) from the
// filters [f0, f1) of w (f by c by 3 by 3).
void mxgo_wino_filters(const mxgo_wino *g, float *u, long ldu, const float *w, long f0, long f1);

// mxgo_wino_inputs sets V (16 matrices of t1 - t0 by g->c, each (t1 - t0) g->c apart)
// for channels [c0, c1) and tiles [t0, t1) of the batch x (n by c by h by w).
void mxgo_wino_inputs(const mxgo_wino *g, float *v, const float *x, long t0, long t1, long c0, long c1);

// mxgo_wino_outputs writes the outputs of filters [f0, f1) and tiles [t0, t1) into y
// (n by f by oh by ow) from M (16 matrices of g->f by t1 - t0, each (t1 - t0) g->f
// apart), adding bias[f] unless bias is NULL. A tile's outputs past the plane's edge are
// not written.
void mxgo_wino_outputs(const mxgo_wino *g, float *y, const float *m, const float *bias, long t0, long t1, long f0,
		       long f1);

// mxgo_wino_finite reports whether the n floats at x are all finite: the transforms mix
// a tile's inputs, so an infinity would turn outputs whose sums never meet it into NaN.
int mxgo_wino_finite(const float *x, long n);

#endif
