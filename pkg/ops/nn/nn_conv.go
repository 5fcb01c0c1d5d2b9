package nn

import (
	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Convolution (1-D, 2-D and 3-D, NCW/NCHW/NCDHW) as MXNet's CPU kernel computes it: per
// image and group, im2col gathers every receptive field into a column of a matrix and
// one product with the weight gives all output channels (a 1x1 convolution with unit
// stride and no padding multiplies the image itself, without the gather). Images go to
// the cores in chunks, each with its own column buffer; a batch smaller than the cores
// instead splits each product across them.

func init() {
	ops.Register(&ops.Op{
		Name: "Convolution",
		Doc: "Computes a 1-D, 2-D or 3-D convolution (cross-correlation) with bias, as MXNet's Convolution.\n\n" +
			"The arrays are data (batch, channel, spatial...), weight (num_filter, channel/num_group, kernel...) " +
			"and, unless no_bias, bias (num_filter,), positionally or by name. Each output length is " +
			"(x + 2*pad - dilate*(kernel-1) - 1) // stride + 1. float32 and float64 (MXNet's CPU kernel has no " +
			"float16); the layout is channels-first (NCW, NCHW, NCDHW). workspace, cudnn_tune and cudnn_off " +
			"are accepted and ignored, as on MXNet's CPU.",
		Category: ops.General, Inputs: []string{"data", "weight", "bias?"}, DTypes: ops.F32F64DTypes,
		Params: append([]ops.Param{
			{Name: "kernel", Kind: ops.ParamShape, Doc: "the window's shape: (w,), (h, w) or (d, h, w)"},
			{Name: "num_filter", Kind: ops.ParamInt, Doc: "the number of output channels"},
		}, convParams...),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := newConvGeom("Convolution", in, at)
			if err != nil {
				return nil, 0, err
			}
			return g.outShape(), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := newConvGeom("Convolution", in, at)
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { convForward(g, x, y) },
				func(x [][]float64, y []float64) { convForward(g, x, y) })
		},
		Grad: convGrad,
	})
}

// convParams are the parameters Convolution and Deconvolution share after kernel and
// num_filter.
var convParams = []ops.Param{
	{Name: "stride", Kind: ops.ParamAxes, Default: "None", Doc: "the step between windows on each axis (default 1)"},
	{Name: "dilate", Kind: ops.ParamAxes, Default: "None", Doc: "the spacing of the window's taps on each axis (default 1)"},
	{Name: "pad", Kind: ops.ParamAxes, Default: "None", Doc: "the zeros added at both ends of each axis (default 0)"},
	{Name: "num_group", Kind: ops.ParamInt, Default: "1", Doc: "split channels and filters into this many groups"},
	{Name: "workspace", Kind: ops.ParamInt, Default: "1024", Doc: "accepted for MXNet compatibility (MB of scratch space)"},
	{Name: "no_bias", Kind: ops.ParamBool, Default: "0", Doc: "take no bias array"},
	{Name: "cudnn_tune", Kind: ops.ParamString, Default: "None", Choices: []string{"None", "off", "limited_workspace", "fastest"},
		Doc: "accepted for MXNet compatibility"},
	{Name: "cudnn_off", Kind: ops.ParamBool, Default: "0", Doc: "accepted for MXNet compatibility"},
	{Name: "layout", Kind: ops.ParamString, Default: "None", Choices: []string{"None", "NCW", "NCHW", "NCDHW", "NHWC", "NDHWC"},
		Doc: "the data layout: channels first (channels-last layouts are refused, as MXNet's CPU kernel does)"},
}

var convInputs = []string{"data", "weight", "bias"}

// convGeom is a convolution's geometry with its spatial axes padded to three (leading
// axes of length 1), so that one loop nest serves 1-D, 2-D and 3-D.
type convGeom struct {
	nd             int // spatial axes given
	n, c, f, group int // batch, input channels, filters, groups
	in, out        [3]int
	k, s, d, p     [3]int
}

