// Table-driven im2col/col2im and the spread of a convolution's weights (taps.c), for
// pkg/ops/nn's small-plane convolutions (nn_conv_taps.go, nn_conv_fc.go).
#ifndef MXGO_TAPS_H
#define MXGO_TAPS_H

#include <stdint.h>

// mxgo_taps_<T>: for every channel c < channels and tap k < taps, row c*taps + k of col
// (at (c*taps + k)*ld, cols elements) gets channel c's elements of img (vol apart) at
// the offsets t[k*cols + p], 0 where an offset is -1; with back set the row is added
// back to those elements instead, p ascending.
void mxgo_taps_f32(const int32_t *t, long taps, long cols, float *img, long vol, float *col, long ld,
		   long channels, int back);
void mxgo_taps_f64(const int32_t *t, long taps, long cols, double *img, long vol, double *col, long ld,
		   long channels, int back);

// mxgo_spread_<T>: for o < ov, i < iv, j < c: m[(o*c + j)*iv + i] = w[taps[o*iv + i] + j*kv]
// (back: that element of w is increased by it, in that loop order).
void mxgo_spread_f32(float *w, float *m, const long *taps, long ov, long iv, long kv, long c, int back);
void mxgo_spread_f64(double *w, double *m, const long *taps, long ov, long iv, long kv, long c, int back);

#endif
