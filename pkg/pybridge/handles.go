package pybridge

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// handles maps the ids that Python holds to arrays. An array's storage reference is
// dropped when Python frees its handle. The lock is never held while releasing, because
// releasing a foreign storage may take the GIL.
var handles = struct {
	sync.Mutex
	next int64
	m    map[int64]*ndarray.NDArray
}{next: 1, m: map[int64]*ndarray.NDArray{}}

func register(a *ndarray.NDArray) int64 {
	handles.Lock()
	defer handles.Unlock()
	h := handles.next
	handles.next++
	handles.m[h] = a
	return h
}

func lookup(h int64) (*ndarray.NDArray, error) {
	handles.Lock()
	a, ok := handles.m[h]
	handles.Unlock()
	if !ok {
		return nil, mxerr.ValueErr("invalid or freed array handle %d", h)
	}
	return a, nil
}

func free(h int64) {
	handles.Lock()
	a, ok := handles.m[h]
	delete(handles.m, h)
	handles.Unlock()
	if ok {
		a.Release()
	}
}

// LiveHandles returns the number of arrays Python has not freed (for leak tests).
func LiveHandles() int64 {
	handles.Lock()
	defer handles.Unlock()
	return int64(len(handles.m))
}

// guard turns a panic into an MXNetError so that it reaches Python as an exception
// instead of aborting the interpreter. Use as: defer guard(&err).
func guard(err *error) {
	if r := recover(); r != nil {
		*err = mxerr.New(mxerr.MXNet, "internal error: %v\n%s", r, debug.Stack())
	}
}

// pyErr formats err for Python: "<ExceptionName>: <message>".
func pyErr(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %s", mxerr.KindOf(err), err.Error())
}
