package pybridge

/*
#include "bridge.h"
*/
import "C"

import (
	"errors"
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	_ "github.com/mxgo/mxgo/pkg/ops/all" // every operator family registered
)

// opTable is every operator, sorted by name; an operator's index here is the "id" that
// OpInfo gives Python, so that a call names its operator without a string.
var opTable = sync.OnceValue(ops.Ops)

// takeOwning is what mxgoFastInvoke returns when its result would view memory it only
// borrowed, or when the call gives several results: the caller then takes the call
// through owning imports (the registry's Python path, invoke_all for several results).
const takeOwning = -3

// mxgoFastInvoke runs operator opID on the n arrays whose handles are at hs, into out
// when it is not 0, with attrs (attrsLen bytes, "name=value;..." in each parameter's
// wire form). Without out, *res receives a new handle of the result, described in d;
// with out, *res is 0. ag is the calling thread's autograd flags (autograd.c). Where a
// handle is 0 the array is borrowed from f, which holds other frameworks' memory (read
// only), and out too when f.out is not nil: then the call is finished before this returns. Unlike the other fast-path exports it is called with
// the GIL released (see invoke.c): a small ready operation runs here, on the caller.
//
//export mxgoFastInvoke
func mxgoFastInvoke(opID C.int, hs *C.int64_t, n C.int, out C.int64_t, f *C.mxgo_borrowed,
	attrs *C.char, attrsLen C.int, ag C.int, res *C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	*res = 0
	handles := unsafe.Slice((*int64)(unsafe.Pointer(hs)), int(n))
	b := borrowed{from: f} // on the stack: nothing keeps a pointer to it
	defer b.release()
	r, err := invoke(int(opID), handles, int64(out), C.GoStringN(attrs, attrsLen), modeOf(ag), &b)
	if errors.Is(err, ops.ErrSeveralResults) {
		return takeOwning // Python takes it through InvokeAll (op.invoke_all)
	}
	if err != nil {
		return fastResult(err, msg)
	}
	isNew := out == 0 && !b.foreignOut()
	if b.aliased(r, isNew) {
		return takeOwning
	}
	if isNew {
		*res = C.int64_t(register(r))
		describe(r, d)
	} else {
		r.Release() // the caller has out already
	}
	return -1
}

// mxgoFastInvokeAll runs operator opID, of several results, on the n arrays whose
// handles are at hs into the no arrays whose handles are at os, with attrs (attrsLen
// bytes, the parameters' wire form) and ag the calling thread's autograd flags: invoke.c's
// invoke_all, InvokeAll without the handles' strings.
//
//export mxgoFastInvokeAll
func mxgoFastInvokeAll(opID C.int, hs *C.int64_t, n C.int, os *C.int64_t, no C.int, attrs *C.char, attrsLen C.int,
	ag C.int, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	in, err := lookupAll(unsafe.Slice((*int64)(unsafe.Pointer(hs)), int(n))...)
	if err != nil {
		return fastResult(err, msg)
	}
	out, err := lookupAll(unsafe.Slice((*int64)(unsafe.Pointer(os)), int(no))...)
	if err != nil {
		return fastResult(err, msg)
	}
	res, err := invokeAll(int(opID), in, out, C.GoStringN(attrs, attrsLen), modeOf(ag))
	if err == nil {
		ops.ReleaseAll(res)
	}
	return fastResult(err, msg)
}

// borrowed holds the arrays a call borrows from other frameworks' DLTensors.
type borrowed struct {
	from *C.mxgo_borrowed    // nil when every operand is mxgo's
	set  *ndarray.Borrowings // the arrays and their blocks, from the first borrow on
}

func (b *borrowed) foreignOut() bool { return b.from != nil && b.from.out != nil }

// input borrows operand i, whose handle is 0.
func (b *borrowed) input(i int) (*ndarray.NDArray, error) {
	t := unsafe.Add(unsafe.Pointer(b.from.ts), i*C.sizeof_DLTensor)
	q := unsafe.Add(unsafe.Pointer(b.from.qs), i*C.sizeof_mxgo_dl_quick)
	return b.borrow(t, q, dlpack.FlagReadOnly)
}

// output borrows the foreign out.
func (b *borrowed) output() (*ndarray.NDArray, error) {
	return b.borrow(unsafe.Pointer(b.from.out), unsafe.Pointer(b.from.out_q), uint64(b.from.out_flags))
}

// borrow borrows the DLTensor t, through what C's quick check made of it (q) where it
// accepted it.
func (b *borrowed) borrow(t, q unsafe.Pointer, flags uint64) (*ndarray.NDArray, error) {
	if b.set == nil {
		b.set = ndarray.NewBorrowings()
	}
	blk := b.set.Next()
	if (*C.mxgo_dl_quick)(q).dtype >= 0 {
		if a, ok := dlpack.BorrowChecked(blk, t, q); ok {
			return a, nil
		}
	}
	return dlpack.Borrow(blk, t, flags)
}

// finish waits until nothing reads or writes the borrowed memory any more, and r (the
// call's result or out, nil when the call failed) is written, and returns the call's
// error, if any: the other framework may use its memory as soon as the call returns, and
// a call that failed may have pushed work before it did.
func (b *borrowed) finish(r *ndarray.NDArray) error {
	if b.set == nil || ops.Engine().Busy() == 0 { // the call ran inline and nothing waits
		return nil
	}
	var err error
	if r != nil {
		err = ops.WaitToRead(r)
	}
	for i := range b.set.Len() {
		if a := b.set.Array(i); a != nil {
			if e := ops.WaitToWrite(a); err == nil {
				err = e
			}
		}
	}
	return err
}

// aliased reports (and then releases r) whether a new result r views a borrowed input,
// whose memory the call could not keep alive.
func (b *borrowed) aliased(r *ndarray.NDArray, isNew bool) bool {
	if !isNew || b.set == nil {
		return false
	}
	for i := range b.set.Len() { // with a new result, every borrowed array is an input
		if a := b.set.Array(i); a != nil && r.Storage() == a.Storage() {
			r.Release()
			return true
		}
	}
	return false
}

// release releases the borrowed arrays; their blocks are reused when the engine is idle
// (then the call ran inline, or all its work is done, and no operation holds them) and
// the call made no array viewing them (aliased: such a result falls back, released).
func (b *borrowed) release() {
	if b.set != nil {
		b.set.Release(ops.Engine().Busy() == 0)
	}
}

func invoke(opID int, handles []int64, out int64, attrs string, m autograd.Mode, b *borrowed) (*ndarray.NDArray, error) {
	op, err := opOf(opID)
	if err != nil {
		return nil, err
	}
	in := make([]*ndarray.NDArray, len(handles))
	for i, h := range handles {
		if h == 0 && b.from != nil { // borrowed inputs have no handle
			in[i], err = b.input(i)
		} else {
			in[i], err = lookup(h)
		}
		if err != nil {
			return nil, err
		}
	}
	var o *ndarray.NDArray
	if b.foreignOut() {
		o, err = b.output()
	} else if out != 0 {
		o, err = lookup(out)
	}
	if err != nil {
		return nil, err
	}
	at, err := ops.ParseAttrs(op, attrs)
	if err != nil {
		return nil, err
	}
	r, err := autograd.Invoke(op, in, o, at, m)
	if werr := b.finish(r); err == nil && werr != nil {
		r.Release()
		return nil, werr
	}
	return r, err
}
