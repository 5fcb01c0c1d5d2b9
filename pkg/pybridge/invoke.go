package pybridge

/*
#include "bridge.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// opTable is every operator, sorted by name; an operator's index here is the "id" that
// OpInfo gives Python, so that a call names its operator without a string.
var opTable = sync.OnceValue(ops.Ops)

// mxgoFastInvoke runs operator opID on the n arrays whose handles are at hs, into out
// when it is not 0, with attrs (attrsLen bytes, "name=value;..." in each parameter's
// wire form). Without out, *res receives a new handle of the result, described in d;
// with out, *res is 0. Unlike the other fast-path exports it is called with the GIL
// released (see invoke.c): a small ready operation runs here, on the caller.
//
//export mxgoFastInvoke
func mxgoFastInvoke(opID C.int, hs *C.int64_t, n C.int, out C.int64_t, attrs *C.char, attrsLen C.int,
	res *C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	*res = 0
	handles := unsafe.Slice((*int64)(unsafe.Pointer(hs)), int(n))
	r, err := invoke(int(opID), handles, int64(out), C.GoStringN(attrs, attrsLen))
	if err != nil {
		return fastResult(err, msg)
	}
	if out == 0 {
		*res = C.int64_t(register(r))
		describe(r, d)
	} else {
		r.Release() // the caller has out already
	}
	return -1
}

func invoke(opID int, handles []int64, out int64, attrs string) (*ndarray.NDArray, error) {
	table := opTable()
	if opID < 0 || opID >= len(table) {
		return nil, mxerr.ValueErr("unknown operator id %d", opID)
	}
	op := table[opID]
	in, err := lookupAll(handles...)
	if err != nil {
		return nil, err
	}
	var o *ndarray.NDArray
	if out != 0 {
		if o, err = lookup(out); err != nil {
			return nil, err
		}
	}
	at, err := ops.ParseAttrs(op, attrs)
	if err != nil {
		return nil, err
	}
	return op.Invoke(in, o, at)
}
