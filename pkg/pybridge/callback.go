package pybridge

// mx.nd.run_async: Python callables pushed to the engine with declared reads and writes.
// The Python side (mxgo/ndarray/callback.py) keeps each callable, by id, until it has run;
// RunAsync pushes an operation whose work is a call into C (callback.c), which takes the
// GIL and runs it. This file's preamble may only declare (it has //export functions).

/*
#include <stdlib.h>
#include "bridge.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/cmem"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ops"
)

// RunAsync pushes Python callback id to the engine, reading the arrays whose handles are
// in reads and writing those in writes (comma-separated handle lists), and returns at
// once. The callback runs on an engine thread, which takes the GIL only while it runs;
// its exception becomes the error of writes. When a dependency failed the callback is
// dropped without running. gopy releases the GIL for this call; with the naive engine the
// callback runs before RunAsync returns, on the calling thread.
func RunAsync(id int64, reads, writes string) (zero int, err error) {
	defer guard(&err)
	rs, err := lookupList(reads)
	if err != nil {
		return 0, pyErr(err)
	}
	ws, err := lookupList(writes)
	if err != nil {
		return 0, pyErr(err)
	}
	return 0, pyErr(ops.PushFunc(rs, ws, func() error { return runCallback(C.MXGO_RUN_ASYNC, id, true) }, func(ran bool) {
		if !ran {
			_ = runCallback(C.MXGO_RUN_ASYNC, id, false) // the Python side drops the callable and its arrays
		}
	}))
}

// runCallback calls into C, which runs (or drops) callback id of runner which with the
// GIL held.
func runCallback(which C.int, id int64, run bool) error {
	var msg *C.char
	r := C.int(0)
	if run {
		r = 1
	}
	kind := C.mxgo_run_callback(which, C.int64_t(id), r, &msg)
	if kind < 0 {
		return nil
	}
	text := C.GoString(msg)
	C.free(unsafe.Pointer(msg))
	return mxerr.New(mxerr.Kind(kind), "%s", text)
}

// mxgoCallbackExport exports h as a DLPack tensor without waiting on the engine, for the
// views a running callback receives: the callback's own operation is the pending work an
// ordinary export would wait for. Called from C with the GIL held; it never blocks.
//
//export mxgoCallbackExport
func mxgoCallbackExport(h C.int64_t, versioned C.int, flags C.uint64_t, copy C.int, out *unsafe.Pointer, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		var mt unsafe.Pointer
		mt, err = exportArray(a, versioned != 0, uint64(flags), copy != 0, a.Device())
		cmem.StorePtr(unsafe.Pointer(out), mt)
	}
	return fastResult(err, msg)
}
