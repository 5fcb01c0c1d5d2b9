package elemwise

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops/unary"
)

// float32 row kernels of the cheap MXNet math operators (math_unary.go). Long rows go
// to C (internal/simd's math32_avx2.c, 8 lanes at a time) where the CPU has AVX2; the
// Go loops here do the same IEEE operations, so both give the same bits. Each sets
// dst[i] from src[i] for len(dst) == len(src); dst may be src.

// roundMode picks a rounding function for round32Rows.
type roundMode int

const (
	rFloor roundMode = iota
	rCeil
	rTrunc
	rHalfDown // MXNet's rint: the nearer integer, the lower one on a tie
	rAway     // round: halves away from zero
)

// noParams are the parameters of the functions without any.
var noParams simd.Math32Params

var roundSIMD = [...]simd.Math32Op{rFloor: simd.Floor, rCeil: simd.Ceil, rTrunc: simd.Trunc,
	rHalfDown: simd.RintDown, rAway: simd.RoundAway}

// round32Rows rounds in float64, which holds every float32 exactly, so the result is
// exact.
func round32Rows(mode roundMode) func(dst, src []float32) {
	return func(dst, src []float32) {
		if simd.Math32(roundSIMD[mode], dst, src, &noParams) {
			return
		}
		dst = dst[:len(src)]
		switch mode {
		case rFloor:
			for i, x := range src {
				dst[i] = float32(math.Floor(float64(x)))
			}
		case rCeil:
			for i, x := range src {
				dst[i] = float32(math.Ceil(float64(x)))
			}
		case rTrunc:
			for i, x := range src {
				dst[i] = float32(math.Trunc(float64(x)))
			}
		case rHalfDown:
			for i, x := range src {
				dst[i] = float32(rintDown(float64(x)))
			}
		default:
			for i, x := range src {
				// floor(|x| + 0.5) is wrong for 0.49999997 (the sum rounds up); math.Round is not
				t := math.Trunc(float64(x))
				if math.Abs(float64(x)-t) >= 0.5 {
					t += math.Copysign(1, float64(x))
				}
				dst[i] = float32(t)
			}
		}
	}
}

// scale32Rows multiplies by a float32 factor (degrees, radians), in float32 as MXNet does.
func scale32Rows(c float32) func(dst, src []float32) {
	p := simd.Math32Params{float64(c)}
	return func(dst, src []float32) {
		if simd.Math32(simd.Scale, dst, src, &p) {
			return
		}
		dst = dst[:len(src)]
		for i, x := range src {
			dst[i] = x * c
		}
	}
}

// reciprocal32Rows is 1/x in float32 (one correctly rounded division, as 1.0f/x).
func reciprocal32Rows(dst, src []float32) {
	if simd.Math32(simd.Recip, dst, src, &noParams) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = 1 / x
	}
}

// rsqrt32Rows is MXNet's 1.0/sqrtf(x): both roundings in float32 (a float64 square
// root rounded to float32 is sqrtf's, and so is a float64 quotient of float32 operands).
func rsqrt32Rows(dst, src []float32) {
	if simd.Math32(simd.Rsqrt, dst, src, &noParams) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = 1 / float32(math.Sqrt(float64(x)))
	}
}

// logicalNot32Rows is 1 where x is ±0, else 0 (NaN included).
func logicalNot32Rows(dst, src []float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = 0
		if x == 0 {
			dst[i] = 1
		}
	}
}

// hardSigmoid32Rows and smoothL132Rows are hardSigmoidFn's and smoothL1Fn's functions
// (math_unary.go) as loops, for a and b, and sigma, of float32 arrays: the same float64
// operations, rounded once.
func hardSigmoid32Rows(at ops.Attrs) func(dst, src []float32) {
	a := float64(float32(at.Float("alpha")))
	b := float64(float32(at.Float("beta")))
	p := simd.Math32Params{a, b}
	return func(dst, src []float32) {
		if simd.Math32(simd.HardSigmoid, dst, src, &p) {
			return
		}
		dst = dst[:len(src)]
		for i, x := range src {
			y := float64(a*float64(x)) + b
			if y > 1 {
				y = 1
			} else if y < 0 {
				y = 0
			}
			dst[i] = float32(y)
		}
	}
}

func smoothL132Rows(at ops.Attrs) func(dst, src []float32) {
	s := float64(float32(at.Float("scalar")))
	bsq := s * s
	lim, half := 1/bsq, 0.5/bsq
	p := simd.Math32Params{lim, half, bsq}
	return func(dst, src []float32) {
		if simd.Math32(simd.SmoothL1, dst, src, &p) {
			return
		}
		dst = dst[:len(src)]
		for i, x32 := range src {
			x := float64(x32)
			switch {
			case x > lim:
				dst[i] = float32(x - half)
			case x < -lim:
				dst[i] = float32(-x - half)
			default:
				dst[i] = float32(0.5 * x * x * bsq)
			}
		}
	}
}

// softsign32Rows is x / (1 + |x|) in float32, as MXNet computes it.
func softsign32Rows(dst, src []float32) {
	if simd.Math32(simd.Softsign, dst, src, &noParams) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = x / (1 + float32(math.Abs(float64(x))))
	}
}

// mvec32 is unary.MvecRows as a row kernel of the table.
func mvec32(fn simd.MvecFn, f func(float64) float64) func(ops.Attrs) func(dst, src []float32) {
	rows := unary.MvecRows(fn, f)
	return func(ops.Attrs) func(dst, src []float32) { return rows }
}

// special32 is the float32 row kernel of erfinv, gammaln or gamma: internal/simd's C
// kernel (within 2 ulp) for rows it takes, f in float64 rounded to float32 (within 1)
// for the rest, so that, as with mvec32, the last bit may depend on the row's length.
func special32(fn simd.SpecialOp, f func(float64) float64) func(ops.Attrs) func(dst, src []float32) {
	rows := func(dst, src []float32) {
		if simd.Special32(fn, dst, src) {
			return
		}
		dst = dst[:len(src)]
		for i, x := range src {
			dst[i] = float32(f(float64(x)))
		}
	}
	return func(ops.Attrs) func(dst, src []float32) { return rows }
}
