package ops

import "math"

// Fast float32 kernels for exp, sigmoid and tanh, in pure Go.
//
// Each works in float64 and rounds once to float32 at the end: a float32 input times
// 32/ln2 is exact enough in float64 that no Cody-Waite split of ln2 is needed, float64
// arithmetic costs the same as float32 in Go's scalar code, and the final conversion
// rounds overflow to +Inf and tiny results to correctly rounded subnormals or 0, so
// the only special handling is a clamp of the argument (clampArg; NaN passes through).
//
// e**x = 2**(k/32) * e**r' with k = round(x*32/ln2) and |r'| <= ln2/64: 2**(k/32) is a
// table entry whose exponent field gets k/32 added, e**r' - 1 a Taylor polynomial:
// degree 3 for exp and sigmoid (relative error below 6e-10, 1% of a float32 ulp, and
// 15% faster than degree 4), degree 4 for tanh, which needs e**r' - 1 itself to
// that accuracy. The error is at most 1 ulp against float32 of the float64 function
// (tests_go/ops_exp32_test.go sweeps every 97th float32).

const (
	expTableBits = 5
	expN         = 1 << expTableBits
	expInvLn2N   = expN / math.Ln2
	// expShift rounds z (|z| < 2**51) to an integer when added: z + expShift has the
	// integer in its low mantissa bits and, minus expShift, as a float64.
	expShift = 0x1.8p52
	expC1    = math.Ln2 / expN // Taylor coefficients of e**(r*ln2/32) - 1 in r
	expC2    = expC1 * expC1 / 2
	expC3    = expC2 * expC1 / 3
	expC4    = expC3 * expC1 / 4
	// expClamp bounds the argument: e**±110 is still a normal float64, yet overflows
	// float32 (+Inf) or rounds to 0 in it, as the true values do.
	expClamp = 110
	// tanhClamp bounds 2|x| for tanh: tanh(x) rounds to 1 in float32 from |x| > 9.02.
	tanhClamp = 40
)

// expTable[j] is the bits of 2**(j/32) less j<<47, so that adding k<<47 for any k with
// k%32 == j puts k/32 into the exponent field (mod 2**17, ample for |k| < 2**16).
var expTable [expN]uint64

func init() {
	for j := range expTable {
		expTable[j] = math.Float64bits(math.Exp2(float64(j)/expN)) - uint64(j)<<(52-expTableBits)
	}
}

// expReduce splits e**x as s * e**(r*expC1), s a power of 2**(1/32) and |r| <= 1/2,
// for |x| <= 700 (NaN gives a NaN r).
func expReduce(x float64) (s, r float64) {
	z := x * expInvLn2N
	kd := z + expShift
	ki := math.Float64bits(kd)
	r = z - (kd - expShift)
	s = math.Float64frombits(expTable[ki%expN] + ki<<(52-expTableBits))
	return s, r
}

// exp64 is e**x for |x| <= 700, to a relative 6e-10.
func exp64(x float64) float64 {
	s, r := expReduce(x)
	return s + s*(r*(expC1+r*(expC2+r*expC3)))
}

// clampArg limits x to [-lim, lim], NaN staying NaN. A predictable branch: min/max
// cost about a third of exp's time, as Go compiles their NaN and -0 rules.
func clampArg(x, lim float64) float64 {
	if math.Abs(x) > lim {
		return math.Copysign(lim, x)
	}
	return x
}

// The row kernels below set dst[i] from src[i] for len(dst) == len(src); dst may be
// src itself. They are written as loops (not a call per element) so that exp64,
// expReduce and clampArg inline into a tight body.

// exp32Rows sets dst[i] = e**src[i].
func exp32Rows(dst, src []float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = float32(exp64(clampArg(float64(x), expClamp)))
	}
}

// sigmoid32Rows sets dst[i] = 1 / (1 + e**-src[i]).
func sigmoid32Rows(dst, src []float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = float32(1 / (1 + exp64(clampArg(-float64(x), expClamp))))
	}
}

// tanh32Rows sets dst[i] = tanh(src[i]) as sign(x) * m/(m+2) with m = e**2|x| - 1,
// computed as (s-1) + s*q with q = e**r' - 1: s-1 is exact for s near 1, and q is the
// whole of m when s is 1, so small |x| keep full relative accuracy (e**2x - 1 would
// cancel).
func tanh32Rows(dst, src []float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		a := 2 * math.Abs(float64(x))
		if a > tanhClamp { // NaN stays
			a = tanhClamp
		}
		s, r := expReduce(a)
		m := (s - 1) + s*(r*(expC1+r*(expC2+r*(expC3+r*expC4))))
		t := float32(m / (m + 2))
		dst[i] = math.Float32frombits(math.Float32bits(t) | math.Float32bits(x)&(1<<31))
	}
}
