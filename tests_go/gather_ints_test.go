package mxgotest

import (
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// gather_nd's one-pass path for integer indices (pkg/ops/layout/gather_ints.go) against
// its general path, which float64 indices of the same values take: the same bytes for
// every element size, 1..3 indexed axes, strided and reversed data, trailing blocks that
// are contiguous, strided or empty, negative indices, and every integer index dtype; an
// out-of-range index an IndexError on either path. _gather_leading, on the same indices
// as one array per axis, gives the same bytes.
func TestGatherNDIntsMatchGeneral(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(7))
	layouts := map[string]func(*ndarray.NDArray) *ndarray.NDArray{
		"contiguous": func(a *ndarray.NDArray) *ndarray.NDArray { return a },
		"reversed":   func(a *ndarray.NDArray) *ndarray.NDArray { return index(t, a, S(nil, nil, -1)) },
		"strided": func(a *ndarray.NDArray) *ndarray.NDArray { // every other element of the last axis
			key := make([]ndarray.KeyItem, a.NDim())
			for i := range key {
				key[i] = S(nil, nil, nil)
			}
			key[len(key)-1] = S(nil, nil, 2)
			return index(t, a, key...)
		},
	}
	for _, dt := range []ndarray.DType{ndarray.Uint8, ndarray.Float16, ndarray.Float32, ndarray.Float64, ndarray.Complex128} {
		for _, shape := range [][]int{{7}, {5, 6}, {4, 6, 3}, {3, 4, 0}} {
			base := fastData(t, rng, dt, nil, shape...)
			for lname, layout := range layouts {
				a := layout(base)
				s := a.Shape()
				for m := 1; m <= len(s) && s[m-1] > 0; m++ {
					for _, idt := range []ndarray.DType{ndarray.Int64, ndarray.Int32, ndarray.Int8, ndarray.Uint8} {
						k := 1 + rng.Intn(9)
						vals := make([]float64, m*k)
						for j := range m {
							for i := range k {
								lo := -s[j]
								if idt == ndarray.Uint8 {
									lo = 0
								}
								vals[j*k+i] = float64(lo + rng.Intn(s[j]-lo))
							}
						}
						what := fmt.Sprint(dt, s, lname, " m=", m, " ", idt)
						ints, floats := fromValues(t, idt, vals, m, k), fromValues(t, ndarray.Float64, vals, m, k)
						got, want := invokeNew(t, "gather_nd", nil, a, ints), invokeNew(t, "gather_nd", nil, a, floats)
						require.Equal(t, elemBytes(want), elemBytes(got), what)
						leading := invokeNew(t, "_gather_leading", nil, append([]*ndarray.NDArray{a}, indexRows(t, idt, vals, m)...)...)
						require.Equal(t, elemBytes(want), elemBytes(leading), what+" (_gather_leading)")
						got.Release()
						want.Release()
						leading.Release()
						vals[rng.Intn(m*k)] = float64(slices.Max(s) + 3) // out of range on any axis
						bad := fromValues(t, idt, vals, m, k)
						for _, call := range []struct {
							op string
							in []*ndarray.NDArray
						}{{"gather_nd", []*ndarray.NDArray{a, bad}}, {"_gather_leading", append([]*ndarray.NDArray{a}, indexRows(t, idt, vals, m)...)}} {
							r, err := runOp(t, call.op, call.in, nil, "")
							if err == nil {
								err = ops.WaitToRead(r)
								require.NoError(t, ops.WaitAll())
							}
							requireKind(t, err, mxerr.Index)
						}
					}
				}
			}
		}
	}
}

// TestGatherNDIntsLargeSplitsAlike: a gather of 600,000 index pairs, split across the
// cores, gives the general path's bytes; with bad indices in two blocks, the error names
// the first one, whatever the number of cores.
func TestGatherNDIntsLargeSplitsAlike(t *testing.T) {
	checkLeaks(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewSource(9))
	a := arange(t, ndarray.Float32, 300, 400)
	const k = 600_000
	vals := make([]float64, 2*k)
	for i := range k {
		vals[i], vals[k+i] = float64(rng.Intn(600)-300), float64(rng.Intn(800)-400)
	}
	want := invokeNew(t, "gather_nd", nil, a, fromValues(t, ndarray.Float64, vals, 2, k))
	defer want.Release()
	ints := fromValues(t, ndarray.Int64, vals, 2, k)
	bad := slices.Clone(vals)
	bad[k+400_000], bad[k+7_000] = 999, -999 // column indices, the second in an earlier block
	badRows := indexRows(t, ndarray.Int64, bad, 2)
	for _, cores := range []int{1, 2, 3} {
		useCores(cores)
		got := invokeNew(t, "gather_nd", nil, a, ints)
		require.Equal(t, elemBytes(want), elemBytes(got), "cores=%d", cores)
		got.Release()
		r, err := runOp(t, "_gather_leading", append([]*ndarray.NDArray{a}, badRows...), nil, "")
		if err == nil {
			err = ops.WaitToRead(r)
			require.NoError(t, ops.WaitAll())
		}
		requireKind(t, err, mxerr.Index)
		require.Contains(t, err.Error(), "index -999 is out of bounds for axis 1", "cores=%d", cores)
	}
}

