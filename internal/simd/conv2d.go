package simd

/*
#include "conv2d_avx512.h"
#include "gemm_f32.h"
*/
import "C"

import "unsafe"

// Direct 2-D convolution of float32 images (conv2d_avx512.c): at unit stride and
// dilation, a convolution with few filters spent most of its time writing im2col's
// columns for a product that reads each once per filter. It gives the packed product's
// bits (see the C header).

var conv2d = newFamily(SgemmSupported && C.mxgo_conv2d_supported() != 0)

// SetConv2D turns the direct convolution on (where the CPU runs it) or off and returns
// whether it was on: a hook for tests, to call with no operation in flight.
func SetConv2D(on bool) (was bool) { return conv2d.set(on) }

// Conv2DMaxKW is the widest kernel Conv2DF32 takes (its tap columns' masks, KWMAX).
const Conv2DMaxKW = 16

// Conv2D is one group's geometry (mxgo_conv2d, less kc): n, cg, h, w, fg, kh, kw, ph,
// pw, oh, ow, xs, ys.
type Conv2D [13]int

// Conv2DF32 sets images [n0, n1) of y to their convolution by C and reports true, or
// reports false (doing nothing) where the kernel is off or an operand misaligned. x, w
// and y start at the group's first channel, filter and output plane of image 0.
func Conv2DF32(g *Conv2D, x, w, y unsafe.Pointer, n0, n1 int) bool {
	if !Conv2DReady(x, w, y) {
		return false
	}
	cg := C.mxgo_conv2d{n: C.long(g[0]), cg: C.long(g[1]), h: C.long(g[2]), w: C.long(g[3]), fg: C.long(g[4]),
		kh: C.long(g[5]), kw: C.long(g[6]), ph: C.long(g[7]), pw: C.long(g[8]), oh: C.long(g[9]), ow: C.long(g[10]),
		xs: C.long(g[11]), ys: C.long(g[12]), kc: C.MXGO_SGEMM_KC}
	C.mxgo_conv2d_f32(&cg, (*C.float)(x), (*C.float)(w), (*C.float)(y), C.long(n0), C.long(n1))
	return true
}

// Conv2DReady reports whether Conv2DF32 runs on operands at x, w and y.
func Conv2DReady(x, w, y unsafe.Pointer) bool { return conv2d.enabled() && !Misaligned(4, x, w, y) }
