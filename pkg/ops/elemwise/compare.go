package elemwise

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// cmpOp is one of the six comparisons.
type cmpOp int

const (
	cEq cmpOp = iota
	cNe
	cGt
	cGe
	cLt
	cLe
)

// The comparison operators, under MXNet's names.
var cmpOps = []struct {
	name, sym string
	op        cmpOp
}{
	{"equal", "==", cEq}, {"not_equal", "!=", cNe},
	{"greater", ">", cGt}, {"greater_equal", ">=", cGe},
	{"lesser", "<", cLt}, {"lesser_equal", "<=", cLe},
}

const cmpDoc = " elementwise, with NumPy broadcasting; as in MXNet, the result is 1 or 0 in the operands' dtype " +
	"(so (x > 2) * x works; bool for bool arrays). Comparisons with NaN are " +
	"false (not_equal: true); complex numbers order lexicographically, as in NumPy."

func init() {
	for _, c := range cmpOps {
		op := c.op
		ops.Register(&ops.Op{
			Name: c.name, Doc: "lhs " + c.sym + " rhs" + cmpDoc + "\n\nBoth arrays must have the same dtype, as in MXNet.",
			Category: ops.Broadcast, Inputs: []string{"lhs", "rhs"}, DTypes: ops.AllDTypes, InPlace: true,
			ScalarOp: "_" + c.name + "_scalar",
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				return ops.InferBroadcastSameDType(in, at)
			},
			Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
				return ops.ViaTemp(out[0], ndarray.Bool, func(o *ndarray.NDArray) error {
					return ops.BroadcastKernel(in, o, func(in []*ndarray.NDArray) error {
						runCompare(op, o, in[0], in[1])
						return nil
					})
				})
			},
		})
		ops.Register(&ops.Op{
			Name: "_" + c.name + "_scalar", Doc: "data " + c.sym + " scalar" + cmpDoc + " The comparison is exact, as in NumPy: " +
				"integer arrays compare with the number's value (x == 2.5 is false for integers, uint8 x > -1 is true); " +
				"floating-point arrays compare with the number rounded to their dtype.",
			Category: ops.Elementwise, Inputs: []string{"data"}, DTypes: ops.AllDTypes, InPlace: true,
			Params: []ops.Param{
				{Name: "scalar", Kind: ops.ParamScalar, Doc: "the number"},
				{Name: "reverse", Kind: ops.ParamBool, Default: "0", Doc: "compute scalar " + c.sym + " data instead"},
			},
			Infer: ops.InferSame,
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				o := op
				if at.Bool("reverse") {
					o = o.flip()
				}
				return ops.ViaTemp(out[0], ndarray.Bool, func(t *ndarray.NDArray) error {
					runCompareScalar(o, t, in[0], at.Scalar("scalar"))
					return nil
				})
			},
		})
	}
}

// flip is the comparison with its operands swapped: s < x is x > s.
func (op cmpOp) flip() cmpOp {
	switch op {
	case cGt:
		return cLt
	case cGe:
		return cLe
	case cLt:
		return cGt
	case cLe:
		return cGe
	}
	return op
}

func cmpFn[T ops.OrderedElem](op cmpOp) func(x, y T) bool {
	switch op {
	case cEq:
		return func(x, y T) bool { return x == y }
	case cNe:
		return func(x, y T) bool { return x != y }
	case cGt:
		return func(x, y T) bool { return x > y }
	case cGe:
		return func(x, y T) bool { return x >= y }
	case cLt:
		return func(x, y T) bool { return x < y }
	}
	return func(x, y T) bool { return x <= y }
}

// cmpScalarFn is x op c as one closure (one call per element in the kernels).
func cmpScalarFn[T ops.OrderedElem](op cmpOp, c T) func(x T) bool {
	switch op {
	case cEq:
		return func(x T) bool { return x == c }
	case cNe:
		return func(x T) bool { return x != c }
	case cGt:
		return func(x T) bool { return x > c }
	case cGe:
		return func(x T) bool { return x >= c }
	case cLt:
		return func(x T) bool { return x < c }
	}
	return func(x T) bool { return x <= c }
}

