// Direct 2-D convolution of float32 images at unit stride and dilation with AVX-512F
// (conv2d_avx512.c); driven from Go by conv2d.go.
#ifndef MXGO_CONV2D_AVX512_H
#define MXGO_CONV2D_AVX512_H

// The geometry of one group of a convolution over n images: cg channels of h x w at x
// (images xs floats apart, planes h*w), fg filters of kh x kw taps at w (cg*kh*kw each,
// contiguous), padding ph, pw, and oh x ow outputs per filter at y (images ys floats
// apart, planes oh*ow).
typedef struct {
	long n, cg, h, w, fg, kh, kw, ph, pw, oh, ow, xs, ys, kc;
} mxgo_conv2d;

// mxgo_conv2d_supported reports whether the CPU (and OS) run AVX-512F.
int mxgo_conv2d_supported(void);

// mxgo_conv2d_f32 sets y to the convolution of images [n0, n1) of x with w (no bias).
// Each output sums its terms (channel, tap row, tap column) in order in blocks of kc
// terms, each block from zero by FMAs and added to the sum of the blocks before: what
// the packed product of the filters with the images' im2col columns does (kc its KC),
// so the bits are the same. Taps in the padding multiply zeros, as im2col's do. kw is
// at most 16, kc at most 256.
void mxgo_conv2d_f32(const mxgo_conv2d *g, const float *x, const float *w, float *y, long n0, long n1);

#endif
