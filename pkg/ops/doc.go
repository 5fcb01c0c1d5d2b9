// Package ops is the core of mxgo's operator library: what every operator family shares
// and nothing family-specific. It holds the registry (Op, Register, Lookup, Invoke), the
// parameter kinds and their wire form, the inference helpers, the engine glue (push,
// waits, RunNow, PushFunc) and the typed load/store loops that kernels are written with.
//
// The operators themselves live in one package per family below this directory, each
// registering its operators from init and owning its kernels and their gradients. A family imports this package and never another family: what two families
// share moves down here, or into a shared kernel package (gemm, unary). Package all is the
// one list of the families a build contains; tools/check_layers.py enforces the layers.
//
//	registry.go, attrs.go   Op, Register, Lookup, Invoke; parameter kinds and wire form
//	infer.go, shapes.go     shared inference: same shape, broadcasting, shape formatting
//	reshape_codes.go        MXNet's reshape codes (0, -1, -2, -3, -4)
//	engine.go, device.go    the engine, waits, RunNow; device copies and fills
//	async.go                PushFunc: foreign work (run_async) ordered with operators
//	elemio.go, elemmap.go   loads and stores of any dtype; typed elementwise loops
//	cast.go, fill.go, half.go  Copy with casts, Fill, Arange, float16 and bfloat16
//	dtypes.go               the dtype sets operators declare
//	lanes.go, gather.go     rows along an axis (sort, softmax, cumsum); gathers along an axis
//	scatter.go              ScatterAdd: the gathers' adjoint, their gradients' kernel
//	temp.go                 results computed through a temporary of another dtype or layout
//	fastpath.go             SetFastKernels: the tests' switch between typed row loops and general paths
//	rng.go                  the process's seeded generator (mx.random.seed)
//	grad.go, gradexpr.go    Gradient and GradCtx (Op.Grad), the shared gradients, and
//	                        GradExpr, the one-line expression language most operators use
//	gradcalls.go, training.go  GradCalls (a gradient of several calls); TrainAware's flag
//
// The families (each has a doc.go with its map):
//
//	elemwise  + - * /, comparisons, where, clip, elementwise math, casts
//	reduce    sum ... argmin, norm, nansum, nanprod, cumsum, moments
//	sorting   sort, argsort, topk, histogram
//	linalg    dot, batch_dot, matmul, mx.nd.linalg (gonum's LAPACK)
//	layout    shapes, slicing, concat/stack/split, gather/scatter, indexing, creation
//	random    sampling, random_pdf_*, shuffle, multinomial
//	nn        layers, activations, normalisations, softmax, losses, spatial operators
//	optim     optimizer updates (sgd_update ... adam_update, multi_*), multi_sum_sq, all_finite
//
// Shared kernel packages (no operators of their own): gemm (the batched GEMM behind dot,
// FullyConnected and Convolution) and unary (the table of unary functions that elemwise
// registers and nn's Activation reuses). The C kernels for long contiguous float rows are
// in internal/simd, and every one has a Go twin that gives the same bits.
package ops
