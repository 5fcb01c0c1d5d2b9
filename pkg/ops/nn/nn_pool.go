package nn

import (
	"math"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/gemm"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Pooling (max, avg, sum, lp; 1-D, 2-D and 3-D) as MXNet 1.9.1's CPU kernel computes it,
// its quirks included: a window wholly in the padding gives the dtype's lowest value for
// max and 0 for the others; count_include_pad counts a window's padding but not what
// lies past it (pooling_convention 'full' windows may run off the padded input); lp
// pooling is (sum x^p)^(1/p) without absolute values. Channels-last layouts (NWC, NHWC,
// NDHWC) are computed on a transposed view. Planes (one channel of one image) go to the
// cores in chunks.

func init() {
	ops.RegisterAs(&ops.Op{
		Doc: "Pools windows of the spatial axes of data (batch, channel, spatial...), as MXNet's Pooling.\n\n" +
			"pool_type max, avg, sum or lp ((sum x^p_value)^(1/p_value)); global_pool pools each whole plane. " +
			"Output lengths: (x + 2*pad - kernel) // stride + 1 (pooling_convention 'valid') or its ceiling " +
			"('full'); 'same' is refused, as MXNet 1.9.1 does. count_include_pad (default True) makes avg " +
			"divide by the window including its padding. float16, float32 and float64.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "kernel", Kind: ops.ParamAxes, Default: "None", Doc: "the window's shape (ignored with global_pool)"},
			{Name: "pool_type", Kind: ops.ParamString, Default: "max", Choices: []string{"max", "avg", "sum", "lp"}, Doc: "the pooling function"},
			{Name: "global_pool", Kind: ops.ParamBool, Default: "0", Doc: "pool each whole plane"},
			{Name: "cudnn_off", Kind: ops.ParamBool, Default: "0", Doc: "accepted for MXNet compatibility"},
			{Name: "pooling_convention", Kind: ops.ParamString, Default: "valid", Choices: []string{"valid", "full", "same"},
				Doc: "how output lengths round"},
			{Name: "stride", Kind: ops.ParamAxes, Default: "None", Doc: "the step between windows (default 1)"},
			{Name: "pad", Kind: ops.ParamAxes, Default: "None", Doc: "the padding at both ends of each axis (default 0)"},
			{Name: "p_value", Kind: ops.ParamOptInt, Default: "None", Doc: "the power of lp pooling (required for it)"},
			{Name: "count_include_pad", Kind: ops.ParamBool, Default: "1", Doc: "whether avg counts the padding (MXNet's None is True)"},
			{Name: "layout", Kind: ops.ParamString, Default: "None", Choices: nnLayouts, Doc: "the data layout (None: channels first)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := newPoolGeom(in[0], at)
			if err != nil {
				return nil, 0, err
			}
			return nnFromChannelsFirst(g.outShape(), g.last), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := newPoolGeom(in[0], at)
			if err != nil {
				return err
			}
			x, err := nnToChannelsFirst(in[0], g.last)
			if err != nil {
				return err
			}
			defer x.Release()
			y, err := nnToChannelsFirst(out[0], g.last)
			if err != nil {
				return err
			}
			defer y.Release()
			return nnCompute([]*ndarray.NDArray{x}, y,
				func(x [][]float32, y []float32) { poolForward(g, x[0], y, -math.MaxFloat32) },
				func(x [][]float64, y []float64) { poolForward(g, x[0], y, -math.MaxFloat64) })
		},
		Grad: poolGrad(nil),
	}, "Pooling")
}

type poolGeom struct {
	convGeom
	kind       string
	p          int  // lp's power
	includePad bool // avg divides by the padded window
	last       bool // channels-last layout
	allTies    bool // the max gradient goes to every maximum (Pooling_v1's), not the first
}

func newPoolGeom(x *ndarray.NDArray, at ops.Attrs) (*poolGeom, error) {
	const op = "Pooling"
	ds := x.Shape()
	if len(ds) < 3 || len(ds) > 5 {
		return nil, mxerr.ValueErr("%s: data must be 3-D, 4-D or 5-D (batch, channel, spatial...), got shape %v", op, ds)
	}
	g := &poolGeom{kind: at.Str("pool_type"), includePad: at.Bool("count_include_pad")}
	var err error
	if g.last, err = nnChannelsLast(op, at.Str("layout"), len(ds)); err != nil {
		return nil, err
	}
	if g.last {
		ds = nnFromChannelsLast(ds)
	}
	nd := len(ds) - 2
	kernel, stride, pad := at.Ints("kernel"), at.Ints("stride"), at.Ints("pad")
	if at.Bool("global_pool") {
		kernel, stride, pad = ds[2:], nil, nil
	} else if len(kernel) != nd {
		return nil, mxerr.ValueErr("%s: data of shape %v needs a kernel of %d values, got %v", op, ds, nd, kernel)
	}
	if g.kind == "lp" {
		p, ok := at.OptInt("p_value")
		if !ok || p < 1 {
			return nil, mxerr.ValueErr("%s: lp pooling needs a positive p_value, got %v", op, at["p_value"])
		}
		g.p = p
	}
	if at.Str("pooling_convention") == "same" {
		return nil, mxerr.ValueErr("%s: pooling_convention 'same' is not supported (MXNet 1.9.1 refuses it too)", op)
	}
	if stride, err = nnSpatial(op, "stride", stride, nd, 1, 1); err != nil {
		return nil, err
	}
	if pad, err = nnSpatial(op, "pad", pad, nd, 0, 0); err != nil {
		return nil, err
	}
	full := at.Str("pooling_convention") == "full"
	c := &g.convGeom
	*c = convGeom{nd: nd, n: ds[0], c: ds[1], f: ds[1], group: 1}
	for i := range 3 {
		c.in[i], c.out[i], c.k[i], c.s[i], c.d[i] = 1, 1, 1, 1, 1
	}
	for i := range nd {
		j := 3 - nd + i
		c.in[j], c.k[j], c.s[j], c.p[j] = ds[2+i], kernel[i], stride[i], pad[i]
		if c.k[j] < 1 || c.k[j] > nnMaxWindow || c.p[j] >= c.k[j] || c.k[j] > c.in[j]+2*c.p[j] {
			return nil, mxerr.ValueErr("%s: kernel %v does not fit the input %v padded by %v (each pad must be below its kernel)",
				op, kernel, ds[2:], pad)
		}
		span := c.in[j] + 2*c.p[j] - c.k[j]
		if full {
			c.out[j] = 1 + (span+c.s[j]-1)/c.s[j]
		} else {
			c.out[j] = 1 + span/c.s[j]
		}
	}
	return g, nil
}

// nnFromChannelsLast is the channels-first shape of a channels-last one.
func nnFromChannelsLast(s []int) []int {
	out := []int{s[0], s[len(s)-1]}
	return append(out, s[1:len(s)-1]...)
}

// poolForward pools every plane of x into y; lowest is the dtype's lowest value.
func poolForward[T nnFloat](g *poolGeom, x, y []T, lowest T) {
	in, out := g.inVol(), g.outVol()
	if g.wholePlane() && (g.kind == "avg" || g.kind == "sum") {
		globalSum(g, x, y)
		return
	}
	nnParallel(g.n*g.c, in*g.kernelVol(), func(lo, hi int) {
		if maxPlanesC(g, x, y, lo, hi, lowest) {
			return
		}
		for pl := lo; pl < hi; pl++ {
			poolPlane(g, x[pl*in:(pl+1)*in], y[pl*out:(pl+1)*out], lowest)
		}
	})
}

func poolPlane[T nnFloat](g *poolGeom, x, y []T, lowest T) {
	switch {
	case g.tiles2x2():
		maxTiles2x2(g, x, y, lowest)
		return
	case g.max2D():
		maxPlane2D(g, x, y, lowest)
		return
	}
	forWindows(&g.convGeom, func(i int, lo, hi, padded [3]int) { y[i] = poolWindow(g, x, lo, hi, padded, lowest) })
}

// globalSum is global avg or sum pooling: each plane's sum in float64 (nnSum16: a
// float32 chain of dependent adds ran at a quarter of the speed), divided and rounded
// once. float32 planes are summed in C on the pool's threads, with these bits.
func globalSum[T nnFloat](g *poolGeom, x, y []T) {
	in, div := g.inVol(), 1.0
	if g.kind == "avg" {
		div = float64(in)
	}
	planes := g.n * g.c
	if ys, ok := any(y).([]float32); ok && simd.RowMeans16(ys, any(x).([]float32), in, div, gemm.PoolTasks(planes, in)) {
		return
	}
	nnParallel(planes, in, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			y[p] = T(nnSum16(x[p*in:(p+1)*in]) / div)
		}
	})
}

