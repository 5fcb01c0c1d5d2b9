package simd

/*
#include "sort32_avx512.h"
*/
import "C"

import "unsafe"

// Sorts of 32-bit elements by AVX-512F (sort32_avx512.c): a quicksort of order keys
// partitioned by compress stores, blocks of up to 256 keys sorted in registers. They give
// pkg/ops/sorting's radix sort's bits: its keys, and one NaN for all.

var sort32 = newFamily(C.mxgo_sort32_supported() != 0)

// SetSort32 turns the sorts on (where the CPU runs them) or off and returns whether they
// were on: a hook for tests, with no operation in flight.
func SetSort32(on bool) (was bool) { return sort32.set(on) }

// Sort32Kind is how an element maps to its order key.
type Sort32Kind C.int

const (
	Sort32Float32 Sort32Kind = C.MXGO_SORT32_F32
	Sort32Int32   Sort32Kind = C.MXGO_SORT32_I32
	Sort32Uint32  Sort32Kind = C.MXGO_SORT32_U32
)

// Sort32On reports whether the sorts run (the CPU has AVX-512F and no test turned them
// off) for rows at dst and src, which must be aligned to their 4-byte elements.
func Sort32On(dst, src unsafe.Pointer) bool {
	return sort32.enabled() && !Misaligned(4, dst, src, nil)
}

func words(a []uint32) *C.uint32_t { return (*C.uint32_t)(unsafe.Pointer(unsafe.SliceData(a))) }

// longs passes element offsets (Go's int is C's long on the 64-bit targets mxgo builds).
func longs(a []int) *C.long { return (*C.long)(unsafe.Pointer(unsafe.SliceData(a))) }

// Sort32Rows sorts len(srcStarts) rows of n elements, row l at element offset
// srcStarts[l] of src, into the row at dstStarts[l] of dst, ascending or descending;
// tmp has n words. Sort32On(dst, src) must hold.
func Sort32Rows(kind Sort32Kind, desc bool, dst unsafe.Pointer, dstStarts []int, src unsafe.Pointer, srcStarts []int, n int, tmp []uint32) {
	C.mxgo_sort32_rows(C.int(kind), cbool(desc), (*C.uint32_t)(dst), longs(dstStarts), (*C.uint32_t)(src), longs(srcStarts),
		C.long(len(srcStarts)), C.long(n), words(tmp))
}

// Sort32SelectRows is Sort32Rows for the first k < n elements of each sorted row only,
// written to rows of k; tmp has 2n words.
func Sort32SelectRows(kind Sort32Kind, desc bool, dst unsafe.Pointer, dstStarts []int, src unsafe.Pointer, srcStarts []int, n, k int, tmp []uint32) {
	C.mxgo_sort32_select_rows(C.int(kind), cbool(desc), (*C.uint32_t)(dst), longs(dstStarts), (*C.uint32_t)(src), longs(srcStarts),
		C.long(len(srcStarts)), C.long(n), C.long(k), words(tmp))
}

// Sort32Keys writes the order keys of src's elements to dst (len(src) words; it may be
// src), complemented for a descending sort.
func Sort32Keys(kind Sort32Kind, desc bool, dst, src []uint32) {
	C.mxgo_sort32_keys(C.int(kind), cbool(desc), words(dst), words(src), C.long(len(src)))
}

// Sort32Values turns Sort32Keys' keys back into elements, in place.
func Sort32Values(kind Sort32Kind, desc bool, a []uint32) {
	C.mxgo_sort32_values(C.int(kind), cbool(desc), words(a), C.long(len(a)))
}

// Sort32Sort sorts keys ascending; tmp has len(a) words.
func Sort32Sort(a, tmp []uint32) { C.mxgo_sort32_sort(words(a), words(tmp), C.long(len(a))) }

// Sort32SortWithin is Sort32Sort with at most levels partitions on any path before a
// heapsort takes over: a hook for tests of that way out of inputs its pivots split badly.
func Sort32SortWithin(a, tmp []uint32, levels int) {
	C.mxgo_sort32_sort_within(words(a), words(tmp), C.long(len(a)), C.int(levels))
}

// Sort32Partition reorders the keys of a (at least 16) around a pivot it samples: lt
// keys below it first, gt above it last, its copies between. tmp has len(a) words.
func Sort32Partition(a, tmp []uint32) (lt, gt int) {
	var l, g C.long
	C.mxgo_sort32_partition(words(a), words(tmp), C.long(len(a)), &l, &g)
	return int(l), int(g)
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
