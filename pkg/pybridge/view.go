package pybridge

// Go side of view.c: basic indexing and reshape in one call from C, sharing basicIndex
// and mxnetReshape with GetItem and Reshape (api.go), Python's path for other keys.

/*
#include "bridge.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// view.c's gather: x[i] for integer arrays i whose dtype the operator reads as it is
// (indexing.py's _leading_arrays: uint64 goes through gather_nd there, bool is refused).
func init() {
	C.mxgo_gather_op = C.int32_t(opID("_gather_leading"))
	for _, t := range []ndarray.DType{ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64, ndarray.Uint8,
		ndarray.Uint16, ndarray.Uint32} {
		C.mxgo_gather_codes |= 1 << uint(t)
	}
}

// indexView is a's view selected by key (NumPy's basic indexing), recorded (when
// autograd records) if record is set.
func indexView(a *ndarray.NDArray, key []ndarray.KeyItem, record bool) (*ndarray.NDArray, error) {
	v, err := a.Index(key)
	if err == nil && record {
		recordView(a, v, func() *ops.Gradient { return autograd.ViewGrad(a, v) })
	}
	return v, err
}

// reshapeView is a reshaped to dims: a view when a is contiguous, a copy otherwise;
// recorded as indexView.
func reshapeView(a *ndarray.NDArray, dims []int, record bool) (*ndarray.NDArray, error) {
	v, err := ops.Reshape(a, dims)
	if err == nil && record {
		recordView(a, v, func() *ops.Gradient { return autograd.ReshapeGrad(a.Shape()) })
	}
	return v, err
}

// mxnetReshape is a reshaped by spec, which may hold MXNet's codes 0, -1, -2, -3, -4,
// matched from the right when reverse is set (ops.MXNetShape); recorded as indexView.
func mxnetReshape(a *ndarray.NDArray, spec []int, reverse, record bool) (*ndarray.NDArray, error) {
	dims, err := ops.MXNetShape(a.Shape(), spec, reverse)
	if err != nil {
		return nil, err
	}
	return reshapeView(a, dims, record)
}

// mxgoFastReshape is x.reshape(spec, reverse=) for the array of handle h, with mx.nd's
// rules (mxnetReshape).
//
//export mxgoFastReshape
func mxgoFastReshape(h C.int64_t, spec *C.int64_t, n C.int, reverse C.int, out *C.int64_t, d *C.mxgo_desc,
	msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		a, err = mxnetReshape(a, intsOf(spec, int(n)), reverse != 0, true)
	}
	return fastView(a, err, out, d, msg)
}

// fastView hands v (err nil) to C as a new handle into *out, described in d.
func fastView(v *ndarray.NDArray, err error, out *C.int64_t, d *C.mxgo_desc, msg **C.char) C.int {
	if err == nil {
		*out = C.int64_t(register(v))
		describe(v, d)
	}
	return fastResult(err, msg)
}

// mxgoFastIndex is x[key] for the array of handle h, key's n components read from items
// (four int64 each, MXGO_KEY_*: kind and slice bits, start, stop, step), with mx.nd's
// rules when mxnet is set (basicIndex).
//
//export mxgoFastIndex
func mxgoFastIndex(h C.int64_t, items *C.int64_t, n C.int, mxnet C.int, out *C.int64_t, d *C.mxgo_desc,
	msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		a, err = basicIndex(a, decodeKey(int64s(items, 4*int(n))), mxnet != 0, true)
	}
	return fastView(a, err, out, d, msg)
}

// basicIndex is a[key]. With mxnet set it keeps mx.nd's rules, where no result is 0-d:
// an in-range int on a 1-D array selects the slice k:k+1 (one view, where indexing and
// reshaping would make two), and any other result of no axes becomes shape (1,). The
// views are recorded as indexView's when record is set.
func basicIndex(a *ndarray.NDArray, key []ndarray.KeyItem, mxnet, record bool) (*ndarray.NDArray, error) {
	if mxnet && a.NDim() == 1 && len(key) == 1 && key[0].Kind == ndarray.KeyInt {
		if k, size := key[0].Start, a.Shape()[0]; -size <= k && k < size {
			k = (k + size) % size
			key[0] = ndarray.KeyItem{Kind: ndarray.KeySlice, Start: k, Stop: k + 1, HasStart: true, HasStop: true}
		}
	}
	v, err := indexView(a, key, record)
	if err != nil || !mxnet || v.NDim() != 0 {
		return v, err
	}
	defer v.Release() // the 0-d view's reference: the new view (and a recorded graph) hold their own
	return reshapeView(v, []int{1}, record)
}

// mxgoMaterializeView makes the Go side of a view view.c made in C (mxgo_new_view) of the
// array of handle h: the same call that view.c stood in for, by replay (MXGO_REPLAY_*),
// not recorded: the view was made while nothing was, whatever autograd does now.
//
//export mxgoMaterializeView
func mxgoMaterializeView(h C.int64_t, replay *C.int64_t, out *C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		head := int64s(replay, 3)
		n, body := int(head[2]), (*C.int64_t)(unsafe.Add(unsafe.Pointer(replay), 3*8))
		if head[0] == C.MXGO_REPLAY_INDEX {
			a, err = basicIndex(a, decodeKey(int64s(body, 4*n)), head[1] != 0, false)
		} else {
			a, err = mxnetReshape(a, intsOf(body, n), false, false)
		}
	}
	return fastView(a, err, out, d, msg)
}

func decodeKey(items []int64) []ndarray.KeyItem {
	key := make([]ndarray.KeyItem, len(items)/4)
	for i := range key {
		w := items[4*i:]
		key[i] = ndarray.KeyItem{Kind: ndarray.KeyKind(w[0] & 0xff), Start: int(w[1]), Stop: int(w[2]), Step: int(w[3]),
			HasStart: w[0]&C.MXGO_KEY_HAS_START != 0, HasStop: w[0]&C.MXGO_KEY_HAS_STOP != 0,
			HasStep: w[0]&C.MXGO_KEY_HAS_STEP != 0}
	}
	return key
}
