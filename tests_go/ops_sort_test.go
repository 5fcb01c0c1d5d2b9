package mxgotest

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// sort, argsort, topk, the softmax family, nansum, norm and cumsum against references
// computed here lane by lane, on contiguous and strided (negative-step) inputs.

// sortInputs are a contiguous (rows, n) array of small random integers (many ties) cast
// to dt, and the same values as a strided view (every other row of a bigger array,
// columns reversed), with their values in C order.
func sortInputs(t *testing.T, dt ndarray.DType, rows, n int, rng *rand.Rand) ([]*ndarray.NDArray, []float64) {
	vals := make([]float64, rows*n)
	for i := range vals {
		vals[i] = float64(rng.Intn(2*n+1) - n)
		if dt.Kind() == ndarray.KindUint {
			vals[i] = math.Abs(vals[i])
		}
		if dt == ndarray.Int8 || dt == ndarray.Uint8 {
			vals[i] = float64(int(vals[i]) % 100)
		}
	}
	a := fromValues(t, dt, vals, rows, n)
	big := make([]float64, 2*rows*n)
	for r := range rows {
		for c := range n {
			big[(2*r)*n+(n-1-c)] = vals[r*n+c]
		}
	}
	s := index(t, fromValues(t, dt, big, 2*rows, n), S(nil, nil, 2), S(nil, nil, -1))
	return []*ndarray.NDArray{a, s}, values(t, a) // as stored (rounded to a 16-bit float)
}

// refOrder is the stable order of lane v (ascending or descending).
func refOrder(v []float64, asc bool) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if asc {
			return cmpF(v[a], v[b])
		}
		return cmpF(v[b], v[a])
	})
	return idx
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestSortArgsortTopkAgainstStableSort(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(1))
	for _, dt := range []ndarray.DType{ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64, ndarray.Uint8,
		ndarray.Uint16, ndarray.Uint32, ndarray.Uint64, ndarray.Float32, ndarray.Float64} {
		for _, n := range []int{1, 7, 300, 2000} { // pdqsort below radixMin (256), radix sort above
			ins, vals := sortInputs(t, dt, 3, n, rng)
			for li, x := range ins {
				for _, asc := range []bool{true, false} {
					name := fmt.Sprintf("%s n=%d layout=%d asc=%v", dt, n, li, asc)
					a := map[bool]string{true: "1", false: "0"}[asc]
					sorted := values(t, mustOp(t, "sort", "axis=-1;is_ascend="+a, x))
					arg := values(t, mustOp(t, "argsort", "axis=1;is_ascend="+a+";dtype=int64", x))
					k := max(1, n/20) // the heap selection for long lanes
					topv := values(t, mustOp(t, "topk", fmt.Sprintf("k=%d;ret_typ=value;is_ascend=%s", k, a), x))
					topi := values(t, mustOp(t, "topk", fmt.Sprintf("k=%d;ret_typ=indices;is_ascend=%s", k, a), x))
					mask := values(t, mustOp(t, "topk", fmt.Sprintf("k=%d;ret_typ=mask;is_ascend=%s", k, a), x))
					for r := range 3 {
						lane := vals[r*n : (r+1)*n]
						order := refOrder(lane, asc)
						for i, j := range order {
							require.Equal(t, lane[j], sorted[r*n+i], name)
							require.Equal(t, float64(j), arg[r*n+i], name)
						}
						wantMask := make([]float64, n)
						for i, j := range order[:k] {
							require.Equal(t, lane[j], topv[r*k+i], name)
							require.Equal(t, float64(j), topi[r*k+i], name)
							wantMask[j] = 1
						}
						require.Equal(t, wantMask, mask[r*n:(r+1)*n], name)
					}
				}
			}
		}
	}
}

func TestSortFlattenedAndNaN(t *testing.T) {
	checkLeaks(t)
	nan := math.NaN()
	x := fromValues(t, ndarray.Float32, []float64{3, nan, -1, math.Inf(1), 0, math.Inf(-1)}, 2, 3)
	got := values(t, mustOp(t, "sort", "axis=None", x))
	assert.Equal(t, []float64{math.Inf(-1), -1, 0, 3, math.Inf(1)}, got[:5])
	assert.True(t, math.IsNaN(got[5]), "NaN sorts last")
	arg := values(t, mustOp(t, "argsort", "axis=None;is_ascend=0", x))
	assert.Equal(t, []float64{1, 3, 0, 4, 2, 5}, arg, "descending: NaN first")
	top := mustOp(t, "topk", "axis=None;k=2;ret_typ=mask", x)
	assert.Equal(t, []int{2, 3}, top.Shape())
	assert.Equal(t, []float64{0, 1, 0, 1, 0, 0}, values(t, top))
	assert.Equal(t, []float64{3, 4}, values(t, mustOp(t, "topk", "axis=None;k=2;ret_typ=indices;is_ascend=1;dtype=int32", fromValues(t, ndarray.Int32, []float64{5, 4, 3, 1, 2, 9}, 2, 3))))
}

