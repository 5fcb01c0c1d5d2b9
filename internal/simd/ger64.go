package simd

/*
#include "ger_f64.h"
*/
import "C"

import "unsafe"

// Dger adds (alpha x[i*incX]) y to row i of the m x n row-major a (leading dimension
// lda), for i < m: the rank-1 update a += alpha x y^T with contiguous y, each element as
// one fused multiply-add. The caller checks DgemmSupported (AVX2, FMA).
func Dger(m, n int, alpha float64, x []float64, incX int, y []float64, a []float64, lda int) {
	if m == 0 || n == 0 {
		return
	}
	_, _, _ = x[(m-1)*incX], y[n-1], a[(m-1)*lda+n-1]
	C.mxgo_dger(C.long(m), C.long(n), C.double(alpha), (*C.double)(unsafe.Pointer(&x[0])), C.long(incX),
		(*C.double)(unsafe.Pointer(&y[0])), (*C.double)(unsafe.Pointer(&a[0])), C.long(lda))
}
