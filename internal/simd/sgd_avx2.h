// SGD's and Adam's float32 updates in AVX2 (sgd_avx2.c); driven from Go by sgd.go for
// pkg/ops/optim.
// Plain multiplies and adds in the Go kernel's order (no FMA: the target has none, so no
// compiler can fuse them), so the C and Go updates give the same bits.
#ifndef MXGO_SGD_AVX2_H
#define MXGO_SGD_AVX2_H

// mxgo_sgd_supported reports whether the CPU (and OS) run AVX2.
int mxgo_sgd_supported(void);

// mxgo_sgd_f32 updates n weights, with g' = rescale*g[i]: with mom (not NULL),
// mom[i] = ((m*mom[i]) - (lrwd*w[i])) - (lr*g') and out[i] = w[i] + mom[i]; without,
// out[i] = ((1 - lrwd)*w[i]) - (lr*g'). out may be w itself (not otherwise overlapping).
void mxgo_sgd_f32(float *out, float *mom, const float *w, const float *g, long n, float m, float lrwd,
		  float lr, float rescale);

// mxgo_adam_f32 updates n weights as pkg/ops/optim's adamBody: g' = (rescale*g[i]) +
// (wd*w[i]), clipped to [-clip, clip] when has_clip (max(-clip, min(g', clip)), NaN kept);
// mean[i] = (b1*mean[i]) + (omb1*g'); var[i] = (b2*var[i]) + ((omb2*g')*g');
// out[i] = w[i] - ((lr*mean[i]) / (sqrt(var[i]) + eps)), with omb1 = 1-b1 and omb2 = 1-b2
// as float32. out may be w itself (not otherwise overlapping).
void mxgo_adam_f32(float *out, float *mean, float *var, const float *w, const float *g, long n, float lr, float b1,
		   float b2, float omb1, float omb2, float eps, float wd, float rescale, int has_clip, float clip);

#endif