// complexCmp is NumPy's lexicographic comparison of complex numbers: real parts first,
// ignoring the imaginary parts' order only where one of them is NaN.
func complexCmp(op cmpOp, x, y complex128) bool {
	xr, xi, yr, yi := real(x), imag(x), real(y), imag(y)
	noNaN := xi == xi && yi == yi
	switch op {
	case cEq:
		return xr == yr && xi == yi
	case cNe:
		return xr != yr || xi != yi
	case cGt:
		return (xr > yr && noNaN) || (xr == yr && xi > yi)
	case cGe:
		return (xr > yr && noNaN) || (xr == yr && xi >= yi)
	case cLt:
		return (xr < yr && noNaN) || (xr == yr && xi < yi)
	}
	return (xr < yr && noNaN) || (xr == yr && xi <= yi)
}

// runCompare sets out (bool) to a op b for a and b of one dtype and out's shape.
func runCompare(op cmpOp, out, a, b *ndarray.NDArray) {
	switch a.DType() {
	case ndarray.Bool:
		f := cmpFn[uint8](op)
		ops.Map2(out, a, b, func(x, y uint8) bool { return f(min(x, 1), min(y, 1)) })
	case ndarray.Int8:
		ops.Map2(out, a, b, cmpFn[int8](op))
	case ndarray.Int16:
		ops.Map2(out, a, b, cmpFn[int16](op))
	case ndarray.Int32:
		ops.Map2(out, a, b, cmpFn[int32](op))
	case ndarray.Int64:
		ops.Map2(out, a, b, cmpFn[int64](op))
	case ndarray.Uint8:
		ops.Map2(out, a, b, cmpFn[uint8](op))
	case ndarray.Uint16:
		ops.Map2(out, a, b, cmpFn[uint16](op))
	case ndarray.Uint32:
		ops.Map2(out, a, b, cmpFn[uint32](op))
	case ndarray.Uint64:
		ops.Map2(out, a, b, cmpFn[uint64](op))
	case ndarray.Float32:
		ops.Map2(out, a, b, cmpFn[float32](op))
	case ndarray.Float64:
		ops.Map2(out, a, b, cmpFn[float64](op))
	case ndarray.Float16:
		f := cmpFn[float32](op)
		ops.Map2(out, a, b, func(x, y uint16) bool { return f(ops.F16ToF32(x), ops.F16ToF32(y)) })
	case ndarray.Bfloat16:
		f := cmpFn[float32](op)
		ops.Map2(out, a, b, func(x, y uint16) bool { return f(ops.Bf16ToF32(x), ops.Bf16ToF32(y)) })
	case ndarray.Complex64:
		ops.Map2(out, a, b, func(x, y complex64) bool { return complexCmp(op, complex128(x), complex128(y)) })
	case ndarray.Complex128:
		ops.Map2(out, a, b, func(x, y complex128) bool { return complexCmp(op, x, y) })
	}
}

