package elemwise

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.np's complex helpers _npi_real, _npi_imag and _npi_conj (MXNet 1.9.1, without
// complex dtypes, has none), as NumPy's: a complex array gives its parts in the float
// dtype of their precision; a real one gives a copy (real, conj) or zeros (imag).

// partDType is the dtype of a complex dtype's parts; a real dtype is its own.
func partDType(dt ndarray.DType) ndarray.DType {
	switch dt {
	case ndarray.Complex64:
		return ndarray.Float32
	case ndarray.Complex128:
		return ndarray.Float64
	}
	return dt
}

func init() {
	npUnary{
		name: "_npi_real", dtypes: ops.AllDTypes, out: partDType, grad: ops.CastBack,
		doc: "The real part of each element, as NumPy's real: float32 for complex64, float64 for complex128, a copy " +
			"of a real array. The gradient is the result's, as a complex number's real part.",
		run: complexPart(func(z complex128) float64 { return real(z) }, ndarray.CopyInto),
	}.register()
	npUnary{
		name: "_npi_imag", dtypes: ops.AllDTypes, out: partDType, grad: imagGrad,
		doc: "The imaginary part of each element, as NumPy's imag: float32 for complex64, float64 for complex128, " +
			"zeros of a real array's dtype. Differentiable for real arrays only (a zero gradient).",
		run: complexPart(func(z complex128) float64 { return imag(z) }, func(out, _ *ndarray.NDArray) error {
			ops.FillKernel(out, ops.Scalar{})
			return nil
		}),
	}.register()
	npUnary{
		name: "_npi_conj", dtypes: ops.AllDTypes, grad: ops.GradExpr("_npi_conj(g)"),
		out: func(dt ndarray.DType) ndarray.DType {
			if dt == ndarray.Bool { // NumPy's conjugate has no bool loop
				return ndarray.Int8
			}
			return dt
		},
		doc: "The complex conjugate of each element, as NumPy's conj: a copy of a real array (int8 for bool, as in NumPy).",
		run: func(out, in *ndarray.NDArray) error {
			switch in.DType() {
			case ndarray.Complex64:
				ops.Map1(out, in, func(z complex64) complex64 { return complex(real(z), -imag(z)) })
			case ndarray.Complex128:
				ops.Map1(out, in, func(z complex128) complex128 { return complex(real(z), -imag(z)) })
			default:
				return ops.CopyCast(out, in)
			}
			return nil
		},
	}.register()
}

// complexPart is the kernel that takes part of each complex element, or does ofReal
// with a real array.
func complexPart(part func(complex128) float64, ofReal func(out, in *ndarray.NDArray) error) func(out, in *ndarray.NDArray) error {
	return func(out, in *ndarray.NDArray) error {
		switch in.DType() {
		case ndarray.Complex64:
			ops.Map1(out, in, func(z complex64) float32 { return float32(part(complex128(z))) })
		case ndarray.Complex128:
			ops.Map1(out, in, part)
		default:
			return ofReal(out, in)
		}
		return nil
	}
}

// imagGrad is zero for a real input; a complex one has no gradient of a real result here.
var imagGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	if c.DTypes[0].Kind() == ndarray.KindComplex {
		return nil, mxerr.New(mxerr.MXNet, "_npi_imag: the gradient of the imaginary part of a complex array is not supported")
	}
	return ops.ZeroGrad.Func(c)
}}
