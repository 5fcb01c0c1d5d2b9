package ops

import "math"

// Fast float32 kernels for exp, sigmoid and tanh: in Go here, and with AVX2+FMA in C
// (exp32_avx2.c, 8 lanes at a time) where the CPU has them and the row is long. The
// two do the same IEEE operations in the same order, so they give the same bits: a
// result does not depend on which one ran (rows of a strided out go element by
// element through Go, those of a contiguous one through C).
//
// Each works in float64 and rounds once to float32 at the end: a float32 input times
// log2(e) is exact enough in float64 that no Cody-Waite split of ln2 is needed, and
// the final conversion rounds overflow to +Inf and tiny results to correctly rounded
// subnormals or 0 (2**k stays a normal float64 for every clamped argument), so the
// only special handling is a clamp of the argument (clampArg; NaN passes through).
//
// e**x = 2**k * 2**r with k = round(x*log2e) and |r| <= 1/2: 2**k is built in the
// exponent field, 2**r - 1 is a degree-7 Taylor polynomial in r, relative error below
// 1.3e-8 (a fifth of a float32 ulp) including near r = 0, which tanh needs. No table:
// SIMD lanes would need a gather for it. The error is at most 1 ulp against float32 of
// the float64 function (tests_go/ops_exp32_test.go sweeps every 97th float32).
//
// Fusion is explicit, for the bits to match C's: math.FMA where C has an FMA, and
// float64(...) around a product that Go could otherwise fuse with what follows.

// The constants are written in hex so that C (exp32_avx2.c) has the same bits.
const (
	expLog2e = 0x1.71547652b82fep+0
	// expShift rounds z (|z| < 2**51) to an integer when added: z + expShift has the
	// integer in its low mantissa bits and, minus expShift, as a float64.
	expShift = 0x1.8p52
	// Taylor coefficients ln2**n / n! of 2**r - 1.
	expC1 = 0x1.62e42fefa39efp-1
	expC2 = 0x1.ebfbdff82c58fp-3
	expC3 = 0x1.c6b08d704a0c0p-5
	expC4 = 0x1.3b2ab6fba4e77p-7
	expC5 = 0x1.5d87fe78a6731p-10
	expC6 = 0x1.430912f86c787p-13
	expC7 = 0x1.ffcbfc588b0c7p-17
	// expClamp bounds the argument: e**±110 is still a normal float64, yet overflows
	// float32 (+Inf) or rounds to 0 in it, as the true values do.
	expClamp = 110
	// tanhClamp bounds 2|x| for tanh: tanh(x) rounds to 1 in float32 from |x| > 9.02.
	tanhClamp = 40
)

// exp2Split returns 2**k and q = 2**r - 1 for z = k + r, |z| < 1022 (NaN gives a NaN
// q).
func exp2Split(z float64) (s, q float64) {
	kd := z + expShift
	r := z - (kd - expShift)
	p := math.FMA(expC7, r, expC6)
	p = math.FMA(p, r, expC5)
	p = math.FMA(p, r, expC4)
	p = math.FMA(p, r, expC3)
	p = math.FMA(p, r, expC2)
	p = math.FMA(p, r, expC1)
	s = math.Float64frombits(math.Float64bits(kd)<<52 + 0x3ff<<52) // k<<52 + bits of 1.0
	return s, float64(p * r)
}

// exp64 is e**x for |x| <= 700 (to a relative 1.3e-8) or NaN.
func exp64(x float64) float64 {
	s, q := exp2Split(float64(x * expLog2e))
	return math.FMA(s, q, s)
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
// src itself. They hand long rows to C (f32SIMDRows) and are otherwise written as
// loops (not a call per element) so that exp64, exp2Split and clampArg inline into a
// tight body.

// exp32Rows sets dst[i] = e**src[i].
func exp32Rows(dst, src []float32) {
	if f32SIMDRows(f32OpExp, dst, src) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = float32(exp64(clampArg(float64(x), expClamp)))
	}
}

// sigmoid32Rows sets dst[i] = 1 / (1 + e**-src[i]); e**-x does not overflow float64,
// so this is 1 or 0 (as float32) where it saturates.
func sigmoid32Rows(dst, src []float32) {
	if f32SIMDRows(f32OpSigmoid, dst, src) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = float32(1 / (1 + exp64(clampArg(-float64(x), expClamp))))
	}
}

// tanh32Rows sets dst[i] = tanh(src[i]) as sign(x) * m/(m+2) with m = e**2|x| - 1,
// computed as (s-1) + s*q with q = 2**r - 1: s-1 is exact for s near 1, and q is the
// whole of m when s is 1, so small |x| keep full relative accuracy (e**2x - 1 would
// cancel), down to tanh(x) = x for tiny x and -0 for -0.
func tanh32Rows(dst, src []float32) {
	if f32SIMDRows(f32OpTanh, dst, src) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		a := 2 * math.Abs(float64(x))
		if a > tanhClamp { // NaN stays
			a = tanhClamp
		}
		s, q := exp2Split(float64(a * expLog2e))
		m := math.FMA(s, q, s-1)
		t := float32(m / (m + 2))
		dst[i] = math.Float32frombits(math.Float32bits(t) | math.Float32bits(x)&(1<<31))
	}
}
