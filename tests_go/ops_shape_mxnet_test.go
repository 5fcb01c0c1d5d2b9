package mxgotest

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// MXNet's shape, creation and gather operators (expand_dims ... pick) against index
// arithmetic done here: each reference maps every position of the result to the
// position of the input it copies.

// refMap is the C-order result of shape out whose element at idx is vals at src(idx) of in.
func refMap(vals []complex128, in, out []int, src func(idx []int) []int) []complex128 {
	res := []complex128{}
	forEach(out, func(idx []int) { res = append(res, vals[cIndex(in, src(idx))]) })
	return res
}

// shapeInputs are a contiguous and a strided (every other row, columns reversed) array of
// shape (3, 4, 2) with the same values.
func shapeInputs(t *testing.T, dt ndarray.DType) []*ndarray.NDArray {
	a := laArray(t, dt, 1, 3, 4, 2)
	big := laArray(t, dt, 1, 6, 4, 2)
	s := index(t, big, S(nil, nil, 2), S(nil, nil, -1), all)
	return []*ndarray.NDArray{a, s}
}

func TestShapeOperatorsIndexArithmetic(t *testing.T) {
	checkLeaks(t)
	for _, dt := range ndarray.DTypes() {
		for li, a := range shapeInputs(t, dt) {
			in, vals := a.Shape(), complexValues(t, a)
			for _, c := range []struct {
				op, attrs string
				out       []int
				src       func(o []int) []int
			}{
				{"expand_dims", "axis=1", []int{3, 1, 4, 2}, func(o []int) []int { return []int{o[0], o[2], o[3]} }},
				{"squeeze", "axis=None", []int{3, 4, 2}, func(o []int) []int { return o }},
				{"flatten", "", []int{3, 8}, func(o []int) []int { return []int{o[0], o[1] / 2, o[1] % 2} }},
				{"swapaxes", "dim1=0;dim2=-1", []int{2, 4, 3}, func(o []int) []int { return []int{o[2], o[1], o[0]} }},
				{"flip", "axis=0,2", []int{3, 4, 2}, func(o []int) []int { return []int{2 - o[0], o[1], 1 - o[2]} }},
				{"flip", "axis=1,1", []int{3, 4, 2}, func(o []int) []int { return o }},
				{"tile", "reps=2,1,3", []int{6, 4, 6}, func(o []int) []int { return []int{o[0] % 3, o[1], o[2] % 2} }},
				{"tile", "reps=2,1,1,1", []int{2, 3, 4, 2}, func(o []int) []int { return o[1:] }},
				{"repeat", "repeats=3;axis=1", []int{3, 12, 2}, func(o []int) []int { return []int{o[0], o[1] / 3, o[2]} }},
				{"repeat", "repeats=2", []int{48}, func(o []int) []int { return []int{o[0] / 16, o[0] / 4 % 4, o[0] / 2 % 2} }},
				{"slice_axis", "axis=1;begin=-3;end=3", []int{3, 2, 2}, func(o []int) []int { return []int{o[0], o[1] + 1, o[2]} }},
				{"diag", "k=1;axis1=1;axis2=2", []int{3, 1}, func(o []int) []int { return []int{o[0], o[1], o[1] + 1} }},
				{"diag", "k=-2;axis1=2;axis2=1", []int{3, 0}, nil},
				{"diag", "k=-1;axis1=0;axis2=1", []int{2, 2}, func(o []int) []int { return []int{o[1] + 1, o[1], o[0]} }},
				{"broadcast_axis", "axis=None;size=None", []int{3, 4, 2}, func(o []int) []int { return o }},
			} {
				what := fmt.Sprint(c.op, "(", c.attrs, ") ", dt, " layout ", li)
				got := mustOp(t, c.op, c.attrs, a)
				var want []complex128
				if c.src != nil {
					want = refMap(vals, in, c.out, c.src)
				}
				assert.NotSame(t, a.Storage(), got.Storage(), what)
				checkProduct(t, got, want, c.out, dt, what)
			}
		}
	}
}

