package dlpack

import (
	"sync"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// exportSlots holds the arrays that exported tensors keep alive. C memory may not hold
// Go pointers, so a tensor's block stores the array's slot number (from 1). A slice with
// a free list costs a fraction of runtime/cgo.Handle's sync.Map on the export path.
var exportSlots struct {
	sync.Mutex
	arrays []*ndarray.NDArray
	free   []uintptr
}

// keepExport stores a and returns its slot.
func keepExport(a *ndarray.NDArray) uintptr {
	s := &exportSlots
	s.Lock()
	defer s.Unlock()
	if n := len(s.free); n > 0 {
		h := s.free[n-1]
		s.free = s.free[:n-1]
		s.arrays[h-1] = a
		return h
	}
	s.arrays = append(s.arrays, a)
	return uintptr(len(s.arrays))
}

// exported returns the array in slot h.
func exported(h uintptr) *ndarray.NDArray {
	exportSlots.Lock()
	defer exportSlots.Unlock()
	return exportSlots.arrays[h-1]
}

// dropExport empties slot h and returns what it held.
func dropExport(h uintptr) *ndarray.NDArray {
	s := &exportSlots
	s.Lock()
	defer s.Unlock()
	a := s.arrays[h-1]
	s.arrays[h-1] = nil
	s.free = append(s.free, h)
	return a
}
