package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The normalisations' row loops (pkg/ops/nn/nn_norm_rows.go, nn_norm_lngrad.go,
// bnGradSums): sums in float64 running sums and y = ((x - m) * s) * g + b, in C
// (internal/simd's moments kernels) for float32 rows of simd.MomentsMin or more, else in
// Go. C and Go must give the same bits (LayerNorm, BatchNorm in inference and training,
// InstanceNorm, GroupNorm, global avg/sum pooling, _backward_BatchNorm_stats,
// _backward_LayerNorm_data and _params) on rows around the 16-element and MomentsMin
// boundaries, batch 1, with NaN and ±inf in some rows (any NaN counts as one: where two
// NaNs meet, x86 keeps the first operand's and Go may swap the operands of an add). The
// data make the sums cancel, so that their order shows in means and averages; rounding
// differences of float64 steps that float32 results round away stay unseen. Both paths
// must agree with the formulas in float64 to float32's rounding (1e-5 relative: the
// order of the sums differs) or float64's (1e-12).

var normRowLens = []int{1, 15, 16, 17, 63, 64, 65, 200}

// normRowData is x of shape with random values in [-2, 2) and, with special, values
// scaled by 2^-40 to 2^40, the second half of each row (of the last axis) the first's
// negated in reverse, so that the float64 sums round and what is left after they cancel
// shows their order even in float32 results (means, global averages); and NaN, +inf and
// -inf at random places of the first row.
func normRowData(t *testing.T, rng *rand.Rand, dt ndarray.DType, special bool, shape ...int) (*ndarray.NDArray, []float64) {
	v, n := make([]float64, prod(shape)), shape[len(shape)-1]
	for i := range v {
		v[i] = float64(float32(rng.Float64()*4 - 2))
		if special {
			v[i] = float64(float32(math.Ldexp(v[i], rng.IntN(81)-40)))
		}
	}
	for r := 0; special && r < len(v); r += n {
		row := v[r : r+n]
		for k := range n / 2 {
			row[n-1-k] = -row[k]
		}
	}
	for i := 0; special && i < n; i++ {
		if rng.IntN(20) == 0 {
			v[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
		}
	}
	return fromValues(t, dt, v, shape...), v
}

// normCalls are the operators whose row loops C runs, on data x of shape (b, c, n).
func normCalls(t *testing.T, rng *rand.Rand, dt ndarray.DType, x *ndarray.NDArray, b, c, n int) map[string]func() []*ndarray.NDArray {
	gn, _ := normRowData(t, rng, dt, false, n)
	bn, _ := normRowData(t, rng, dt, false, n)
	gc, _ := normRowData(t, rng, dt, false, c)
	pos := make([]float64, c) // variances
	for j := range pos {
		pos[j] = 0.5 + float64(j%3)
	}
	vc := fromValues(t, dt, pos, c)
	_, gcv := normRowData(t, rng, dt, false, c)
	st := fromValues(t, dt, slices.Concat(gcv, pos, gcv, gcv), 4, c) // _backward_BatchNorm_stats' rows
	g1, b1 := fromValues(t, dt, []float64{1.5}, 1), fromValues(t, dt, []float64{-0.25}, 1)
	run := func(name, attrs string, training bool, in ...*ndarray.NDArray) func() []*ndarray.NDArray {
		return func() []*ndarray.NDArray {
			op, at, err := parsedOp(t, name, attrs)
			require.NoError(t, err)
			if training {
				at[ops.TrainingAttr] = true
			}
			res, err := op.InvokeAll(in, nil, at)
			require.NoError(t, err, name)
			t.Cleanup(func() { ops.ReleaseAll(res) })
			return res
		}
	}
	x4 := fromValues(t, dt, values(t, x), b, c, n, 1)
	return map[string]func() []*ndarray.NDArray{
		"LayerNorm":          run("LayerNorm", "output_mean_var=1", false, x, gn, bn),
		"BatchNorm":          run("BatchNorm", "fix_gamma=0;output_mean_var=1", false, x, gc, gc, gc, vc),
		"BatchNorm training": run("BatchNorm", "fix_gamma=0;output_mean_var=1", true, x, gc, gc, gc, vc),
		"InstanceNorm":       run("InstanceNorm", "", false, x, gc, gc),
		"GroupNorm":          run("GroupNorm", "num_groups=1;output_mean_var=1", false, x, g1, b1),
		"global avg":         run("Pooling", "global_pool=1;pool_type=avg", false, x4),
		"global sum":         run("Pooling", "global_pool=1;pool_type=sum", false, x4),
		"BatchNorm stats":    run("_backward_BatchNorm_stats", "", false, x, x),
		"BatchNorm dx":       run("_backward_BatchNorm_data", "fix_gamma=0", false, x, x, st, gc),
		"BatchNorm dx fixed": run("_backward_BatchNorm_data", "", false, x, x, st, gc),
		"LayerNorm dx":       run("_backward_LayerNorm_data", "", false, x, gn, x),
		"LayerNorm dgamma":   run("_backward_LayerNorm_params", "", false, x, gn, x),
	}
}

func TestNormRowsCMatchGo(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewPCG(17, 3))
	shapes := [][]int{{64, 32, 16}, {16, 64, 1}, {8, 64, 196}} // whole-tensor kernels (BatchNorm's, global pooling's) on every core
	for _, n := range normRowLens {
		shapes = append(shapes, []int{1, 1, n}, []int{2, 3, n})
	}
	for _, shape := range shapes {
		{
			x, _ := normRowData(t, rng, ndarray.Float32, true, shape...)
			for name, call := range normCalls(t, rng, ndarray.Float32, x, shape[0], shape[1], shape[2]) {
				var got [2][][]uint64
				for i, on := range []bool{true, false} {
					require.NoError(t, ops.WaitAll())
					was := simd.SetMoments(on)
					for _, r := range call() {
						got[i] = append(got[i], nanBits(values(t, r)))
					}
					require.NoError(t, ops.WaitAll())
					simd.SetMoments(was)
				}
				require.Equal(t, got[1], got[0], "%s %v: C against Go", name, shape)
			}
		}
	}
}

