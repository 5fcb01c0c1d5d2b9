// Package ops is mxgo's operator library: a registry of operators with one kernel
// signature, and their kernels over strided arrays, all pushed to the dependency engine.
// It is pure Go; the C kernels it hands long contiguous float rows to are in
// internal/simd, and every one of them has a Go twin here that gives the same bits.
//
// A map of the package:
//
//	registry.go        Op (name, category, inputs, typed parameters, dtypes, in place),
//	                   Register, Lookup, Ops, Invoke
//	attrs.go           parameters: their kinds and wire form ("axis=0;keepdims=1")
//	infer.go           shared pieces of operator definitions (shapes, dtypes)
//	engine.go          the engine every operation runs on; waits; RunNow for small work
//	async.go           PushFunc: foreign work (run_async) ordered with operators
//	elemio.go          the general element path: loads and stores of any dtype as complex128
//	elemmap.go         typed elementwise loops shared by the families below
//	arith.go           + - * / of arrays and scalars; arith_simd.go its C rows
//	binary_math.go     power, maximum, minimum and friends
//	compare.go         the comparison operators (MXNet's names)
//	unary.go           negative, abs, sign, exp, log, sqrt, ..., and their dtype sets
//	exp32.go           float32 exp, sigmoid and tanh, bit for bit with their C kernels
//	where_clip.go      where and clip
//	cast.go, fill.go   Copy (casting as NumPy's astype) and Fill with a scalar
//	half.go            float16 and bfloat16 conversions
//	reduce.go          sum, mean, prod, max, min, argmax, argmin over axes;
//	reduce_kernels.go  their typed folds; reduce_sum.go long float row sums (C or Go)
//	linalg.go          dot, batch_dot, matmul; gemm.go their batched products (gonum's
//	                   BLAS); gemm_f32.go the float32 product through internal/simd
//	shape.go           transpose, reshape, concat, stack
//	random.go          random_uniform, random_normal and the process's seeded generator
package ops
