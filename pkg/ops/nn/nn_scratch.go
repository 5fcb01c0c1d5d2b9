package nn

import (
	"sync"
	"unsafe"
)

// Scratch buffers (im2col's columns, a chunk's gathered gradients) come from a pool: a
// ResNet step makes hundreds of them, each several hundred KB, and fresh ones cost the
// kernel's page zeroing and Go's clearing, 6-8% of the step. A pooled buffer holds stale
// values: every user writes all of it before reading.

var scratchPools [2]sync.Pool // *[]float32, *[]float64

func scratchPool[T nnFloat]() *sync.Pool {
	var z T
	return &scratchPools[unsafe.Sizeof(z)/8]
}

// getScratch is a buffer of n elements, not cleared.
func getScratch[T nnFloat](n int) []T {
	if b, ok := scratchPool[T]().Get().(*[]T); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]T, n)
}

// putScratch gives b back to the pool.
func putScratch[T nnFloat](b []T) {
	if cap(b) > 0 {
		scratchPool[T]().Put(&b)
	}
}
