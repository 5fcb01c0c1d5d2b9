package pybridge

/*
#include "bridge.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// opTable is every operator, sorted by name; an operator's index here is the "id" that
// OpInfo gives Python, so that a call names its operator without a string.
var opTable = sync.OnceValue(ops.Ops)

// takeOwning is what mxgoFastInvoke returns when its result would view memory it only
// borrowed: the caller then takes the call through owning imports (op.py's Python path).
const takeOwning = -3

// mxgoFastInvoke runs operator opID on the n arrays whose handles are at hs, into out
// when it is not 0, with attrs (attrsLen bytes, "name=value;..." in each parameter's
// wire form). Without out, *res receives a new handle of the result, described in d;
// with out, *res is 0. Where a handle is 0 the array is borrowed from the DLTensor at
// the same index of ts (other frameworks' memory, read only), and out from outT (with
// outFlags) when that is not nil: then the call is finished before this returns. Unlike
// the other fast-path exports it is called with the GIL released (see invoke.c): a
// small ready operation runs here, on the caller.
//
//export mxgoFastInvoke
func mxgoFastInvoke(opID C.int, hs *C.int64_t, ts *C.DLTensor, n C.int, out C.int64_t, outT *C.DLTensor, outFlags C.uint64_t,
	attrs *C.char, attrsLen C.int, res *C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	*res = 0
	handles := unsafe.Slice((*int64)(unsafe.Pointer(hs)), int(n))
	var b borrowed
	b.in = b.inBuf[:0]
	defer b.release()
	if ts != nil {
		b.tensors = unsafe.Slice(ts, int(n))
	}
	r, err := invoke(int(opID), handles, int64(out), C.GoStringN(attrs, attrsLen), &b, unsafe.Pointer(outT), uint64(outFlags))
	if err != nil {
		return fastResult(err, msg)
	}
	if b.aliased(r, out == 0 && outT == nil) {
		return takeOwning
	}
	if out == 0 && outT == nil {
		*res = C.int64_t(register(r))
		describe(r, d)
	} else {
		r.Release() // the caller has out already
	}
	return -1
}

// borrowed holds the arrays a call borrows from other frameworks' DLTensors.
type borrowed struct {
	tensors []C.DLTensor // by operand index, used where its handle is 0
	in      []*ndarray.NDArray
	out     *ndarray.NDArray
	inBuf   [4]*ndarray.NDArray // in's first, without an allocation
}

func (b *borrowed) borrow(t unsafe.Pointer, flags uint64, in bool) (*ndarray.NDArray, error) {
	a, err := dlpack.Borrow(t, flags)
	if err == nil && in {
		b.in = append(b.in, a)
	} else if err == nil {
		b.out = a
	}
	return a, err
}

// finish waits until nothing reads or writes the borrowed memory any more, and r (the
// call's result or out, nil when the call failed) is written, and returns the call's
// error, if any: the other framework may use its memory as soon as the call returns, and
// a call that failed may have pushed work before it did.
func (b *borrowed) finish(r *ndarray.NDArray) error {
	if len(b.in) == 0 && b.out == nil || ops.Engine().Busy() == 0 { // the call ran inline and nothing waits
		return nil
	}
	var err error
	if r != nil {
		err = ops.WaitToRead(r)
	}
	wait := func(a *ndarray.NDArray) {
		if e := ops.WaitToWrite(a); err == nil {
			err = e
		}
	}
	for _, a := range b.in {
		wait(a)
	}
	if b.out != nil {
		wait(b.out)
	}
	return err
}

// aliased reports (and then releases r) whether a new result r views a borrowed input,
// whose memory the call could not keep alive.
func (b *borrowed) aliased(r *ndarray.NDArray, isNew bool) bool {
	for _, a := range b.in {
		if isNew && r.Storage() == a.Storage() {
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
	reuse := ops.Engine().Busy() == 0
	for _, a := range b.in {
		ndarray.ReleaseBorrowed(a, reuse)
	}
	if b.out != nil {
		ndarray.ReleaseBorrowed(b.out, reuse)
	}
}

func invoke(opID int, handles []int64, out int64, attrs string, b *borrowed, outT unsafe.Pointer, outFlags uint64) (*ndarray.NDArray, error) {
	table := opTable()
	if opID < 0 || opID >= len(table) {
		return nil, mxerr.ValueErr("unknown operator id %d", opID)
	}
	op := table[opID]
	in := make([]*ndarray.NDArray, len(handles))
	var err error
	for i, h := range handles {
		if h == 0 && i < len(b.tensors) { // borrowed inputs have no handle
			in[i], err = b.borrow(unsafe.Pointer(&b.tensors[i]), dlpack.FlagReadOnly, true)
		} else {
			in[i], err = lookup(h)
		}
		if err != nil {
			return nil, err
		}
	}
	var o *ndarray.NDArray
	if outT != nil {
		o, err = b.borrow(outT, outFlags, false)
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
	r, err := op.Invoke(in, o, at)
	if werr := b.finish(r); err == nil && werr != nil {
		r.Release()
		return nil, werr
	}
	return r, err
}
