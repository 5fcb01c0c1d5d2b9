// im2col and col2im of 1-D and 2-D convolutions with AVX2 (im2col_avx2.c); driven from Go
// by im2col.go for pkg/ops/nn's colTransfer, whose Go loops (colRow) give the same bits:
// copies move bits, and each image element gets one add a tap, in the same tap order.
#ifndef MXGO_IM2COL_AVX2_H
#define MXGO_IM2COL_AVX2_H

// mxgo_im2col_supported reports whether the CPU (and OS) run AVX2.
int mxgo_im2col_supported(void);

// mxgo_cols2d_f32 walks every tap (channel, kernel row, kernel column) of every window of
// channels planes of img, col's row r (at r*ld) holding one tap for every window: with back
// 0 it copies the taps into col (0 in the padding), else it adds col back into img. g is
// the window of one plane: in1, in2, out1, out2, k1, k2, s1, s2, d1, d2, p1, p2.
void mxgo_cols2d_f32(float *img, float *col, long ld, long channels, const long *g, int back);
void mxgo_cols2d_f64(double *img, double *col, long ld, long channels, const long *g, int back);

#endif
