package unary

import (
	"math"

	"github.com/mxgo/mxgo/internal/simd"
)

// Fast float32 kernels for exp, sigmoid and tanh: in Go here, and in C (internal/simd's
// exp32_lanes.h, 16 lanes at a time with AVX-512, 8 with AVX2) where the CPU has it and
// the row is long. They do the same IEEE float32 operations in the same order, so they
// give the same bits: a result does not depend on which one ran (rows of a strided out
// go element by element through Go, those of a contiguous one through C).
//
// They compute in float32, 8 lanes to an AVX2 register (float64 gave 4, at half the
// speed), and fuse no multiply-add: Go has no float32 FMA, and a float64 one rounds
// twice. So every product that is added to is rounded on its own: float32(a*b) + c
// here (an explicit conversion stops Go from fusing), an asm barrier in C.
//
// e**x = 2**k * e**r with k = round(x*log2e) and r = x - k*ln2, |r| <= ln2/2, in two
// steps (Cody-Waite: k*expLn2Hi is exact, and so is x minus it); e**r = 1 + t with
// t = r + r*r*P(r), P minimax of degree 4 (relative error 2**-28). No table: SIMD
// lanes would need a gather. 2**k goes on as two normal factors s1*s2, ~2**(k/2)
// each: y*s1 is exact, so (y*s1)*s2 rounds y*2**k once, to +Inf on overflow and to
// a subnormal below 2**-126; the only special case is a clamp of x. NaN passes the
// clamp; k is garbage then, but s1 and s2 are powers of 2, 0 or Inf, never NaN, so
// the result is a NaN with the input's payload (as every NaN below is).
//
// Errors against float32 of the float64 function, over every float32 input (checked
// exhaustively; tests_go/ops_exp32_test.go sweeps every 97th): exp and tanh at most
// 1 ulp, sigmoid 2 (see sigmoid32Rows).

// The constants are written in hex, each exactly a float32, so that C (exp32_lanes.h)
// has the same bits.
const (
	expLog2e float32 = 0x1.715476p+0
	// expShift rounds z (|z| < 2**22) to an integer when added: z + expShift has the
	// integer in its low mantissa bits and, minus expShift, as a float32.
	expShift float32 = 0x1.8p23
	// ln2 = expLn2Hi + expLn2Lo; expLn2Hi has 16 significant bits, so k*expLn2Hi is
	// exact for |k| < 2**8.
	expLn2Hi float32 = 0x1.62e4p-1
	expLn2Lo float32 = 0x1.7f7d1cp-20
	// P(r) ~ (e**r - 1 - r)/r**2 on |r| <= 0.3467.
	expP0 float32 = 0x1.fffffcp-2
	expP1 float32 = 0x1.555492p-3
	expP2 float32 = 0x1.5558f2p-5
	expP3 float32 = 0x1.123a0ap-7
	expP4 float32 = 0x1.6a23f2p-10
	// expClamp bounds the argument: e**±110 overflows float32 (+Inf) or rounds to 0
	// in it, as the true values do, and |k| stays below 2**8.
	expClamp float32 = 110
	// tanhClamp bounds 2|x| for tanh, keeping e**2|x| normal: tanh(x) rounds to 1
	// from |x| = 9.02.
	tanhClamp float32 = 40
	// tanh(a) = a + a**3 * Q(a*a) below tanhPoly (Q minimax of degree 4, relative
	// error 2**-26.8); 1 - 2/(e**2a + 1) from there, which loses too much to the
	// roundings of e**2a and the division closer to 0.
	tanhPoly float32 = 0.625
	tanhQ0   float32 = -0x1.555532p-2
	tanhQ1   float32 = 0x1.110726p-3
	tanhQ2   float32 = -0x1.b83c5ap-5
	tanhQ3   float32 = 0x1.52269cp-6
	tanhQ4   float32 = -0x1.75e1cep-8
)

// expParts splits e**x, |x| <= expClamp or NaN, into y * 2**k with y = 1 + t rounded,
// t ~ e**r - 1; kd holds k in its low mantissa bits. P goes as in C, by Estrin's
// scheme (a shorter dependency chain there).
func expParts(x float32) (y, kd float32) {
	kd = float32(x*expLog2e) + expShift
	kf := kd - expShift // x*log2e rounded to an integer, as C's ROUNDPS gives it
	r := x - float32(kf*expLn2Hi)
	r -= float32(kf * expLn2Lo)
	r2 := r * r
	r4 := r2 * r2
	a := float32(expP1*r) + expP0
	b := (float32(expP3*r) + expP2) + float32(expP4*r2)
	t := r + (float32(r2*a) + float32(r4*b))
	return 1 + t, kd
}

