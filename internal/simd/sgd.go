package simd

/*
#include "sgd_avx2.h"
*/
import "C"

import "unsafe"

// SGD's float32 update (with or without momentum, no clipping) and Adam's in AVX2
// (sgd_avx2.c): eight weights an instruction where pkg/ops/optim's Go loop does one,
// with its bits. A training step updates every parameter, so this pass is a large part
// of a small network's step.

var sgd = newFamily(C.mxgo_sgd_supported() != 0)

// SetSGD turns the SGD and Adam kernels on (where the CPU runs it) or off and returns whether it
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

// Adam32 runs mxgo_adam_f32 over len(w) elements (clip < 0: no clipping) and reports
// true, or reports false, doing nothing, as SGD32 does. out, mean, vr and g have len(w)
// elements at least; out may be w.
func Adam32(out, mean, vr, w, g []float32, lr, b1, b2, omb1, omb2, eps, wd, rescale, clip float32) bool {
	n := len(w)
	if n < ReluMin || !sgd.enabled() {
		return false
	}
	po, pm, pv := unsafe.Pointer(&out[:n][0]), unsafe.Pointer(&mean[:n][0]), unsafe.Pointer(&vr[:n][0])
	pw, pg := unsafe.Pointer(&w[0]), unsafe.Pointer(&g[:n][0])
	if Misaligned(4, po, pm, pv) || Misaligned(4, pw, pg, nil) {
		return false
	}
	hasClip := C.int(0)
	if clip >= 0 {
		hasClip = 1
	}
	C.mxgo_adam_f32((*C.float)(po), (*C.float)(pm), (*C.float)(pv), (*C.float)(pw), (*C.float)(pg), C.long(n),
		C.float(lr), C.float(b1), C.float(b2), C.float(omb1), C.float(omb2), C.float(eps), C.float(wd),
		C.float(rescale), hasClip, C.float(clip))
	return true
}
