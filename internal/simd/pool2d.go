package simd

/*
#include "pool2d.h"
*/
import "C"

import "unsafe"

// Max pooling of float32 planes by any 2-D window in C (pool2d.c), with the bits of
// pkg/ops/nn's maxPlane2D and unmaxPlane2D; part of the pooling family (SetPool2x2).

func (g *Win2D) planes(n int, x, y []float32) bool {
	if g[8] != 1 || g[9] != 1 || len(x) < n*g[0]*g[1] || len(y) < n*g[2]*g[3] {
		panic("simd: pooled planes do not fit their operands")
	}
	return pool2x2.enabled() && !Misaligned(4, unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y)), nil)
}

// MaxPlanes2D sets n planes of y to the maxima of x's windows as nn's maxPlane2D does one
// and reports true, or reports false (doing nothing) when the kernels are off or an
// operand is misaligned.
func MaxPlanes2D(x, y []float32, n int, g *Win2D, lowest float32) bool {
	if n*g[2]*g[3] == 0 || !g.planes(n, x, y) {
		return false
	}
	C.mxgo_maxplanes2d_f32((*C.float)(unsafe.SliceData(x)), (*C.float)(unsafe.SliceData(y)), C.long(n),
		(*C.long)(unsafe.Pointer(&g[0])), C.float(lowest))
	return true
}

// UnmaxPlanes2D sets n planes of dx to +0 plus the windows' gradients gy as nn's
// unmaxPlane2D adds them to one, and reports true, or reports false as MaxPlanes2D.
func UnmaxPlanes2D(x, y, gy, dx []float32, n int, g *Win2D, ties bool) bool {
	if n*g[2]*g[3] == 0 || !g.planes(n, x, y) || !g.planes(n, dx, gy) {
		return false
	}
	C.mxgo_unmaxplanes2d_f32((*C.float)(unsafe.SliceData(x)), (*C.float)(unsafe.SliceData(y)), (*C.float)(unsafe.SliceData(gy)),
		(*C.float)(unsafe.SliceData(dx)), C.long(n), (*C.long)(unsafe.Pointer(&g[0])), flag(ties))
	return true
}