func TestBroadcastOperatorsIndexArithmetic(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Bool, ndarray.Int8, ndarray.Uint16, ndarray.Float32, ndarray.Complex128} {
		a := index(t, laArray(t, dt, 2, 1, 6, 2), all, S(nil, nil, -2), S(nil, 1, nil)) // (1, 3, 1), strided
		vals := complexValues(t, a)
		src := func(o []int) []int { return []int{0, o[1], 0} }
		for _, c := range []struct {
			op, attrs string
			in        []*ndarray.NDArray
		}{
			{"broadcast_to", "shape=2,0,4", []*ndarray.NDArray{a}},
			{"broadcast_like", "", []*ndarray.NDArray{a, empty(t, ndarray.Int64, 2, 3, 4)}},
			{"broadcast_like", "lhs_axes=0,-1;rhs_axes=1,0", []*ndarray.NDArray{a, empty(t, ndarray.Float32, 4, 2)}},
			{"broadcast_axis", "axis=0,2;size=2,4", []*ndarray.NDArray{a}},
		} {
			r, err := runOp(t, c.op, c.in, nil, c.attrs)
			require.NoError(t, err)
			checkProduct(t, r, refMap(vals, []int{1, 3, 1}, []int{2, 3, 4}, src), []int{2, 3, 4}, dt, c.op+" "+c.attrs)
		}
	}
}

func TestGatherOperatorsIndexArithmetic(t *testing.T) {
	checkLeaks(t)
	idx := fromValues(t, ndarray.Float32, []float64{2, -1, 7.9, 1.5, -4.5, math.NaN()}, 2, 3)
	clip := []int{2, 0, 3, 1, 0, 0} // truncated toward zero, clipped into [0, 4); NaN is INT64_MIN
	wrap := []int{2, 3, 3, 1, 0, 0} // wrapped: -1 -> 3, 7 -> 3, -4 -> 0, INT64_MIN % 4 == 0
	for _, dt := range ndarray.DTypes() {
		for li, a := range shapeInputs(t, dt) {
			in, vals := a.Shape(), complexValues(t, a)
			what := fmt.Sprint(dt, " layout ", li)
			got := mustOp(t, "take", "axis=1;mode=clip", a, idx)
			checkProduct(t, got, refMap(vals, in, []int{3, 2, 3, 2}, func(o []int) []int {
				return []int{o[0], clip[o[1]*3+o[2]], o[3]}
			}), []int{3, 2, 3, 2}, dt, "take clip "+what)
			got = mustOp(t, "take", "axis=-2;mode=wrap", a, idx)
			checkProduct(t, got, refMap(vals, in, []int{3, 2, 3, 2}, func(o []int) []int {
				return []int{o[0], wrap[o[1]*3+o[2]], o[3]}
			}), []int{3, 2, 3, 2}, dt, "take wrap "+what)
			// pick along axis 1 of (3, 4, 2): index of shape (3, 2)
			pidx := fromValues(t, ndarray.Int64, []float64{2, -1, 7, 1, -4, 3}, 3, 2)
			for _, mode := range []string{"clip", "wrap"} {
				rows := map[string][]int{"clip": {2, 0, 3, 1, 0, 3}, "wrap": {2, 3, 3, 1, 0, 3}}[mode]
				got = mustOp(t, "pick", "axis=1;keepdims=1;mode="+mode, a, pidx)
				checkProduct(t, got, refMap(vals, in, []int{3, 1, 2}, func(o []int) []int {
					return []int{o[0], rows[o[0]*2+o[2]], o[2]}
				}), []int{3, 1, 2}, dt, "pick "+mode+" "+what)
			}
		}
	}
	// one_hot: indices truncate; out of range and NaN give a row of off_value
	oh := mustOp(t, "one_hot", "depth=4;on_value=5;off_value=-1;dtype=int16", idx)
	var want []complex128
	forEach([]int{2, 3, 4}, func(o []int) {
		v := complex(-1, 0)
		if r := []int{2, -1, 7, 1, -4, -9}[o[0]*3+o[1]]; r == o[2] {
			v = 5
		}
		want = append(want, v)
	})
	checkProduct(t, oh, want, []int{2, 3, 4}, ndarray.Int16, "one_hot")
	// take with mode=raise fails on the engine, at the wait
	r := mustOp(t, "take", "mode=raise", arange(t, ndarray.Float32, 3), idx)
	requireKind(t, ops.WaitToRead(r), mxerr.Index, "out of bounds")
	require.NoError(t, ops.WaitAll(), "raised by the wait")
}

