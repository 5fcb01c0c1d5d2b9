package nn

import (
	"strings"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Deconvolution (the transposed convolution) and the im2col and col2im operators, as
// MXNet's. A deconvolution is the adjoint of a convolution whose input is the
// deconvolution's output: its geometry here is that convolution's (convGeom with in the
// deconvolution's output lengths and out its input lengths), each image's product
// weight.T @ data gives the columns, and col2im sums them into the output.

func init() {
	ops.Register(&ops.Op{
		Name: "Deconvolution",
		Doc: "Computes a 1-D, 2-D or 3-D transposed convolution, as MXNet's Deconvolution.\n\n" +
			"The arrays are data (batch, channel, spatial...), weight (channel, num_filter/num_group, kernel...) " +
			"and, with no_bias=False (MXNet's default is True), bias (num_filter,), positionally or by name. Each output " +
			"length is stride*(x - 1) + dilate*(kernel - 1) + 1 - 2*pad + adj; target_shape, when given, sets " +
			"the output lengths instead and derives pad and adj from them. float32 and float64.",
		Category: ops.General, Inputs: []string{"data", "weight", "bias?"}, DTypes: ops.F32F64DTypes,
		Params: append([]ops.Param{
			{Name: "kernel", Kind: ops.ParamShape, Doc: "the window's shape: (w,), (h, w) or (d, h, w)"},
			{Name: "num_filter", Kind: ops.ParamInt, Doc: "the number of output channels"},
			{Name: "adj", Kind: ops.ParamAxes, Default: "None", Doc: "added to each output length (below stride)"},
			{Name: "target_shape", Kind: ops.ParamAxes, Default: "None", Doc: "the output's spatial shape (overrides pad and adj)"},
		}, deconvParams()...),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := newDeconvGeom(in, at)
			if err != nil {
				return nil, 0, err
			}
			return append([]int{g.n, g.c}, g.in[3-g.nd:]...), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := newDeconvGeom(in, at)
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { deconvForward(g, x, y) },
				func(x [][]float64, y []float64) { deconvForward(g, x, y) })
		},
		Grad: deconvGrad,
	})
	window := []ops.Param{
		{Name: "kernel", Kind: ops.ParamShape, Doc: "the window's shape (h, w)"},
		convParams[0], convParams[1], convParams[2], // stride, dilate, pad
	}
	ops.Register(&ops.Op{
		Name: "im2col",
		Doc: "Gathers every window of data (batch, channel, spatial...) into a column, as MXNet's im2col: the " +
			"result is (batch, channel*prod(kernel), number of windows), zero where a window covers padding. " +
			"2-D windows only (MXNet 1.9.1 fails on 1-D and 3-D ones). float16, float32 and float64.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: nnFloatDTypes, Params: window,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := newColGeom("im2col", in[0].Shape(), at.Ints("kernel"), at)
			if err != nil {
				return nil, 0, err
			}
			return []int{g.n, g.c * g.kernelVol(), g.outVol()}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := newColGeom("im2col", in[0].Shape(), at.Ints("kernel"), at)
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { colImages(g, x[0], y, false) },
				func(x [][]float64, y []float64) { colImages(g, x[0], y, false) })
		},
		Grad: adjointGrad("col2im", true),
	})
	ops.Register(&ops.Op{
		Name: "col2im",
		Doc: "Sums columns back into images, as MXNet's col2im (the adjoint of im2col): data is (batch, " +
			"channel*prod(kernel), number of windows) and the result (batch, channel, output_size...), each " +
			"element the sum of the window taps that cover it. 2-D windows only, as im2col. float16, float32 and float64.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: nnFloatDTypes,
		Params: append([]ops.Param{{Name: "output_size", Kind: ops.ParamShape, Doc: "the images' spatial shape"}}, window...),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := col2imGeom(in[0], at)
			if err != nil {
				return nil, 0, err
			}
			return append([]int{g.n, g.c}, at.Ints("output_size")...), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := col2imGeom(in[0], at)
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { colImages(g, x[0], y, true) },
				func(x [][]float64, y []float64) { colImages(g, x[0], y, true) })
		},
		Grad: adjointGrad("im2col", false),
	})
}

