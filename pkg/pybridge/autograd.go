package pybridge

/*
#include "bridge.h"
*/
import "C"

import (
	"strconv"
	"strings"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/wire"
)

// modeOf reads autograd.c's flags.
func modeOf(ag C.int) autograd.Mode {
	return autograd.Mode{Recording: ag&C.MXGO_AG_RECORDING != 0, Training: ag&C.MXGO_AG_TRAINING != 0}
}

// currentMode is the calling thread's autograd mode (Go runs on the caller's thread
// while it is called from C).
func currentMode() autograd.Mode { return modeOf(C.mxgo_ag_mode()) }

// MarkVariables makes the arrays vars (handles, comma-separated) variables whose
// gradients go into grads (handles, 0 for none) by reqs ("write", "add" or "null",
// comma-separated): attach_grad and autograd.mark_variables.
func MarkVariables(vars, grads, reqs string) (zero int, err error) {
	defer guard(&err)
	vs, err := lookupList(vars)
	if err != nil {
		return 0, pyErr(err)
	}
	gs, err := lookupOptList(grads)
	if err != nil {
		return 0, pyErr(err)
	}
	names := strings.Split(reqs, ",")
	rs := make([]autograd.GradReq, len(names))
	for i, n := range names {
		if rs[i], err = autograd.ParseGradReq(n); err != nil {
			return 0, pyErr(err)
		}
	}
	return 0, pyErr(autograd.MarkVariables(vs, gs, rs))
}

// Backward runs backward from heads (handles, comma-separated) with headGrads (handles,
// 0 for ones; "" for all ones) into the variables' gradient buffers.
func Backward(heads, headGrads string, retain, train bool) (zero int, err error) {
	defer guard(&err)
	hs, gs, err := headsOf(heads, headGrads)
	if err != nil {
		return 0, pyErr(err)
	}
	return 0, pyErr(autograd.Backward(hs, gs, retain, train))
}

// AutogradGrad returns the gradients of heads with respect to vars as new handles,
// comma-separated (autograd.grad).
func AutogradGrad(heads, vars, headGrads string, retain, create, train bool) (v string, err error) {
	defer guard(&err)
	hs, gs, err := headsOf(heads, headGrads)
	if err != nil {
		return "", pyErr(err)
	}
	vs, err := lookupList(vars)
	if err != nil {
		return "", pyErr(err)
	}
	res, err := autograd.Grad(hs, vs, gs, retain, create, train)
	if err != nil {
		return "", pyErr(err)
	}
	ids := make([]string, len(res))
	for i, r := range res {
		ids[i] = strconv.FormatInt(register(r), 10)
	}
	return strings.Join(ids, ","), nil
}

// GradOf returns a new handle of h's gradient buffer, 0 when h has none.
func GradOf(h int64) (v int64, err error) {
	defer guard(&err)
	a, err := lookup(h)
	if err != nil {
		return 0, pyErr(err)
	}
	if g := autograd.GradOf(a); g != nil {
		return register(g), nil
	}
	return 0, nil
}

// FreshGrad reports whether a backward stored variable h's gradient since SetFreshGrad
// last cleared it (NDArray._fresh_grad).
func FreshGrad(h int64) (v bool, err error) {
	defer guard(&err)
	a, err := lookup(h)
	if err != nil {
		return false, pyErr(err)
	}
	return autograd.FreshGrad(a), nil
}

// SetFreshGrad sets variable h's fresh flag; it refuses an array that is not a variable.
func SetFreshGrad(h int64, fresh bool) (zero int, err error) {
	defer guard(&err)
	a, err := lookup(h)
	if err != nil {
		return 0, pyErr(err)
	}
	if !autograd.SetFreshGrad(a, fresh) {
		return 0, pyErr(mxerr.ValueErr("_fresh_grad: the array is not a variable (attach_grad or mark_variables)"))
	}
	return 0, nil
}

// InGraph reports whether h takes part in a recorded graph (a variable, or a recorded
// result whose graph is not yet released).
func InGraph(h int64) (v bool, err error) {
	defer guard(&err)
	a, err := lookup(h)
	if err != nil {
		return false, pyErr(err)
	}
	return autograd.Takes(a), nil
}

// Detach returns a new handle over h's memory that takes part in no graph.
func Detach(h int64) (v int64, err error) {
	defer guard(&err)
	return derive(h, func(a *ndarray.NDArray) (*ndarray.NDArray, error) { return autograd.Detach(a), nil })
}

// headsOf looks up backward's heads and head gradients.
func headsOf(heads, headGrads string) (hs, gs []*ndarray.NDArray, err error) {
	if hs, err = lookupList(heads); err != nil {
		return nil, nil, err
	}
	if headGrads == "" {
		return hs, nil, nil
	}
	gs, err = lookupOptList(headGrads)
	return hs, gs, err
}

// lookupOptList is lookupList where a 0 handle stands for nil.
func lookupOptList(list string) ([]*ndarray.NDArray, error) {
	ids, err := wire.Ints(list)
	if err != nil {
		return nil, err
	}
	out := make([]*ndarray.NDArray, len(ids))
	for i, id := range ids {
		if id != 0 {
			if out[i], err = lookup(int64(id)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// recordView records v, derived from a by a view-making method, when recording.
func recordView(a, v *ndarray.NDArray, g func() *ops.Gradient) {
	if m := currentMode(); m.Recording && autograd.Takes(a) {
		autograd.Record("view", g(), []*ndarray.NDArray{a}, []*ndarray.NDArray{v}, m, nil)
	}
}
