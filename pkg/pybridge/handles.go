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
//
// A handle is a slot number plus one in its low 32 bits and the slot's generation
// above them: slots are reused without a map, and a stale handle (freed, its slot
// reused) fails its generation check instead of reaching another array.
var handles struct {
	sync.Mutex
	slots []handleSlot
	free  []uint32
	live  int64
}

type handleSlot struct {
	a   *ndarray.NDArray
	gen uint32
}

const genMask = 1<<31 - 1 // generations stay below 2^31: handles are positive int64s

func register(a *ndarray.NDArray) int64 {
	handles.Lock()
	defer handles.Unlock()
	var i uint32
	if n := len(handles.free); n > 0 {
		i = handles.free[n-1]
		handles.free = handles.free[:n-1]
	} else {
		i = uint32(len(handles.slots))
		handles.slots = append(handles.slots, handleSlot{})
	}
	s := &handles.slots[i]
	s.a = a
	handles.live++
	return int64(s.gen)<<32 | int64(i+1)
}

// slotOf returns h's slot, or nil for a handle that is not live. Call with the lock held.
func slotOf(h int64) *handleSlot {
	i, gen := uint64(h&(1<<32-1))-1, uint32(h>>32)
	if h <= 0 || i >= uint64(len(handles.slots)) {
		return nil
	}
	if s := &handles.slots[i]; s.a != nil && s.gen == gen {
		return s
	}
	return nil
}

func lookup(h int64) (*ndarray.NDArray, error) {
	var a *ndarray.NDArray
	handles.Lock()
	if s := slotOf(h); s != nil {
		a = s.a
	}
	handles.Unlock()
	if a == nil {
		return nil, mxerr.ValueErr("invalid or freed array handle %d", h)
	}
	return a, nil
}

func free(h int64) {
	handles.Lock()
	s := slotOf(h)
	var a *ndarray.NDArray
	if s != nil {
		a, s.a = s.a, nil
		s.gen = (s.gen + 1) & genMask
		handles.free = append(handles.free, uint32(h&(1<<32-1))-1)
		handles.live--
	}
	handles.Unlock()
	if a != nil {
		a.Release()
	}
}

// LiveHandles returns the number of arrays Python has not freed (for leak tests).
func LiveHandles() int64 {
	handles.Lock()
	defer handles.Unlock()
	return handles.live
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
