package simd

/*
#cgo linux LDFLAGS: -ldl
#include "mvec.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

// float32 transcendental functions (arccos ... erf of MXNet's elementwise math) by
// glibc's libmvec, 16 AVX-512 or 8 AVX2 lanes at a time (mvec.c), loaded with dlopen on
// first use (glibc 2.35+; elsewhere Mvec reports false and the Go kernels run).
// Unlike this package's other kernels these are not the Go kernels' bits: libmvec is
// within 4 ulp of the true values, Go's float64 functions rounded to float32 within 1.

// MvecFn is a function with a libmvec kernel; its values are C's MXGO_MV_*.
type MvecFn int

// The functions.
const (
	MvAcos  MvecFn = C.MXGO_MV_ACOS
	MvAsin  MvecFn = C.MXGO_MV_ASIN
	MvAtan  MvecFn = C.MXGO_MV_ATAN
	MvAcosh MvecFn = C.MXGO_MV_ACOSH
	MvAsinh MvecFn = C.MXGO_MV_ASINH
	MvAtanh MvecFn = C.MXGO_MV_ATANH
	MvCosh  MvecFn = C.MXGO_MV_COSH
	MvSinh  MvecFn = C.MXGO_MV_SINH
	MvTan   MvecFn = C.MXGO_MV_TAN
	MvCbrt  MvecFn = C.MXGO_MV_CBRT
	MvRcbrt MvecFn = C.MXGO_MV_RCBRT // 1/cbrt(x)
	MvExpm1 MvecFn = C.MXGO_MV_EXPM1
	MvLog1p MvecFn = C.MXGO_MV_LOG1P
	MvLog2  MvecFn = C.MXGO_MV_LOG2
	MvLog10 MvecFn = C.MXGO_MV_LOG10
	MvErf   MvecFn = C.MXGO_MV_ERF
	MvLog   MvecFn = C.MXGO_MV_LOG
	MvSin   MvecFn = C.MXGO_MV_SIN
	MvCos   MvecFn = C.MXGO_MV_COS
)

var (
	mvecOnce sync.Once
	mvec     *family
)

func mvecFamily() *family {
	mvecOnce.Do(func() { mvec = newFamily(C.mxgo_mvec_load() != 0) })
	return mvec
}

// SetMvec turns the libmvec kernels on (where they load) or off and returns whether they
// were on: a hook for tests of the Go loops, to call with no operation in flight.
func SetMvec(on bool) (was bool) { return mvecFamily().set(on) }

// SetMvecWide turns libmvec's 16-lane AVX-512 functions on (where they load) or off,
// leaving its 8-lane AVX2 ones for whole rows, and returns whether they were on: a
// hook for tests, to call with no operation in flight.
func SetMvecWide(on bool) (was bool) {
	mvecFamily()
	w := C.int(0)
	if on {
		w = 1
	}
	return C.mxgo_mvec_wide(w) != 0
}

// Mvec sets dst[i] = fn(src[i]) with libmvec and reports true, or reports false (doing
// nothing): rows shorter than Unary32Min, misaligned operands, no libmvec, kernels off.
// dst may be src; len(dst) >= len(src).
func Mvec(fn MvecFn, dst, src []float32) bool {
	pd, ps, ok := rows32(mvecFamily(), dst, src)
	if !ok {
		return false
	}
	C.mxgo_mvec(C.int(fn), (*C.float)(pd), (*C.float)(ps), C.long(len(src)))
	return true
}

// MvecPow sets dst[i] = powf(a[i], b[i]) with libmvec and reports true, or reports false
// (doing nothing) as Mvec does. dst may be a or b; len(dst), len(b) >= len(a).
func MvecPow(dst, a, b []float32) bool {
	pd, pa, ok := rows32(mvecFamily(), dst, a)
	if !ok || len(b) < len(a) {
		return false
	}
	pb := unsafe.Pointer(&b[0])
	if Misaligned(4, pb, nil, nil) {
		return false
	}
	C.mxgo_mvec_pow((*C.float)(pd), (*C.float)(pa), (*C.float)(pb), C.long(len(a)))
	return true
}