func TestCreationOperators(t *testing.T) {
	checkLeaks(t)
	// (dtypes that hold the float64 values exactly; the others round as NumPy's casts do, checked in Python)
	for _, dt := range []ndarray.DType{ndarray.Int32, ndarray.Uint8, ndarray.Int64, ndarray.Float64, ndarray.Complex128} {
		eye := mustOp(t, "_eye", "N=3;M=4;k=1;dtype="+dt.String())
		want := []complex128{}
		forEach([]int{3, 4}, func(o []int) {
			want = append(want, complex(float64(map[bool]int{true: 1}[o[1] == o[0]+1]), 0))
		})
		checkProduct(t, eye, want, []int{3, 4}, dt, "eye")
		ls := mustOp(t, "_linspace", "start=-1;stop=1;num=5;endpoint=0;dtype="+dt.String())
		want = []complex128{}
		for i := range 5 {
			v := -1 + float64(i)*0.4
			if dt.Kind() == ndarray.KindInt || dt.Kind() == ndarray.KindUint {
				v = math.Trunc(v)
				if dt.Kind() == ndarray.KindUint && v < 0 {
					v += 256 // -1 as uint8
				}
			}
			want = append(want, complex(v, 0))
		}
		checkProduct(t, ls, want, []int{5}, dt, "linspace "+dt.String())
	}
	for _, c := range []struct {
		op, attrs string
		kind      mxerr.Kind
	}{
		{"_eye", "N=-1", mxerr.Value}, {"_eye", "N=2;dtype=bool", mxerr.Type},
		{"_linspace", "start=0;stop=1;num=-1", mxerr.Value}, {"_linspace", "start=0;stop=1;num=2;dtype=bool", mxerr.Type},
	} {
		_, err := runOp(t, c.op, nil, nil, c.attrs)
		requireKind(t, err, c.kind)
	}
}

func TestShapeOperatorErrors(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Float32, 2, 3)
	idx := arange(t, ndarray.Float32, 2)
	for _, c := range []struct {
		op, attrs string
		in        []*ndarray.NDArray
		kind      mxerr.Kind
		fragment  string
	}{
		{"expand_dims", "axis=3", []*ndarray.NDArray{a}, mxerr.Index, "out of bounds"},
		{"squeeze", "axis=0", []*ndarray.NDArray{a}, mxerr.Value, "not equal to one"},
		{"swapaxes", "dim1=2", []*ndarray.NDArray{a}, mxerr.Index, "out of bounds"},
		{"flip", "axis=-1", []*ndarray.NDArray{a}, mxerr.Index, "no negative axes"},
		{"flip", "axis=None", []*ndarray.NDArray{a}, mxerr.Type, "required"},
		{"tile", "reps=-1", []*ndarray.NDArray{a}, mxerr.Value, "negative"},
		{"tile", "reps=4611686018427387904,4", []*ndarray.NDArray{a}, mxerr.Value, "too large"},
		{"repeat", "repeats=-2", []*ndarray.NDArray{a}, mxerr.Value, "negative"},
		{"repeat", "repeats=2;axis=-3", []*ndarray.NDArray{a}, mxerr.Index, "out of bounds"},
		{"broadcast_to", "shape=3,3", []*ndarray.NDArray{a}, mxerr.Value, "cannot be broadcast"},
		{"broadcast_to", "shape=2,3,1", []*ndarray.NDArray{a}, mxerr.Value, "number of axes"},
		{"broadcast_like", "lhs_axes=;rhs_axes=", []*ndarray.NDArray{a, a}, mxerr.Value, "empty axes"},
		{"broadcast_axis", "axis=0;size=4", []*ndarray.NDArray{a}, mxerr.Value, "length 1"},
		{"slice_axis", "axis=1;begin=2;end=2", []*ndarray.NDArray{a}, mxerr.Value, "begin < end"},
		{"slice_axis", "axis=1;begin=0", []*ndarray.NDArray{a}, mxerr.Type, "missing"},
		{"diag", "k=4", []*ndarray.NDArray{a}, mxerr.Value, "does not exist"},
		{"diag", "axis1=1;axis2=-1", []*ndarray.NDArray{a}, mxerr.Value, "same axis"},
		{"take", "mode=nope", []*ndarray.NDArray{a, idx}, mxerr.Value, "not one of"},
		{"take", "axis=2", []*ndarray.NDArray{a, idx}, mxerr.Index, "out of bounds"},
		{"pick", "mode=raise", []*ndarray.NDArray{a, idx}, mxerr.Value, "not one of"},
		{"pick", "axis=0", []*ndarray.NDArray{a, idx}, mxerr.Value, "index has shape"},
		{"one_hot", "depth=-1", []*ndarray.NDArray{idx}, mxerr.Value, "non-negative"},
		{"one_hot", "depth=2;dtype=bool", []*ndarray.NDArray{idx}, mxerr.Type, "bool"},
		{"take", "", []*ndarray.NDArray{a, arange(t, ndarray.Complex64, 2)}, mxerr.Type, "real dtype"},
	} {
		_, err := runOp(t, c.op, c.in, nil, c.attrs)
		requireKind(t, err, c.kind, c.fragment)
	}
}
