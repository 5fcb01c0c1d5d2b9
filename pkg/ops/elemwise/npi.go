package elemwise

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The elementwise operators of mx.np (MXNet's _npi_ names), with NumPy 2's semantics
// rather than MXNet 1.x's legacy ones: comparisons and predicates give bool arrays,
// and a Python number meets an array as NumPy 2 has it (NEP 50: it takes the array's
// dtype where it fits its kind; integers compare exactly). npi_*.go declare them with
// the helpers here; the Python layer promotes two arrays to one dtype first.

// npBinary is one broadcasting binary operator, registered with its _scalar form (and
// MXNet's reversed _r..._scalar name where MXNet has one).
type npBinary struct {
	name, doc string
	dtypes    []ndarray.DType
	boolOut   bool // the result is bool, else the operands' dtype
	// run computes out from a and b, of out's shape and one dtype.
	run func(out, a, b *ndarray.NDArray)
	// scalar computes data op s (s op data when rev); nil: s is converted to the array's
	// dtype and run does it.
	scalar func(out, a *ndarray.NDArray, s ops.Scalar, rev bool) error
	// castRHS: the first operand is floating-point, the second may instead be an integer
	// array, converted to the first's dtype (ldexp's exponents).
	castRHS     bool
	inputs      []string // the operands' names where MXNet's are not lhs and rhs
	rname       string   // MXNet's name of the reversed scalar form, "" where it has none
	intScalar   bool     // the number must be an integer (shift counts)
	grad, sgrad *ops.Gradient
}

// checkDTypes refuses an integer first operand where castRHS lets integers in as the second.
func (d npBinary) checkDTypes(dt ndarray.DType) error {
	if d.castRHS && !ops.IsFloat(dt) {
		return mxerr.TypeErr("%s does not support dtype %s as its first operand (floating-point only)", d.name, dt)
	}
	return nil
}

// npScalarParams are the parameters of every _scalar form: MXNet's scalar and is_int
// (is_int=0 makes an integer a float), and mxgo's reverse.
func npScalarParams(reverse string) []ops.Param {
	return []ops.Param{
		{Name: "scalar", Kind: ops.ParamScalar, Default: "f:1", Doc: "the number"},
		{Name: "is_int", Kind: ops.ParamBool, Default: "1", Doc: "0: the number is a float even when integral (MXNet's flag)"},
		{Name: "reverse", Kind: ops.ParamBool, Default: reverse, Doc: "compute op(scalar, data) instead of op(data, scalar)"},
	}
}

// scalarKeepsDType refuses a number with which NumPy 2 would give another dtype than
// the array's: a float with an integer array, a complex number with a real one (mx.np
// promotes the array first).
func scalarKeepsDType(name string, dt ndarray.DType, s ops.Scalar) error {
	switch {
	case imag(s.Value) != 0 && dt.Kind() != ndarray.KindComplex:
		return mxerr.TypeErr("%s_scalar: a complex number with a %s array (cast the array to a complex dtype first)", name, dt)
	case !s.IsInt && ops.IsIntegral(dt):
		return mxerr.TypeErr("%s_scalar: a float with a %s array (cast the array to a float dtype first)", name, dt)
	}
	return nil
}

// npScalar is the call's number, a float when is_int is off.
func npScalar(at ops.Attrs) ops.Scalar {
	s := at.Scalar("scalar")
	if s.IsInt && !at.Bool("is_int") {
		return ops.Scalar{Value: complex(ops.ScalarFloat(s), 0)}
	}
	return s
}

func (d npBinary) register() {
	outDType := func(dt ndarray.DType) ndarray.DType {
		if d.boolOut {
			return ndarray.Bool
		}
		return dt
	}
	infer := func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
		if err := d.checkDTypes(in[0].DType()); err != nil {
			return nil, 0, err
		}
		if !d.castRHS || !ops.IsIntegral(in[1].DType()) {
			if err := ops.SameDType(in); err != nil {
				return nil, 0, ops.WithOpName(d.name, err)
			}
		}
		shape, err := ops.BroadcastShape(in)
		return shape, outDType(in[0].DType()), err
	}
	if d.inputs == nil {
		d.inputs = []string{"lhs", "rhs"}
	}
	ops.Register(&ops.Op{
		Name: d.name, Doc: d.doc + "\n\nNumPy broadcasting; both arrays have one dtype (mx.np promotes them first).",
		Category: ops.Broadcast, Inputs: d.inputs, DTypes: d.dtypes, InPlace: !d.boolOut,
		ScalarOp: d.name + "_scalar", Infer: infer, Grad: d.grad,
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			if in[1].DType() != in[0].DType() { // castRHS
				e, err := ndarray.Empty(in[0].DType(), in[1].Shape(), in[1].Device())
				if err != nil {
					return err
				}
				defer e.Release()
				if err := ops.CopyCast(e, in[1]); err != nil {
					return err
				}
				in = []*ndarray.NDArray{in[0], e}
			}
			return ops.BroadcastKernel(in, out[0], func(in []*ndarray.NDArray) error {
				d.run(out[0], in[0], in[1])
				return nil
			})
		},
	})
	sop := &ops.Op{
		Name: d.name + "_scalar", Doc: d.doc + " One operand is a Python number, which meets the array as in NumPy 2 " +
			"(NEP 50): converted to the array's dtype (integers wrap where NumPy raises OverflowError).",
		Category: ops.Elementwise, Inputs: []string{"data"}, DTypes: d.dtypes, InPlace: !d.boolOut,
		Params: npScalarParams("0"), Grad: d.sgrad,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if d.intScalar && !npScalar(at).IsInt {
				return nil, 0, mxerr.TypeErr("%s_scalar: the number must be an integer", d.name)
			}
			if err := d.checkDTypes(in[0].DType()); err != nil {
				return nil, 0, err
			}
			if d.scalar == nil {
				if err := scalarKeepsDType(d.name, in[0].DType(), npScalar(at)); err != nil {
					return nil, 0, err
				}
			}
			return in[0].Shape(), outDType(in[0].DType()), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s, rev := npScalar(at), at.Bool("reverse")
			if d.scalar != nil {
				return d.scalar(out[0], in[0], s, rev)
			}
			return withScalarArray(in[0], out[0].Shape(), s, func(c *ndarray.NDArray) {
				if rev {
					d.run(out[0], c, in[0])
				} else {
					d.run(out[0], in[0], c)
				}
			})
		},
	}
	ops.Register(sop)
	if d.rname != "" {
		r := *sop
		r.Name, r.Doc, r.Params = d.rname, "MXNet's reversed form of "+sop.Name+" (reverse defaults to 1): "+sop.Doc, npScalarParams("1")
		ops.Register(&r)
	}
}

