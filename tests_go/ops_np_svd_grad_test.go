package mxgotest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// _npi_svd's gradient (pkg/ops/linalg/np_linalg_grad.go) against central differences, for
// losses that do not depend on the signs LAPACK picks for the singular vectors: of S, of
// U diag(S) Vh, of |U|^2 and |Vh|^2 elementwise, and of U diag(d) U^T; with full_matrices,
// also of the projectors on the complements, U2 U2^T and Vh2^T Vh2 (the extra vectors).

// svdCase is one shape with its input and the loss weights (all random, fixed seed).
type svdCase struct {
	shape          []int // (batch..., m, n)
	a, w, wu, wv   []float64
	ws, d, wUU     []float64
	wm, wn         []float64
	m, n, k, batch int
}

func newSvdCase(r *rand.Rand, shape ...int) svdCase {
	m, n := shape[len(shape)-2], shape[len(shape)-1]
	c := svdCase{shape: shape, m: m, n: n, k: min(m, n), batch: prod(shape) / (m * n)}
	randn := func(size int) []float64 {
		v := make([]float64, size)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return v
	}
	c.a, c.w = randn(prod(shape)), randn(prod(shape))
	c.wu, c.wv = randn(c.batch*m*c.k), randn(c.batch*c.k*n)
	c.ws, c.d, c.wUU = randn(c.batch*c.k), randn(c.batch*c.k), randn(c.batch*m*m)
	c.wm, c.wn = randn(c.batch*m*m), randn(c.batch*n*n)
	return c
}

// svdUnder runs _npi_svd under m: [U, S, Vh], released when the test ends.
func svdUnder(t *testing.T, m autograd.Mode, a *ndarray.NDArray, attrs string) (u, s, vh *ndarray.NDArray) {
	t.Helper()
	op, at, err := parsedOp(t, "_npi_svd", attrs)
	require.NoError(t, err)
	res, err := autograd.InvokeAll(op, []*ndarray.NDArray{a}, nil, at, m)
	require.NoError(t, err)
	for _, r := range res {
		t.Cleanup(r.Release)
	}
	return res[0], res[1], res[2]
}

// losses are the losses of [U, S, Vh] under m, each a recorded scalar when m records.
func (c svdCase) losses(t *testing.T, m autograd.Mode, a *ndarray.NDArray, attrs string) map[string]*ndarray.NDArray {
	dt := a.DType()
	u, s, vh := svdUnder(t, m, a, attrs)
	batch := c.shape[:len(c.shape)-2]
	arr := func(v []float64, tail ...int) *ndarray.NDArray {
		return fromValues(t, dt, v, append(append([]int{}, batch...), tail...)...)
	}
	mul := func(x, y *ndarray.NDArray) *ndarray.NDArray { return call(t, m, "multiply", "", x, y) }
	total := func(x *ndarray.NDArray) *ndarray.NDArray { return call(t, m, "sum", "", x) }
	row := func(x *ndarray.NDArray) *ndarray.NDArray {
		return call(t, m, "reshape", "shape="+ops.WireInts(append(append([]int{}, batch...), 1, c.k)), x)
	}
	part := func(x *ndarray.NDArray, axis, begin int, end string) *ndarray.NDArray {
		return call(t, m, "slice_axis", fmt.Sprintf("axis=%d;begin=%d;end=%s", axis, begin, end), x)
	}
	var complement *ndarray.NDArray
	if strings.Contains(attrs, "full_matrices=1") && c.m != c.n {
		if c.m > c.k { // the projector on U2's span
			u2 := part(u, -1, c.k, "None")
			complement = total(mul(call(t, m, "linalg_gemm2", "transpose_b=1", u2, u2), arr(c.wm, c.m, c.m)))
			u = part(u, -1, 0, fmt.Sprint(c.k))
		} else { // on Vh2's
			vh2 := part(vh, -2, c.k, "None")
			complement = total(mul(call(t, m, "linalg_gemm2", "transpose_a=1", vh2, vh2), arr(c.wn, c.n, c.n)))
			vh = part(vh, -2, 0, fmt.Sprint(c.k))
		}
	}
	ud := mul(u, row(arr(c.d, c.k)))
	losses := map[string]*ndarray.NDArray{
		"S":       total(mul(s, arr(c.ws, c.k))),
		"U S Vh":  total(mul(call(t, m, "linalg_gemm2", "", mul(u, row(s)), vh), arr(c.w, c.m, c.n))),
		"|U|^2":   total(mul(mul(u, u), arr(c.wu, c.m, c.k))),
		"|Vh|^2":  total(mul(mul(vh, vh), arr(c.wv, c.k, c.n))),
		"U D U^T": total(mul(call(t, m, "linalg_gemm2", "transpose_b=1", ud, u), arr(c.wUU, c.m, c.m))),
	}
	if complement != nil {
		losses["complements"] = complement
	}
	return losses
}

