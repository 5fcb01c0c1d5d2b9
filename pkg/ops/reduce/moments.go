package reduce

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// moments is MXNet's [mean, variance] over axes, one operator of two results: the mean
// with keepdims, the squared deviations from it in the input's dtype (integers wrap, as
// MXNet's elementwise kernels do), and their mean. Both keep the input's dtype, so an
// integer mean and variance truncate toward zero, as in MXNet.

func init() {
	ops.Register(&ops.Op{
		Name: "moments", Category: ops.Reduction, Inputs: []string{"data"}, DTypes: ops.RealNumericDTypes,
		Doc: "Mean and variance of data over axes: [mean, var], as MXNet's moments.\n\n" +
			"axes must name at least one axis (MXNet refuses None and ()). Both results keep the input's\n" +
			"dtype; for integers, as in MXNet, the mean truncates toward zero and the variance is the\n" +
			"truncated mean of the (wrapping) squared deviations from it.",
		Params: []ops.Param{
			{Name: "axes", Kind: ops.ParamAxes, Default: "None", Doc: "the axes to reduce: an int or a tuple of ints"},
			{Name: "keepdims", Kind: ops.ParamBool, Default: "0", Doc: "keep reduced axes as dimensions of length 1"},
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			s, err := momentsSpec(in[0], at, at.Bool("keepdims"))
			if err != nil {
				return nil, err
			}
			r := ops.Result{Shape: s.outShape, DType: in[0].DType()}
			return []ops.Result{r, r}, nil
		},
		Kernel: momentsKernel,
		Grad:   momentsGrad,
	})
}

// momentsSpec is the mean's reduction over at's axes, with or without the reduced axes.
func momentsSpec(x *ndarray.NDArray, at ops.Attrs, keep bool) (*reduceSpec, error) {
	axes := at.Ints("axes")
	if len(axes) == 0 {
		return nil, mxerr.ValueErr("moments: empty axes is not supported; pass every axis for global moments")
	}
	return reduceSpecOf(redMean, x, axes, keep)
}

func momentsKernel(in, out []*ndarray.NDArray, at ops.Attrs) error {
	x := in[0]
	kept, err := momentsSpec(x, at, true)
	if err != nil {
		return err
	}
	mean, err := ndarray.Empty(x.DType(), kept.outShape, x.Device())
	if err != nil {
		return err
	}
	defer mean.Release()
	if err := ops.ViaTemp(mean, kept.accDType, func(o *ndarray.NDArray) error { return runReduce(redMean, x, o, kept) }); err != nil {
		return err
	}
	wide, err := mean.BroadcastTo(x.Shape())
	if err != nil {
		return err
	}
	defer wide.Release()
	dev, err := ndarray.Empty(x.DType(), x.Shape(), x.Device())
	if err != nil {
		return err
	}
	defer dev.Release()
	squaredDeviations(dev, x, wide)
	s, err := momentsSpec(x, at, at.Bool("keepdims"))
	if err != nil {
		return err
	}
	if err := ops.ViaTemp(out[1], s.accDType, func(o *ndarray.NDArray) error { return runReduce(redMean, dev, o, s) }); err != nil {
		return err
	}
	flat, err := mean.Reshape(out[0].Shape()) // mean is new and contiguous: a view
	if err != nil {
		return err
	}
	defer flat.Release()
	return ndarray.CopyInto(out[0], flat)
}

// squaredDeviations sets dev = (x - m)², each step in x's dtype.
func squaredDeviations(dev, x, m *ndarray.NDArray) {
	switch x.DType() {
	case ndarray.Float16:
		ops.Map2(dev, x, m, func(a, b uint16) uint16 { d := ops.H2f(ops.F2h(ops.H2f(a) - ops.H2f(b))); return ops.F2h(d * d) })
	case ndarray.Bfloat16:
		ops.Map2(dev, x, m, func(a, b uint16) uint16 { d := ops.Bh2f(ops.F2bh(ops.Bh2f(a) - ops.Bh2f(b))); return ops.F2bh(d * d) })
	case ndarray.Float32:
		squaredDev[float32](dev, x, m)
	case ndarray.Float64:
		squaredDev[float64](dev, x, m)
	case ndarray.Int8:
		squaredDev[int8](dev, x, m)
	case ndarray.Int16:
		squaredDev[int16](dev, x, m)
	case ndarray.Int32:
		squaredDev[int32](dev, x, m)
	case ndarray.Int64:
		squaredDev[int64](dev, x, m)
	case ndarray.Uint8:
		squaredDev[uint8](dev, x, m)
	case ndarray.Uint16:
		squaredDev[uint16](dev, x, m)
	case ndarray.Uint32:
		squaredDev[uint32](dev, x, m)
	case ndarray.Uint64:
		squaredDev[uint64](dev, x, m)
	}
}

func squaredDev[T ops.OrderedElem](dev, x, m *ndarray.NDArray) {
	ops.Map2(dev, x, m, func(a, b T) T { d := a - b; return d * d })
}
