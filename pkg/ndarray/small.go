package ndarray

/*
#include <stdlib.h>

// Under AddressSanitizer every block comes from malloc, so that a use after free is seen.
#ifdef __SANITIZE_ADDRESS__
#define MXGO_POOL_SMALL 0
#else
#define MXGO_POOL_SMALL 1
#endif

static void* mxgo_slab(size_t n) {
	void* p = NULL;
	return posix_memalign(&p, 64, n) == 0 ? p : NULL;
}
*/
import "C"

import (
	"sync"
	"unsafe"
)

// Small host blocks (at most smallBlock bytes: scalars, short vectors, the results of
// small operations) come from C slabs that Go carves and recycles itself, sparing a
// small array the two cgo calls of malloc and free (~120 ns of a ~1 µs operation). The
// slabs are never freed: the pool holds the peak number of small blocks ever live.
const (
	smallBlock = 256
	slabBytes  = 64 << 10
)

var smallPool struct {
	sync.Mutex
	free []unsafe.Pointer
}

// smallAlloc returns a 64-byte aligned block of smallBlock bytes, or nil when it should
// come from malloc (out of memory for a slab, or an AddressSanitizer build).
func smallAlloc() unsafe.Pointer {
	if C.MXGO_POOL_SMALL == 0 {
		return nil
	}
	p := &smallPool
	p.Lock()
	defer p.Unlock()
	if len(p.free) == 0 {
		slab := C.mxgo_slab(slabBytes)
		if slab == nil {
			return nil
		}
		for off := slabBytes - smallBlock; off >= 0; off -= smallBlock {
			p.free = append(p.free, unsafe.Add(slab, off))
		}
	}
	b := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return b
}

func smallFree(b unsafe.Pointer) {
	smallPool.Lock()
	smallPool.free = append(smallPool.free, b)
	smallPool.Unlock()
}
