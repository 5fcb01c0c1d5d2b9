package elemwise

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.np's _npi_floor_divide (MXNet 1.9.1 has none) and _npi_mod (np.remainder, with
// MXNet's _npi_rmod_scalar): NumPy's semantics, which the legacy modulo's departs from
// for floats (x % 0 is NaN, a zero remainder takes the divisor's sign).

var divmodDTypes = append(append([]ndarray.DType{}, intDTypes...), ops.FloatDTypes...)

func init() {
	npBinary{
		name: "_npi_floor_divide", dtypes: divmodDTypes, grad: ops.ZeroGrad, sgrad: ops.ZeroGrad,
		doc: "lhs // rhs elementwise, as NumPy's floor_divide: Python's floor division for integers (x // 0 is " +
			"0; the minimum // -1 wraps to the minimum), floor(lhs / rhs) for floats as NumPy computes it, " +
			"except that an infinite operand gives floor(lhs / rhs) (the Array API standard's special cases: inf // 2 is inf).",
		run: divmodRun(false, [8]func(out, a, b *ndarray.NDArray){floorDivInts[int8], floorDivInts[int16], floorDivInts[int32],
			floorDivInts[int64], floorDivInts[uint8], floorDivInts[uint16], floorDivInts[uint32], floorDivInts[uint64]}),
	}.register()
	npBinary{
		name: "_npi_mod", rname: "_npi_rmod_scalar", dtypes: divmodDTypes,
		doc: "The remainder of lhs / rhs elementwise, with rhs's sign, as NumPy's remainder (mod): x % 0 is 0 for " +
			"integers and NaN for floats; a zero remainder is 0.0 with rhs's sign.",
		run: divmodRun(true, [8]func(out, a, b *ndarray.NDArray){modInts[int8], modInts[int16], modInts[int32],
			modInts[int64], modInts[uint8], modInts[uint16], modInts[uint32], modInts[uint64]}),
		grad: ops.GradExpr("g", "-(g * floor(a / b))"), sgrad: ops.GradExprRev("g", "-(g * floor($scalar / x))"),
	}.register()
}

// divmodRun is the kernel of floor_divide (mod false) or mod: divmod's quotient or
// remainder for floats, ints's instantiation for integers.
func divmodRun(mod bool, ints [8]func(out, a, b *ndarray.NDArray)) func(out, a, b *ndarray.NDArray) {
	return func(out, a, b *ndarray.NDArray) {
		if !ops.IsFloat(a.DType()) {
			pickInt(a.DType(), ints)(out, a, b)
		} else if mod {
			floatMap2(out, a, b, func(x, y float32) float32 { _, m := divmod(x, y); return m },
				func(x, y float64) float64 { _, m := divmod(x, y); return m })
		} else {
			floatMap2(out, a, b, func(x, y float32) float32 { return floorDiv(x, y) }, floorDiv[float64])
		}
	}
}

// floorDiv is divmod's quotient, and floor(a / b) where a or b is infinite: the Array API
// standard's special cases (inf // 2 is inf, -1 // inf is -0), where NumPy's divmod gives
// NaN or Python's -1.
func floorDiv[T float32 | float64](a, b T) T {
	if math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) {
		return T(math.Floor(float64(a / b)))
	}
	d, _ := divmod(a, b)
	return d
}

func floorDivInts[T ops.IntElem](out, a, b *ndarray.NDArray) {
	ops.Map2(out, a, b, func(x, y T) T {
		if y == 0 {
			return 0
		}
		q := x / y // Go's min / -1 is min, as NumPy's
		if x%y != 0 && (x < 0) != (y < 0) {
			q--
		}
		return q
	})
}

func modInts[T ops.IntElem](out, a, b *ndarray.NDArray) { ops.Map2(out, a, b, imod[T]) }

// divmod is NumPy's npy_divmod in T (each step rounded to T as NumPy's C does): the
// floored quotient, snapped to an integer, and the remainder with b's sign; for b = 0,
// a / b and fmod's NaN.
func divmod[T float32 | float64](a, b T) (T, T) {
	mod := T(math.Mod(float64(a), float64(b))) // exact, so in float64 too
	if b == 0 {
		return a / b, mod
	}
	div := (a - mod) / b
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
			div--
		}
	} else {
		mod = T(math.Copysign(0, float64(b)))
	}
	if div == 0 {
		return T(math.Copysign(0, float64(a/b))), mod
	}
	fl := T(math.Floor(float64(div)))
	if div-fl > 0.5 {
		fl++
	}
	return fl, mod
}
