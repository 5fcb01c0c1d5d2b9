package reduce

import (
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"
)

// redMaxLanes is redMaxFold's (isMax) or redMinFold's fold of v into one non-NaN m,
// for float32 and float64 in AVX2 lanes (internal/simd) where the serial fold waits on
// each comparison, and reports true; or reports false (doing nothing) for other types
// and where lanes could give other bits than the serial fold: rows with a NaN (the
// serial fold keeps the first NaN's bits), a result of ±0 (the serial fold keeps the
// first of 0 and -0), short rows, no AVX2, and with ops.SetFastKernels off. Equal
// values other than zeros have equal bits.
func redMaxLanes[A redOrdered](m A, v []A, isMax bool) (A, bool) {
	if len(v) < 32 || !ops.FastKernels() || v[0] != v[0] {
		return m, false
	}
	r, ok := redMaxLanesC(v, isMax)
	if !ok || r == 0 {
		return m, false
	}
	if (isMax && r > m) || (!isMax && r < m) {
		return r, true
	}
	return m, true
}

// redMaxLanesC runs float32 and float64 rows in C.
func redMaxLanesC[A redOrdered](v []A, isMax bool) (A, bool) {
	var r A
	switch any(r).(type) {
	case float32:
		x, ok := simd.ReduceMaxMin(isMax, unsafe.Slice((*float32)(unsafe.Pointer(&v[0])), len(v)))
		return *(*A)(unsafe.Pointer(&x)), ok
	case float64:
		x, ok := simd.ReduceMaxMin(isMax, unsafe.Slice((*float64)(unsafe.Pointer(&v[0])), len(v)))
		return *(*A)(unsafe.Pointer(&x)), ok
	}
	return r, false
}

// redArgLanes is the one-accumulator fold of argmax (isMax) or argmin over v in one
// pass in C (the serial fold's first occurrence; ±0 compare equal there too, and v[mi]
// is the value kept). It reports false (doing nothing) where C declines: a NaN in v (the
// serial fold stops at the first NaN), short rows, other types, ops.SetFastKernels off.
func redArgLanes[A redOrdered](v []A, isMax bool) (m A, mi int, ok bool) {
	if len(v) < 32 || !ops.FastKernels() {
		return m, 0, false
	}
	switch any(m).(type) {
	case float32:
		mi, ok = simd.ArgMaxMin(isMax, unsafe.Slice((*float32)(unsafe.Pointer(&v[0])), len(v)))
	case float64:
		mi, ok = simd.ArgMaxMin(isMax, unsafe.Slice((*float64)(unsafe.Pointer(&v[0])), len(v)))
	}
	if !ok {
		return m, 0, false
	}
	return v[mi], mi, true
}
