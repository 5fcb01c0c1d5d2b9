package mxgotest

import (
	"math"
	"math/cmplx"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/unary"
)

// The complex forms of MXNet's real-only elementwise functions (unary.Complex, for mx.np):
// the Array API standard's special cases (C99 Annex G) and accuracy near 0.
func TestComplexSpecialCases(t *testing.T) {
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	cases := []struct {
		fn       string
		in, want complex128
	}{
		{"tanh", complex(0, inf), complex(0, nan)},
		{"tanh", complex(nz, nan), complex(nz, nan)},
		{"tan", complex(inf, 0), complex(nan, 0)},
		{"arcsinh", complex(-2.5, nz), complex(-1.6472311463710958, nz)},
		{"arctanh", complex(2.5, nz), complex(0.42364893019360184, -math.Pi/2)},
		{"arctan", complex(0, 2.5), complex(math.Pi/2, 0.42364893019360184)},
		{"arccosh", complex(1, nz), complex(0, nz)},
		{"expm1", complex(inf, 0), complex(inf, 0)},
		{"expm1", complex(-inf, inf), complex(-1, 0)},
		{"expm1", complex(1e-20, 1e-20), complex(1e-20, 1e-20)},
		{"log1p", complex(-1, 0), complex(-inf, 0)},
		{"log1p", complex(1e-20, 0), complex(1e-20, 0)},
		{"log1p", complex(-inf, 1), complex(inf, math.Pi)},
		{"log10", complex(inf, 0), complex(inf, 0)},
		{"log2", complex(8, 0), complex(3, 0)},
		{"expm1", complex(nz, 0), complex(0, 0)},
		{"tanh", complex(5.6e16, 3.14), complex(1, nz)},
		{"tanh", complex(inf, 2), complex(1, 0)},
		{"tan", complex(-0.5, -400), complex(nz, -1)},
		{"arcsinh", complex(-4.5e16, -1e-5), complex(-39.03858606524095, -2.2222222222222226e-22)},
		{"arccosh", complex(-1e300, 0), complex(691.4686750787736, math.Pi)},
		{"arccos", complex(-5.6e16, 3.14), complex(math.Pi, -39.25727526620578)},
	}
	for _, c := range cases {
		got := unary.Complex[c.fn](c.in)
		for i, pair := range [][2]float64{{real(got), real(c.want)}, {imag(got), imag(c.want)}} {
			g, w := pair[0], pair[1]
			switch {
			case math.IsNaN(w):
				assert.True(t, math.IsNaN(g), "%s(%v) part %d: %v", c.fn, c.in, i, got)
			case w == 0 || math.IsInf(w, 0):
				assert.Equal(t, math.Signbit(w), math.Signbit(g), "%s(%v) part %d sign: %v", c.fn, c.in, i, got)
				assert.Equal(t, w, g, "%s(%v) part %d: %v", c.fn, c.in, i, got)
			default:
				assert.InEpsilon(t, w, g, 1e-12, "%s(%v) part %d: %v", c.fn, c.in, i, got)
			}
		}
	}
	// finite values agree with math/cmplx's definitions away from the cuts
	z := complex(0.3, -0.7)
	assert.InDelta(t, 0, cmplx.Abs(unary.Complex["expm1"](z)-(cmplx.Exp(z)-1)), 1e-15)
	assert.InDelta(t, 0, cmplx.Abs(unary.Complex["arcsin"](z)-cmplx.Asin(z)), 1e-15)
	assert.InDelta(t, 0, cmplx.Abs(unary.Complex["tan"](z)-cmplx.Tan(z)), 1e-15)
}

// _npi_around: halves to even at every scale, signed zeros, inf and NaN kept.
func TestNpiAround(t *testing.T) {
	in := fromValues(t, ndarray.Float64, []float64{2.5, -0.5, 3.5, 1.25, 1250, math.Inf(-1), math.NaN()}, 7)
	got := values(t, ewInvoke(t, "_npi_around", ops.Attrs{"decimals": 0}, in))
	assert.Equal(t, []float64{2, 0, 4, 1, 1250, math.Inf(-1)}, got[:6])
	assert.True(t, math.Signbit(got[1]), "round(-0.5) is -0.0")
	assert.True(t, math.IsNaN(got[6]))
	assert.Equal(t, []float64{2.5, -0.5, 3.5, 1.2, 1250}, values(t, ewInvoke(t, "_npi_around", ops.Attrs{"decimals": 1}, in))[:5])
	assert.Equal(t, []float64{0, 0, 0, 0, 1200}, values(t, ewInvoke(t, "_npi_around", ops.Attrs{"decimals": -2}, in))[:5])
}
