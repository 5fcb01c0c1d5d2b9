package simd

/*
#include "rot_f64.h"
*/
import "C"

import (
	"math"
	"unsafe"
)

// DrotSeq applies, for i = hi-1 down to lo, the plane rotation (c[i], s[i]) to rows i
// and i+1 of z (rows ld apart, n elements each):
//
//	row i+1 = s row i + c row i+1,  row i = c row i - s row i+1
//
// each element as one fused multiply-add over one rounded product, so that the AVX2
// kernel (rot_f64.c, where the CPU has AVX2 and FMA) and the Go loop (DrotSeqGo) give
// the same bits. It is the eigenvector update of one sweep of the tridiagonal QL
// iteration, with the eigenvectors stored as rows.
//
// In C it is cut into up to parts blocks of columns that run on the pool's threads.
func DrotSeq(z []float64, ld, n, lo, hi int, c, s []float64, parts int) {
	if hi <= lo || n == 0 {
		return
	}
	_ = z[hi*ld+n-1]
	_, _ = c[hi-1], s[hi-1]
	if !DgemmSupported {
		DrotSeqGo(z, ld, n, lo, hi, c, s)
		return
	}
	parts = max(1, min(parts, (n+7)/8)) // one part runs on the caller, without the pool
	C.mxgo_drot_seq_par((*C.double)(unsafe.Pointer(&z[0])), C.long(ld), C.long(n), C.long(lo), C.long(hi),
		(*C.double)(unsafe.Pointer(&c[0])), (*C.double)(unsafe.Pointer(&s[0])), C.long(parts))
}

// DrotSeqGo is DrotSeq in Go.
func DrotSeqGo(z []float64, ld, n, lo, hi int, c, s []float64) {
	for j := 0; j < n; j++ {
		y := z[hi*ld+j]
		for i := hi - 1; i >= lo; i-- {
			x := z[i*ld+j]
			z[(i+1)*ld+j] = math.FMA(s[i], x, c[i]*y)
			y = math.FMA(-s[i], y, c[i]*x)
		}
		z[lo*ld+j] = y
	}
}