func TestSortErrors(t *testing.T) {
	checkLeaks(t)
	x := arange(t, ndarray.Float32, 2, 3)
	for _, c := range []struct {
		op, attrs string
		kind      mxerr.Kind
	}{
		{"sort", "axis=2", mxerr.Index},
		{"topk", "k=4", mxerr.Value},
		{"argsort", "dtype=int8", mxerr.Type},
		{"topk", "dtype=bool", mxerr.Type},
	} {
		_, err := runOp(t, c.op, []*ndarray.NDArray{x}, nil, c.attrs)
		requireKind(t, err, c.kind)
	}
	_, err := runOp(t, "sort", []*ndarray.NDArray{arange(t, ndarray.Float16, 3)}, nil, "")
	requireKind(t, err, mxerr.Type)
}

// refSoftmax is e**((x - max)/t) / sum over the first n of lane (the rest 0).
func refSoftmax(lane []float64, n int, temp float64) []float64 {
	out := make([]float64, len(lane))
	if n == 0 {
		return out
	}
	m := slices.Max(lane[:n])
	sum := 0.0
	for i := range n {
		out[i] = math.Exp((lane[i] - m) / temp)
		sum += out[i]
	}
	for i := range n {
		out[i] /= sum
	}
	return out
}

// refLogSoftmax is (x - max) - log(sum(e**(x - max))).
func refLogSoftmax(lane []float64) []float64 {
	m := slices.Max(lane)
	sum := 0.0
	for _, v := range lane {
		sum += math.Exp(v - m)
	}
	out := make([]float64, len(lane))
	for i, v := range lane {
		out[i] = v - m - math.Log(sum)
	}
	return out
}

func TestSoftmaxFamilyAgainstReference(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(2))
	for _, dt := range []ndarray.DType{ndarray.Float16, ndarray.Bfloat16, ndarray.Float32, ndarray.Float64} {
		tol := map[ndarray.DType]float64{ndarray.Float16: 2e-3, ndarray.Bfloat16: 1e-2, ndarray.Float32: 1e-6, ndarray.Float64: 1e-13}[dt]
		for _, n := range []int{1, 5, 1000} {
			ins, vals := sortInputs(t, dt, 3, n, rng)
			for li, x := range ins {
				name := fmt.Sprintf("%s n=%d layout=%d", dt, n, li)
				sm := values(t, mustOp(t, "softmax", "axis=-1;temperature=2", x))
				lsm := values(t, mustOp(t, "log_softmax", "", x))
				smin := values(t, mustOp(t, "softmin", "dtype=float64", x))
				lengths := fromValues(t, ndarray.Int32, []float64{0, float64(n / 2), float64(n)}, 3)
				sml := values(t, mustOp(t, "softmax", "use_length=1", x, lengths))
				for r := range 3 {
					lane := vals[r*n : (r+1)*n]
					neg := make([]float64, n)
					for i, v := range lane {
						neg[i] = -v
					}
					want, wantMin := refSoftmax(lane, n, 2), refSoftmax(neg, n, 1)
					wantLen, wantLog := refSoftmax(lane, []int{0, n / 2, n}[r], 1), refLogSoftmax(lane)
					for i := range n {
						assert.InDelta(t, want[i], sm[r*n+i], tol, name)
						assert.InDelta(t, wantMin[i], smin[r*n+i], tol, name)
						assert.InDelta(t, wantLen[i], sml[r*n+i], tol, name)
						assert.InDelta(t, wantLog[i], lsm[r*n+i], 4*tol*math.Max(1, math.Abs(wantLog[i])), name)
					}
				}
			}
		}
	}
}

