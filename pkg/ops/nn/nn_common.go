package nn

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Helpers shared by the neural-network operators (nn_*.go), which follow MXNet 1.9.1's
// forward (inference) kernels: FullyConnected, Convolution, Pooling, the activations,
// the normalisations and Embedding.
//
// Every nn kernel computes in float32 (for float16 and float32 data) or float64, on
// contiguous buffers: nnCompute hands it C-order copies of inputs that are strided,
// negative-strided or of another dtype (inputs already contiguous in the compute dtype
// are read in place), and an output buffer that is out itself when out is contiguous
// in the compute dtype, else a temporary cast into out afterwards. The copies cost one
// pass over the data, small next to the products and windows these operators compute.

// nnFloat is the compute type of the nn kernels.
type nnFloat interface{ ~float32 | ~float64 }

// nnFloatDTypes are the dtypes MXNet's CPU nn kernels accept (its
// MSHADOW_REAL_TYPE_SWITCH); the ones that need a float BLAS take f32f64DTypes only
// (FullyConnected and Convolution refuse float16 on CPU: "FP16 gemm on cpu not implemented").
var nnFloatDTypes = []ndarray.DType{ndarray.Float16, ndarray.Float32, ndarray.Float64}

// nnCompute runs f32 or f64 (by out's dtype: float64 computes in float64, the rest in
// float32) on contiguous compute-dtype views of in and of out.
func nnCompute(in []*ndarray.NDArray, out *ndarray.NDArray,
	f32 func(x [][]float32, y []float32), f64 func(x [][]float64, y []float64)) error {
	return nnComputeAll(in, []*ndarray.NDArray{out},
		func(x, y [][]float32) { f32(x, y[0]) }, func(x, y [][]float64) { f64(x, y[0]) })
}

// nnComputeAll is nnCompute for a kernel of several outputs (by the first one's dtype),
// each given as itself when contiguous in the compute dtype, else as a temporary cast
// into it afterwards.
func nnComputeAll(in, out []*ndarray.NDArray, f32 func(x, y [][]float32), f64 func(x, y [][]float64)) error {
	if out[0].DType() == ndarray.Float64 {
		return nnRun(in, out, ndarray.Float64, f64)
	}
	return nnRun(in, out, ndarray.Float32, f32)
}

func nnRun[T nnFloat](in, out []*ndarray.NDArray, dt ndarray.DType, f func(x, y [][]T)) error {
	xs := make([][]T, len(in))
	for i, a := range in {
		c, err := nnContiguous(a, dt)
		if err != nil {
			return err
		}
		defer c.Release()
		xs[i] = nnSlice[T](c)
	}
	ys := make([][]T, len(out))
	var copies [][2]*ndarray.NDArray // (out, its temporary)
	for i, o := range out {
		if o.DType() == dt && o.Contiguous() {
			ys[i] = nnSlice[T](o)
			continue
		}
		tmp, err := ndarray.Empty(dt, o.Shape(), o.Device())
		if err != nil {
			return err
		}
		defer tmp.Release()
		ys[i] = nnSlice[T](tmp)
		copies = append(copies, [2]*ndarray.NDArray{o, tmp})
	}
	f(xs, ys)
	for _, c := range copies {
		if err := ops.CopyCast(c[0], c[1]); err != nil {
			return err
		}
	}
	return nil
}

// nnContiguous returns a (new reference to a) C-contiguous array of dtype dt holding x's
// elements: x itself when it already is one.
func nnContiguous(x *ndarray.NDArray, dt ndarray.DType) (*ndarray.NDArray, error) {
	if x.DType() == dt && x.Contiguous() {
		return x.Share(), nil
	}
	c, err := ndarray.Empty(dt, x.Shape(), x.Device())
	if err != nil {
		return nil, err
	}
	if err := ops.CopyCast(c, x); err != nil {
		c.Release()
		return nil, err
	}
	return c, nil
}

// nnSlice is a contiguous array's elements as a slice.
func nnSlice[T any](a *ndarray.NDArray) []T {
	n := a.Size()
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(a.Data()), n)
}

// nnSameDType checks that every input has data's dtype, as MXNet's "This layer requires
// uniform type" check does.
func nnSameDType(op string, in []*ndarray.NDArray, names []string) error {
	for i, a := range in[1:] {
		if a.DType() != in[0].DType() {
			return mxerr.TypeErr("%s requires uniform type: expected %s, given %s at %q", op, in[0].DType(), a.DType(), names[i+1])
		}
	}
	return nil
}