// wholePlane reports whether g's one window is the whole plane (global pooling).
func (g *poolGeom) wholePlane() bool {
	return g.outVol() == 1 && g.kernelVol() == g.inVol() && g.convGeom.p == [3]int{}
}

// forWindows calls fn with each output position of a plane, in order, and its window:
// [lo, hi) clipped to the input, and its lengths clipped to the padded input only.
func forWindows(g *convGeom, fn func(i int, lo, hi, padded [3]int)) {
	var lo, hi, padded [3]int
	i := 0
	for a := range g.out[0] {
		lo[0], hi[0], padded[0] = poolSpan(g, 0, a)
		for b := range g.out[1] {
			lo[1], hi[1], padded[1] = poolSpan(g, 1, b)
			for c := range g.out[2] {
				lo[2], hi[2], padded[2] = poolSpan(g, 2, c)
				fn(i, lo, hi, padded)
				i++
			}
		}
	}
}

// poolSpan is the window of output o on axis j: [lo, hi) within the input, and its
// length within the padded input.
func poolSpan(g *convGeom, j, o int) (lo, hi, padded int) {
	start := o*g.s[j] - g.p[j]
	end := min(start+g.k[j], g.in[j]+g.p[j])
	padded = end - start
	return max(start, 0), min(end, g.in[j]), padded
}

