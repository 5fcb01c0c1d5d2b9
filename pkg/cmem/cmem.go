// Package cmem stores C pointers into C memory from Go without a write barrier.
//
// While the GC marks, every pointer store from Go shades the slot's old contents, even
// when the slot is C memory. C callers hand Go uninitialised out-parameters (a stack
// struct whose zeroing would cost more than the call), and a C stack can hold stale Go
// heap pointers left there by earlier cgo calls. Shading one whose object was freed marks
// a free slot, and the GC aborts the process ("found pointer to free object", or "found
// bad pointer in Go heap"): golang/go#19928, and cgo's documentation asks for zeroed C
// memory. The GC never scans C memory, so a store of a non-Go pointer there needs no
// barrier at all.
package cmem

import "unsafe"

// StorePtr stores p, which must not point into Go memory, into the pointer-sized slot,
// which must be C memory (not Go's heap, stacks or globals).
func StorePtr(slot, p unsafe.Pointer) { *(*uintptr)(slot) = uintptr(p) }
