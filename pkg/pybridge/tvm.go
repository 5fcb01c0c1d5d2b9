package pybridge

// Go side of tvm.c: the TVM bridge (mxgo.tvm_bridge) through pkg/tvmffi. This file's
// preamble may only declare (it has //export functions).

/*
#include "bridge.h"
*/
import "C"

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/tvmffi"
)

// mxgoTVMLoad finds TVM-FFI's functions in the loaded library at path (len bytes).
//
//export mxgoTVMLoad
func mxgoTVMLoad(path *C.char, n C.int, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	return fastResult(tvmffi.Load(C.GoStringN(path, n)), msg)
}

// mxgoTVMRegister registers every operator as the global function prefix+name, and the
// count in *count.
//
//export mxgoTVMRegister
func mxgoTVMRegister(prefix *C.char, n C.int, count *C.int64_t, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	k, err := tvmffi.Register(C.GoStringN(prefix, n))
	*count = C.int64_t(k)
	return fastResult(err, msg)
}

// mxgoTVMClose stops running bridged calls (interpreter exit).
//
//export mxgoTVMClose
func mxgoTVMClose() { tvmffi.Close() }

// mxgoTVMPush pushes a call of TVM-FFI function f on n arguments: for each, types[i] is
// -1 for an array whose handle is vals[i] (read when isConst[i], else written), or a
// TVM-FFI scalar type index with its value's bits in vals[i]. Called with the GIL released.
//
//export mxgoTVMPush
func mxgoTVMPush(f unsafe.Pointer, types *C.int32_t, vals *C.int64_t, isConst *C.uint8_t, n C.int, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	var ts []int32
	var vs []int64
	var cs []uint8
	if n > 0 {
		ts = unsafe.Slice((*int32)(unsafe.Pointer(types)), int(n))
		vs = unsafe.Slice((*int64)(unsafe.Pointer(vals)), int(n))
		cs = unsafe.Slice((*uint8)(unsafe.Pointer(isConst)), int(n))
	}
	args := make([]tvmffi.Arg, n)
	for i := range ts {
		if ts[i] >= 0 {
			args[i].Scalar = tvmffi.Any{TypeIndex: ts[i], V: uint64(vs[i])}
			continue
		}
		a, err := lookup(vs[i])
		if err != nil {
			return fastResult(err, msg)
		}
		args[i].Array = a
	}
	// Each array is declared once: written if any argument writes it, else read.
	var reads, writes []*ndarray.NDArray
	var declared []int64
	for _, written := range []bool{true, false} {
		for i := range ts {
			if ts[i] < 0 && (cs[i] == 0) == written && !slices.Contains(declared, vs[i]) {
				declared = append(declared, vs[i])
				if written {
					writes = append(writes, args[i].Array)
				} else {
					reads = append(reads, args[i].Array)
				}
			}
		}
	}
	return fastResult(tvmffi.Push(f, args, reads, writes), msg)
}