func TestNormRowsMatchFormula(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewPCG(5, 8))
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		tol := map[ndarray.DType]float64{ndarray.Float32: 1e-5, ndarray.Float64: 1e-12}[dt]
		for _, n := range normRowLens {
			x, xv := normRowData(t, rng, dt, false, 3, n)
			g, gv := normRowData(t, rng, dt, false, n)
			b, bv := normRowData(t, rng, dt, false, n)
			ln := values(t, mustOp(t, "LayerNorm", "", x, g, b))
			avg := values(t, mustOp(t, "Pooling", "global_pool=1;pool_type=avg", fromValues(t, dt, xv, 3, 1, n)))
			for r := range 3 {
				row := xv[r*n : (r+1)*n]
				var s, q float64
				for _, v := range row {
					s += v
				}
				m := s / float64(n)
				for _, v := range row {
					q += (v - m) * (v - m)
				}
				inv := 1 / math.Sqrt(q/float64(n)+float64(float32(1e-5)))
				what := fmt.Sprintf("%v n=%d row %d", dt, n, r)
				require.InDelta(t, m, avg[r], tol*(1+math.Abs(m)), "global avg "+what)
				for j, v := range row {
					want := (v-m)*inv*gv[j] + bv[j]
					require.InDelta(t, want, ln[r*n+j], 4*tol*(1+math.Abs(want)), "LayerNorm "+what)
				}
			}
		}
	}
}

// 2-D max pooling has loops of its own for any padding and convention
// (nn_pool_fast.go: maxPlane2D, unmaxPlane2D; float32's in C, internal/simd's pool2d.c);
// the same planes as depth-2 volumes pooled by (1, k, k) take the general path
// (forWindows), and the 2-D loops run in Go too (SetPool2x2 off). Forward, _backward_Pooling and
// _backward_Pooling_v1 must give the same bits, with ties, NaNs, windows past the edge
// ('full') and windows wholly in the padding.
func TestPoolMax2DMatchesGeneralPath(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewPCG(4, 4))
	for range 16 {
		n, c, h, w := 1+rng.IntN(2), 2, 1+rng.IntN(9), 1+rng.IntN(9)
		k, s := 1+rng.IntN(min(h, w, 3)), 1+rng.IntN(3)
		p := rng.IntN(k)
		conv := []string{"valid", "full"}[rng.IntN(2)]
		xv := make([]float64, n*c*h*w)
		for i := range xv {
			xv[i] = float64(rng.IntN(5) - 2)
			switch rng.IntN(9) {
			case 0:
				xv[i] = math.NaN()
			case 1:
				xv[i] = math.Copysign(0, -1) // +0 beats -0
			}
		}
		a2 := fmt.Sprintf("kernel=%d,%d;stride=%d,%d;pad=%d,%d;pooling_convention=%s", k, k, s, s, p, p, conv)
		a3 := fmt.Sprintf("kernel=1,%d,%d;stride=1,%d,%d;pad=0,%d,%d;pooling_convention=%s", k, k, s, s, p, p, conv)
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			what := fmt.Sprintf("%dx%dx%dx%d %v %s", n, c, h, w, dt, a2)
			x2, x3 := fromValues(t, dt, xv, n, c, h, w), fromValues(t, dt, xv, n, c/2, 2, h, w)
			y3 := mustOp(t, "Pooling", a3, x3)
			os := y3.Shape()
			y2 := mustOp(t, "Pooling", a2, x2)
			require.Equal(t, bits(values(t, y3)), bits(values(t, y2)), "forward of "+what)
			was := simd.SetPool2x2(false) // the 2-D loops in Go (float32 runs them in C)
			require.Equal(t, bits(values(t, y2)), bits(values(t, mustOp(t, "Pooling", a2, x2))), "Go forward of "+what)
			simd.SetPool2x2(was)
			gv := make([]float64, prod(os))
			for i := range gv {
				gv[i] = float64(rng.IntN(5) - 2)
			}
			y3as2 := fromValues(t, dt, values(t, y3), n, c, os[3], os[4])
			g2, g3 := fromValues(t, dt, gv, n, c, os[3], os[4]), fromValues(t, dt, gv, os...)
			for _, op := range []string{"_backward_Pooling", "_backward_Pooling_v1"} {
				d2, d3 := mustOp(t, op, a2, x2, y3as2, g2), mustOp(t, op, a3, x3, y3, g3)
				require.Equal(t, bits(values(t, d3)), bits(values(t, d2)), op+" of "+what)
				was := simd.SetPool2x2(false)
				require.Equal(t, bits(values(t, d2)), bits(values(t, mustOp(t, op, a2, x2, y3as2, g2))), "Go "+op+" of "+what)
				simd.SetPool2x2(was)
			}
		}
	}
}

// nanBits is bits with every NaN as one value.
func nanBits(v []float64) []uint64 {
	b := bits(v)
	for i, x := range v {
		if x != x {
			b[i] = 0x7ff8000000000000
		}
	}
	return b
}
