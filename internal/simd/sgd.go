package simd

/*
#include "sgd_avx2.h"
*/
import "C"

import "unsafe"

// SGD's float32 update (with or without momentum, no clipping) in AVX2 (sgd_avx2.c):
// eight weights an instruction where pkg/ops/optim's Go loop does one, with its bits.
// A training step updates every parameter, so this pass is a large part of a small
// network's step.

var sgd = newFamily(C.mxgo_sgd_supported() != 0)

// SetSGD turns the SGD kernel on (where the CPU runs it) or off and returns whether it
// was on: a hook for tests of the Go loop, to call with no operation in flight.
func SetSGD(on bool) (was bool) { return sgd.set(on) }

// SGD32 runs mxgo_sgd_f32 over len(w) elements (mom nil: plain SGD) and reports true,
// or reports false, doing nothing, when the kernel is off, w is shorter than ReluMin (the
// cgo call would cost more) or an operand is misaligned. out, mom and g have len(w)
// elements at least; out may be w.
func SGD32(out, mom, w, g []float32, m, lrwd, lr, rescale float32) bool {
	n := len(w)
	if n < ReluMin || !sgd.enabled() {
		return false
	}
	po, pw, pg := unsafe.Pointer(&out[:n][0]), unsafe.Pointer(&w[0]), unsafe.Pointer(&g[:n][0])
	var pm unsafe.Pointer
	if mom != nil {
		pm = unsafe.Pointer(&mom[:n][0])
	}
	if Misaligned(4, po, pw, pg) || Misaligned(4, pm, nil, nil) {
		return false
	}
	C.mxgo_sgd_f32((*C.float)(po), (*C.float)(pm), (*C.float)(pw), (*C.float)(pg), C.long(n), C.float(m),
		C.float(lrwd), C.float(lr), C.float(rescale))
	return true
}
