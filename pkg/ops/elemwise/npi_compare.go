package elemwise

import (
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.np's comparisons (_npi_equal ... _npi_less_equal): bool results, as in NumPy.

func init() {
	for _, c := range []struct {
		name, sym string
		op        cmpOp
	}{
		{"equal", "==", cEq}, {"not_equal", "!=", cNe}, {"greater", ">", cGt},
		{"greater_equal", ">=", cGe}, {"less", "<", cLt}, {"less_equal", "<=", cLe},
	} {
		op := c.op
		npBinary{
			name: "_npi_" + c.name, dtypes: ops.AllDTypes, boolOut: true, grad: ops.ZeroGrad, sgrad: ops.ZeroGrad,
			doc: "lhs " + c.sym + " rhs elementwise, as a bool array (NumPy's " + c.name + "): NaN compares " +
				"false (not_equal: true), complex numbers order lexicographically as in NumPy.",
			run: func(out, a, b *ndarray.NDArray) { npCompare(op, out, a, b) },
			scalar: func(out, a *ndarray.NDArray, s ops.Scalar, rev bool) error {
				npCompareScalar(op, out, a, s, rev)
				return nil
			},
		}.register()
	}
}

// npCompareScalar sets out (bool) to a op s (s op a when rev) as NumPy 2 compares an
// array with a Python number: an integer with a bool or integer array exactly (beyond
// the dtype's range the answer is constant: uint8 x > -1 is true), a float with it in
// float64, and with floating-point and complex arrays in their dtype (npScalarValue).
func npCompareScalar(op cmpOp, out, a *ndarray.NDArray, s ops.Scalar, rev bool) {
	if rev {
		op = op.flip()
	}
	dt := a.DType()
	c := npScalarValue(dt, s)
	switch {
	case dt.Kind() == ndarray.KindComplex || imag(c) != 0:
		if dt == ndarray.Complex64 {
			ops.Map1(out, a, func(x complex64) bool { return complexCmp(op, complex128(x), c) })
		} else if dt == ndarray.Complex128 {
			ops.Map1(out, a, func(x complex128) bool { return complexCmp(op, x, c) })
		} else {
			ops.RealApply(out, a, func(x float64) bool { return complexCmp(op, complex(x, 0), c) })
		}
	case dt == ndarray.Float32:
		cmpScalarRows[float32, uint8](op, out, a, float32(real(c)))
	case dt == ndarray.Float64:
		cmpScalarRows[float64, uint8](op, out, a, real(c))
	case ops.IsFloat(dt) || !s.IsInt:
		ops.RealApply(out, a, cmpScalarFn(op, real(c)))
	default:
		pickInt(dt, [8]func(cmpOp, *ndarray.NDArray, *ndarray.NDArray, ops.Scalar){
			intCmpExact[int8], intCmpExact[int16], intCmpExact[int32], intCmpExact[int64],
			intCmpExact[uint8], intCmpExact[uint16], intCmpExact[uint32], intCmpExact[uint64],
		})(op, out, a, s)
	}
}

// intCmpExact compares an integer array (bool as uint8, its 0 and 1) with the integer s
// exactly.
func intCmpExact[T ops.IntElem](op cmpOp, out, a *ndarray.NDArray, s ops.Scalar) {
	v, side := fitInt[T](s)
	if side == 0 {
		if a.DType() == ndarray.Bool {
			f := cmpScalarFn(op, v)
			ops.Map1(out, a, func(x T) bool { return f(min(x, 1)) })
		} else {
			cmpScalarRows[T, uint8](op, out, a, v)
		}
		return
	}
	// s lies below (side -1) or above (+1) every element
	r := op == cNe || (side < 0 && (op == cGt || op == cGe)) || (side > 0 && (op == cLt || op == cLe))
	ops.Map1(out, a, func(T) bool { return r })
}

// fitInt converts the integer s to T; side is 0 when it fits, else -1 or +1 for a
// number below or above T's range.
func fitInt[T ops.IntElem](s ops.Scalar) (T, int) {
	var zero T
	unsigned := ^zero > 0
	if s.Int < 0 && real(s.Value) > 0 { // 2**63 <= s < 2**64, held as its uint64 bits
		if unsigned && unsafe.Sizeof(zero) == 8 {
			return T(uint64(s.Int)), 0
		}
		return 0, 1
	}
	v := T(s.Int)
	if int64(v) == s.Int && (v < 0) == (s.Int < 0) {
		return v, 0
	}
	if s.Int < 0 {
		return 0, -1
	}
	return 0, 1
}

// npCompare is runCompare with loops over whole rows for the integer and the 32- and
// 64-bit float dtypes (no call per element).
func npCompare(op cmpOp, out, a, b *ndarray.NDArray) {
	if rows := cmpRowsFor(a.DType(), true); rows != nil {
		rows(op, out, a, b)
		return
	}
	runCompare(op, out, a, b)
}

type cmpRowsFn = func(cmpOp, *ndarray.NDArray, *ndarray.NDArray, *ndarray.NDArray)

// cmpRowsFor is cmpRows for operands of dtype dt, into bool (boolOut) or dt itself;
// nil for the dtypes it does not take (bool, the 16-bit floats, complex).
func cmpRowsFor(dt ndarray.DType, boolOut bool) cmpRowsFn {
	switch {
	case dt == ndarray.Float32:
		return cmpRowsInto[float32](boolOut)
	case dt == ndarray.Float64:
		return cmpRowsInto[float64](boolOut)
	case dt != ndarray.Bool && ops.IsIntegral(dt):
		return pickInt(dt, [8]func(bool) cmpRowsFn{cmpRowsInto[int8], cmpRowsInto[int16], cmpRowsInto[int32],
			cmpRowsInto[int64], cmpRowsInto[uint8], cmpRowsInto[uint16], cmpRowsInto[uint32], cmpRowsInto[uint64]})(boolOut)
	}
	return nil
}

func cmpRowsInto[T ops.OrderedElem](boolOut bool) cmpRowsFn {
	if boolOut {
		return cmpRows[T, uint8]
	}
	return cmpRows[T, T]
}

// cmpRows compares row by row into O (uint8 for bool results, 1 and 0 in the operands'
// dtype for mx.nd's); > and >= are < and <= with the operands swapped (exact with NaN).
func cmpRows[T, O ops.OrderedElem](op cmpOp, out, a, b *ndarray.NDArray) {
	if op == cGt || op == cGe {
		a, b, op = b, a, op.flip()
	}
	rows2(out, a, b, func(o []O, x, y []T) {
		if cmpSIMDRow(op, o, x, y, false) {
			return
		}
		x, y = x[:len(o)], y[:len(o)]
		switch op {
		case cLt:
			for i := range o {
				o[i] = flag[O](x[i] < y[i])
			}
		case cLe:
			for i := range o {
				o[i] = flag[O](x[i] <= y[i])
			}
		case cEq:
			for i := range o {
				o[i] = flag[O](x[i] == y[i])
			}
		default:
			for i := range o {
				o[i] = flag[O](x[i] != y[i])
			}
		}
	})
}

// cmpScalarRows sets out to a op c row by row, into O as cmpRows.
func cmpScalarRows[T, O ops.OrderedElem](op cmpOp, out, a *ndarray.NDArray, c T) {
	cs := []T{c}
	rows2(out, a, a, func(o []O, x, _ []T) {
		if cmpSIMDRow(op, o, x, cs, true) {
			return
		}
		x = x[:len(o)]
		switch op {
		case cLt:
			for i := range o {
				o[i] = flag[O](x[i] < c)
			}
		case cLe:
			for i := range o {
				o[i] = flag[O](x[i] <= c)
			}
		case cGt:
			for i := range o {
				o[i] = flag[O](x[i] > c)
			}
		case cGe:
			for i := range o {
				o[i] = flag[O](x[i] >= c)
			}
		case cEq:
			for i := range o {
				o[i] = flag[O](x[i] == c)
			}
		default:
			for i := range o {
				o[i] = flag[O](x[i] != c)
			}
		}
	})
}

// The C kernels number the comparisons as cmpOp does.
var (
	_ [int(simd.CmpLe) - int(cLe)]struct{}
	_ [int(cLe) - int(simd.CmpLe)]struct{}
	_ [int(simd.CmpEq) - int(cEq)]struct{}
	_ [int(cEq) - int(simd.CmpEq)]struct{}
)

// cmpSIMDRow runs a row of cmpRows or cmpScalarRows (y one element when yScalar) in C
// and reports true, or reports false where Go is to run: operands not float32 or float64,
// results not in their dtype or bool bytes, or whatever simd.Cmp declines.
func cmpSIMDRow[T, O ops.OrderedElem](op cmpOp, o []O, x, y []T, yScalar bool) bool {
	switch any(*new(O)).(type) {
	case uint8:
		switch any(*new(T)).(type) {
		case float32:
			return simd.CmpBool(simd.CmpOp(op), as[uint8](o), as[float32](x), as[float32](y), yScalar)
		case float64:
			return simd.CmpBool(simd.CmpOp(op), as[uint8](o), as[float64](x), as[float64](y), yScalar)
		}
	case float32:
		if _, ok := any(*new(T)).(float32); ok {
			return simd.Cmp(simd.CmpOp(op), as[float32](o), as[float32](x), as[float32](y), yScalar)
		}
	case float64:
		if _, ok := any(*new(T)).(float64); ok {
			return simd.Cmp(simd.CmpOp(op), as[float64](o), as[float64](x), as[float64](y), yScalar)
		}
	}
	return false
}
