package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/random"
)

// The samplers of pkg/ops/random/random_dist.go and random_int.go: sample moments against each
// distribution's mean and variance, integer bounds, permutations, and the refusals.

func TestDistributionMoments(t *testing.T) {
	checkLeaks(t)
	ops.Seed(11)
	const n = 100000
	for _, c := range []struct {
		op, attrs  string
		mean, vari float64
	}{
		{"random_exponential", "lam=4", 0.25, 1.0 / 16},
		{"random_gamma", "alpha=0.3;beta=2", 0.6, 1.2},
		{"random_gamma", "alpha=9;beta=0.5", 4.5, 2.25},
		{"random_poisson", "lam=0.5", 0.5, 0.5},
		{"random_poisson", "lam=9.5", 9.5, 9.5},
		{"random_poisson", "lam=1000", 1000, 1000},
		{"random_negative_binomial", "k=2.5;p=0.3", 2.5 * 0.7 / 0.3, 2.5 * 0.7 / 0.09},
		{"random_generalized_negative_binomial", "mu=4;alpha=0.25", 4, 4 + 0.25*16},
		{"random_generalized_negative_binomial", "mu=4;alpha=0", 4, 4},
	} {
		a := mustOp(t, c.op, c.attrs+fmt.Sprintf(";shape=%d;dtype=float64", n))
		require.NoError(t, ops.WaitToRead(a))
		vals := decode(a)
		mean, std := meanStd(vals)
		assert.InDelta(t, c.mean, mean, 5*math.Sqrt(c.vari/n), "%s(%s) mean", c.op, c.attrs)
		assert.InDelta(t, c.vari, std*std, 0.05*c.vari, "%s(%s) variance", c.op, c.attrs)
		if c.op != "random_exponential" && c.op != "random_gamma" {
			for _, v := range vals {
				require.True(t, v >= 0 && v == math.Trunc(v), "%s gives counts, got %g", c.op, v)
			}
		}
	}
}

func TestSamplePerElementParameters(t *testing.T) {
	checkLeaks(t)
	lam := fromValues(t, ndarray.Float32, []float64{1, 100}, 2)
	a := mustOp(t, "sample_poisson", "shape=2,5000", lam)
	require.Equal(t, []int{2, 2, 5000}, a.Shape())
	require.NoError(t, ops.WaitToRead(a))
	vals := decode(a)
	m0, _ := meanStd(vals[:10000])
	m1, _ := meanStd(vals[10000:])
	assert.InDelta(t, 1, m0, 0.1)
	assert.InDelta(t, 100, m1, 1)
	bad := fromValues(t, ndarray.Float32, []float64{1, -1}, 2)
	r := mustOp(t, "sample_poisson", "", bad)
	requireKind(t, ops.WaitToRead(r), mxerr.Value, "non-negative")
	require.NoError(t, ops.WaitAll(), "raised by the wait")
}

func TestRandintBoundsAndDTypes(t *testing.T) {
	checkLeaks(t)
	a := mustOp(t, "random_randint", "low=-3;high=2;shape=5000;dtype=int32")
	require.NoError(t, ops.WaitToRead(a))
	seen := map[float64]bool{}
	for _, v := range decode(a) {
		seen[v] = true
	}
	assert.Equal(t, map[float64]bool{-3: true, -2: true, -1: true, 0: true, 1: true}, seen)
	wide := mustOp(t, "random_randint", fmt.Sprintf("low=%d;high=%d;shape=1000;dtype=int64", math.MinInt64, math.MaxInt64))
	require.NoError(t, ops.WaitToRead(wide))
	for _, attrs := range []string{"low=2;high=2;shape=3", "low=0;high=5;shape=3;dtype=float32",
		"low=0;high=4294967296;shape=2;dtype=int32"} {
		_, err := runOp(t, "random_randint", nil, nil, attrs)
		require.Error(t, err, attrs)
	}
}

func TestShufflePermutesTheFirstAxis(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Int64, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 6, 2)
	s := mustOp(t, "shuffle", "", x)
	require.NoError(t, ops.WaitToRead(s))
	vals := decode(s)
	var firsts []float64
	for i := 0; i < 12; i += 2 {
		require.Equal(t, vals[i]+1, vals[i+1], "rows stay whole")
		firsts = append(firsts, vals[i])
	}
	slices.Sort(firsts)
	assert.Equal(t, []float64{0, 2, 4, 6, 8, 10}, firsts)
}

