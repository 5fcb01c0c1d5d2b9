package simd

/*
#cgo LDFLAGS: -lm
#include "powf_avx512.h"
*/
import "C"

import "unsafe"

// pow512 is float32 power in AVX-512 lanes (powf_avx512.c): computed in double with
// register-shuffle table lookups, about twice libmvec's 16-lane powf on AMD's Zen 4,
// whose gathers are slow, and within 1 ulp as libmvec is (tests_go/ops_mvec_ulp_test.go).
var pow512 = newFamily(C.mxgo_powf16_supported() != 0)

// SetPow512 turns the AVX-512 power kernel on (where the CPU runs it) or off, leaving
// libmvec's, and returns whether it was on: a hook for tests, to call with no operation
// in flight.
func SetPow512(on bool) (was bool) { return pow512.set(on) }

// Pow32 sets dst[i] = powf(a[i], b[i]) with the AVX-512 kernel or libmvec's and reports
// true, or reports false (doing nothing): rows shorter than Unary32Min, misaligned
// operands, neither kernel here. dst may be a or b; len(dst), len(b) >= len(a).
func Pow32(dst, a, b []float32) bool {
	pd, pa, ok := rows32(pow512, dst, a)
	if !ok || len(b) < len(a) || Misaligned(4, unsafe.Pointer(&b[0]), nil, nil) {
		return MvecPow(dst, a, b)
	}
	C.mxgo_powf16((*C.float)(pd), (*C.float)(pa), (*C.float)(unsafe.Pointer(&b[0])), C.long(len(a)))
	return true
}
