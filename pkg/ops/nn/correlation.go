package nn

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Correlation, forward (FlowNet's layer, MXNet's CPU formulas): for each position of data1
// on a stride1 grid and each displacement of a (2d/stride2+1)^2 neighbourhood, the mean
// over a kernel_size^2 patch and the channels of data1*data2 (or |data1-data2|), with both
// maps zero-padded by pad_size.

func init() {
	intParam := func(name, def, doc string) ops.Param {
		return ops.Param{Name: name, Kind: ops.ParamInt, Default: def, Doc: doc}
	}
	ops.Register(&ops.Op{
		Name: "Correlation",
		Doc: "Patch comparisons of two feature maps (N, C, H, W): out[n, q, i, j] compares the patch of data1 at " +
			"grid point (i, j) with the patch of data2 at its q-th displacement.",
		Category: ops.General, Inputs: []string{"data1", "data2"}, DTypes: ops.FloatDTypes,
		Params: []ops.Param{
			intParam("kernel_size", "1", "patch size (odd)"), intParam("max_displacement", "1", "largest displacement"),
			intParam("stride1", "1", "grid step over data1"), intParam("stride2", "1", "displacement step"),
			intParam("pad_size", "0", "zero padding of both maps"),
			{Name: "is_multiply", Kind: ops.ParamBool, Default: "1", Doc: "products (else absolute differences)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := correlationGeometry(in[0].Shape(), at)
			if err != nil {
				return nil, 0, err
			}
			if s := in[1].Shape(); len(s) != 4 || s[0] != g.n || s[1] != g.c || s[2] != g.h || s[3] != g.w || in[1].DType() != in[0].DType() {
				return nil, 0, mxerr.ValueErr("Correlation: data2 must have data1's shape and dtype, got %s", ops.FmtShape(s))
			}
			return []int{g.n, g.grid * g.grid, g.outH, g.outW}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, _ := correlationGeometry(in[0].Shape(), at)
			a, b := ops.IndexValues(in[0]), ops.IndexValues(in[1])
			k, pad, d, s1, s2 := at.Int("kernel_size"), at.Int("pad_size"), at.Int("max_displacement"), at.Int("stride1"), at.Int("stride2")
			mul := at.Bool("is_multiply")
			at2 := func(v []float64, n, c, y, x int) float64 { // padded coordinates; zero outside the map
				y, x = y-pad, x-pad
				if y < 0 || y >= g.h || x < 0 || x >= g.w {
					return 0
				}
				return v[((n*g.c+c)*g.h+y)*g.w+x]
			}
			radius := d / s2
			norm := float64(k * k * g.c)
			res := make([]float64, 0, out[0].Size())
			for n := range g.n {
				for q := range g.grid * g.grid {
					dx, dy := (q%g.grid-radius)*s2, (q/g.grid-radius)*s2
					for i := range g.outH {
						for j := range g.outW {
							x1, y1 := j*s1+d, i*s1+d
							sum := 0.0
							for py := range k {
								for px := range k {
									for c := range g.c {
										u, v := at2(a, n, c, y1+py, x1+px), at2(b, n, c, y1+dy+py, x1+dx+px)
										if mul {
											sum += u * v
										} else {
											sum += math.Abs(u - v)
										}
									}
								}
							}
							res = append(res, sum/norm)
						}
					}
				}
			}
			i := 0
			ops.FillInOrder(out[0], func() float64 { i++; return res[i-1] })
			return nil
		},
	})
}

type corrGeometry struct{ n, c, h, w, grid, outH, outW int }

func correlationGeometry(s []int, at ops.Attrs) (corrGeometry, error) {
	k, d, s1, s2, pad := at.Int("kernel_size"), at.Int("max_displacement"), at.Int("stride1"), at.Int("stride2"), at.Int("pad_size")
	if len(s) != 4 {
		return corrGeometry{}, mxerr.ValueErr("Correlation: data1 must be (N, C, H, W), got %s", ops.FmtShape(s))
	}
	if k < 1 || k%2 == 0 || d < 0 || s1 < 1 || s2 < 1 || pad < 0 {
		return corrGeometry{}, mxerr.ValueErr("Correlation: kernel_size must be odd and positive, strides positive, " +
			"max_displacement and pad_size non-negative")
	}
	border := d + (k-1)/2
	outH := int(math.Ceil(float64(s[2]+2*pad-2*border) / float64(s1)))
	outW := int(math.Ceil(float64(s[3]+2*pad-2*border) / float64(s1)))
	if outH < 1 || outW < 1 {
		return corrGeometry{}, mxerr.ValueErr("Correlation: the maps (%d, %d) padded by %d are too small for a border of %d",
			s[2], s[3], pad, border)
	}
	return corrGeometry{n: s[0], c: s[1], h: s[2], w: s[3], grid: 2*(d/s2) + 1, outH: outH, outW: outW}, nil
}
