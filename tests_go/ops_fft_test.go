package mxgotest

import (
	"fmt"
	"math"
	"math/cmplx"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// _npi_fft (pkg/ops/linalg/fft.go) against the O(n^2) DFT by definition: radix-2 and
// Bluestein lengths, forward and inverse, scaled, complex64 and complex128, two rows
// (each transformed on its own), into a transposed output (a strided write).

// naiveDFT is sum_j x[j] exp(sign 2 pi i jk/n), each row of length n.
func naiveDFT(x []complex128, n int, sign float64) []complex128 {
	out := make([]complex128, len(x))
	for r := 0; r < len(x)/n; r++ {
		for k := 0; k < n; k++ {
			var s complex128
			for j := 0; j < n; j++ {
				s += x[r*n+j] * cmplx.Exp(complex(0, sign*2*math.Pi*float64((j*k)%n)/float64(n)))
			}
			out[r*n+k] = s
		}
	}
	return out
}

func TestNpFFT(t *testing.T) {
	checkLeaks(t)
	for _, n := range []int{1, 2, 3, 5, 8, 12, 17, 64, 97, 128, 250} {
		x := make([]complex128, 2*n)
		for i := range x {
			x[i] = complex(math.Sin(float64(i)*0.7)+0.1, math.Cos(float64(i*i)*0.3))
		}
		for _, dt := range []ndarray.DType{ndarray.Complex64, ndarray.Complex128} {
			in := empty(t, dt, 2, n)
			setComplex(in, x)
			tol := map[ndarray.DType]float64{ndarray.Complex64: 2e-5, ndarray.Complex128: 1e-12}[dt]
			for _, inverse := range []bool{false, true} {
				sign, scale := -1.0, 1.0
				if inverse {
					sign, scale = 1, 1/float64(n)
				}
				what := fmt.Sprintf("n=%d %s inverse=%v", n, dt, inverse)
				got := complexValues(t, mustOp(t, "_npi_fft", fmt.Sprintf("inverse=%v;scale=%g", b2i(inverse), scale), in))
				want := naiveDFT(x, n, sign)
				for i := range want {
					want[i] *= complex(scale, 0)
				}
				fftClose(t, want, got, tol, what)
			}
		}
	}
	// a transposed output: the kernel's contiguous buffer is scattered into strided memory
	x := []complex128{1, 2i, -3, 4 + 1i, 5, -6i}
	in := empty(t, ndarray.Complex128, 2, 3)
	rawSet(in, x)
	out := transposeView(t, empty(t, ndarray.Complex128, 3, 2), []int{1, 0})
	_, err := runOp(t, "_npi_fft", []*ndarray.NDArray{in}, out, "")
	require.NoError(t, err)
	fftClose(t, naiveDFT(x, 3, -1), complexValues(t, out), 1e-12, "strided out")
	_, err = runOp(t, "_npi_fft", []*ndarray.NDArray{fromValues(t, ndarray.Float64, []float64{1, 2})}, nil, "")
	requireKind(t, err, mxerr.Type, "_npi_fft")
}

// setComplex writes x into a (complex64 or complex128) in C order.
func setComplex(a *ndarray.NDArray, x []complex128) {
	if a.DType() == ndarray.Complex128 {
		rawSet(a, x)
		return
	}
	x64 := make([]complex64, len(x))
	for i, z := range x {
		x64[i] = complex64(z)
	}
	rawSet(a, x64)
}

// fftClose checks |got - want| <= tol * max|want| elementwise (the DFT's error grows with
// the largest magnitude, not with each element's).
func fftClose(t *testing.T, want, got []complex128, tol float64, what string) {
	t.Helper()
	mag := 1.0
	for _, w := range want {
		mag = max(mag, cmplx.Abs(w))
	}
	require.Len(t, got, len(want), what)
	for i := range want {
		require.LessOrEqual(t, cmplx.Abs(got[i]-want[i]), tol*mag, "%s: element %d: %v vs %v", what, i, got[i], want[i])
	}
}