func TestSoftmaxLengthAndLabelChecks(t *testing.T) {
	checkLeaks(t)
	x := arange(t, ndarray.Float32, 2, 3)
	r, err := runOp(t, "softmax", []*ndarray.NDArray{x, fromValues(t, ndarray.Int64, []float64{1, 4}, 2)}, nil, "use_length=1")
	require.NoError(t, err)
	requireKind(t, ops.WaitToRead(r), mxerr.Value, "length 4")
	require.NoError(t, ops.WaitAll(), "raised by the wait")
	_, err = runOp(t, "softmax", []*ndarray.NDArray{x}, nil, "use_length=1")
	requireKind(t, err, mxerr.Value, "expects 2 inputs")
	_, err = runOp(t, "softmax", []*ndarray.NDArray{arange(t, ndarray.Int32, 2, 3)}, nil, "")
	requireKind(t, err, mxerr.Type)
	ce := mustOp(t, "softmax_cross_entropy", "", x, fromValues(t, ndarray.Float32, []float64{1, 7}, 2))
	p := refSoftmax([]float64{0, 1, 2}, 3, 1)
	assert.InDelta(t, -math.Log(p[1])-math.Log(1e-8), values(t, ce)[0], 1e-4, "an out-of-range label counts as p = 0")
}

func TestNansumNormCumsumAgainstReference(t *testing.T) {
	checkLeaks(t)
	nan := math.NaN()
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Float16} {
		// long rows take the fused row kernels, the strided view the loaders
		n := 5000
		vals := make([]float64, 2*n)
		for i := range vals {
			vals[i] = float64(i%13) - 6
			if i%7 == 3 {
				vals[i] = nan
			}
		}
		x := fromValues(t, dt, vals, 2, n)
		views := []*ndarray.NDArray{x, index(t, x, S(nil, nil, -1), S(nil, nil, -1))}
		for li, v := range views {
			var s0, s1, a0, q0 float64
			for i, e := range vals[:n] {
				if e == e {
					s0 += e
					a0 += math.Abs(e)
					q0 += e * e
				}
				if f := vals[n+i]; f == f {
					s1 += f
				}
			}
			if li == 1 {
				s0, s1 = s1, s0
			}
			name := fmt.Sprintf("%s layout %d", dt, li)
			assert.Equal(t, []float64{s0, s1}, values(t, mustOp(t, "nansum", "axis=1", v)), name)
			assert.Equal(t, []float64{s0 + s1}, values(t, mustOp(t, "nansum", "", v)), name)
			clean := mustOp(t, "nansum", "axis=0;keepdims=1", v) // no NaN in the 2-element columns' sums but NaN+x
			assert.Equal(t, []int{1, n}, clean.Shape(), name)
			if li == 0 {
				y := fromValues(t, dt, vals[:n], n)
				clean := mustOp(t, "nansum", "", y)
				ny := mustOp(t, "where", "", mustOp(t, "equal", "", y, y), y, mustOp(t, "zeros_like", "", y))
				assert.InDelta(t, a0, values(t, mustOp(t, "norm", "ord=1", ny))[0], 1e-3*a0, name)
				assert.InDelta(t, math.Sqrt(q0), values(t, mustOp(t, "norm", "", ny))[0], 1e-3*math.Sqrt(q0), name)
				assert.Equal(t, []float64{s0}, values(t, clean), name)
			}
		}
	}
	ints := fromValues(t, ndarray.Int32, []float64{3, 4, 4, -3, 0, -4}, 2, 3)
	assert.Equal(t, []float64{5, 4}, values(t, mustOp(t, "norm", "axis=1", ints)), "MXNet's integer nrm2")
	assert.Equal(t, []float64{11, 7}, values(t, mustOp(t, "norm", "axis=1;ord=1", ints)))
	cs := mustOp(t, "cumsum", "axis=0", index(t, ints, S(nil, nil, -1), all))
	assert.Equal(t, []float64{-3, 0, -4, 0, 4, 0}, values(t, cs))
	cb := mustOp(t, "cumsum", "", fromValues(t, ndarray.Bool, []float64{1, 0, 1, 1}, 2, 2))
	assert.Equal(t, ndarray.Int64, cb.DType())
	assert.Equal(t, []float64{1, 1, 2, 3}, values(t, cb))
	wrap := mustOp(t, "cumsum", "", fromValues(t, ndarray.Int8, []float64{100, 100}, 2))
	assert.Equal(t, []float64{100, -56}, values(t, wrap), "int8 sums wrap")
}