func TestMultinomialFollowsTheRunningSum(t *testing.T) {
	checkLeaks(t)
	p := fromValues(t, ndarray.Float64, []float64{0, 1, 0, 0.25, 0, 0.75}, 2, 3)
	s := mustOp(t, "sample_multinomial", "shape=4000", p)
	require.Equal(t, []int{2, 4000}, s.Shape())
	require.NoError(t, ops.WaitToRead(s))
	vals := decode(s)
	for _, v := range vals[:4000] {
		require.Equal(t, 1.0, v)
	}
	twos := 0
	for _, v := range vals[4000:] {
		require.True(t, v == 0 || v == 2, "never the zero-probability category, got %g", v)
		if v == 2 {
			twos++
		}
	}
	assert.InDelta(t, 3000, twos, 150)
	neg := fromValues(t, ndarray.Float32, []float64{0.5, -0.5}, 2)
	r := mustOp(t, "sample_multinomial", "", neg)
	require.Error(t, ops.WaitToRead(r))
	require.NoError(t, ops.WaitAll(), "raised by the wait")
}

// The random operators draw each block of ops.SeedBlock elements from a generator of its
// own, spread over the cores: the values depend on the seed only (not on the number of
// cores, nor on the layout of out=), a result of one block draws the single stream of
// smaller results, and the blocks' streams differ.
func TestSeededBlocksIndependentOfCoresAndLayout(t *testing.T) {
	checkLeaks(t)
	const rows, cols = 3, ops.SeedBlock
	draw := func(op, attrs, shape string, procs int, out *ndarray.NDArray) []float64 {
		defer runtime.GOMAXPROCS(useCores(procs))
		ops.Seed(5)
		var outs []*ndarray.NDArray
		if out != nil {
			outs = []*ndarray.NDArray{out}
		}
		res, err := runOps(t, op, nil, outs, attrs+";shape="+shape)
		require.NoError(t, err)
		require.NoError(t, ops.WaitToRead(res[0]))
		return decode(res[0])
	}
	for _, c := range []struct {
		op, attrs string
		dt        ndarray.DType
	}{
		{"random_uniform", "low=-1;high=3;dtype=float32", ndarray.Float32},
		{"random_exponential", "lam=2;dtype=float64", ndarray.Float64},
		{"random_normal", "dtype=float16", ndarray.Float16},
		{"random_randint", "low=-5;high=1000000;dtype=int64", ndarray.Int64},
		{"random_randint", "low=0;high=7;dtype=int32", ndarray.Int32},
	} {
		shape := fmt.Sprintf("%d,%d", rows, cols)
		one := draw(c.op, c.attrs, shape, 1, nil)
		assert.Equal(t, one, draw(c.op, c.attrs, shape, 2, nil), "%s: 2 cores", c.op)
		assert.Equal(t, one, draw(c.op, c.attrs, shape, 4, nil), "%s: 4 cores", c.op)
		assert.Equal(t, one[:cols], draw(c.op, c.attrs, fmt.Sprint(cols), 2, nil), "%s: the first block", c.op)
		assert.NotEqual(t, one[:64], one[cols:cols+64], "%s: blocks 0 and 1", c.op)
		base := empty(t, c.dt, cols, rows)
		view, err := base.Transpose([]int{1, 0})
		require.NoError(t, err)
		t.Cleanup(view.Release)
		assert.Equal(t, one, draw(c.op, c.attrs, shape, 2, view), "%s: a strided out=", c.op)
	}
}

// TestUint64NIsTheStandardLibrarys: randint's draws (random.Uint64N, math/rand/v2's
// algorithm without its interface call) are Rand.Uint64N's, for powers of two, small and
// huge spans and the widest, so that a seed gives the same integers as before.
func TestUint64NIsTheStandardLibrarys(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 7, 1000, 1 << 20, 1<<31 + 1, 1<<63 + 12345, math.MaxUint64} {
		for seed := range uint64(4) {
			g, r := rand.NewPCG(seed, 9), rand.New(rand.NewPCG(seed, 9))
			for i := range 2000 {
				require.Equal(t, r.Uint64N(n), random.Uint64N(g, n), "n %d, seed %d, draw %d", n, seed, i)
			}
		}
	}
}

// TestExponentialFillIsTheGeneralPaths: random_exponential's own fill (ops.FillExponential)
// gives the values of the per-element path it replaced, ops.FillSeeded with
// r.ExpFloat64() / lam, in float32 and float64, across several seed blocks.
func TestExponentialFillIsTheGeneralPaths(t *testing.T) {
	checkLeaks(t)
	const n = 3*ops.SeedBlock + 17
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		ops.Seed(21)
		seed := ops.DrawSeed()
		want := empty(t, dt, n)
		ops.FillSeeded(want, seed, func(r *rand.Rand) float64 { return r.ExpFloat64() / 2.5 })
		ops.Seed(21)
		got := mustOp(t, "random_exponential", fmt.Sprintf("lam=2.5;shape=%d;dtype=%s", n, dt))
		require.NoError(t, ops.WaitToRead(got))
		require.Equal(t, values(t, want), values(t, got), "%s", dt)
	}
}
