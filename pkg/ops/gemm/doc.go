// Package gemm is the batched matrix product that linalg's dot and batch_dot and nn's
// FullyConnected and Convolution share: strided matrix views (MView), a kernel per dtype
// (gonum's BLAS for float32/float64/complex, a packed float32 kernel, loops for the rest)
// and the split of a product across cores. It registers no operators.
package gemm
