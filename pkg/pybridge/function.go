package pybridge

// autograd.Function: a Python forward recorded as one step whose backward is Python's.
// Python keeps each recorded Function by id (mxgo/autograd.py's _functions) until Go
// lets it go; Go's gradient of the step calls Python through callback.c's Function
// runner, with the call's output gradients parked here under a call id that Python
// reads (FunctionCall) and answers (FunctionSetGrads) before the runner returns.

/*
#include "bridge.h"
*/
import "C"

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// fnCall is one backward call of a Function in progress.
type fnCall struct {
	fid      int64
	outGrads []*ndarray.NDArray
	inGrads  []*ndarray.NDArray // what Python answered, one new reference each
}

var (
	fnCalls   sync.Map // call id -> *fnCall
	fnCallIDs atomic.Int64
)

// RecordFunction records the arrays outs (handles, comma-separated) as computed from ins
// by Python Function fid when the calling thread is recording; it returns whether it
// did. Once recorded, fid is Go's to let go (the Function runner's drop).
func RecordFunction(fid int64, ins, outs string) (v bool, err error) {
	defer guard(&err)
	in, err := lookupList(ins)
	if err != nil {
		return false, pyErr(err)
	}
	out, err := lookupList(outs)
	if err != nil {
		return false, pyErr(err)
	}
	g := &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) { return functionBackward(fid, c) }}
	drop := func() { _ = runCallback(C.MXGO_RUN_FUNCTION, fid, false) }
	return autograd.Record("Function", g, in, out, currentMode(), drop), nil
}

// functionBackward runs Function fid's Python backward on c's output gradients and
// checks what it returns: one gradient per input, of the input's shape and dtype.
func functionBackward(fid int64, c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	id := fnCallIDs.Add(1)
	call := &fnCall{fid: fid, outGrads: c.OutGrad}
	fnCalls.Store(id, call)
	defer fnCalls.Delete(id)
	if err := runCallback(C.MXGO_RUN_FUNCTION, id, true); err != nil {
		ops.ReleaseAll(call.inGrads)
		return nil, err
	}
	got := call.inGrads
	if len(got) != len(c.Shapes) {
		ops.ReleaseAll(got)
		return nil, mxerr.ValueErr("autograd.Function: backward returned %d gradients for %d inputs", len(got), len(c.Shapes))
	}
	for i, g := range got {
		if ndarray.SameShape(g.Shape(), c.Shapes[i]) != nil || g.DType() != c.DTypes[i] {
			ops.ReleaseAll(got)
			return nil, mxerr.ValueErr("autograd.Function: backward's gradient %d has shape %v and dtype %s, its input %v and %s",
				i, g.Shape(), g.DType(), c.Shapes[i], c.DTypes[i])
		}
	}
	return got, nil
}

// FunctionCall returns backward call id's Function id and new handles of its output
// gradients: "fid:h1,h2".
func FunctionCall(id int64) (v string, err error) {
	defer guard(&err)
	call, ok := fnCalls.Load(id)
	if !ok {
		return "", pyErr(mxerr.ValueErr("no autograd.Function backward call %d is running", id))
	}
	c := call.(*fnCall)
	hs := make([]string, len(c.outGrads))
	for i, g := range c.outGrads {
		hs[i] = strconv.FormatInt(register(g.ShareWithEntry()), 10)
	}
	return strconv.FormatInt(c.fid, 10) + ":" + strings.Join(hs, ","), nil
}

// FunctionSetGrads answers backward call id with the input gradients grads (handles,
// comma-separated).
func FunctionSetGrads(id int64, grads string) (zero int, err error) {
	defer guard(&err)
	call, ok := fnCalls.Load(id)
	if !ok {
		return 0, pyErr(mxerr.ValueErr("no autograd.Function backward call %d is running", id))
	}
	gs, err := lookupList(grads)
	if err != nil {
		return 0, pyErr(err)
	}
	c := call.(*fnCall)
	ops.ReleaseAll(c.inGrads) // answered twice: the last answer counts
	c.inGrads = make([]*ndarray.NDArray, len(gs))
	for i, g := range gs {
		c.inGrads[i] = g.ShareWithEntry()
	}
	return 0, nil
}
