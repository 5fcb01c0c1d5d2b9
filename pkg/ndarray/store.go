package ndarray

/*
#cgo CFLAGS: -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion
#include <stdlib.h>
#include "store.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// storeTable owns the C halves of storages (store.h) and maps their slots back to the
// Go storages, which it also keeps reachable while C code holds references. Headers are
// carved from slabs that are never freed, so making a storage costs no cgo call, and a
// header stays valid memory for as long as any C code can still point at it.
var storeTable struct {
	sync.Mutex
	storages []*Storage
	slabs    []*[slabSize]C.mxgo_store
	free     []uint32
}

const slabSize = 1024

// attach gives s a header with one reference.
func attach(s *Storage) {
	t := &storeTable
	t.Lock()
	var slot uint32
	if n := len(t.free); n > 0 {
		slot = t.free[n-1]
		t.free = t.free[:n-1]
		t.storages[slot] = s
	} else {
		slot = uint32(len(t.storages))
		if int(slot)%slabSize == 0 {
			slab := (*[slabSize]C.mxgo_store)(C.calloc(slabSize, C.sizeof_mxgo_store))
			if slab == nil {
				t.Unlock()
				panic("ndarray: out of memory for storage headers")
			}
			t.slabs = append(t.slabs, slab)
		}
		t.storages = append(t.storages, s)
	}
	h := &t.slabs[slot/slabSize][slot%slabSize]
	t.Unlock()
	h.slot = C.uint32_t(slot)
	s.hdr = h
	s.refs().Store(1)
}

// detach frees s's slot once its last reference is gone.
func detach(s *Storage) {
	t := &storeTable
	t.Lock()
	slot := uint32(s.hdr.slot)
	t.storages[slot] = nil
	t.free = append(t.free, slot)
	t.Unlock()
}

// refs is the reference count in s's header.
func (s *Storage) refs() *atomic.Int64 { return (*atomic.Int64)(unsafe.Pointer(&s.hdr.refs)) }

// Header returns s's C half (a *mxgo_store), for C code that takes references; never for
// a Borrowed storage (dlpack refuses to export one; pybridge registers none).
func (s *Storage) Header() unsafe.Pointer { return unsafe.Pointer(s.hdr) }

// StorageOf returns the storage whose header is hdr (one C code holds a reference to).
func StorageOf(hdr unsafe.Pointer) *Storage {
	slot := (*C.mxgo_store)(hdr).slot
	storeTable.Lock()
	defer storeTable.Unlock()
	return storeTable.storages[slot]
}

// FinalizeHeader finalises the storage whose last reference C code just dropped through
// hdr (mxgo_store_drop returned 1).
func FinalizeHeader(hdr unsafe.Pointer) { StorageOf(hdr).finalize() }