// npUnary is one unary operator.
type npUnary struct {
	name, doc string
	dtypes    []ndarray.DType
	out       func(dt ndarray.DType) ndarray.DType // the result's dtype; nil: bool
	run       func(out, in *ndarray.NDArray) error
	grad      *ops.Gradient
}

func (d npUnary) register() {
	ops.Register(&ops.Op{
		Name: d.name, Doc: d.doc, Category: ops.Elementwise, Inputs: []string{"x"}, DTypes: d.dtypes,
		InPlace: d.out != nil, Grad: d.grad,
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			if d.out == nil {
				return in[0].Shape(), ndarray.Bool, nil
			}
			return in[0].Shape(), d.out(in[0].DType()), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error { return d.run(out[0], in[0]) },
	})
}

// npScalarValue is s as NumPy 2 converts a Python number meeting an array of dtype dt
// (NEP 50): rounded to a floating-point or complex dt (a complex number with a 16- or
// 32-bit float array to complex64), exact in float64 or complex128 with a bool or
// integer array (whose elements then convert too).
func npScalarValue(dt ndarray.DType, s ops.Scalar) complex128 {
	switch {
	case dt.Kind() == ndarray.KindComplex, ops.IsFloat(dt) && imag(s.Value) == 0:
		return ops.ScalarLoad(dt, s)
	case ops.IsFloat(dt) && dt != ndarray.Float64:
		return complex(float64(float32(real(s.Value))), float64(float32(imag(s.Value))))
	case s.IsInt:
		return complex(ops.ScalarFloat(s), 0)
	}
	return s.Value
}

// intDTypeIndex orders the integer dtypes (bool as uint8) for pickInt.
func intDTypeIndex(dt ndarray.DType) int {
	switch dt {
	case ndarray.Int8:
		return 0
	case ndarray.Int16:
		return 1
	case ndarray.Int32:
		return 2
	case ndarray.Int64:
		return 3
	case ndarray.Uint16:
		return 5
	case ndarray.Uint32:
		return 6
	case ndarray.Uint64:
		return 7
	}
	return 4 // uint8, bool
}

// pickInt picks, from the instantiations of one generic kernel for int8, int16, int32,
// int64, uint8, uint16, uint32 and uint64, the one for dtype dt (bool: uint8's).
func pickInt[F any](dt ndarray.DType, fs [8]F) F { return fs[intDTypeIndex(dt)] }

// floatMap2 sets out = f(a, b) for float a, b and out of one dtype: float64 with f64, the
// others with f32, the 16-bit formats through float32 as NumPy's half loops compute.
func floatMap2(out, a, b *ndarray.NDArray, f32 func(x, y float32) float32, f64 func(x, y float64) float64) {
	switch a.DType() {
	case ndarray.Float64:
		ops.Map2(out, a, b, f64)
	case ndarray.Float32:
		ops.Map2(out, a, b, f32)
	case ndarray.Float16:
		ops.Map2(out, a, b, func(x, y uint16) uint16 { return ops.F32ToF16(f32(ops.F16ToF32(x), ops.F16ToF32(y))) })
	case ndarray.Bfloat16:
		ops.Map2(out, a, b, func(x, y uint16) uint16 { return ops.F32ToBF16(f32(ops.Bf16ToF32(x), ops.Bf16ToF32(y))) })
	}
}

// via64 is a float32 function computed in float64 and rounded once (within an ulp of
// the C library's float function).
func via64(f func(x, y float64) float64) func(x, y float32) float32 {
	return func(x, y float32) float32 { return float32(f(float64(x), float64(y))) }
}