func poolWindow[T nnFloat](g *poolGeom, x []T, lo, hi, padded [3]int, lowest T) T {
	n1, n2 := g.in[1], g.in[2]
	if g.kind == "max" {
		m := lowest
		for a := lo[0]; a < hi[0]; a++ {
			for b := lo[1]; b < hi[1]; b++ {
				for _, v := range x[(a*n1+b)*n2+lo[2] : (a*n1+b)*n2+hi[2]] {
					if v == v { // as MXNet's: a NaN never wins (the well-predicted test keeps max branch-free)
						m = max(m, v)
					}
				}
			}
		}
		return m
	}
	var s T
	for a := lo[0]; a < hi[0]; a++ {
		for b := lo[1]; b < hi[1]; b++ {
			row := x[(a*n1+b)*n2+lo[2] : (a*n1+b)*n2+hi[2]]
			if g.p > 1 {
				for _, v := range row {
					s += lpPow(v, g.p)
				}
				continue
			}
			for _, v := range row {
				s += v
			}
		}
	}
	switch g.kind {
	case "avg":
		size := padded[0] * padded[1] * padded[2]
		if !g.includePad {
			size = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
		}
		if size <= 0 {
			return 0
		}
		return s / T(size)
	case "lp":
		return lpRoot(s, g.p)
	}
	return s
}

// lpPow is x^p as MXNet's lp pooling takes it (p 0 means no power: sum and avg).
func lpPow[T nnFloat](x T, p int) T {
	switch p {
	case 0, 1:
		return x
	case 2:
		return x * x
	case 3:
		return x * x * x
	}
	return T(math.Pow(float64(x), float64(p)))
}

// lpRoot is s^(1/p), the cube root keeping the sign as MXNet's does.
func lpRoot[T nnFloat](s T, p int) T {
	switch p {
	case 1:
		return s
	case 2:
		return T(math.Sqrt(float64(s)))
	case 3:
		return T(math.Cbrt(float64(s)))
	}
	return T(math.Pow(float64(s), 1/float64(p)))
}
