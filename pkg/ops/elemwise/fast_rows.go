package elemwise

import (
	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Typed row loops for mx.nd's comparisons and maximum/minimum on the integer, float32
// and float64 dtypes: one loop per row and operator, with no call per element (the
// general paths, Map2 with a function value and, for comparisons, a bool temporary
// cast into out, were 10-40 times slower than NumPy). They give the general paths'
// bits (tests_go/ops_fast_rows_test.go turns them off with ops.SetFastKernels to check).

// fastCompares reports whether the typed loops compare a into out: integer, float32
// and float64 operands into out of their dtype (not bool's int64 results).
func fastCompares(out, a *ndarray.NDArray) bool {
	return ops.FastKernels() && out.DType() == a.DType() && cmpRowsFor(a.DType(), false) != nil
}

// fastCompare sets out to a op b, 1 or 0 in their dtype, where fastCompares(out, a).
func fastCompare(op cmpOp, out, a, b *ndarray.NDArray) {
	cmpRowsFor(a.DType(), false)(op, out, a, b)
}

// fastCompareScalar is fastCompare for a op s, with s converted to a's dtype as
// runCompareScalar converts it; it reports false (doing nothing) where the general
// path is to run.
func fastCompareScalar(op cmpOp, out, a *ndarray.NDArray, s ops.Scalar) bool {
	if !fastCompares(out, a) || imag(s.Value) != 0 {
		return false
	}
	switch dt := a.DType(); {
	case dt == ndarray.Float32:
		cmpScalarRows[float32, float32](op, out, a, float32(real(ops.ScalarLoad(dt, s))))
	case dt == ndarray.Float64:
		cmpScalarRows[float64, float64](op, out, a, real(ops.ScalarLoad(dt, s)))
	case dt != ndarray.Bool && ops.IsIntegral(dt):
		v := ops.ScalarFloat(s)
		pickInt(dt, [8]func(){
			func() { cmpScalarRows[int8, int8](op, out, a, ops.CToInt[int8](v)) },
			func() { cmpScalarRows[int16, int16](op, out, a, ops.CToInt[int16](v)) },
			func() { cmpScalarRows[int32, int32](op, out, a, ops.CToInt[int32](v)) },
			func() { cmpScalarRows[int64, int64](op, out, a, ops.CToInt[int64](v)) },
			func() { cmpScalarRows[uint8, uint8](op, out, a, ops.CToInt[uint8](v)) },
			func() { cmpScalarRows[uint16, uint16](op, out, a, ops.CToInt[uint16](v)) },
			func() { cmpScalarRows[uint32, uint32](op, out, a, ops.CToInt[uint32](v)) },
			func() { cmpScalarRows[uint64, uint64](op, out, a, ops.CToInt[uint64](v)) },
		})()
	}
	return true
}

// fastMaxMin sets out to maximum or minimum of a and b and reports true, or reports
// false for the ops and dtypes the general path keeps.
func fastMaxMin(op mathOp, out, a, b *ndarray.NDArray) bool {
	if !ops.FastKernels() || (op != mMax && op != mMin) {
		return false
	}
	isMax := op == mMax
	switch dt := a.DType(); {
	case dt == ndarray.Float32:
		rows2(out, a, b, func(o, x, y []float32) { maxMinFloat(o, x, y, isMax, true) })
	case dt == ndarray.Float64:
		rows2(out, a, b, func(o, x, y []float64) { maxMinFloat(o, x, y, isMax, false) })
	case dt != ndarray.Bool && ops.IsIntegral(dt):
		pickInt(dt, [8]func(bool, *ndarray.NDArray, *ndarray.NDArray, *ndarray.NDArray){maxMinInt[int8], maxMinInt[int16],
			maxMinInt[int32], maxMinInt[int64], maxMinInt[uint8], maxMinInt[uint16], maxMinInt[uint32], maxMinInt[uint64]})(isMax, out, a, b)
	default:
		return false
	}
	return true
}

// maxMinFloat is fmaximum or fminimum over a row: NaN in either operand propagates,
// ties give y. quiet sets the quiet bit of a NaN result, as the general path's float32
// round trip through float64 does.
func maxMinFloat[T float32 | float64](o, x, y []T, isMax, quiet bool) {
	x, y = x[:len(o)], y[:len(o)]
	done := simd.MaxMin(isMax, quiet, o, x, y) // AVX2, where it runs
	o, x, y = o[done:], x[done:], y[done:]
	if isMax {
		for i := range o {
			r := y[i]
			if x[i] > r || x[i] != x[i] {
				r = x[i]
			}
			o[i] = r
		}
	} else {
		for i := range o {
			r := y[i]
			if x[i] < r || x[i] != x[i] {
				r = x[i]
			}
			o[i] = r
		}
	}
	if !quiet {
		return
	}
	for i, r := range o {
		if r != r {
			o[i] = T(float64(r))
		}
	}
}

func maxMinInt[T ops.IntElem](isMax bool, out, a, b *ndarray.NDArray) {
	rows2(out, a, b, func(o, x, y []T) {
		x, y = x[:len(o)], y[:len(o)]
		if isMax {
			for i := range o {
				o[i] = max(x[i], y[i])
			}
		} else {
			for i := range o {
				o[i] = min(x[i], y[i])
			}
		}
	})
}
