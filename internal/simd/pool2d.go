package simd

/*
#include "pool2d.h"
*/
import "C"

import "unsafe"

// Max pooling of float32 planes by any 2-D window in C (pool2d.c), with the bits of
// pkg/ops/nn's maxPlane2D and unmaxPlane2D; part of the pooling family (SetPool2x2).

func (g *Win2D) planes(x, y []float32) bool {
	if g[8] != 1 || g[9] != 1 || len(x) < g[0]*g[1] || len(y) < g[2]*g[3] {
		panic("simd: pooled plane does not fit its operands")
	}
	return pool2x2.enabled() && !Misaligned(4, unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y)), nil)
}

// MaxPlane2D sets y to the maxima of x's windows as nn's maxPlane2D and reports true, or
// reports false (doing nothing) when the kernels are off or an operand is misaligned.
func MaxPlane2D(x, y []float32, g *Win2D, lowest float32) bool {
	if g[2]*g[3] == 0 || !g.planes(x, y) {
		return false
	}
	C.mxgo_maxplane2d_f32((*C.float)(unsafe.SliceData(x)), (*C.float)(unsafe.SliceData(y)), (*C.long)(unsafe.Pointer(&g[0])), C.float(lowest))
	return true
}

// UnmaxPlane2D adds the windows' gradients gy to dx as nn's unmaxPlane2D and reports
// true, or reports false as MaxPlane2D.
func UnmaxPlane2D(x, y, gy, dx []float32, g *Win2D, ties bool) bool {
	if g[2]*g[3] == 0 || !g.planes(x, y) || !g.planes(dx, gy) {
		return false
	}
	C.mxgo_unmaxplane2d_f32((*C.float)(unsafe.SliceData(x)), (*C.float)(unsafe.SliceData(y)), (*C.float)(unsafe.SliceData(gy)),
		(*C.float)(unsafe.SliceData(dx)), (*C.long)(unsafe.Pointer(&g[0])), flag(ties))
	return true
}