func TestHistogramKernel(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{math.NaN(), 0, 1, 1, 2, 2.5, 3, -1, 4}, 3, 3)
	h := mustOps(t, "_histogram", "bin_cnt=3;range_lo=0;range_hi=3", x)
	assert.Equal(t, []float64{1, 2, 3}, values(t, h[0]))
	assert.Equal(t, []float64{0, 1, 2, 3}, values(t, h[1]), "the edges, in data's dtype")
	assert.Equal(t, ndarray.Float64, h[1].DType())
	edges := fromValues(t, ndarray.Float64, []float64{0, 1, 2.5, 4}, 4)
	h = mustOps(t, "_histogram", "", x, edges)
	assert.Equal(t, []float64{1, 3, 3}, values(t, h[0]))
	assert.Equal(t, []float64{0, 1, 2.5, 4}, values(t, h[1]), "a copy of the bins")
	assert.NotSame(t, edges.Storage(), h[1].Storage())
	ints := fromValues(t, ndarray.Int32, []float64{3, 1, 2, 0, 5, 4}, 2, 3)
	h = mustOps(t, "_histogram", "bin_cnt=2;range_lo=0;range_hi=5", ints)
	assert.Equal(t, []float64{2, 4}, values(t, h[0]), "MXNet's integer bin width: 5/2 is 2")
	assert.Equal(t, []float64{0, 2, 5}, values(t, h[1]), "edges 0, 2.5, 5 in int32")
	h = mustOps(t, "_histogram", "bin_cnt=2;range_lo=1;range_hi=1", x)
	assert.Equal(t, []float64{0.5, 1, 1.5}, values(t, h[1]), "an empty range widened by 0.5 each way")
	_, err := runOps(t, "_histogram", []*ndarray.NDArray{x}, nil, "")
	requireKind(t, err, mxerr.Type, "bin_cnt")
	_, err = runOps(t, "_histogram", []*ndarray.NDArray{x}, nil, "bin_cnt=2;range_lo=1;range_hi=0")
	requireKind(t, err, mxerr.Value, "range")
}

func TestTopkBoth(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{3, 1, 4, 1, 5, 9, 2, 6}, 2, 4)
	for _, axis := range []string{"-1", "None"} {
		at := "k=2;ret_typ=both;axis=" + axis
		both := mustOps(t, "topk", at, x)
		require.Len(t, both, 2)
		assert.Equal(t, ndarray.Float32, both[0].DType())
		assert.Equal(t, values(t, mustOp(t, "topk", strings.Replace(at, "both", "value", 1), x)), values(t, both[0]), axis)
		assert.Equal(t, values(t, mustOp(t, "topk", strings.Replace(at, "both", "indices", 1), x)), values(t, both[1]), axis)
	}
	_, err := runOp(t, "topk", []*ndarray.NDArray{x}, nil, "ret_typ=both")
	requireKind(t, err, mxerr.Type, "returns 2 arrays")
	assert.ErrorIs(t, err, ops.ErrSeveralResults)
}

func TestMomentsKernel(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{1, 2, 3, 4, 5, 7}, 2, 3)
	m := mustOps(t, "moments", "axes=1", x)
	assert.Equal(t, []int{2}, m[0].Shape())
	assert.InDeltaSlice(t, []float64{2, 16.0 / 3}, values(t, m[0]), 1e-12)
	assert.InDeltaSlice(t, []float64{2.0 / 3, 14.0 / 9}, values(t, m[1]), 1e-12)
	k := mustOps(t, "moments", "axes=0;keepdims=1", x)
	assert.Equal(t, []int{1, 3}, k[1].Shape())
	assert.Equal(t, []float64{2.25, 2.25, 4}, values(t, k[1]))
	i := mustOps(t, "moments", "axes=1", fromValues(t, ndarray.Int32, []float64{1, 2, 4, -1, -2, -4}, 2, 3))
	assert.Equal(t, []float64{2, -2}, values(t, i[0]), "an integer mean truncates toward zero")
	assert.Equal(t, []float64{1, 1}, values(t, i[1]), "(1+0+4)/3 truncated")
	for _, axes := range []string{"", "axes=None", "axes=()"} {
		_, err := runOps(t, "moments", []*ndarray.NDArray{x}, nil, axes)
		requireKind(t, err, mxerr.Value, "empty axes")
	}
}

func TestSumSqF32Kernel(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, n := range []int{64, 65, 100, 1000, 33333} {
		v := make([]float32, n)
		want := 0.0
		for i := range v {
			v[i] = float32(rng.NormFloat64() * 1e3)
			want += float64(v[i]) * float64(v[i])
		}
		got, ok := simd.SumSqF32(v)
		if !ok {
			continue // no AVX2 and FMA here: ops uses the Go loop
		}
		assert.InDelta(t, want, got, 1e-13*want, "n=%d", n)
	}
	_, ok := simd.SumSqF32(make([]float32, 10))
	assert.False(t, ok, "short rows stay in Go")
}