// adjointGrad is the gradient of im2col and col2im, each the other's adjoint: the other
// operator on the gradient with the same window (and, for col2im, the input's spatial
// shape as its output_size).
func adjointGrad(adjoint string, outputSize bool) *ops.Gradient {
	return &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		attrs := ""
		for _, p := range []string{"kernel", "stride", "dilate", "pad"} {
			attrs += p + "=" + ops.WireInts(c.Attrs.Ints(p)) + ";"
		}
		if outputSize {
			attrs += "output_size=" + ops.WireInts(c.Shapes[0][2:])
		}
		g, err := c.Call(adjoint, strings.TrimSuffix(attrs, ";"), c.OutGrad[0])
		return []*ndarray.NDArray{g}, err
	}}
}

// deconvParams are Convolution's parameters with MXNet's Deconvolution default of no_bias.
func deconvParams() []ops.Param {
	ps := append([]ops.Param{}, convParams...)
	for i := range ps {
		if ps[i].Name == "no_bias" {
			ps[i].Default = "1"
		}
	}
	return ps
}

func newDeconvGeom(in []*ndarray.NDArray, at ops.Attrs) (*convGeom, error) {
	const op = "Deconvolution"
	kernel, ds, err := checkConvArrays(op, in, at)
	if err != nil {
		return nil, err
	}
	nd := len(kernel)
	if layout := at.Str("layout"); layout != "None" && (len(layout) != nd+2 || layout[len(layout)-1] == 'C') {
		return nil, mxerr.ValueErr("%s: layout %s is not supported for %d-D data (channels-first layouts only)", op, layout, nd+2)
	}
	// the adjoint convolution: input channels num_filter, filters the data's channels
	g := &convGeom{n: ds[0], c: at.Int("num_filter"), f: ds[1], group: at.Int("num_group")}
	if g.c < 1 || g.group < 1 || g.f%g.group != 0 || g.c%g.group != 0 {
		return nil, mxerr.ValueErr("%s: num_group %d must divide the input channels (%d) and num_filter (%d)", op, g.group, g.f, g.c)
	}
	adj, err := nnSpatial(op, "adj", at.Ints("adj"), nd, 0, 0)
	if err != nil {
		return nil, err
	}
	target := at.Ints("target_shape")
	if len(target) > 0 {
		if target, err = nnSpatial(op, "target_shape", target, nd, 0, 0); err != nil {
			return nil, err
		}
	}
	// the window first, on a placeholder input that any kernel fits
	big := make([]int, nd)
	for i := range big {
		big[i] = 1 << 30
	}
	if err := g.setWindow(op, at, big, kernel); err != nil {
		return nil, err
	}
	for i := range nd {
		j := 3 - nd + i
		full := g.s[j]*(ds[2+i]-1) + g.d[j]*(g.k[j]-1) + 1
		if len(target) > 0 && target[i] > 0 { // as MXNet's InferPad
			if target[i] > full {
				return nil, mxerr.ValueErr("%s: too big target shape %v", op, target)
			}
			g.p[j], adj[i] = (full-target[i]+1)/2, (full-target[i])%2
		} else if adj[i] >= g.s[j] {
			return nil, mxerr.ValueErr("%s: adj %v must be smaller than stride on each axis", op, adj)
		}
		g.in[j], g.out[j] = full-2*g.p[j]+adj[i], ds[2+i]
		if g.in[j] < 1 {
			return nil, mxerr.ValueErr("%s: the padding %d leaves no output on axis %d", op, g.p[j], i)
		}
	}
	return g, g.checkWeights(op, in, kernel, g.c)
}

