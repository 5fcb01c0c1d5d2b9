package simd

/*
#include "winograd.h"
*/
import "C"

import "unsafe"

// Winograd's F(2x2, 3x3) transforms of float32 convolutions (winograd.c); pkg/ops/nn
// multiplies the transformed filters and inputs and owns when the method is used.

// WinoMaxTW is the most tiles (2 outputs each) a row of output may take.
const WinoMaxTW = C.MXGO_WINO_MAX_TW

// Wino is a convolution's geometry: c, f, h, w, ph, pw, oh, ow, th, tw (mxgo_wino).
type Wino [10]int

func (g *Wino) c() *C.mxgo_wino {
	return &C.mxgo_wino{c: C.long(g[0]), f: C.long(g[1]), h: C.long(g[2]), w: C.long(g[3]), ph: C.long(g[4]),
		pw: C.long(g[5]), oh: C.long(g[6]), ow: C.long(g[7]), th: C.long(g[8]), tw: C.long(g[9])}
}

// WinoFilters sets u (16 matrices of f by c, ldu = f c apart) from filters [f0, f1) of w.
func WinoFilters(g *Wino, u, w []float32, f0, f1 int) {
	C.mxgo_wino_filters(g.c(), (*C.float)(&u[0]), C.long(g[1]*g[0]), (*C.float)(&w[0]), C.long(f0), C.long(f1))
}

// WinoInputs sets v (16 matrices of t1 - t0 by c) for channels [c0, c1) and tiles
// [t0, t1) of the batch x.
func WinoInputs(g *Wino, v, x []float32, t0, t1, c0, c1 int) {
	C.mxgo_wino_inputs(g.c(), (*C.float)(&v[0]), (*C.float)(&x[0]), C.long(t0), C.long(t1), C.long(c0), C.long(c1))
}

// WinoOutputs writes filters [f0, f1) and tiles [t0, t1) of y from m (16 matrices of f
// by t1 - t0), plus bias (nil for none).
func WinoOutputs(g *Wino, y, m, bias []float32, t0, t1, f0, f1 int) {
	var b *C.float
	if bias != nil {
		b = (*C.float)(&bias[0])
	}
	C.mxgo_wino_outputs(g.c(), (*C.float)(&y[0]), (*C.float)(&m[0]), b, C.long(t0), C.long(t1), C.long(f0), C.long(f1))
}

// Finite32 reports whether every element of x is finite.
func Finite32(x []float32) bool {
	return len(x) == 0 || C.mxgo_wino_finite((*C.float)(unsafe.Pointer(&x[0])), C.long(len(x))) != 0
}

var winograd = newFamily(true)

// SetWinograd turns Winograd's convolution on or off and returns whether it was on: a
// hook for tests and benchmarks of the direct paths, to call with no operation in flight.
func SetWinograd(on bool) (was bool) { return winograd.set(on) }

// WinogradOn reports whether Winograd's convolution may run.
func WinogradOn() bool { return winograd.enabled() }
