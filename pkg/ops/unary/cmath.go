package unary

import (
	"math"
	"math/cmplx"
)

// Complex holds the complex forms of the elementwise functions whose real kernels are
// MXNet's (package elemwise's arccos ... log10, which MXNet defines for real dtypes only),
// by operator name, for mx.np. They are Go's math/cmplx where its special cases (inf,
// NaN, signed zeros) already agree with C99 Annex G and the Array API standard's tables;
// elsewhere they follow from the standard's own definitions (asin(z) = -i asinh(iz),
// tan(z) = -i tanh(iz)) and from the symmetries that fix the sign of a zero or of a
// result on a branch cut (asinh and atanh are odd and conjugate-symmetric).
var Complex = map[string]func(complex128) complex128{
	"arccos":     cacos,
	"arccosh":    cacosh,
	"arcsinh":    casinh,
	"arcsin":     func(z complex128) complex128 { return mulNegI(casinh(mulI(z))) },
	"arctanh":    catanh,
	"arctan":     func(z complex128) complex128 { return mulNegI(catanh(mulI(z))) },
	"cosh":       cmplx.Cosh,
	"sinh":       cmplx.Sinh,
	"tan":        func(z complex128) complex128 { return mulNegI(ctanh(mulI(z))) },
	"tanh":       ctanh, // (the operator tanh is unary.Defs')
	"expm1":      cexpm1,
	"log1p":      clog1p,
	"log2":       func(z complex128) complex128 { return scale(cmplx.Log(z), 1/math.Ln2) },
	"log10":      func(z complex128) complex128 { return scale(cmplx.Log(z), 1/math.Ln10) },
	"reciprocal": func(z complex128) complex128 { return 1 / z },
}

// mulI and mulNegI multiply by i and -i exactly (a complex product would turn inf*0 into NaN).
func mulI(z complex128) complex128    { return complex(-imag(z), real(z)) }
func mulNegI(z complex128) complex128 { return complex(imag(z), -real(z)) }

// scale multiplies both parts by a real k (not as a complex product, for the same reason).
func scale(z complex128, k float64) complex128 { return complex(real(z)*k, imag(z)*k) }

// withSigns gives r's real part the sign of re and its imaginary part that of im (NaNs kept).
func withSigns(r complex128, re, im float64) complex128 {
	return complex(math.Copysign(real(r), re), math.Copysign(imag(r), im))
}

// large is where math/cmplx's inverse functions lose z + sqrt(z*z ± 1) to cancellation
// or overflow, and log(2z), their expansion, is exact to 1/(4|z|²) (below 1e-8 relative).
func large(z complex128) bool {
	x, y := math.Abs(real(z)), math.Abs(imag(z))
	return max(x, y) > 1e4 && !math.IsInf(x, 0) && !math.IsInf(y, 0) && !math.IsNaN(x) && !math.IsNaN(y)
}

// log2z is log(2z) without overflowing 2z.
func log2z(z complex128) complex128 { l := cmplx.Log(z); return complex(real(l)+math.Ln2, imag(l)) }

func casinh(z complex128) complex128 {
	if large(z) { // asinh is odd: log(2|z|)-like in the right half-plane
		return withSigns(log2z(complex(math.Abs(real(z)), math.Abs(imag(z)))), real(z), imag(z))
	}
	return withSigns(cmplx.Asinh(z), real(z), imag(z))
}

func catanh(z complex128) complex128 { return withSigns(cmplx.Atanh(z), real(z), imag(z)) }

// cacosh has a real part >= 0 and an imaginary part of z's sign (acosh(conj z) = conj acosh z).
func cacosh(z complex128) complex128 {
	if large(z) {
		return withSigns(log2z(z), 1, imag(z))
	}
	return withSigns(cmplx.Acosh(z), 1, imag(z))
}

// cacos is pi/2 - asin(z) for large z (math/cmplx's Acos cancels there).
func cacos(z complex128) complex128 {
	if large(z) {
		s := mulNegI(casinh(mulI(z)))
		return complex(math.Pi/2-real(s), -imag(s))
	}
	return cmplx.Acos(z)
}

// ctanh is tanh with C99's cases for a zero real part and an infinite or NaN imaginary
// part (+-0 + NaN i, where math/cmplx gives NaN + NaN i), and saturated for large |x|.
func ctanh(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case x == 0 && (math.IsInf(y, 0) || math.IsNaN(y)):
		return complex(x, math.NaN())
	case math.IsInf(x, 0) && !math.IsInf(y, 0) && !math.IsNaN(y): // the standard's ±1 + 0j, zero of y's sign
		return complex(math.Copysign(1, x), math.Copysign(0, y))
	case math.Abs(x) > 22 && !math.IsInf(y, 0) && !math.IsNaN(y):
		// saturated (math/cmplx divides overflowing cosh by cosh): ±1, and 4 sin(y) cos(y) e^-2|x|, a signed zero
		return complex(math.Copysign(1, x), math.Copysign(0, math.Sin(2*y)))
	}
	return cmplx.Tanh(z)
}

// cexpm1 is exp(z) - 1, accurate near 0: expm1(x)cos(y) - 2sin²(y/2) + i e^x sin(y).
func cexpm1(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case y == 0 && !math.IsNaN(x):
		return complex(math.Expm1(x)+0, y) // (+0 for -0: the standard's expm1(-0 + 0j) is 0 + 0j)
	case math.IsInf(x, -1): // exp(z) is a zero of unspecified sign
		return complex(-1, math.Copysign(0, y))
	case math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y):
		e := cmplx.Exp(z)
		return complex(real(e)-1, imag(e))
	}
	s := math.Sin(y / 2)
	return complex(math.Expm1(x)*math.Cos(y)-2*s*s, math.Exp(x)*math.Sin(y))
}

// clog1p is log(1 + z), accurate near 0: |1+z|² = 1 + (2x + x² + y²).
func clog1p(z complex128) complex128 {
	x, y := real(z), imag(z)
	if math.Abs(x) > 1e8 || math.Abs(y) > 1e8 || math.IsNaN(x) || math.IsNaN(y) {
		return cmplx.Log(complex(1+x, y))
	}
	return complex(0.5*math.Log1p(x*(2+x)+y*y), math.Atan2(y, 1+x))
}
