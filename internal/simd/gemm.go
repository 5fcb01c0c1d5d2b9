package simd

/*
#include "gemm_f32.h"
*/
import "C"

import (
	"math/bits"
	"sync"
	"unsafe"
)

// The float32 matrix product (gemm_f32.c): a packed, cache-blocked kernel with AVX2 and
// FMA (gopy builds with -ffast-math, which the kernel turns off: it must not assume
// finite values), and a matrix-vector kernel. Both read any strides, skip no term
// (0 * inf is nan, as in NumPy) and sum an element's terms in one order whatever block of
// the result it falls in, so a caller may split the result across cores. Strides count
// elements. The caller checks SgemmSupported and that every operand is aligned to 4
// bytes (Misaligned).

// SgemmSupported says whether the CPU runs the product kernels.
var SgemmSupported = C.mxgo_sgemm_supported() != 0

// Sgemv sets y[i*ys] = sum over j < k of m[i*rs + j*cs] * x[j], for i < rows.
func Sgemv(rows, k int, m unsafe.Pointer, rs, cs int, x, y unsafe.Pointer, ys int) {
	C.mxgo_sgemv(C.long(rows), C.long(k), (*C.float)(m), C.long(rs), C.long(cs), (*C.float)(x), (*C.float)(y), C.long(ys))
}

// work recycles the packed kernel's pack buffers (a few MB for large products), a pool
// per size class (a power of two of floats) so that a request finds one that fits rather
// than dropping a smaller one and faulting in fresh pages.
var work [bits.UintSize]sync.Pool

// Sgemm sets the m x n matrix c (rows ldc apart, contiguous within a row) to the product
// of the m x k matrix a (strides ars, acs) and the k x n matrix b (strides brs, bcs).
func Sgemm(m, n, k int, a unsafe.Pointer, ars, acs int, b unsafe.Pointer, brs, bcs int, c unsafe.Pointer, ldc int) {
	need := int(C.mxgo_sgemm_work(C.long(m), C.long(n), C.long(k))) + 16 // + 64-byte alignment
	class := bits.Len(uint(need - 1))
	buf, _ := work[class].Get().(*[]float32)
	if buf == nil {
		s := make([]float32, 1<<class)
		buf = &s
	}
	w := *buf
	off := int(-uintptr(unsafe.Pointer(&w[0])) % 64 / 4)
	C.mxgo_sgemm(C.long(m), C.long(n), C.long(k), (*C.float)(a), C.long(ars), C.long(acs),
		(*C.float)(b), C.long(brs), C.long(bcs), (*C.float)(c), C.long(ldc), (*C.float)(unsafe.Pointer(&w[off])))
	work[class].Put(buf)
}