// checkConvArrays checks what Convolution and Deconvolution share: a kernel of 1 to 3
// values, the arrays no_bias asks for in one dtype, and data with nd+2 axes.
func checkConvArrays(op string, in []*ndarray.NDArray, at ops.Attrs) (kernel, ds []int, err error) {
	kernel = at.Ints("kernel")
	nd := len(kernel)
	if nd < 1 || nd > 3 {
		return nil, nil, mxerr.ValueErr("%s: %d-D kernels are not supported (kernel must have 1 to 3 values)", op, nd)
	}
	if err := nnArity(op, in, 3-nnB2i(at.Bool("no_bias"))); err != nil {
		return nil, nil, err
	}
	if err := nnSameDType(op, in, convInputs); err != nil {
		return nil, nil, err
	}
	ds = in[0].Shape()
	if len(ds) != nd+2 {
		return nil, nil, mxerr.ValueErr("%s: data must be %d-D (batch, channel and %d spatial axes) for a kernel of %d values, got shape %v",
			op, nd+2, nd, nd, ds)
	}
	return kernel, ds, nil
}

func newConvGeom(op string, in []*ndarray.NDArray, at ops.Attrs) (*convGeom, error) {
	kernel, ds, err := checkConvArrays(op, in, at)
	if err != nil {
		return nil, err
	}
	nd := len(kernel)
	if layout := at.Str("layout"); layout != "None" && (len(layout) != nd+2 || layout[len(layout)-1] == 'C') {
		return nil, mxerr.ValueErr("%s: layout %s is not supported for %d-D data (channels-first layouts only)", op, layout, nd+2)
	}
	g := &convGeom{nd: nd, n: ds[0], c: ds[1], f: at.Int("num_filter"), group: at.Int("num_group")}
	if g.f < 1 || g.group < 1 {
		return nil, mxerr.ValueErr("%s: num_filter (%d) and num_group (%d) must be at least 1", op, g.f, g.group)
	}
	if g.c%g.group != 0 || g.f%g.group != 0 {
		return nil, mxerr.ValueErr("%s: num_group %d must divide the input channels (%d) and num_filter (%d)", op, g.group, g.c, g.f)
	}
	if err := g.setWindow(op, at, ds[2:], kernel); err != nil {
		return nil, err
	}
	return g, g.checkWeights(op, in, kernel, g.f)
}

// checkWeights checks weight's shape (num_filter, channels/num_group, kernel...) and, when
// given, bias's (biasLen,): num_filter for a convolution, the channels for its transpose.
func (g *convGeom) checkWeights(op string, in []*ndarray.NDArray, kernel []int, biasLen int) error {
	if err := nnCheckShape(op, "weight", in[1].Shape(), append([]int{g.f, g.c / g.group}, kernel...)); err != nil {
		return err
	}
	if len(in) == 3 {
		return nnCheckShape(op, "bias", in[2].Shape(), []int{biasLen})
	}
	return nil
}

// setWindow sets the spatial geometry of a convolution of spatial axes of lengths
// spatial by kernel: the stride, dilate and pad parameters, and the output lengths.
func (g *convGeom) setWindow(op string, at ops.Attrs, spatial, kernel []int) error {
	nd := len(kernel)
	stride, err := nnSpatial(op, "stride", at.Ints("stride"), nd, 1, 1)
	if err != nil {
		return err
	}
	dilate, err := nnSpatial(op, "dilate", at.Ints("dilate"), nd, 1, 1)
	if err != nil {
		return err
	}
	pad, err := nnSpatial(op, "pad", at.Ints("pad"), nd, 0, 0)
	if err != nil {
		return err
	}
	g.nd = nd
	for i := range 3 {
		g.in[i], g.out[i], g.k[i], g.s[i], g.d[i], g.p[i] = 1, 1, 1, 1, 1, 0
	}
	for i := range nd {
		j := 3 - nd + i
		g.in[j], g.k[j], g.s[j], g.d[j], g.p[j] = spatial[i], kernel[i], stride[i], dilate[i], pad[i]
		if kernel[i] < 1 || kernel[i] > nnMaxWindow {
			return mxerr.ValueErr("%s: kernel %v must be positive (and at most %d)", op, kernel, nnMaxWindow)
		}
		span := g.d[j]*(g.k[j]-1) + 1
		if span > g.in[j]+2*g.p[j] {
			return mxerr.ValueErr("%s: kernel size exceeds input: dilated kernel %d on axis %d, padded input %d",
				op, span, i, g.in[j]+2*g.p[j])
		}
		g.out[j] = (g.in[j]+2*g.p[j]-span)/g.s[j] + 1
	}
	return nil
}

