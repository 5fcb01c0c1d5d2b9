package nn

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Spatial transformer networks, forward: GridGenerator makes sampling grids (normalised
// coordinates in [-1, 1], x in channel 0 and y in channel 1), BilinearSampler reads an
// image at them (zero outside it), SpatialTransformer chains the two for affine grids.
// They compute in float64 and store in the input's floating-point dtype.

func init() {
	target := ops.Param{Name: "target_shape", Kind: ops.ParamShape, Default: "0,0", Doc: "the grid's (height, width)"}
	cudnn := ops.Param{Name: "cudnn_off", Kind: ops.ParamBool, Default: "0", Doc: "ignored (no cuDNN on the CPU)"}
	ops.Register(&ops.Op{
		Name: "GridGenerator", Grad: gridGeneratorGrad,
		Doc: "Sampling grids: 'affine' maps the target's normalised coordinates by each row of data (N, 6), a 2x3 " +
			"matrix, into (N, 2, H, W) with (H, W) = target_shape; 'warp' adds a flow field data (N, 2, H, W), in " +
			"pixels, to the pixel coordinates and normalises.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: ops.FloatDTypes,
		Params: []ops.Param{{Name: "transform_type", Kind: ops.ParamString, Choices: []string{"affine", "warp"},
			Doc: "'affine' or 'warp'"}, target},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			if at.Str("transform_type") == "warp" {
				if len(s) != 4 || s[1] != 2 {
					return nil, 0, mxerr.ValueErr("GridGenerator: a warp needs a flow of shape (N, 2, H, W), got %s", ops.FmtShape(s))
				}
				return s, in[0].DType(), nil
			}
			return affineGridShape("GridGenerator", s, at.Ints("target_shape"), in[0].DType())
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g := gridOf(in[0], at)
			i := 0
			ops.FillInOrder(out[0], func() float64 { i++; return g[i-1] })
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name: "BilinearSampler", Grad: bilinearSamplerGrad,
		Doc: "Samples data (N, C, H, W) bilinearly at grid (N, 2, Ho, Wo), normalised coordinates (x, y) in [-1, 1]; " +
			"points outside the image read zeros. The result has shape (N, C, Ho, Wo).",
		Category: ops.General, Inputs: []string{"data", "grid"}, DTypes: ops.FloatDTypes, Params: []ops.Param{cudnn},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			d, g := in[0].Shape(), in[1].Shape()
			if len(d) != 4 || len(g) != 4 || g[1] != 2 || g[0] != d[0] || in[1].DType() != in[0].DType() {
				return nil, 0, mxerr.ValueErr("BilinearSampler: needs data (N, C, H, W) and a grid (N, 2, Ho, Wo) of its dtype, "+
					"got %s and %s", ops.FmtShape(d), ops.FmtShape(g))
			}
			return []int{d[0], d[1], g[2], g[3]}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			sampleBilinear(out[0], in[0], ops.IndexValues(in[1]), in[1].Shape()[2], in[1].Shape()[3])
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name: "SpatialTransformer", Grad: spatialTransformerGrad,
		Doc:      "BilinearSampler(data, GridGenerator(loc, 'affine', target_shape)): data (N, C, H, W), loc (N, 6).",
		Category: ops.General, Inputs: []string{"data", "loc"}, DTypes: ops.FloatDTypes,
		Params: []ops.Param{target,
			{Name: "transform_type", Kind: ops.ParamString, Default: "affine", Choices: []string{"affine"}, Doc: "'affine'"},
			{Name: "sampler_type", Kind: ops.ParamString, Default: "bilinear", Choices: []string{"bilinear"}, Doc: "'bilinear'"},
			cudnn},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			d := in[0].Shape()
			g, dt, err := affineGridShape("SpatialTransformer", in[1].Shape(), at.Ints("target_shape"), in[0].DType())
			if err != nil {
				return nil, 0, err
			}
			if len(d) != 4 || d[0] != g[0] || in[1].DType() != dt {
				return nil, 0, mxerr.ValueErr("SpatialTransformer: needs data (N, C, H, W) with loc (N, 6) of its dtype, "+
					"got %s and %s", ops.FmtShape(d), ops.FmtShape(in[1].Shape()))
			}
			return []int{d[0], d[1], g[2], g[3]}, dt, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			at = ops.Attrs{"transform_type": "affine", "target_shape": at.Ints("target_shape")}
			t := at.Ints("target_shape")
			sampleBilinear(out[0], in[0], gridOf(in[1], at), t[0], t[1])
			return nil
		},
	})
}

