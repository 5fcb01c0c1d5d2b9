package simd

/*
#include "gemm_f64.h"
*/
import "C"

import "unsafe"

// The float64 matrix product (gemm_f64.c), gemm.go's float32 kernel in doubles: packed,
// cache-blocked, AVX2 and FMA, any strides, no term skipped (0 * inf is nan), and an
// element's terms summed in one order whatever block of the result it falls in. The
// caller checks DgemmSupported and that every operand is aligned to 8 bytes.

// DgemmSupported says whether the CPU runs the float64 product kernel.
var DgemmSupported = C.mxgo_dgemm_supported() != 0

// Dgemm sets the m x n matrix c (rows ldc apart, contiguous within a row) to alpha times
// the product of the m x k matrix a (strides ars, acs) and the k x n matrix b (strides
// brs, bcs), plus beta times c (c is not read when beta is 0), cut into up to tasks
// blocks of c as Sgemm cuts its product (the cut changes no bit).
func Dgemm(tasks, m, n, k int, alpha float64, a unsafe.Pointer, ars, acs int, b unsafe.Pointer, brs, bcs int,
	beta float64, c unsafe.Pointer, ldc int) {
	if !DgemmSupported {
		panic("simd: Dgemm on a CPU without AVX2 and FMA (check DgemmSupported)")
	}
	rows, chunk, bm, bn := split(tasks, m, n)
	w := getWork(int(C.mxgo_dgemm_work(C.long(bm), C.long(bn), C.long(k))), (max(m, n)+chunk-1)/chunk, 8)
	C.mxgo_dgemm_par(C.long(tasks), C.int(rows), C.long(chunk), C.long(m), C.long(n), C.long(k), C.double(alpha),
		(*C.double)(a), C.long(ars), C.long(acs), (*C.double)(b), C.long(brs), C.long(bcs), C.double(beta),
		(*C.double)(c), C.long(ldc), (*C.double)(w.p), C.long(w.stride))
	w.put()
}
