package simd

/*
#include "pool2x2_avx2.h"
*/
import "C"

import "unsafe"

// Max pooling of float32 planes by 2x2 windows at stride 2 (LeNet's and most small CNNs')
// in C (pool2x2_avx2.c), eight windows a step, with the bits of pkg/ops/nn's Go loops
// (maxTiles2x2, unmaxTiles2x2), which the planes of float64 and tests keep.

var pool2x2 = newFamily(C.mxgo_pool2x2_supported() != 0)

// SetPool2x2 turns the kernels on (where the CPU runs them) or off and returns whether
// they were on: a hook for tests of the Go loops, to call with no operation in flight.
func SetPool2x2(on bool) (was bool) { return pool2x2.set(on) }

// Plane2x2 is the planes' geometry: planes of h by w pooled into o1 by o2 (2*o1 <= h,
// 2*o2 <= w).
type Plane2x2 struct{ Planes, H, W, O1, O2 int }

func (p *Plane2x2) check(x, y []float32) bool {
	if len(x) < p.Planes*p.H*p.W || len(y) < p.Planes*p.O1*p.O2 || 2*p.O1 > p.H || 2*p.O2 > p.W {
		panic("simd: pooled planes do not fit their operands")
	}
	return p.Planes > 0 && pool2x2.enabled()
}

// Max2x2F32 sets y's planes to the maxima of x's 2x2 tiles (a NaN never wins; lowest where
// a tile is all NaN) in C and reports true, or reports false (doing nothing): kernels off,
// misaligned operands.
func Max2x2F32(x, y []float32, p Plane2x2, lowest float32) bool {
	if !p.check(x, y) {
		return false
	}
	px, py := unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])
	if Misaligned(4, px, py, nil) {
		return false
	}
	C.mxgo_max2x2_f32((*C.float)(px), (*C.float)(py), C.long(p.Planes), C.long(p.H), C.long(p.W), C.long(p.O1), C.long(p.O2), C.float(lowest))
	return true
}

// Unmax2x2F32 sets dx (x's shape) to each tile's gradient gy at the first element equal
// to the tile's maximum y (every one with ties), 0 elsewhere, in C and reports true, or
// reports false as Max2x2F32 does.
func Unmax2x2F32(x, y, gy, dx []float32, p Plane2x2, ties bool) bool {
	if !p.check(x, y) || !p.check(dx, gy) {
		return false
	}
	px, py, pg, pd := unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), unsafe.Pointer(&gy[0]), unsafe.Pointer(&dx[0])
	if Misaligned(4, px, py, pg) || Misaligned(4, pd, nil, nil) {
		return false
	}
	t := C.int(0)
	if ties {
		t = 1
	}
	C.mxgo_unmax2x2_f32((*C.float)(px), (*C.float)(py), (*C.float)(pg), (*C.float)(pd), C.long(p.Planes), C.long(p.H), C.long(p.W),
		C.long(p.O1), C.long(p.O2), t)
	return true
}
