// Package ops holds mxgo's kernels over strided arrays: casts, fills, elementwise
// arithmetic, ranges and random numbers. Kernels run on any layout through
// ndarray.Rows and take typed fast paths for Go's native element types; the 16-bit
// float types and casts go through elemIO, a slower general path.
package ops