// deconvForward computes y (n, num_filter, out...) from x = data, weight[, bias].
func deconvForward[T nnFloat](g *convGeom, x [][]T, y []T) {
	cg, fg := g.c/g.group, g.f/g.group // output and input channels per group
	rows, cols, vol := cg*g.kernelVol(), g.outVol(), g.inVol()
	w := x[1]
	if taps := windowTaps(g); taps != nil {
		windowDeconv(g, x[0], w, y, taps)
		if len(x) == 3 {
			nnAddBias(y, x[2], g.n, g.c, vol)
		}
		return
	}
	if deconvGathered(g, x[0], w, y) {
		if len(x) == 3 {
			nnAddBias(y, x[2], g.n, g.c, vol)
		}
		return
	}
	if b := chunkImages(g.n, cols); b > 1 {
		deconvForwardChunked(g, x, y, b)
		if len(x) == 3 {
			nnAddBias(y, x[2], g.n, g.c, vol)
		}
		return
	}
	image := func(n int, col []T, parallel bool) {
		dst := y[n*g.c*vol : (n+1)*g.c*vol]
		clear(dst)
		for gi := range g.group {
			src := x[0][(n*g.f+gi*fg)*cols:]
			// weight's group block is (fg, rows): its transpose is a strided view
			nnGemm(rows, cols, fg, w[gi*fg*rows:], 1, rows, src, cols, 1, col, parallel)
			col2im(g, col, dst[gi*cg*vol:], cg)
		}
	}
	nnImages(g.n, rows*cols, image)
	if len(x) == 3 {
		nnAddBias(y, x[2], g.n, g.c, vol)
	}
}

// nnImages runs image over a batch of n, each call with a scratch buffer of bufLen: the
// images split across the cores when there are enough of them, else one at a time with
// the products themselves parallel.
func nnImages[T nnFloat](n, bufLen int, image func(n int, col []T, parallel bool)) {
	if workers := ndarray.Cores(); n >= workers && n > 1 {
		ndarray.ForChunks(n, min(workers, n), func(lo, hi int) {
			col := getScratch[T](bufLen)
			for i := lo; i < hi; i++ {
				image(i, col, false)
			}
			putScratch(col)
		})
		return
	}
	col := getScratch[T](bufLen)
	for i := range n {
		image(i, col, true)
	}
	putScratch(col)
}

// newColGeom is the geometry of im2col on data of shape ds (or col2im into it).
func newColGeom(op string, ds, kernel []int, at ops.Attrs) (*convGeom, error) {
	nd := len(kernel)
	if nd != 2 || len(ds) != 4 { // MXNet 1.9.1's 1-D and 3-D kernels fail
		return nil, mxerr.ValueErr("%s: needs a 2-D kernel and 4-D images, got kernel %v and shape %v", op, kernel, ds)
	}
	g := &convGeom{n: ds[0], c: ds[1], f: ds[1], group: 1}
	return g, g.setWindow(op, at, ds[2:], kernel)
}

func col2imGeom(x *ndarray.NDArray, at ops.Attrs) (*convGeom, error) {
	ds, kernel, size := x.Shape(), at.Ints("kernel"), at.Ints("output_size")
	if len(ds) != 3 || len(size) != len(kernel) {
		return nil, mxerr.ValueErr("col2im: data must be 3-D (batch, channel*kernel, windows) and output_size match the kernel, "+
			"got shape %v, output_size %v, kernel %v", ds, size, kernel)
	}
	kv := nnSizeOf(kernel)
	if kv < 1 || ds[1]%kv != 0 {
		return nil, mxerr.ValueErr("col2im: %d rows are not channels times the kernel's %d taps", ds[1], kv)
	}
	g, err := newColGeom("col2im", append([]int{ds[0], ds[1] / kv}, size...), kernel, at)
	if err == nil && g.outVol() != ds[2] {
		err = mxerr.ValueErr("col2im: %d columns do not match the %d windows of output_size %v", ds[2], g.outVol(), size)
	}
	return g, err
}

// colImages runs im2col (or col2im, when back) on each image of a batch: x holds the
// images and y the columns, or the other way round.
func colImages[T nnFloat](g *convGeom, x, y []T, back bool) {
	img, cols := g.c*g.inVol(), g.c*g.kernelVol()*g.outVol()
	nnParallel(g.n, cols, func(lo, hi int) {
		for n := lo; n < hi; n++ {
			if back {
				dst := y[n*img : (n+1)*img]
				clear(dst)
				col2im(g, x[n*cols:(n+1)*cols], dst, g.c)
			} else {
				im2col(g, x[n*img:(n+1)*img], y[n*cols:(n+1)*cols], g.c)
			}
		}
	})
}
