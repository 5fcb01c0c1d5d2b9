package ops

/*
#cgo CFLAGS: -O3 -fno-fast-math
#include "gemm_f32.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

// The float32 product on CPUs with AVX2 and FMA: a packed, cache-blocked kernel in C
// (gemm_f32.c; gopy builds with -ffast-math, which the kernel turns off as it must
// not assume finite values), and a matrix-vector one for products with a vector (the
// packed kernel would do 16 times the work there). Both read any strides the views
// here have, skip no term (0 * inf is nan, as in NumPy), and are entered once per
// block of the result: a large product is split into row (or column) blocks, one per
// core, each with its own pack buffers. An element's terms are summed in the same order
// whatever block it falls in, so the split changes no bit of the result.

// packedSgemmOK says whether the CPU runs the kernels; otherwise float32 goes to gonum.
var packedSgemmOK = C.mxgo_sgemm_supported() != 0

// sgemm is the float32 kernel: the packed one, or gonum's Sgemm.
var sgemm = func() gemmFunc {
	if packedSgemmOK {
		return packedSgemm
	}
	return blasSgemm
}()

var blasSgemm = blasGemm(blasImpl.Sgemm, true)

// sgemmWork recycles the packed kernel's pack buffers (a few MB for large products).
var sgemmWork sync.Pool

const f32Size = 4

func packedSgemm(m, n, k int, a, b, c mview, parallel bool) {
	switch {
	case misaligned(f32Size, a.p, b.p, c.p): // imported memory: Go's loads do not care
		blasSgemm(m, n, k, a, b, c, parallel)
	// A contiguous vector against a matrix with contiguous rows or columns.
	case n == 1 && b.rs == 1 && (a.rs == 1 || a.cs == 1 || m == 1): // matrix . vector
		gemmSplitRows(m, k, parallel, func(i0, i1 int) {
			av, cv := a.rows(i0, f32Size), c.rows(i0, f32Size)
			C.mxgo_sgemv(C.long(i1-i0), C.long(k), (*C.float)(av.p), C.long(av.rs), C.long(av.cs),
				(*C.float)(b.p), (*C.float)(cv.p), C.long(cv.rs))
		})
	case m == 1 && a.cs == 1 && (b.rs == 1 || b.cs == 1): // vector . matrix: c' = b' . a'
		gemmSplitRows(n, k, parallel, func(j0, j1 int) {
			bv, cv := b.cols(j0, f32Size), c.cols(j0, f32Size)
			C.mxgo_sgemv(C.long(j1-j0), C.long(k), (*C.float)(bv.p), C.long(bv.cs), C.long(bv.rs),
				(*C.float)(a.p), (*C.float)(cv.p), C.long(cv.cs))
		})
	case m >= n: // split the rows of c across the cores
		gemmSplitRows(m, n*k, parallel, func(i0, i1 int) {
			sgemmBlock(i1-i0, n, k, a.rows(i0, f32Size), b, c.rows(i0, f32Size))
		})
	default: // or its columns
		gemmSplitRows(n, m*k, parallel, func(j0, j1 int) {
			sgemmBlock(m, j1-j0, k, a, b.cols(j0, f32Size), c.cols(j0, f32Size))
		})
	}
}

// sgemmBlock runs the kernel on one block of the result, whose rows are contiguous.
func sgemmBlock(m, n, k int, a, b, c mview) {
	need := int(C.mxgo_sgemm_work(C.long(m), C.long(n), C.long(k))) + 16 // + 64-byte alignment
	buf, _ := sgemmWork.Get().(*[]float32)
	if buf == nil || len(*buf) < need {
		s := make([]float32, need)
		buf = &s
	}
	work := *buf
	off := int(-uintptr(unsafe.Pointer(&work[0])) % 64 / 4)
	C.mxgo_sgemm(C.long(m), C.long(n), C.long(k),
		(*C.float)(a.p), C.long(a.rs), C.long(a.cs),
		(*C.float)(b.p), C.long(b.rs), C.long(b.cs),
		(*C.float)(c.p), C.long(c.rs), (*C.float)(unsafe.Pointer(&work[off])))
	sgemmWork.Put(buf)
}
