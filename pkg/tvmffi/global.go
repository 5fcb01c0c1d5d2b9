package tvmffi

// Global functions: mxgo's operators as "mxgo.nd.<name>" in TVM-FFI's function table.
// This file's preamble may only declare (it has an //export function).

/*
#include "tvmffi.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/cmem"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	_ "github.com/mxgo/mxgo/pkg/ops/all" // every operator family registered
)

// opTable is every operator, sorted by name; a global function's self is its index + 1.
var opTable = sync.OnceValue(ops.Ops)

// Register registers every operator as the global function prefix+name (replacing an
// earlier registration) and returns how many it registered.
func Register(prefix string) (int, error) {
	if err := requireLoaded(); err != nil {
		return 0, err
	}
	for i, op := range opTable() {
		full := prefix + op.Name
		name := C.CString(full)
		var kind, msg *C.char
		r := C.mxgo_ffi_register(name, C.size_t(len(full)), C.uintptr_t(i+1), &kind, &msg)
		C.free(unsafe.Pointer(name))
		if r != 0 {
			return i, raised(kind, msg)
		}
	}
	return len(opTable()), nil
}

// mxgoFFIGlobalCall is the safe call of every operator's global function (ffi.c): it
// runs operator self-1 on the caller's tensors and waits for it, since the caller owns
// the memory. Errors are raised for the caller, never panics.
//
//export mxgoFFIGlobalCall
func mxgoFFIGlobalCall(self C.uintptr_t, args *C.mxgo_ffi_any, n C.int32_t, result *C.mxgo_ffi_any) (ret C.int) {
	defer func() {
		if r := recover(); r != nil {
			setRaised(mxerr.New(mxerr.MXNet, "internal error: %v", r))
			ret = -1
		}
	}()
	var in []Any
	if n > 0 {
		in = unsafe.Slice((*Any)(unsafe.Pointer(args)), int(n))
	}
	if err := globalCall(int(self)-1, in, (*Any)(unsafe.Pointer(result))); err != nil {
		setRaised(err)
		return -1
	}
	return 0
}

func setRaised(err error) {
	kind, msg := C.CString(FFIKind(err)), C.CString(err.Error())
	C.mxgo_ffi_set_raised(kind, msg)
	C.free(unsafe.Pointer(kind))
	C.free(unsafe.Pointer(msg))
}

func globalCall(id int, args []Any, result *Any) error {
	table := opTable()
	if id < 0 || id >= len(table) {
		return mxerr.ValueErr("unknown operator id %d", id)
	}
	op := table[id]
	c, err := Decode(op, args)
	if err != nil {
		return err
	}
	bs := ndarray.NewBorrowings()
	defer func() { bs.Release(ops.Engine().Busy() == 0) }() // after r's release: reused if nothing holds them
	borrow := func(t unsafe.Pointer) (*ndarray.NDArray, error) { return dlpack.Borrow(bs.Next(), t, 0) }
	in := make([]*ndarray.NDArray, len(c.In))
	for i, t := range c.In {
		if in[i], err = borrow(t); err != nil {
			return err
		}
	}
	var out *ndarray.NDArray
	if c.Out != nil {
		if out, err = borrow(c.Out); err != nil {
			return err
		}
	}
	at, err := ops.ParseAttrs(op, c.Attrs)
	if err != nil {
		return err
	}
	r, err := op.Invoke(in, out, at)
	if err != nil {
		return err
	}
	defer r.Release()
	if err := ops.WaitToRead(r); err != nil { // the caller's memory is free to go after return
		return err // raised here, so mx.nd.waitall() does not raise it again
	}
	if c.Out != nil {
		return nil
	}
	obj, err := tensorObject(r)
	if err != nil {
		return err
	}
	result.SmallLen = 0
	cmem.StorePtr(unsafe.Pointer(&result.V), obj)
	result.TypeIndex = TypeTensor
	return nil
}
