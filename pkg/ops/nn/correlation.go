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
			mul := at.Bool("is_multiply")
			res := make([]float64, out[0].Size())
			forCorrelationTerms(g, at, func(o, i1, i2 int) {
				u, v := corrValue(a, i1), corrValue(b, i2)
				if mul {
					res[o] += u * v
				} else {
					res[o] += math.Abs(u - v)
				}
			})
			norm := float64(at.Int("kernel_size") * at.Int("kernel_size") * g.c)
			i := 0
			ops.FillInOrder(out[0], func() float64 { i++; return res[i-1] / norm })
			return nil
		},
		Grad: correlationGrad,
	})
}

// corrValue is element i of a map, or 0 for the padding (i < 0).
func corrValue(v []float64, i int) float64 {
	if i < 0 {
		return 0
	}
	return v[i]
}

// forCorrelationTerms calls fn for every term of every result: the result's offset o and
// the offsets of the two maps' elements it multiplies (or subtracts), -1 for the padding.
func forCorrelationTerms(g corrGeometry, at ops.Attrs, fn func(o, i1, i2 int)) {
	k, pad, d, s1, s2 := at.Int("kernel_size"), at.Int("pad_size"), at.Int("max_displacement"), at.Int("stride1"), at.Int("stride2")
	offset := func(n, c, y, x int) int { // padded coordinates
		y, x = y-pad, x-pad
		if y < 0 || y >= g.h || x < 0 || x >= g.w {
			return -1
		}
		return ((n*g.c+c)*g.h+y)*g.w + x
	}
	radius := d / s2
	o := 0
	for n := range g.n {
		for q := range g.grid * g.grid {
			dx, dy := (q%g.grid-radius)*s2, (q/g.grid-radius)*s2
			for i := range g.outH {
				for j := range g.outW {
					x1, y1 := j*s1+d, i*s1+d
					for py := range k {
						for px := range k {
							for c := range g.c {
								fn(o, offset(n, c, y1+py, x1+px), offset(n, c, y1+dy+py, x1+dx+px))
							}
						}
					}
					o++
				}
			}
		}
	}
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