// runCompareScalar sets out (bool) to a op s, with NumPy's exact semantics: integers
// compare with s's value (integer or real), floating-point arrays with s rounded to
// their dtype, complex arrays with s converted to theirs; a complex s compares
// lexicographically with real arrays.
func runCompareScalar(op cmpOp, out, a *ndarray.NDArray, s ops.Scalar) {
	dt := a.DType()
	switch {
	case dt.Kind() == ndarray.KindComplex:
		c := ops.ScalarLoad(dt, s)
		if dt == ndarray.Complex64 {
			ops.Map1(out, a, func(x complex64) bool { return complexCmp(op, complex128(x), c) })
		} else {
			ops.Map1(out, a, func(x complex128) bool { return complexCmp(op, x, c) })
		}
	case imag(s.Value) != 0:
		c := s.Value
		if ops.IsFloat(dt) {
			c = complex(real(ops.ScalarLoad(dt, ops.Scalar{Value: complex(real(c), 0)})), imag(c))
		}
		ops.RealApply(out, a, func(x float64) bool { return complexCmp(op, complex(x, 0), c) })
	case dt == ndarray.Float32:
		ops.Map1(out, a, cmpScalarFn(op, float32(real(ops.ScalarLoad(dt, s)))))
	case dt == ndarray.Float64:
		ops.Map1(out, a, cmpScalarFn(op, real(ops.ScalarLoad(dt, s))))
	case ops.IsFloat(dt):
		f := cmpScalarFn(op, real(ops.ScalarLoad(dt, s)))
		ops.RealApply(out, a, f)
	case !s.IsInt:
		ops.RealApply(out, a, cmpScalarFn(op, real(s.Value)))
	default:
		intCompareScalar(op, out, a, s)
	}
}

// intCompareScalar compares a bool or integer array with an integer s exactly, even
// when s lies outside the dtype's range.
func intCompareScalar(op cmpOp, out, a *ndarray.NDArray, s ops.Scalar) {
	switch a.DType() {
	case ndarray.Bool:
		f := cmpFn[uint8](op)
		if c, where := intScalarIn[uint8](s, 1); where == 0 {
			ops.Map1(out, a, func(x uint8) bool { return f(min(x, 1), c) })
		} else {
			constCompare[uint8](op, out, a, where)
		}
	case ndarray.Int8:
		intCompareTyped[int8](op, out, a, s)
	case ndarray.Int16:
		intCompareTyped[int16](op, out, a, s)
	case ndarray.Int32:
		intCompareTyped[int32](op, out, a, s)
	case ndarray.Int64:
		intCompareTyped[int64](op, out, a, s)
	case ndarray.Uint8:
		intCompareTyped[uint8](op, out, a, s)
	case ndarray.Uint16:
		intCompareTyped[uint16](op, out, a, s)
	case ndarray.Uint32:
		intCompareTyped[uint32](op, out, a, s)
	case ndarray.Uint64:
		intCompareTyped[uint64](op, out, a, s)
	}
}

func intCompareTyped[T ops.IntElem](op cmpOp, out, a *ndarray.NDArray, s ops.Scalar) {
	var zero T
	maxT := ^zero
	if maxT < 0 { // signed
		maxT = T(uint64(1)<<(8*unsafe.Sizeof(zero)-1) - 1)
	}
	c, where := intScalarIn[T](s, uint64(maxT))
	if where != 0 {
		constCompare[T](op, out, a, where)
		return
	}
	ops.Map1(out, a, cmpScalarFn(op, c))
}

// intScalarIn converts the integer s to T when it lies in T's range (whose largest
// value is maxT); otherwise where is -1 when s is below the range and 1 above it.
func intScalarIn[T ops.IntElem](s ops.Scalar, maxT uint64) (c T, where int) {
	var zero T
	signed := ^zero < 0
	big := s.Int < 0 && real(s.Value) > 0 // a Python int of 2**63 or more
	switch {
	case big:
		if uint64(s.Int) > maxT {
			return 0, 1
		}
	case s.Int < 0:
		if !signed || s.Int < -int64(maxT)-1 {
			return 0, -1
		}
	case uint64(s.Int) > maxT:
		return 0, 1
	}
	return T(s.Int), 0
}

// constCompare sets out to x op s for an s that is below (where < 0) or above every
// value of a's dtype.
func constCompare[T any](op cmpOp, out, a *ndarray.NDArray, where int) {
	var r bool
	switch op {
	case cNe:
		r = true
	case cGt, cGe:
		r = where < 0
	case cLt, cLe:
		r = where > 0
	}
	ops.Map1(out, a, func(T) bool { return r })
}
