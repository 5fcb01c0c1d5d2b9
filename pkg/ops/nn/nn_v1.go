package nn

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's legacy Convolution_v1 and Pooling_v1: the current operators restricted as the
// old ones were (2-D and 3-D only; Pooling_v1 without lp pooling, count_include_pad,
// layout or 'same'). Go initialises the files of a package in name order, so
// Convolution and Pooling (nn_conv.go, nn_pool.go) are registered when this runs.

func init() {
	conv, _ := ops.Lookup("Convolution")
	v1 := *conv
	v1.Name = "Convolution_v1"
	v1.Doc = "MXNet's legacy Convolution_v1: Convolution for 2-D and 3-D kernels only (see Convolution)."
	v1.Infer = func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
		if nd := len(at.Ints("kernel")); nd < 2 || nd > 3 {
			return nil, 0, mxerr.ValueErr("Convolution_v1: %d-D convolution is not supported (2-D and 3-D only)", nd)
		}
		return conv.Infer(in, at)
	}
	ops.Register(&v1)

	pool, _ := ops.Lookup("Pooling")
	keep := []string{"kernel", "pool_type", "global_pool", "pooling_convention", "stride", "pad"}
	var params []ops.Param
	for _, p := range pool.Params {
		if slices.Contains(keep, p.Name) {
			switch p.Name {
			case "pool_type":
				p.Choices = []string{"max", "avg", "sum"}
			case "pooling_convention":
				p.Choices = []string{"valid", "full"}
			}
			params = append(params, p)
		}
	}
	// full adds Pooling's other parameters at their defaults
	full := func(in []*ndarray.NDArray, at ops.Attrs) (ops.Attrs, error) {
		if nd := in[0].NDim(); nd != 4 && nd != 5 {
			return nil, mxerr.ValueErr("Pooling_v1: data must be 4-D or 5-D (batch, channel, spatial...), got shape %v", in[0].Shape())
		}
		a := ops.Attrs{"cudnn_off": false, "p_value": nil, "count_include_pad": true, "layout": "None"}
		for k, v := range at {
			a[k] = v
		}
		return a, nil
	}
	ops.Register(&ops.Op{
		Name:     "Pooling_v1",
		Doc:      "MXNet's legacy Pooling_v1: Pooling of 2-D and 3-D windows with max, avg or sum (see Pooling).",
		Category: ops.General, Inputs: pool.Inputs, DTypes: pool.DTypes, Params: params,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			a, err := full(in, at)
			if err != nil {
				return nil, 0, err
			}
			return pool.Infer(in, a)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a, err := full(in, at)
			if err != nil {
				return err
			}
			return pool.Kernel(in, out, a)
		},
		Grad: poolGrad(full),
	})
}
