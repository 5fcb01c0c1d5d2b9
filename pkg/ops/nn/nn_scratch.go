package nn

import (
	"math/bits"
	"sync"
	"unsafe"
)

// Scratch buffers (im2col's columns, a chunk's gathered gradients, spread weights) come
// from pools: a ResNet step makes hundreds of them, each several hundred KB, and fresh
// ones cost the kernel's page zeroing and Go's clearing, 6-8% of the step. Each pool
// holds one size class (a power of two of elements), so that a request finds a buffer
// that fits instead of dropping one too small for it (one pool of mixed sizes dropped
// most of them, and the step faulted in fresh pages). A pooled buffer holds stale values:
// every user writes all of it before reading.

var scratchPools [2][bits.UintSize]sync.Pool // *[]float32, *[]float64 by size class

func scratchPool[T nnFloat](class int) *sync.Pool {
	var z T
	return &scratchPools[unsafe.Sizeof(z)/8][class]
}

// getScratch is a buffer of n elements, not cleared.
func getScratch[T nnFloat](n int) []T {
	class := bits.Len(uint(max(n, 1) - 1)) // the least c with 1<<c >= n
	if b, ok := scratchPool[T](class).Get().(*[]T); ok {
		return (*b)[:n]
	}
	return make([]T, n, 1<<class)
}

// putScratch gives b back to the pool of the class its capacity fills.
func putScratch[T nnFloat](b []T) {
	if cap(b) > 0 {
		scratchPool[T](bits.Len(uint(cap(b))) - 1).Put(&b)
	}
}