// outShape is (batch, num_filter, output spatial axes...).
func (g *convGeom) outShape() []int {
	return append([]int{g.n, g.f}, g.out[3-g.nd:]...)
}

func (g *convGeom) inVol() int     { return g.in[0] * g.in[1] * g.in[2] }
func (g *convGeom) outVol() int    { return g.out[0] * g.out[1] * g.out[2] }
func (g *convGeom) kernelVol() int { return g.k[0] * g.k[1] * g.k[2] }

// pointwise reports whether the convolution is a plain product: 1x1 kernel, unit
// stride, no padding (dilation does not matter then).
func (g *convGeom) pointwise() bool {
	return g.kernelVol() == 1 && g.s == [3]int{1, 1, 1} && g.p == [3]int{}
}

// convForward computes y (n, f, out...) from x = data, weight[, bias].
func convForward[T nnFloat](g *convGeom, x [][]T, y []T) {
	cg, fg := g.c/g.group, g.f/g.group
	rows, cols := cg*g.kernelVol(), g.outVol()
	w := x[1]
	if convForwardWinograd(g, x, y) {
		return
	}
	if taps := windowTaps(g); taps != nil {
		windowForward(g, x[0], w, y, taps)
		if len(x) == 3 {
			nnAddBias(y, x[2], g.n, g.f, cols)
		}
		return
	}
	if convForwardGathered(g, x[0], w, y) {
		if len(x) == 3 {
			nnAddBias(y, x[2], g.n, g.f, cols)
		}
		return
	}
	if convForwardDirect(g, x, y) {
		return
	}
	if b := chunkImages(g.n, cols); b > 1 {
		convForwardChunked(g, x, y, b)
		return
	}
	image := func(n int, col []T, parallel bool) {
		for gi := range g.group {
			src := x[0][(n*g.c+gi*cg)*g.inVol():]
			if !g.pointwise() {
				im2col(g, src, col, cg)
				src = col
			}
			dst := y[(n*g.f+gi*fg)*cols : (n*g.f+(gi+1)*fg)*cols]
			nnGemm(fg, cols, rows, w[gi*fg*rows:], rows, 1, src, cols, 1, dst, parallel)
		}
		convAddBias(g, x, y, n, n+1)
	}
	bufLen := 0
	if !g.pointwise() {
		bufLen = rows * cols
	}
	nnImages(g.n, bufLen, image)
}

// convAddBias adds the bias, if any, to images [n0, n1) of y: on the core that computed
// them, while they are in its cache (after the whole batch, one core added it to a small
// CNN's results in 5% of a training step).
func convAddBias[T nnFloat](g *convGeom, x [][]T, y []T, n0, n1 int) {
	if cols := g.outVol(); len(x) == 3 {
		nnAddBias(y[n0*g.f*cols:n1*g.f*cols], x[2], n1-n0, g.f, cols)
	}
}

// im2col fills col (channels*kernel rows by output positions) with the taps of each
// receptive field of img (channels images of g.in), zero where a tap falls in the padding.
func im2col[T nnFloat](g *convGeom, img, col []T, channels int) {
	colTransfer(g, img, col, g.outVol(), channels, false)
}

// col2im adds each tap of col back into the element of img it came from (the adjoint of
// im2col); taps in the padding are dropped.
func col2im[T nnFloat](g *convGeom, col, img []T, channels int) {
	colTransfer(g, img, col, g.outVol(), channels, true)
}

// colTransfer walks every tap of every window of img's channels in col's order, copying
// it to col (im2col) or adding col to it (col2im, back). Row r of col starts at r*ld, so
// that several images' columns can sit side by side in one matrix (convChunk).
func colTransfer[T nnFloat](g *convGeom, img, col []T, ld, channels int, back bool) {
	cols, vol := g.outVol(), g.inVol()
	if t := tapTable(g); t != nil {
		tapsTransfer(t, img, col, ld, cols, vol, channels, back)
		return
	}
	if g.nd <= 2 { // C: colRow's lines, a vector or two each (internal/simd's im2col)
		w := simd.Win2D{g.in[1], g.in[2], g.out[1], g.out[2], g.k[1], g.k[2], g.s[1], g.s[2], g.d[1], g.d[2], g.p[1], g.p[2]}
		if simd.Cols2D(img, col, ld, channels, &w, back) {
			return
		}
	}
	row := 0
	for c := range channels {
		for k0 := range g.k[0] {
			for k1 := range g.k[1] {
				for k2 := range g.k[2] {
					colRow(g, img[c*vol:(c+1)*vol], col[row*ld:row*ld+cols], [3]int{k0, k1, k2}, back)
					row++
				}
			}
		}
	}
}

