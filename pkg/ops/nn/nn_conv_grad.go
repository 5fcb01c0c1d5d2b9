package nn

import (
	"slices"
	"strconv"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Convolution's gradient: the data's is the transposed convolution of the head gradient
// (Deconvolution with the same window, and adj restoring the lengths that the stride
// dropped), the bias' the head gradient summed per filter, and the weight's the
// correlation of each image's columns (im2col) with the head gradient, which no public
// operator computes: _backward_Convolution_weight (without a gradient of its own, as
// MXNet's backward kernels).

func init() {
	ops.Register(&ops.Op{
		Name: "_backward_Convolution_weight",
		Doc: "The gradient of Convolution's weight from its data and the gradient of its result, with " +
			"Convolution's parameters. Internal: Convolution's Grad calls it.",
		Category: ops.General, Inputs: []string{"data", "out_grad"}, DTypes: ops.F32F64DTypes,
		Params: append([]ops.Param{
			{Name: "kernel", Kind: ops.ParamShape, Doc: "the window's shape"},
			{Name: "num_filter", Kind: ops.ParamInt, Doc: "the number of output channels"},
		}, convParams...),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := convWeightGeom(in, at)
			if err != nil {
				return nil, 0, err
			}
			return append([]int{g.f, g.c / g.group}, at.Ints("kernel")...), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := convWeightGeom(in, at)
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { convWeightGrad(g, x, y) },
				func(x [][]float64, y []float64) { convWeightGrad(g, x, y) })
		},
	})
}

// convWeightGeom is the geometry of the convolution whose weight gradient is asked.
func convWeightGeom(in []*ndarray.NDArray, at ops.Attrs) (*convGeom, error) {
	const op = "_backward_Convolution_weight"
	ds, kernel := in[0].Shape(), at.Ints("kernel")
	if len(ds) != len(kernel)+2 || len(kernel) < 1 || len(kernel) > 3 || in[1].DType() != in[0].DType() {
		return nil, mxerr.ValueErr("%s: data %v and kernel %v do not fit", op, ds, kernel)
	}
	g := &convGeom{n: ds[0], c: ds[1], f: at.Int("num_filter"), group: at.Int("num_group")}
	if g.f < 1 || g.group < 1 || g.c%g.group != 0 || g.f%g.group != 0 {
		return nil, mxerr.ValueErr("%s: num_group %d must divide the channels (%d) and num_filter (%d)", op, g.group, g.c, g.f)
	}
	if err := g.setWindow(op, at, ds[2:], kernel); err != nil {
		return nil, err
	}
	if !slices.Equal(in[1].Shape(), g.outShape()) {
		return nil, mxerr.ValueErr("%s: out_grad has shape %v, the convolution's result %v", op, in[1].Shape(), g.outShape())
	}
	return g, nil
}

// convWeightGrad sets dw (f, c/group, kernel...) to the sum over images of out_grad's
// rows of each group times the transposed columns of that group's channels, over chunks
// of weightChunk images side by side in a product. With two chunks a core or more, the
// chunks go to the cores, each core summing into its own dw (added up in core order):
// a small CNN's output is small and its sum long.
func convWeightGrad[T nnFloat](g *convGeom, x [][]T, dw []T) {
	if g.n == 0 {
		clear(dw)
		return
	}
	if taps := windowTaps(g); taps != nil {
		windowWeightGrad(g, x[0], x[1], dw, taps)
		return
	}
	if convWeightGradGathered(g, x[0], x[1], dw) {
		return
	}
	b := weightChunk(g.n, g.c/g.group*g.kernelVol(), g.outVol())
	chunks := (g.n + b - 1) / b
	workers := ndarray.Cores()
	if chunks < 2*workers { // a few large products: one after another, each on every core
		workers = 1
	}
	parts := make([][]T, workers)
	ndarray.ForChunks(chunks, workers, func(lo, hi int) {
		part := dw
		if lo > 0 { // cleared by convWeightGradChunks
			part = getScratch[T](len(dw))
		}
		convWeightGradChunks(g, x, part, lo, hi, b, workers == 1)
		parts[lo/((chunks+workers-1)/workers)] = part
	})
	for _, p := range parts[1:] {
		for i, v := range p {
			dw[i] += v
		}
		putScratch(p)
	}
}

// convGrad is Convolution's Gradient.
var convGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	at, gy := c.Attrs, c.OutGrad[0]
	kernel := at.Ints("kernel")
	nd := len(kernel)
	stride, err1 := nnSpatial("Convolution", "stride", at.Ints("stride"), nd, 1, 1)
	dilate, err2 := nnSpatial("Convolution", "dilate", at.Ints("dilate"), nd, 1, 1)
	pad, err3 := nnSpatial("Convolution", "pad", at.Ints("pad"), nd, 0, 0)
	for _, err := range []error{err1, err2, err3} {
		if err != nil {
			return nil, err
		}
	}
	window := "kernel=" + ops.WireInts(kernel) + ";stride=" + ops.WireInts(stride) + ";dilate=" + ops.WireInts(dilate) +
		";pad=" + ops.WireInts(pad) + ";num_group=" + strconv.Itoa(at.Int("num_group"))
	ds, os := c.Shapes[0], gy.Shape()
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	if c.Need[0] {
		adj := make([]int, nd) // the input positions after the last window
		for i := range nd {
			adj[i] = ds[2+i] + 2*pad[i] - (dilate[i]*(kernel[i]-1) + 1) - stride[i]*(os[2+i]-1)
		}
		grads[0] = s.Call("Deconvolution", window+";no_bias=1;num_filter="+strconv.Itoa(ds[1])+";adj="+ops.WireInts(adj), gy, c.In[1])
	}
	if c.Need[1] {
		grads[1] = s.CallInto(1, "_backward_Convolution_weight", window+";num_filter="+strconv.Itoa(at.Int("num_filter")), c.In[0], gy)
	}
	if len(grads) == 3 && c.Need[2] {
		axes := []int{0}
		for i := range nd {
			axes = append(axes, 2+i)
		}
		grads[2] = s.CallInto(2, "sum", "axis="+ops.WireInts(axes), gy)
	}
	return s.Done(grads...)
}}
