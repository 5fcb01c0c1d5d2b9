// Package simd holds mxgo's C kernels: AVX2 (and FMA) loops over float32 and float64
// rows that Go, which does not vectorise, runs several times slower. pkg/ops calls them
// and keeps the Go kernels that give the same bits; it has no cgo of its own.
//
//	arith.go   + - * / of two rows, or of a row and a scalar (arith_avx2.c)
//	unary32.go float32 exp, sigmoid and tanh on 8 or 16 lanes (exp32_lanes.h in exp32_avx2.c, exp32_avx512.c)
//	sum.go     pairwise sums of a row (reduce_simd.c), bit for bit ops' order
//	maxmin.go  NumPy's maximum/minimum of two rows; max/min of a row without NaN (maxmin_avx2.c)
//	math32.go  float32 rounding, reciprocals, sqrt, softsign, sign, abs ... (math32_avx2.c)
//	cmp.go     comparisons of float32/float64 rows into 1 and 0; a value's first index (cmp_avx2.c)
//	mvec.go    float32 log, sin, pow, arccos ... by glibc's libmvec, loaded at run time (mvec.c)
//	pow32.go   float32 power in AVX-512 double lanes, tables in registers (powf_avx512.c); else libmvec's
//	special32.go float32 erfinv, lgamma and gamma, in double lanes (special32_body.h, in AVX2 and AVX-512 files)
//	winograd.go the transforms of Winograd's F(2x2, 3x3) convolution (winograd.c)
//	trsm64.go  small triangular solves with many right-hand sides, the recursive Dtrsm's base (trsm_f64.c)
//	gemm.go    the packed float32 matrix product and matrix-vector product (gemm_f32.c)
//	par.c      the helper threads that run a product's blocks of the result across cores
//	sgd.go     SGD's float32 update, with or without momentum (sgd_avx2.c)
//	moments.go row sums and squared deviations in float64, the normalisations' affine step (moments_avx2.c)
//	im2col.go  im2col and col2im of 1-D and 2-D convolutions, float32 and float64 (im2col_avx2.c)
//	taps.go    table-driven im2col/col2im of small planes; a convolution's weight spread (taps.c)
//	pool2d.go  float32 max pooling of planes by any 2-D window and its gradient (pool2d.c)
//	pool2x2.go float32 max pooling by 2x2 windows at stride 2 and its gradient (pool2x2_avx2.c)
//	gemm64.go  the packed float64 matrix product, with alpha and beta (gemm_f64.c)
//	symv64.go, ger64.go  float64 symmetric matrix-vector product, rank-1 update (LAPACK's level 2)
//	rot64.go   a sweep of plane rotations down neighbouring rows (the QL eigensolver's)
//	sort32.go  AVX-512F quicksort of 32-bit elements' order keys, blocks sorted in registers (sort32_avx512.c)
//
// Every kernel reports whether it ran: false leaves the work to the caller's Go loop,
// which happens when the CPU lacks the instructions, a row is too short to pay for the
// cgo call, an operand is not aligned to its element (C may assume it is: GCC vectorises
// after peeling to a vector boundary counting in elements; imported memory need not be),
// or a test turned the family off (SetArith, SetUnary32: hooks for tests that check the
// Go loops on a machine that has AVX2). The package is internal to mxgo: its API is what
// pkg/ops and mxgo's tests need, nothing more.
package simd
