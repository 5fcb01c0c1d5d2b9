package simd

/*
#include "im2col_avx2.h"
*/
import "C"

import "unsafe"

// im2col and col2im of 1-D and 2-D convolutions in C (im2col_avx2.c) for pkg/ops/nn's
// colTransfer: its Go lines (a tap span, a copy and two clears each) cost more than the
// columns' product on a LeNet's 10- to 28-element lines; C copies a line in a vector or
// two, with the Go loops' bits.

var im2col = newFamily(C.mxgo_im2col_supported() != 0)

// SetIm2Col turns the kernels on (where the CPU runs them) or off and returns whether they
// were on: a hook for tests of the Go loops, to call with no operation in flight.
func SetIm2Col(on bool) (was bool) { return im2col.set(on) }

// Win2D is one plane's window: in1, in2, out1, out2, k1, k2, s1, s2, d1, d2, p1, p2.
type Win2D [12]int

// Cols2D runs im2col (back false: col's row r at r*ld gets tap r of every window of
// channels planes of img, 0 in the padding) or col2im (back: col added back into img) in C
// and reports true, or reports false (doing nothing) when the kernels are off or an
// operand is misaligned. It panics when img or col is too short for g.
func Cols2D[T ~float32 | ~float64](img, col []T, ld, channels int, g *Win2D, back bool) bool {
	if !im2col.enabled() || channels == 0 {
		return false
	}
	rows, cols := channels*g[4]*g[5], g[2]*g[3]
	if len(img) < channels*g[0]*g[1] || len(col) < (rows-1)*ld+cols || ld < cols {
		panic("simd.Cols2D: operands too short for the window")
	}
	pi, pc := unsafe.Pointer(&img[0]), unsafe.Pointer(&col[0])
	var z T
	if Misaligned(unsafe.Sizeof(z), pi, pc, nil) {
		return false
	}
	gp, b := (*C.long)(unsafe.Pointer(&g[0])), C.int(0)
	if back {
		b = 1
	}
	if unsafe.Sizeof(z) == 4 {
		C.mxgo_cols2d_f32((*C.float)(pi), (*C.float)(pc), C.long(ld), C.long(channels), gp, b)
	} else {
		C.mxgo_cols2d_f64((*C.double)(pi), (*C.double)(pc), C.long(ld), C.long(channels), gp, b)
	}
	return true
}