// tapSpan is the range [lo, hi) of the n windows c whose tap c*st + off lies in a line
// of length l (outside it is padding): computed once per line, so that the copies run
// without a bounds test per element.
func tapSpan(off, st, l, n int) (lo, hi int) {
	if off < 0 {
		lo = (-off + st - 1) / st
	}
	if last := l - 1 - off; last >= 0 {
		hi = min(n, last/st+1)
	}
	return min(lo, hi), hi
}

// colRow transfers one tap (kernel offset k) of every window between img and dst. The
// windows whose tap lies inside img are a box, found once per tap (tapSpan on each
// axis), so the lines run without bounds tests; forward, the rest of dst is zeroed.
func colRow[T nnFloat](g *convGeom, img, dst []T, k [3]int, back bool) {
	var lo, hi, off [3]int
	for i := range 3 {
		off[i] = k[i]*g.d[i] - g.p[i]
		lo[i], hi[i] = tapSpan(off[i], g.s[i], g.in[i], g.out[i])
	}
	o1, o2, st := g.out[1], g.out[2], g.s[2]
	plane := o1 * o2
	if !back {
		clear(dst[:lo[0]*plane])
		clear(dst[hi[0]*plane : g.out[0]*plane])
	}
	for a := lo[0]; a < hi[0]; a++ {
		ia := a*g.s[0] + off[0]
		out := dst[a*plane : (a+1)*plane]
		if !back && st == 1 && g.s[1] == 1 && o2 == g.in[2] && lo[1] < hi[1] && lo[2] < hi[2] {
			shiftedPlane(out, img[ia*g.in[1]*o2:], lo, hi, off, o2)
			continue
		}
		if !back {
			clear(out[:lo[1]*o2])
			clear(out[hi[1]*o2:])
		}
		for b := lo[1]; b < hi[1]; b++ {
			ib := b*g.s[1] + off[1]
			line := img[(ia*g.in[1]+ib)*g.in[2] : (ia*g.in[1]+ib+1)*g.in[2]]
			row := out[b*o2 : (b+1)*o2]
			l, h, o := lo[2], hi[2], off[2]
			switch {
			case back && st == 1:
				src := row[l:h]
				to := line[l+o : h+o]
				to = to[:len(src)] // no bounds test per element
				for c, v := range src {
					to[c] += v
				}
			case back:
				for c := l; c < h; c++ {
					line[c*st+o] += row[c]
				}
			case st == 1:
				clear(row[:l])
				copy(row[l:h], line[l+o:h+o])
				clear(row[h:])
			default:
				clear(row[:l])
				for c := l; c < h; c++ {
					row[c] = line[c*st+o]
				}
				clear(row[h:])
			}
		}
	}
}

// shiftedPlane is colRow's forward on one plane when the output lines are as long as the
// input's with unit strides: the tap's values are then the input plane shifted by one
// offset, copied in one piece, and only the taps that fall in the padding (whose copies
// wrapped to the neighbouring lines) are zeroed after.
func shiftedPlane[T nnFloat](out, img []T, lo, hi, off [3]int, o2 int) {
	first, last := lo[1]*o2+lo[2], (hi[1]-1)*o2+hi[2]
	shift := off[1]*o2 + off[2]
	copy(out[first:last], img[first+shift:last+shift])
	clear(out[:first])
	clear(out[last:])
	for b := lo[1]; b < hi[1]; b++ { // a tap or two a line: plain stores, not memclr calls
		row := out[b*o2 : (b+1)*o2]
		for c := 0; c < lo[2]; c++ {
			row[c] = 0
		}
		for c := hi[2]; c < o2; c++ {
			row[c] = 0
		}
	}
}
