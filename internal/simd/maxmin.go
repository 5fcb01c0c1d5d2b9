package simd

/*
#include "maxmin_avx2.h"
*/
import "C"

import "unsafe"

// NumPy's maximum and minimum of contiguous float32 and float64 rows (maxmin_avx2.c),
// where Go's loop compiles to a branch per element that random data mispredicts.

var maxmin = newFamily(C.mxgo_maxmin_supported() != 0)

// SetMaxMin turns the maximum/minimum kernels on (where the CPU runs them) or off and
// returns whether they were on: a hook for tests, with no operation in flight.
func SetMaxMin(on bool) (was bool) { return maxmin.set(on) }

// MaxMin sets o[i] to the maximum (isMax) or minimum of x[i] and y[i] in C for a
// prefix of o and returns its length (0: the kernels are off, the row short or
// misaligned); quiet sets a float32 NaN result's quiet bit. o may be x or y; len(x)
// and len(y) are at least len(o).
func MaxMin[T float32 | float64](isMax, quiet bool, o, x, y []T) int {
	po, px, py := unsafe.Pointer(unsafe.SliceData(o)), unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y))
	if len(o) < ArithMin || !maxmin.enabled() || Misaligned(unsafe.Sizeof(o[0]), po, px, py) {
		return 0
	}
	m, q := C.int(0), C.int(0)
	if isMax {
		m = 1
	}
	if quiet {
		q = 1
	}
	if unsafe.Sizeof(o[0]) == 4 {
		return int(C.mxgo_maxmin_f32(m, q, (*C.float)(po), (*C.float)(px), (*C.float)(py), C.long(len(o))))
	}
	return int(C.mxgo_maxmin_f64(m, (*C.double)(po), (*C.double)(px), (*C.double)(py), C.long(len(o))))
}

// ReduceMaxMin returns the maximum (isMax) or minimum of x computed in C, and true; or
// false where C declines: x shorter than ArithMin, holding a NaN (the caller's ordered
// fold decides which NaN), kernels off. A zero result's sign is either zero's.
func ReduceMaxMin[T float32 | float64](isMax bool, x []T) (T, bool) {
	var r T
	px := unsafe.Pointer(unsafe.SliceData(x))
	if len(x) < ArithMin || !maxmin.enabled() || Misaligned(unsafe.Sizeof(r), px, nil, nil) {
		return r, false
	}
	m := C.int(0)
	if isMax {
		m = 1
	}
	var ok C.int
	if unsafe.Sizeof(r) == 4 {
		ok = C.mxgo_maxmin_reduce_f32(m, (*C.float)(px), C.long(len(x)), (*C.float)(unsafe.Pointer(&r)))
	} else {
		ok = C.mxgo_maxmin_reduce_f64(m, (*C.double)(px), C.long(len(x)), (*C.double)(unsafe.Pointer(&r)))
	}
	return r, ok != 0
}

// argMax512 is ArgMaxMin's AVX-512F lanes (else AVX2's), where the CPU runs them.
var argMax512 = newFamily(C.mxgo_argmaxmin_avx512_supported() != 0)

// SetArgMaxMin512 turns ArgMaxMin's AVX-512F lanes on (where the CPU runs them) or off
// (AVX2's) and returns whether they were on: a hook for tests.
func SetArgMaxMin512(on bool) (was bool) { return argMax512.set(on) }

// ArgMaxMin returns the first index of the maximum (isMax) or minimum of x found in C in
// one pass, and true; or false where C declines: x shorter than ArithMin or (float32,
// whose lanes count loop steps in int32) of 2^35 elements or more, holding a NaN (the
// caller's ordered fold stops at the first), kernels off. ±0 compare equal.
func ArgMaxMin[T float32 | float64](isMax bool, x []T) (int, bool) {
	var v T
	px := unsafe.Pointer(unsafe.SliceData(x))
	if len(x) < ArithMin || !maxmin.enabled() || Misaligned(unsafe.Sizeof(v), px, nil, nil) ||
		(unsafe.Sizeof(v) == 4 && uint64(len(x)) >= 1<<35) {
		return 0, false
	}
	m, wide := C.int(0), C.int(0)
	if isMax {
		m = 1
	}
	if argMax512.enabled() {
		wide = 1
	}
	var r C.long
	var ok C.int
	if unsafe.Sizeof(v) == 4 {
		ok = C.mxgo_argmaxmin_f32(m, wide, (*C.float)(px), C.long(len(x)), &r)
	} else {
		ok = C.mxgo_argmaxmin_f64(m, wide, (*C.double)(px), C.long(len(x)), &r)
	}
	return int(r), ok != 0
}
