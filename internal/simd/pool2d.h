// Max pooling of float32 planes by any 2-D window (pool2d.c): pkg/ops/nn's maxPlane2D and
// unmaxPlane2D, bit for bit (a ResNet's 3x3 windows at stride 2 with padding).
#ifndef MXGO_POOL2D_H
#define MXGO_POOL2D_H

// g is the window (internal/simd's Win2D: in1, in2, out1, out2, k1, k2, s1, s2, d1, d2,
// p1, p2; the dilations are 1). Window (a, b) covers rows [a*s1 - p1, a*s1 - p1 + k1) and
// columns likewise, clipped to the plane.

// mxgo_maxplanes2d_f32 sets each of planes planes of y (out1 by out2) to its windows'
// maxima of x's plane (in1 by in2): a NaN never wins, +0 beats -0, lowest where no number
// is in the window.
void mxgo_maxplanes2d_f32(const float *x, float *y, long planes, const long *g, float lowest);

// mxgo_unmaxplanes2d_f32 sets each plane of dx to +0, then adds gy[i] times 1 to the first
// element (in scan order) of window i equal to y[i], or to every one with ties, and gy[i]
// times 0 to the others.
void mxgo_unmaxplanes2d_f32(const float *x, const float *y, const float *gy, float *dx, long planes, const long *g,
			    int ties);

#endif
