// Max pooling of float32 planes by 2x2 windows at stride 2 with AVX2 (pool2x2_avx2.c);
// driven from Go by pool2x2.go for pkg/ops/nn's maxTiles2x2 and unmaxTiles2x2, whose bits
// they give.
#ifndef MXGO_POOL2X2_AVX2_H
#define MXGO_POOL2X2_AVX2_H

// mxgo_pool2x2_supported reports whether the CPU (and OS) run AVX2.
int mxgo_pool2x2_supported(void);

// mxgo_max2x2_f32 sets each of planes planes of y (o1 by o2) to the maxima of the 2x2
// tiles of x's (h by w): a NaN never wins (lowest where all four are NaN), +0 beats -0.
void mxgo_max2x2_f32(const float *x, float *y, long planes, long h, long w, long o1, long o2, float lowest);

// mxgo_unmax2x2_f32 sets dx (planes of h by w) to each tile's gradient gy at the first
// element (in scan order) equal to the tile's maximum y, or at every one with ties, as
// 0 + gy*1, and 0 + gy*0 elsewhere in the tile; elements in no tile get +0.
void mxgo_unmax2x2_f32(const float *x, const float *y, const float *gy, float *dx, long planes, long h, long w,
                       long o1, long o2, int ties);

#endif