func affineGridShape(name string, s, target []int, dt ndarray.DType) ([]int, ndarray.DType, error) {
	if len(s) != 2 || s[1] != 6 {
		return nil, 0, mxerr.ValueErr("%s: an affine transform needs data of shape (N, 6), got %s", name, ops.FmtShape(s))
	}
	if len(target) != 2 || target[0] < 1 || target[1] < 1 {
		return nil, 0, mxerr.ValueErr("%s: target_shape must be a positive (height, width), got %v", name, target)
	}
	return []int{s[0], 2, target[0], target[1]}, dt, nil
}

// normalised maps pixel i of n to [-1, 1].
func normalised(i float64, n int) float64 {
	if n == 1 {
		return -1 // MXNet's 2/(n-1) step is infinite there; the one pixel sits at -1
	}
	return i*2/float64(n-1) - 1
}

// gridOf computes GridGenerator's grid, (N, 2, H, W) in C order.
func gridOf(data *ndarray.NDArray, at ops.Attrs) []float64 {
	v := ops.IndexValues(data)
	if at.Str("transform_type") == "warp" {
		s := data.Shape()
		n, h, w := s[0], s[2], s[3]
		for b := range n {
			for y := range h {
				for x := range w {
					fx, fy := &v[((b*2)*h+y)*w+x], &v[((b*2+1)*h+y)*w+x]
					*fx, *fy = normalised(float64(x)+*fx, w), normalised(float64(y)+*fy, h)
				}
			}
		}
		return v
	}
	t := at.Ints("target_shape")
	h, w := t[0], t[1]
	n := data.Shape()[0]
	out := make([]float64, n*2*h*w)
	for b := range n {
		th := v[b*6 : b*6+6]
		for y := range h {
			for x := range w {
				nx, ny := normalised(float64(x), w), normalised(float64(y), h)
				out[((b*2)*h+y)*w+x] = th[0]*nx + th[1]*ny + th[2]
				out[((b*2+1)*h+y)*w+x] = th[3]*nx + th[4]*ny + th[5]
			}
		}
	}
	return out
}

// sampleBilinear writes data (N, C, H, W) read at grid (N, 2, ho, wo) into out.
func sampleBilinear(out, data *ndarray.NDArray, grid []float64, ho, wo int) {
	s := data.Shape()
	n, c, h, w := s[0], s[1], s[2], s[3]
	img := ops.IndexValues(data)
	at := func(b, ch, y, x int) float64 {
		if y < 0 || y >= h || x < 0 || x >= w {
			return 0
		}
		return img[((b*c+ch)*h+y)*w+x]
	}
	res := make([]float64, 0, n*c*ho*wo)
	for b := range n {
		for ch := range c {
			for i := range ho * wo {
				px := (grid[(b*2)*ho*wo+i] + 1) * float64(w-1) / 2
				py := (grid[(b*2+1)*ho*wo+i] + 1) * float64(h-1) / 2
				x0, y0 := math.Floor(px), math.Floor(py)
				fx, fy := px-x0, py-y0
				xi, yi := int(x0), int(y0)
				if math.IsNaN(px) || math.IsNaN(py) || math.Abs(px) > 1<<30 || math.Abs(py) > 1<<30 {
					res = append(res, 0)
					continue
				}
				res = append(res, at(b, ch, yi, xi)*(1-fx)*(1-fy)+at(b, ch, yi, xi+1)*fx*(1-fy)+
					at(b, ch, yi+1, xi)*(1-fx)*fy+at(b, ch, yi+1, xi+1)*fx*fy)
			}
		}
	}
	i := 0
	ops.FillInOrder(out, func() float64 { i++; return res[i-1] })
}
