// Package ops is mxgo's operator library: a registry of operators with one kernel
// signature, and their kernels over strided arrays, all pushed to the dependency engine.
// It is pure Go; the C kernels it hands long contiguous float rows to are in
// internal/simd, and every one of them has a Go twin here that gives the same bits.
//
// A map of the package, by family:
//
//	registry.go, attrs.go   Op, Register, Lookup, Invoke; parameter kinds and wire form
//	infer.go, engine.go     shared definition pieces; the engine, waits, RunNow
//	async.go                PushFunc: foreign work (run_async) ordered with operators
//	elemio.go, elemmap.go   loads and stores of any dtype; typed elementwise loops
//	arith*.go               + - * / (C rows in arith_simd.go); binary_math.go power, maximum, ...
//	compare.go              comparisons (MXNet's names); where_clip.go where and clip
//	unary.go, exp32.go      negative ... sigmoid; fast float32 exp, sigmoid, tanh
//	math_*.go               MXNet's other elementwise math, logical ops, broadcast_ and
//	                        elemwise_ names, add_n, Cast (float32 rows in math_rows32.go)
//	cast.go, fill.go, half.go  Copy with casts, Fill, float16 and bfloat16
//	reduce*.go, norm*.go    sum ... argmin; norm, nansum, nanprod, cumsum, moments
//	sort*.go, softmax*.go   sort, argsort, topk; the softmax family and SoftmaxOutput
//	linalg.go, gemm*.go     dot, batch_dot, matmul and their batched GEMM
//	lapack*.go              mx.nd.linalg (gonum's LAPACK)
//	shape*.go, reshape_codes.go  transpose, reshape, concat, stack, expand_dims ...,
//	                        tile, repeat, broadcasts, take, pick, one_hot
//	creation_like.go        zeros_like, ones_like, linspace, eye, diag
//	layout_*.go             pad, split, slice, gather_nd, scatter_nd, Crop, Sequence*, ...
//	index_axes.go           advanced indexing's gather and scatter
//	random*.go              the seeded generator; random_ and sample_<distribution>,
//	                        randint, shuffle, multinomial; random_pdf_<distribution>
//	nn_*.go                 FullyConnected, Convolution, Pooling, normalisations, ...
//	loss_outputs.go, ctc.go  output layers in inference, khatri_rao; CTCLoss
//	spatial.go, roi_pooling.go, correlation.go  spatial transformers, ROIPooling, Correlation
package ops