// pow2 is 2**(k+j) for the k in kd, when that is normal: k << 23 is kd's bits << 23,
// as expShift's low 9 bits are 0. Else a power of 2, 0 or Inf, never NaN.
func pow2(kd float32, j int32) float32 {
	return math.Float32frombits(math.Float32bits(kd)<<23 + uint32(j+127)<<23)
}

// exp32 is e**x for |x| <= expClamp or NaN, as (y*s1)*s2. (C takes y*2**k in one
// product where all 8 lanes have |x| <= 87: the same value, all being normal there.)
func exp32(x float32) float32 {
	y, kd := expParts(x)
	k := int32(math.Float32bits(kd) - math.Float32bits(expShift))
	k1 := k >> 1
	s1 := math.Float32frombits(uint32(k1+127) << 23)
	s2 := math.Float32frombits(uint32(k-k1+127) << 23)
	return float32(float32(y*s1) * s2)
}

// The row kernels below set dst[i] from src[i] for len(dst) == len(src); dst may be
// src itself. They hand long rows to C (simd.Unary32) and are otherwise written as
// loops (not a call per element) so that expParts inlines into a tight body. Clamps
// are if statements, not min/max (whose NaN and -0 rules cost), and let NaN through
// as C's MINPS/MAXPS do.

// Exp32Rows sets dst[i] = e**src[i].
func Exp32Rows(dst, src []float32) {
	if simd.Unary32(simd.Exp, dst, src) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		if x > expClamp {
			x = expClamp
		} else if x < -expClamp {
			x = -expClamp
		}
		dst[i] = exp32(x)
	}
}

// sigmoid32Rows sets dst[i] = 1 / (1 + e**-x), x = src[i], as n/(1 + e) with
// e = e**-|x| and n = 1 for x >= 0, n = e for x < 0 (e**x/(1 + e**x): e**-x would
// overflow where the result is still a subnormal). e is (y * 2**(k+64)) * 2**-64:
// the first product is exact for every k <= 0 down to the clamp's, the second
// rounds once (to a subnormal for x < -87.3). Three roundings (y, 1 + e, n/d)
// leave some x in [-16, -1] 2 ulp off; correcting two of them (Fast2Sum) would make
// it 1 ulp everywhere, at half again the time.
func sigmoid32Rows(dst, src []float32) {
	if simd.Unary32(simd.Sigmoid, dst, src) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		nx := math.Float32frombits(math.Float32bits(x) | 1<<31) // -|x|
		if nx < -expClamp {
			nx = -expClamp
		}
		y, kd := expParts(nx)
		e := float32(float32(y*pow2(kd, 64)) * 0x1p-64)
		n := float32(1)
		if math.Float32bits(x)&(1<<31) != 0 { // as C's BLENDVPS: -0 and NaN give 0.5 and NaN either way
			n = e
		}
		dst[i] = n / (1 + e)
	}
}

// tanh32Rows sets dst[i] = tanh(src[i]) as sign(x) * tanh(a), a = |x|: a + a**3 *
// Q(a*a) below tanhPoly (relative accuracy down to tanh(x) = x for tiny x), 1 -
// 2/(e**2a + 1) from there, with 2a clamped to tanhClamp (tanh rounds to 1 from a =
// 9.02), where 2**k and e**2a are normal. The sign goes on with an OR, so that -0
// gives -0 and NaN keeps its sign.
func tanh32Rows(dst, src []float32) {
	if simd.Unary32(simd.Tanh, dst, src) {
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		a := math.Float32frombits(math.Float32bits(x) &^ (1 << 31))
		var th float32
		if a < tanhPoly {
			z := a * a
			z2 := z * z
			p := (float32(tanhQ1*z) + tanhQ0) + float32(z2*((float32(tanhQ3*z)+tanhQ2)+float32(tanhQ4*z2)))
			th = float32(float32(a*z)*p) + a
		} else { // NaN too
			a2 := a + a
			if a2 > tanhClamp {
				a2 = tanhClamp
			}
			y, kd := expParts(a2)
			th = 1 - 2/(float32(y*pow2(kd, 0))+1)
		}
		dst[i] = math.Float32frombits(math.Float32bits(th) | math.Float32bits(x)&(1<<31))
	}
}
