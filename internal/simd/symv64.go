package simd

/*
#include "symv_f64.h"
*/
import "C"

import "unsafe"

// Dsymv sets y = alpha A x + beta y (y not read when beta is 0) for the symmetric n x n
// matrix A whose lower (lower) or upper triangle a holds row-major with leading
// dimension lda; x and y are contiguous. The caller checks DgemmSupported (AVX2, FMA).
func Dsymv(lower bool, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	if n == 0 {
		return
	}
	_, _, _ = a[(n-1)*lda+n-1], x[n-1], y[n-1]
	lo := C.int(0)
	if lower {
		lo = 1
	}
	t := make([]float64, n)
	C.mxgo_dsymv(lo, C.long(n), C.double(alpha), (*C.double)(unsafe.Pointer(&a[0])), C.long(lda),
		(*C.double)(unsafe.Pointer(&x[0])), C.double(beta), (*C.double)(unsafe.Pointer(&y[0])),
		(*C.double)(unsafe.Pointer(&t[0])))
}