// nnCheckShape checks an input's shape against the one the operator infers from data
// and its parameters (MXNet's "Shape inconsistent, Provided = ..., inferred shape=...").
func nnCheckShape(op, name string, got, want []int) error {
	if !slices.Equal(got, want) {
		return mxerr.ValueErr("%s: shape inconsistent for %s: provided %v, inferred %v", op, name, got, want)
	}
	return nil
}

// nnArity checks the number of arrays given to an operator whose inputs depend on a
// parameter (bias unless no_bias, gamma for prelu): MXNet's "Operator X expects 3
// inputs, but got 2 instead".
func nnArity(op string, in []*ndarray.NDArray, want int) error {
	if len(in) != want {
		return mxerr.ValueErr("operator %s expects %d inputs, but got %d instead", op, want, len(in))
	}
	return nil
}

// nnSpatial resolves the per-axis tuple parameter name (stride, dilate, pad) of an
// operator over nd spatial axes: None (not given) is def on every axis; a tuple must
// have one value per axis, each at least min.
func nnSpatial(op, name string, v []int, nd, def, min int) ([]int, error) {
	if v == nil || (len(v) == 0 && nd != 0) {
		out := make([]int, nd)
		for i := range out {
			out[i] = def
		}
		return out, nil
	}
	if len(v) != nd {
		return nil, mxerr.ValueErr("%s: %s has %d values, the data has %d spatial axes", op, name, len(v), nd)
	}
	for _, x := range v {
		if x < min || x > nnMaxWindow {
			return nil, mxerr.ValueErr("%s: value %v for parameter %s is invalid: each must be in [%d, %d]", op, v, name, min, nnMaxWindow)
		}
	}
	return v, nil
}

// nnMaxWindow bounds the window parameters (kernel, stride, dilate, pad, adj, scale), so
// that the lengths computed from them cannot overflow.
const nnMaxWindow = 1 << 31

// nnParallel runs fn over [0, n), items of about work element operations each, split
// as elementwise loops are (ndarray.ForItems): the normalisations and pooling it serves
// stream memory, and at a product's threshold (2^20 multiply-adds) a 1M-element
// BatchNorm or global pooling ran on one core.
func nnParallel(n, work int, fn func(lo, hi int)) {
	ndarray.ForItems(n, work, fn)
}

// nnLayouts are MXNet's layout choices of the convolution and pooling operators: None
// (channels first), or a name whose 'C' is second (NCW, NCHW, NCDHW) or last (NWC,
// NHWC, NDHWC).
var nnLayouts = []string{"None", "NCW", "NCHW", "NCDHW", "NWC", "NHWC", "NDHWC"}

// nnChannelsLast reports whether layout puts the channels last, after checking that it
// names data.ndim axes.
func nnChannelsLast(op, layout string, ndim int) (bool, error) {
	if layout == "None" {
		return false, nil
	}
	if len(layout) != ndim {
		return false, mxerr.ValueErr("%s: layout %s does not match %d-dimensional data", op, layout, ndim)
	}
	return layout[len(layout)-1] == 'C', nil
}

// nnToChannelsFirst returns a view of x with its last axis moved to position 1 (NHWC as
// NCHW), or x itself (a new reference) when last is false.
func nnToChannelsFirst(x *ndarray.NDArray, last bool) (*ndarray.NDArray, error) {
	if !last {
		return x.Share(), nil
	}
	nd := x.NDim()
	perm := make([]int, 0, nd)
	perm = append(perm, 0, nd-1)
	for i := 1; i < nd-1; i++ {
		perm = append(perm, i)
	}
	return x.Transpose(perm)
}

// nnFromChannelsFirst is the shape of a channels-last result computed as channels-first.
func nnFromChannelsFirst(shape []int, last bool) []int {
	if !last {
		return shape
	}
	out := append([]int{shape[0]}, shape[2:]...)
	return append(out, shape[1])
}

// runBackward runs the internal backward operator name (a _backward_<Op> kernel, whose
// parameters are its forward's) on in with the attributes at, for a gradient.
func runBackward(c *ops.GradCtx, name string, at ops.Attrs, in ...*ndarray.NDArray) (*ndarray.NDArray, error) {
	op, err := ops.Lookup(name)
	if err != nil {
		return nil, err
	}
	return c.Run(op, in, at)
}
