package mxgotest

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Advanced indexing's kernels (index_axes.go), the densities (random_pdf.go), the output
// layers and khatri_rao (loss_outputs.go) and the spatial transformer (spatial.go).

func TestGatherAxesOnStridedViews(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Float64, 4, 5, 6)
	v := index(t, a, S(nil, nil, -1), S(1, nil, 2)) // (4, 2, 6), negative and step strides
	idx := fromValues(t, ndarray.Int64, []float64{3, 0, 3, 1, 0, 1}, 2, 3)
	g := mustOp(t, "_gather_axes", "axis=0;index_shape=3", v, idx) // (3, 6): v[3,1,:], v[0,0,:], v[3,1,:]
	require.Equal(t, []int{3, 6}, g.Shape())
	want := []float64{}
	for _, rc := range [][2]int{{3, 1}, {0, 0}, {3, 1}} {
		row := (3-rc[0])*30 + (1+2*rc[1])*6
		want = append(want, seq(6)...)
		for i := range 6 {
			want[len(want)-6+i] += float64(row)
		}
	}
	assert.Equal(t, want, values(t, g))
	bad := fromValues(t, ndarray.Int64, []float64{4, 0}, 2, 1)
	r := mustOp(t, "_gather_axes", "axis=0;index_shape=1", v, bad)
	requireKind(t, ops.WaitToRead(r), mxerr.Index, "out of bounds")
	require.NoError(t, ops.WaitAll(), "raised by the wait")
	_, err := runOp(t, "_gather_axes", []*ndarray.NDArray{v, fromValues(t, ndarray.Float32, []float64{0}, 1, 1)}, nil, "axis=0;index_shape=1")
	requireKind(t, err, mxerr.Type, "int64")
	_, err = runOp(t, "_gather_axes", []*ndarray.NDArray{v, idx}, nil, "axis=2;index_shape=3")
	requireKind(t, err, mxerr.Index)
}

func TestScatterAxesLastWriteWinsInPlace(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Int32, 3, 4)
	v := index(t, a, S(nil, nil, nil), S(nil, nil, -1)) // columns reversed: writes reach a
	idx := fromValues(t, ndarray.Int64, []float64{0, 0, 2, 1, 1, 3}, 2, 3)
	val := fromValues(t, ndarray.Int32, []float64{-1, -2, -3}, 3)
	_, err := runOp(t, "_scatter_axes", []*ndarray.NDArray{v, idx, val}, v, "axis=0")
	require.NoError(t, err)
	require.NoError(t, ops.WaitToRead(a))
	// v[0,1] = a[0,2]: -1 then -2 (last wins); v[2,3] = a[2,0] = -3
	assert.Equal(t, []float64{0, 1, -2, 3, 4, 5, 6, 7, -3, 9, 10, 11}, values(t, a))
	_, err = runOp(t, "_scatter_axes", []*ndarray.NDArray{v, idx, fromValues(t, ndarray.Int32, []float64{1, 2}, 2)}, v, "axis=0")
	requireKind(t, err, mxerr.Value, "shape")
}

// TestScatterAxesRowBandsAcrossCores: x[rows] = v of whole rows large enough to split
// across the cores by bands of columns, rows repeated: every element is the last write's,
// as with one core.
func TestScatterAxesRowBandsAcrossCores(t *testing.T) {
	checkLeaks(t)
	defer runtime.GOMAXPROCS(useCores(2))
	const rows, cols, n = 40, 5000, 120 // 2.4 MB of values
	idx := make([]float64, n)
	for j := range idx {
		idx[j] = float64((j * 7) % rows) // each row written three times, in a known order
	}
	vals := make([]float64, n*cols)
	for i := range vals {
		vals[i] = float64(i)
	}
	want := make([]float64, rows*cols)
	for j, r := range idx {
		copy(want[int(r)*cols:(int(r)+1)*cols], vals[j*cols:(j+1)*cols])
	}
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		a := fromValues(t, dt, make([]float64, rows*cols), rows, cols)
		_, err := runOp(t, "_scatter_axes", []*ndarray.NDArray{a, fromValues(t, ndarray.Int64, idx, 1, n),
			fromValues(t, dt, vals, n, cols)}, a, "axis=0")
		require.NoError(t, err)
		require.Equal(t, want, values(t, a), "%s", dt)
	}
}

func TestDensitiesAgainstClosedForms(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{0, 1, 2, 3}, 2, 2)
	lam := fromValues(t, ndarray.Float64, []float64{2, 0.5}, 2)
	p := values(t, mustOp(t, "random_pdf_poisson", "", x, lam))
	for i, k := range []float64{0, 1, 2, 3} {
		l := []float64{2, 2, 0.5, 0.5}[i]
		f, _ := math.Lgamma(k + 1)
		assert.InDelta(t, math.Exp(k*math.Log(l)-l-f), p[i], 1e-14)
	}
	mu := fromValues(t, ndarray.Float64, []float64{0, 1}, 2)
	sigma := fromValues(t, ndarray.Float64, []float64{1, 2}, 2)
	lp := values(t, mustOp(t, "random_pdf_normal", "is_log=1", x, mu, sigma))
	assert.InDelta(t, -0.5*math.Log(2*math.Pi), lp[0], 1e-14)
	assert.InDelta(t, -0.5-math.Log(2)-0.5*math.Log(2*math.Pi), lp[3], 1e-14) // z = (3-1)/2
	_, err := runOp(t, "random_pdf_normal", []*ndarray.NDArray{fromValues(t, ndarray.Float64, seq(3), 3), mu, sigma}, nil, "")
	requireKind(t, err, mxerr.Value, "samples")
}

func TestKhatriRaoAndOutputLayers(t *testing.T) {
	checkLeaks(t)
	a := fromValues(t, ndarray.Float32, []float64{1, 2, 3, 4}, 2, 2)
	b := fromValues(t, ndarray.Float32, []float64{1, 2, 3, 4, 5, 6}, 3, 2)
	assert.Equal(t, []float64{1, 4, 3, 8, 5, 12, 3, 8, 9, 16, 15, 24}, values(t, mustOp(t, "khatri_rao", "", a, b)))
	s := values(t, mustOp(t, "LogisticRegressionOutput", "", a, a))
	assert.InDelta(t, 1/(1+math.Exp(-4)), s[3], 1e-7)
	assert.Equal(t, values(t, a), values(t, mustOp(t, "SVMOutput", "", a, fromValues(t, ndarray.Float32, []float64{0, 1}, 2))))
	_, err := runOp(t, "LinearRegressionOutput", []*ndarray.NDArray{a, b}, nil, "")
	requireKind(t, err, mxerr.Value, "label")
}

func TestIdentityAffineGridReproducesTheImage(t *testing.T) {
	checkLeaks(t)
	img := arange(t, ndarray.Float64, 1, 2, 3, 4)
	theta := fromValues(t, ndarray.Float64, []float64{1, 0, 0, 0, 1, 0}, 1, 6)
	out := mustOp(t, "SpatialTransformer", "target_shape=3,4", img, theta)
	got := values(t, out)
	for i, v := range seq(24) {
		assert.InDelta(t, v, got[i], 1e-12)
	}
	shifted := fromValues(t, ndarray.Float64, []float64{1, 0, 3, 0, 1, 0}, 1, 6) // x + 3: past the right edge
	for _, v := range values(t, mustOp(t, "SpatialTransformer", "target_shape=3,4", img, shifted)) {
		assert.Equal(t, 0.0, v)
	}
}
