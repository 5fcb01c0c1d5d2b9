// Package ndarray is mxgo's array core: element types, layout arithmetic, refcounted
// storage and strided views.
//
// An NDArray is a view (dtype, shape, element strides, element offset, writability) of
// a Storage: a block of memory that never lives on the Go heap, either allocated here
// (64-byte aligned C memory) or borrowed from another framework with a release function
// that runs exactly once, when the last view is released. Every NDArray holds one
// storage reference from creation until Release, so views, DLPack exports and imports
// keep memory alive by the same rule.
//
// Layout arithmetic (Size, Extent, CheckLayout, SliceIndices) is overflow-checked: it
// also serves to validate descriptions that come from foreign memory. Rows walks any
// number of same-shaped operands row by row after merging contiguous dimensions; the
// kernels in package ops are written on top of it.
package ndarray
