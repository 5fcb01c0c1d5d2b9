package simd

/*
#include "gemm_f32.h"
#include "gemm_avx512.h"
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

// gemm512 is the AVX-512 tiles both products use where the CPU has AVX-512F (twice the
// lanes of AVX2, the same bits).
var gemm512 = newFamily(SgemmSupported && C.mxgo_gemm_avx512_supported() != 0)

func init() { SetGemmAVX512(true) }

// SetGemmAVX512 turns the products' AVX-512 tiles on (where the CPU runs them) or off,
// returning whether they were on: a hook for tests of the AVX2 tiles, to call with no
// product in flight.
func SetGemmAVX512(on bool) (was bool) {
	was = gemm512.set(on)
	flag := C.int(0)
	if gemm512.enabled() {
		flag = 1
	}
	C.mxgo_gemm_set_avx512(flag)
	return was
}

// Sgemv sets y[i*ys] = sum over j < k of m[i*rs + j*cs] * x[j], for i < rows.
func Sgemv(rows, k int, m unsafe.Pointer, rs, cs int, x, y unsafe.Pointer, ys int) {
	C.mxgo_sgemv(C.long(rows), C.long(k), (*C.float)(m), C.long(rs), C.long(cs), (*C.float)(x), (*C.float)(y), C.long(ys))
}

// work recycles the packed kernel's pack buffers (a few MB for large products), a pool
// per size class (a power of two of floats) so that a request finds one that fits rather
// than dropping a smaller one and faulting in fresh pages.
var work [bits.UintSize]sync.Pool

// Sgemm sets the m x n matrix c (rows ldc apart, contiguous within a row) to the product
// of the m x k matrix a (strides ars, acs) and the k x n matrix b (strides brs, bcs),
// cut into up to tasks blocks of rows of c (of columns when m < n) that run on as many
// threads (par.c). The cut changes no bit of c.
func Sgemm(tasks, m, n, k int, a unsafe.Pointer, ars, acs int, b unsafe.Pointer, brs, bcs int, c unsafe.Pointer, ldc int) {
	rows, chunk, bm, bn := split(tasks, m, n)
	w := getWork(int(C.mxgo_sgemm_work(C.long(bm), C.long(bn), C.long(k))), (max(m, n)+chunk-1)/chunk, 4)
	C.mxgo_sgemm_par(C.long(tasks), C.int(rows), C.long(chunk), C.long(m), C.long(n), C.long(k),
		(*C.float)(a), C.long(ars), C.long(acs), (*C.float)(b), C.long(brs), C.long(bcs), (*C.float)(c), C.long(ldc),
		(*C.float)(w.p), C.long(w.stride))
	w.put()
}

// SgemmCFuncs returns mxgo_sgemm and mxgo_sgemm_work (gemm_f32.h), one block of Sgemm
// with its bits, for the C of other packages (pybridge's tiny.c), or nils where the CPU
// lacks the kernels.
func SgemmCFuncs() (gemm, work unsafe.Pointer) {
	if !SgemmSupported {
		return nil, nil
	}
	return unsafe.Pointer(C.mxgo_sgemm), unsafe.Pointer(C.mxgo_sgemm_work)
}

// split cuts an m x n result into blocks of chunk rows (rows) or columns, tasks of them
// at most, bm x bn elements each.
func split(tasks, m, n int) (rows int, chunk, bm, bn int) {
	if m >= n {
		chunk = (m + tasks - 1) / tasks
		return 1, chunk, chunk, n
	}
	chunk = (n + tasks - 1) / tasks
	return 0, chunk, m, chunk
}

// packWork is the pack buffers of a product's blocks: p is 64-byte aligned, block t's
// starts stride elements after block t-1's, and buf goes back to its size class.
type packWork struct {
	p      unsafe.Pointer
	stride int
	buf    *[]float32
}

// getWork returns pack buffers for blocks blocks of perBlock elements of size bytes (4
// or 8) each, each block's start 64-byte aligned.
func getWork(perBlock, blocks, size int) packWork {
	per := 64 / size
	stride := (perBlock + per - 1) / per * per
	words := (stride*blocks + per) * size / 4 // + one line to align the start
	class := workClass(words)
	buf, _ := work[class].Get().(*[]float32)
	if buf == nil {
		s := make([]float32, 1<<class)
		buf = &s
	}
	p := unsafe.Pointer(&(*buf)[0])
	return packWork{unsafe.Add(p, int(-uintptr(p)%64)), stride, buf}
}

func (w packWork) put() { work[workClass(len(*w.buf))].Put(w.buf) }

func workClass(words int) int { return bits.Len(uint(words - 1)) }

// Gathered describes the b of SgemmGathered: a matrix read from the image X, element
// (r, j) being X[Ro[r] + Co[j]] where 0 <= Rh[r] + Ch[j] < H and 0 <= Rw[r] + Cw[j] < W,
// and 0 elsewhere (a convolution's im2col matrix, or its transpose, without building it).
type Gathered struct {
	// Tabs holds Ro, Rh, Rw (k entries each), then Co, Ch, Cw (n each).
	Tabs []int32
	H, W int32
}

// SgemmGathered sets the m x n matrix c (rows ldc apart) to a (m x k, strides ars, acs)
// times the k x n matrix g gathers from x, cut into up to tasks blocks of columns of c
// on as many threads. The caller guarantees that every offset inside the image lies in x.
func SgemmGathered(tasks, m, n, k int, a unsafe.Pointer, ars, acs int, x unsafe.Pointer, g *Gathered, c unsafe.Pointer, ldc int) {
	if len(g.Tabs) != 3*(k+n) {
		panic("simd.SgemmGathered: tables of the wrong length")
	}
	chunk := (n + tasks - 1) / tasks
	w := getWork(int(C.mxgo_sgemm_work(C.long(m), C.long(chunk), C.long(k))), (n+chunk-1)/chunk, 4)
	C.mxgo_sgemm_gathered(C.long(tasks), C.long(chunk), C.long(m), C.long(n), C.long(k), (*C.float)(a), C.long(ars),
		C.long(acs), (*C.float)(x), (*C.int32_t)(unsafe.Pointer(&g.Tabs[0])), C.int32_t(g.H), C.int32_t(g.W),
		(*C.float)(c), C.long(ldc), (*C.float)(w.p), C.long(w.stride))
	w.put()
}
