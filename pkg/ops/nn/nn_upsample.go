package nn

import (
	"fmt"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// UpSampling with sample_type 'nearest', as MXNet's: every input (batch, channel, h, w)
// is repeated up to the first one's size times scale, then the results are concatenated
// along the channels or summed.

func init() {
	ops.Register(&ops.Op{
		Name: "UpSampling",
		Doc: "Upsamples 4-D images (batch, channel, height, width) by nearest neighbour, as MXNet's UpSampling " +
			"with sample_type='nearest': the output is the first input's size times scale; each input is " +
			"repeated up to it (by one integer factor on both axes), and several inputs are concatenated along the channels " +
			"(multi_input_mode 'concat') or summed ('sum', equal channels). sample_type 'bilinear' (a learned " +
			"deconvolution in MXNet) is not supported. float16, float32 and float64.",
		Category: ops.General, Inputs: []string{"*data"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "scale", Kind: ops.ParamInt, Doc: "the upsampling factor"},
			{Name: "sample_type", Kind: ops.ParamString, Choices: []string{"nearest", "bilinear"}, Doc: "the method"},
			{Name: "num_filter", Kind: ops.ParamInt, Default: "0", Doc: "bilinear's channels (unused for nearest)"},
			{Name: "multi_input_mode", Kind: ops.ParamString, Default: "concat", Choices: []string{"concat", "sum"},
				Doc: "how several inputs combine"},
			{Name: "num_args", Kind: ops.ParamOptInt, Default: "None", Doc: "the number of inputs (None: as given)"},
			{Name: "workspace", Kind: ops.ParamInt, Default: "512", Doc: "accepted for MXNet compatibility"},
		},
		Infer: inferUpSampling,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s := out[0].Shape()
			sum := at.Str("multi_input_mode") == "sum"
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { upsampleNearest(in, x, y, s, sum) },
				func(x [][]float64, y []float64) { upsampleNearest(in, x, y, s, sum) })
		},
		Grad: upsampleGrad,
	})
}

func inferUpSampling(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	const op = "UpSampling"
	if at.Str("sample_type") != "nearest" {
		return nil, 0, mxerr.New(mxerr.NotImplemented, "%s: sample_type 'bilinear' is not supported", op)
	}
	if n, ok := at.OptInt("num_args"); ok && n != len(in) {
		return nil, 0, mxerr.ValueErr("%s: num_args is %d but %d arrays were given", op, n, len(in))
	}
	scale := at.Int("scale")
	if scale < 1 || scale > nnMaxWindow {
		return nil, 0, mxerr.ValueErr("%s: scale must be in [1, %d], got %d", op, nnMaxWindow, scale)
	}
	names := make([]string, len(in))
	for i := range names {
		names[i] = fmt.Sprint("array ", i)
	}
	if err := nnSameDType(op, in, names); err != nil {
		return nil, 0, err
	}
	d0 := in[0].Shape()
	if len(d0) != 4 {
		return nil, 0, mxerr.ValueErr("%s: data must be 4-D (batch, channel, height, width), got shape %v", op, d0)
	}
	out := []int{d0[0], 0, d0[2] * scale, d0[3] * scale}
	for _, a := range in {
		s := a.Shape()
		// one integer factor for both axes, as MXNet's kernel takes
		if len(s) != 4 || s[0] != d0[0] || s[2] == 0 || s[3] == 0 || out[2]%s[2] != 0 || out[3] != s[3]*(out[2]/s[2]) {
			return nil, 0, mxerr.ValueErr("%s: input of shape %v is not the output of %dx%d reduced by one integer factor",
				op, s, out[2], out[3])
		}
		if at.Str("multi_input_mode") == "sum" {
			if out[1] != 0 && out[1] != s[1] {
				return nil, 0, mxerr.ValueErr("%s: the number of channels must be the same when multi_input_mode is sum", op)
			}
			out[1] = s[1]
		} else {
			out[1] += s[1]
		}
	}
	return out, in[0].DType(), nil
}

// upsampleNearest writes (or, summing, adds) each input repeated to out's size.
func upsampleNearest[T nnFloat](in []*ndarray.NDArray, x [][]T, y []T, out []int, sum bool) {
	n, c, h, w := out[0], out[1], out[2], out[3]
	if sum {
		clear(y)
	}
	c0 := 0
	for i, a := range in {
		s := a.Shape()
		ci, sh, sw := s[1], h/s[2], w/s[3]
		for b := range n {
			for ch := range ci {
				src := x[i][(b*ci+ch)*s[2]*s[3]:]
				oc := c0 + ch
				if sum {
					oc = ch
				}
				dst := y[(b*c+oc)*h*w:]
				for r := range h {
					line, row := src[r/sh*s[3]:], dst[r*w:(r+1)*w]
					for col := range row {
						if sum {
							row[col] += line[col/sw]
						} else {
							row[col] = line[col/sw]
						}
					}
				}
			}
		}
		if !sum {
			c0 += ci
		}
	}
}

// upsampleGrad is UpSampling's gradient (nearest): each input's share of the head gradient
// (its channels in 'concat' mode, all of it in 'sum') summed over the blocks its elements
// were repeated into, by operators: reshaped to (n, c, h, f, w, f) and summed over the two f.
var upsampleGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	gy := c.OutGrad[0]
	os := gy.Shape()
	concat := c.Attrs.Str("multi_input_mode") != "sum"
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	c0 := 0
	for i, in := range c.Shapes {
		lo := c0
		if concat {
			c0 += in[1]
		}
		if !c.Need[i] {
			continue
		}
		part := gy
		if concat {
			part = s.Call("slice_axis", fmt.Sprintf("axis=1;begin=%d;end=%d", lo, c0), gy)
		}
		f := os[2] / in[2]
		blocks := s.Call("reshape", "shape="+ops.WireInts([]int{in[0], in[1], in[2], f, in[3], f}), part)
		grads[i] = s.Call("sum", "axis=3,5", blocks)
	}
	return s.Done(grads...)
}}
