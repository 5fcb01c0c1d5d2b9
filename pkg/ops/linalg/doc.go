// Package linalg registers dot, batch_dot, matmul and mx.nd.linalg's operators (gonum's
// LAPACK).
//
//	linalg.go                       dot, batch_dot, matmul over package gemm
//	linalg_grad.go                  their gradients (products with the head gradient)
//	lapack.go, lapack_batch.go      gemm, trsm, potrf, syrk, ... as MXNet names them
//	lapack_kernels.go, lapack_packed.go  the LAPACK calls per matrix; packed triangles
//	lapack_blas.go, lapack_trsm.go  the BLAS under gonum's LAPACK: level 3 and symv/ger on AVX2
//	lapack_recursive.go, lapack_panel.go  recursive LU, Cholesky, triangular inverse
//	syevd.go                        the symmetric eigensolver (tridiagonal QL, vectors as rows)
//	np_linalg.go                    _npi_solve and _npi_svd, for mx.np.linalg
//	np_linalg_grad.go               _npi_svd's gradient (the reduced factors)
//	fft.go, fft_plan.go             _npi_fft (mx.np.fft's 1-d complex DFT), any length
package linalg
