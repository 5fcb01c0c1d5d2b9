package ndarray

/*
#include "store.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/engine"
)

// Borrowing makes one borrowed array: an array over memory that its owner keeps alive
// and unchanged while the array or any operation on it lives (a DLPack view lent for a
// call), with its storage and (up to BorrowingDims dimensions) its shape and strides in
// this one block. Blocks come from a call's Borrowings.
type Borrowing struct {
	s    Storage // first: a borrowed storage's address is its Borrowing's
	a    NDArray
	dims [2 * BorrowingDims]int
	hdr  C.mxgo_store // the storage's header, out of the storage table: no C code holds it
	// outlived: the storage lives on past its call's Release, counted in LiveStorages
	// until its last holder lets go. Written before that release's atomic decrement,
	// read after the last one (finalize).
	outlived bool
}

// BorrowingDims is the most dimensions whose shape and strides fit in a Borrowing's Dims.
const BorrowingDims = 4

// Dims is room for a layout's shape and strides (up to BorrowingDims dimensions) that
// Array adopts.
func (b *Borrowing) Dims() []int { return b.dims[:] }

// Array makes the array over nbytes at ptr, with dtype dt, shape, strides and offset,
// which it adopts (they may live in Dims), and which the caller has checked to stay
// inside the nbytes (dlpack.Borrow validates every field first: CheckLayout again was a
// tenth of a borrowed operand's cost). Nothing runs at its release. Call it once.
func (b *Borrowing) Array(ptr unsafe.Pointer, nbytes int, dev device.Device, dt DType, shape, strides []int, offset int,
	writable bool) *NDArray {
	// Field by field: a composite literal is built on the stack and copied over, which
	// cost more than the rest of a borrow.
	b.hdr.refs = 1
	s := &b.s
	s.ptr, s.nbytes, s.dev, s.mem, s.hdr, s.release = ptr, nbytes, dev, fromBorrowing, &b.hdr, nil
	s.v = engine.Var{}
	b.outlived = false
	a := &b.a
	a.storage, a.dtype, a.shape, a.strides, a.offset, a.writable = s, dt, shape, strides, offset, writable
	return a
}

// release releases b's array, if it has one, and reports whether nothing can reach b
// any more: the array held its storage's only reference, or there was none.
func (b *Borrowing) release() bool {
	a := &b.a
	if a.storage == nil { // never made, or released already
		return true
	}
	if a.storage.refs().Load() != 1 {
		b.outlived = true
		liveStorages.Add(1)
		a.Release() // shared: the last holder ends the storage
		return false
	}
	// The only reference, and no one can take another without holding one: the storage
	// ends here, without an atomic operation (each locked operation was a few percent of
	// a small call on borrowed operands, so a storage that ends with its call is not
	// counted in LiveStorages either).
	a.storage = nil
	return true
}

// Borrowings holds the borrowed arrays of one call. Its blocks are reused, all together:
// one pooled block per call, since the pool's Get and Put for each operand cost more than
// making the operand's array.
type Borrowings struct {
	blocks [4]Borrowing
	used   int
	extra  []*Borrowing // past the fourth, never reused
}

var borrowingSets = sync.Pool{New: func() any { return new(Borrowings) }}

// NewBorrowings returns an empty set, reused where one was given back.
func NewBorrowings() *Borrowings { return borrowingSets.Get().(*Borrowings) }

// Next returns a block for one more borrowed array.
func (bs *Borrowings) Next() *Borrowing {
	if bs.used < len(bs.blocks) {
		bs.used++
		return &bs.blocks[bs.used-1]
	}
	b := new(Borrowing)
	bs.extra = append(bs.extra, b)
	return b
}

// Len is the number of blocks Next handed out.
func (bs *Borrowings) Len() int { return bs.used + len(bs.extra) }

// Array is the array made in the i-th block Next handed out; nil when none was made, or
// it was released.
func (bs *Borrowings) Array(i int) *NDArray {
	var b *Borrowing
	if i < len(bs.blocks) {
		b = &bs.blocks[i]
	} else {
		b = bs.extra[i-len(bs.blocks)]
	}
	if b.a.storage == nil {
		return nil
	}
	return &b.a
}

// Release releases every array made in bs (an array released before is skipped), and
// gives bs back for reuse when reuse is set and each held its storage's only reference.
// The caller sets reuse only where nothing else can still reach the blocks: no engine
// work in flight anywhere (so no operation holds an array), and no array made by the call
// views borrowed memory. Results never share a borrowed array's shape or strides: every
// array makes its own. Call it once.
func (bs *Borrowings) Release(reuse bool) {
	for i := range bs.blocks[:bs.used] {
		reuse = bs.blocks[i].release() && reuse
	}
	for _, b := range bs.extra {
		b.release()
	}
	if reuse {
		bs.used, bs.extra = 0, nil
		borrowingSets.Put(bs)
	}
}
