package elemwise

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// MXNet 1.x's add_n (ElementWiseSum), identity, stop_gradient (BlockGrad: a copy that
// stops gradients) and Cast.

func init() {
	ops.RegisterAs(&ops.Op{
		Doc: "Sums any number of arrays elementwise (MXNet's add_n, also ElementWiseSum): one or more arrays of " +
			"one dtype and one shape (no broadcasting). Integers wrap. Bool arrays are not supported, as in MXNet.",
		Category: ops.Elementwise, Inputs: []string{"*args"}, DTypes: arithDTypes,
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			if err := ops.SameDType(in); err != nil {
				return nil, 0, ops.WithOpName("add_n", err)
			}
			if err := sameShapeInputs("add_n", in); err != nil {
				return nil, 0, err
			}
			return in[0].Shape(), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			if len(in) == 1 {
				return ndarray.CopyInto(out[0], in[0])
			}
			// left to right, out accumulating (out overlaps no input: InPlace is false)
			acc := in[0]
			for _, a := range in[1:] {
				if err := runBinary(Add, out[0], acc, a, nil, false); err != nil {
					return err
				}
				acc = out[0]
			}
			return nil
		},
		Grad: ops.PassThrough,
	}, "add_n", "ElementWiseSum")
	identity := ops.Op{
		Name: "identity", Doc: "A copy of the array (MXNet's identity), through which gradients pass.",
		Category: ops.Elementwise, Inputs: []string{"data"}, InPlace: true, Infer: ops.InferSame,
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error { return ndarray.CopyInto(out[0], in[0]) },
		Grad:   ops.PassThrough,
	}
	ops.Register(&identity)
	stop := identity
	stop.Doc, stop.Grad = "A copy of the array that stops gradients: what flows back through it is zero (MXNet's "+
		"stop_gradient, also BlockGrad).", ops.ZeroGrad
	ops.RegisterAs(&stop, "stop_gradient", "BlockGrad")
	// (not an alias of cast: shape.go registers that after this file's init runs)
	ops.Register(&ops.Op{
		Name: "Cast", Doc: "MXNet's Cast: converts an array to another dtype, as cast does (C casts: floats " +
			"truncate toward zero into integers).",
		Category: ops.Elementwise, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "dtype", Kind: ops.ParamDType, Doc: "the dtype of the result"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			return in[0].Shape(), at.DType("dtype"), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error { return ops.CopyCast(out[0], in[0]) },
		Grad:   ops.CastBack,
	})
}