// indexRows is vals, m rows of k indices, as m arrays of dtype dt (_gather_leading's).
func indexRows(t *testing.T, dt ndarray.DType, vals []float64, m int) []*ndarray.NDArray {
	k := len(vals) / m
	rows := make([]*ndarray.NDArray, m)
	for j := range rows {
		rows[j] = fromValues(t, dt, vals[j*k:(j+1)*k])
	}
	return rows
}

// _gather_leading refuses what gather_nd's integer rows cannot be: index arrays of other
// dtypes (uint64, bool, floats) or of different shapes, more arrays than data has axes.
func TestGatherLeadingRefusesBadIndices(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Float32, 3, 4)
	i64 := fromValues(t, ndarray.Int64, []float64{0, 1})
	for _, c := range []struct {
		in   []*ndarray.NDArray
		kind mxerr.Kind
	}{
		{[]*ndarray.NDArray{a, fromValues(t, ndarray.Uint64, []float64{0, 1})}, mxerr.Type},
		{[]*ndarray.NDArray{a, fromValues(t, ndarray.Bool, []float64{0, 1})}, mxerr.Type},
		{[]*ndarray.NDArray{a, i64, fromValues(t, ndarray.Float32, []float64{0, 1})}, mxerr.Type},
		{[]*ndarray.NDArray{a, i64, fromValues(t, ndarray.Int64, []float64{0, 1, 2})}, mxerr.Value},
		{[]*ndarray.NDArray{a, i64, i64, i64}, mxerr.Value},
		{[]*ndarray.NDArray{a}, mxerr.Value},
	} {
		_, err := runOp(t, "_gather_leading", c.in, nil, "")
		requireKind(t, err, c.kind)
	}
}

// BenchmarkIndexKernels: bench_np.py's x[i] (1e6 float32 elements at every third
// index), bench_layout.py's gather_nd elements (1e6 random (row, column) pairs into a
// 1000 x 1000 matrix) and slice of every other column, reversed, and bench_shape.py's
// flip axis=1 of a 2000 x 2000 matrix; each call waited for.
func BenchmarkIndexKernels(b *testing.B) {
	t := &testing.T{}
	every3 := make([]float64, 0, 333_334)
	for i := 0; i < 1_000_000; i += 3 {
		every3 = append(every3, float64(i))
	}
	rng := rand.New(rand.NewSource(1))
	pairs := make([]float64, 2_000_000)
	for i := range pairs {
		pairs[i] = float64(rng.Intn(1000))
	}
	for _, c := range []struct {
		name, op, attrs string
		in              []*ndarray.NDArray
	}{
		{"x[i]", "gather_nd", "", []*ndarray.NDArray{arange(t, ndarray.Float32, 1_000_000),
			fromValues(t, ndarray.Int64, every3, 1, len(every3))}},
		{"pairs", "gather_nd", "", []*ndarray.NDArray{arange(t, ndarray.Float32, 1000, 1000),
			fromValues(t, ndarray.Int64, pairs, 2, len(pairs)/2)}},
		{"flip", "flip", "axis=1", []*ndarray.NDArray{arange(t, ndarray.Float32, 2000, 2000)}},
		{"slice", "slice", "begin=None,None,None,-1;end=None,None,None,None;step=None,None,None,-2",
			[]*ndarray.NDArray{arange(t, ndarray.Float32, 2, 2, 1000, 1000)}},
	} {
		op, at, err := parsedOp(t, c.op, c.attrs)
		require.NoError(b, err)
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				r, err := op.Invoke(c.in, nil, at)
				require.NoError(b, err)
				require.NoError(b, ops.WaitToRead(r))
				r.Release()
			}
		})
	}
}

// TestStridedRowCopies: slice's and flip's copies through a strided or reversed view
// (ndarray's stridedCopy, four elements a turn and the rest one by one) on every element
// size and row lengths around the turn, against the source read element by element.
func TestStridedRowCopies(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Int8, ndarray.Float16, ndarray.Float32, ndarray.Float64, ndarray.Complex128} {
		for n := 1; n <= 11; n++ {
			for _, step := range []int{-1, 2, -3} {
				m := n*max(step, -step) + 1 // a row of the source: n elements on the step, from either end
				src := arange(t, dt, 2, m)
				begin, end := 0, n*step
				if step < 0 {
					begin, end = m-1, 0
				}
				want := make([]byte, 0, 2*n*dt.Size())
				raw := elemBytes(src)
				for r := range 2 {
					for i := range n {
						e := (r*m + begin + i*step) * dt.Size()
						want = append(want, raw[e:e+dt.Size()]...)
					}
				}
				got, err := runOp(t, "slice", []*ndarray.NDArray{src}, nil,
					fmt.Sprintf("begin=None,%d;end=None,%d;step=None,%d", begin, end, step))
				require.NoError(t, err)
				require.Equal(t, want, elemBytes(got), "%s n=%d step=%d", dt, n, step)
			}
		}
	}
}
