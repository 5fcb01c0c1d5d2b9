package simd

/*
#include "trsm_f64.h"
*/
import "C"

import "unsafe"

// DtrsmLeft solves op(A) X = alpha B in place of b (k rows of n, ldb apart; A k x k, lda
// apart): lower says whether op(A) is lower triangular, trans whether it is A's
// transpose, unit whether its diagonal is ones. The caller checks DgemmSupported (AVX2,
// FMA).
func DtrsmLeft(lower, trans, unit bool, k, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if k == 0 || n == 0 {
		return
	}
	_, _ = a[(k-1)*lda+k-1], b[(k-1)*ldb+n-1]
	C.mxgo_dtrsm_left(cbool(lower), cbool(trans), cbool(unit), C.long(k), C.long(n), C.double(alpha),
		(*C.double)(unsafe.Pointer(&a[0])), C.long(lda), (*C.double)(unsafe.Pointer(&b[0])), C.long(ldb))
}

// DtrsmRight solves X op(A) = alpha B in place of b (m rows of k, ldb apart), through
// work (at least k m doubles). The caller checks DgemmSupported.
func DtrsmRight(lower, trans, unit bool, m, k int, alpha float64, a []float64, lda int, b []float64, ldb int, work []float64) {
	if k == 0 || m == 0 {
		return
	}
	_, _, _ = a[(k-1)*lda+k-1], b[(m-1)*ldb+k-1], work[k*m-1]
	C.mxgo_dtrsm_right(cbool(lower), cbool(trans), cbool(unit), C.long(m), C.long(k), C.double(alpha),
		(*C.double)(unsafe.Pointer(&a[0])), C.long(lda), (*C.double)(unsafe.Pointer(&b[0])), C.long(ldb),
		(*C.double)(unsafe.Pointer(&work[0])))
}