func TestNpSvdGradient(t *testing.T) {
	checkGraphLeaks(t)
	r := rand.New(rand.NewPCG(5, 15))
	for _, shape := range [][]int{{3, 3}, {2, 4}, {4, 2}, {2, 3, 3}} {
		c := newSvdCase(r, shape...)
		svdDistinct(t, c)
		for _, full := range []string{"0", "1"} {
			checkSvdGradient(t, c, "full_matrices="+full)
		}
	}
}

// checkSvdGradient checks each loss of c's [U, S, Vh] (attrs) against central differences.
func checkSvdGradient(t *testing.T, c svdCase, attrs string) {
	shape := c.shape
	a := fromValues(t, ndarray.Float64, c.a, shape...)
	for name := range c.losses(t, autograd.Mode{}, a, attrs) {
		what := fmt.Sprintf("%v %s %s", shape, attrs, name)
		x := fromValues(t, ndarray.Float64, c.a, shape...)
		g := variable(t, x, autograd.ReqWrite)
		require.NoError(t, autograd.Backward([]*ndarray.NDArray{c.losses(t, recording, x, attrs)[name]}, nil, false, true), what)
		got := values(t, g)
		const h = 1e-6
		for i := range c.a {
			loss := func(d float64) float64 {
				v := append([]float64{}, c.a...)
				v[i] += d
				return values(t, c.losses(t, autograd.Mode{}, fromValues(t, ndarray.Float64, v, shape...), attrs)[name])[0]
			}
			assert.InDelta(t, (loss(h)-loss(-h))/(2*h), got[i], 1e-6, "%s d/dA[%d]", what, i)
		}
		if name == "U S Vh" { // the loss is sum(A * W) itself
			assert.InDeltaSlice(t, c.w, got, 1e-9, what)
		}
	}
}

// svdDistinct requires the singular values of each matrix of c to be apart (else the
// vectors, and the differences, are not smooth).
func svdDistinct(t *testing.T, c svdCase) {
	s := values(t, mustOps(t, "_npi_svd", "", fromValues(t, ndarray.Float64, c.a, c.shape...))[1])
	for i := 1; i < len(s); i++ {
		if i%c.k != 0 {
			require.Greater(t, s[i-1]-s[i], 0.1, "singular values %v", s)
		}
	}
	require.Greater(t, s[len(s)-1], 0.1, "singular values %v", s)
}

func TestNpSvdGradientFloat32AndEdges(t *testing.T) {
	checkGraphLeaks(t)
	c := newSvdCase(rand.New(rand.NewPCG(5, 15)), 2, 4)
	grad := func(dt ndarray.DType, name string) []float64 {
		x := fromValues(t, dt, c.a, c.shape...)
		g := variable(t, x, autograd.ReqWrite)
		require.NoError(t, autograd.Backward([]*ndarray.NDArray{c.losses(t, recording, x, "")[name]}, nil, false, true))
		return values(t, g)
	}
	for _, name := range []string{"|Vh|^2", "U D U^T"} {
		assert.InDeltaSlice(t, grad(ndarray.Float64, name), grad(ndarray.Float32, name), 1e-4, "float32 "+name)
	}

	// equal singular values: sum(S) of the identity still has its gradient U Vh = I
	for _, full := range []string{"0", "1"} {
		eye := fromValues(t, ndarray.Float64, laIdentity(3), 3, 3)
		g := variable(t, eye, autograd.ReqWrite)
		_, s, _ := svdUnder(t, recording, eye, "full_matrices="+full)
		require.NoError(t, autograd.Backward([]*ndarray.NDArray{call(t, recording, "sum", "", s)}, nil, false, true))
		assert.Equal(t, laIdentity(3), values(t, g), "full_matrices="+full)
	}
}
