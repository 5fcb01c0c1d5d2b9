package mxgotest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The layout kernels (pkg/ops/layout) against index arithmetic done here, on every
// dtype and on a contiguous and a strided input (shapeInputs: (3, 4, 2)).

func TestLayoutOperatorsIndexArithmetic(t *testing.T) {
	checkLeaks(t)
	for _, dt := range ndarray.DTypes() {
		for li, a := range shapeInputs(t, dt) {
			in, vals := a.Shape(), complexValues(t, a)
			idx := fromValues(t, ndarray.Float32, []float64{2, -1, 0, 0, 3, -4}, 2, 3)
			for _, c := range []struct {
				op, attrs string
				extra     *ndarray.NDArray
				out       []int
				src       func(o []int) []int
			}{
				{"slice", "begin=None,3;end=None,0;step=2,-1", nil, []int{2, 3, 2}, func(o []int) []int { return []int{2 * o[0], 3 - o[1], o[2]} }},
				{"crop", "begin=-2,-10;end=5,2", nil, []int{2, 2, 2}, func(o []int) []int { return []int{o[0] + 1, o[1], o[2]} }},
				{"slice", "begin=2;end=0", nil, []int{0, 4, 2}, nil},
				{"_split_part", "num_outputs=2;axis=1;part=1", nil, []int{3, 2, 2}, func(o []int) []int { return []int{o[0], o[1] + 2, o[2]} }},
				{"_split_part", "indices=0,1,1;axis=1;part=2", nil, []int{3, 3, 2}, func(o []int) []int { return []int{o[0], o[1] + 1, o[2]} }},
				{"_split_part", "num_outputs=2;axis=-1;squeeze_axis=1;part=1", nil, []int{3, 4}, func(o []int) []int { return []int{o[0], o[1], 1} }},
				{"slice_like", "axes=1", empty(t, ndarray.Bool, 1, 2), []int{3, 2, 2}, func(o []int) []int { return o }},
				{"reshape_like", "lhs_begin=1;rhs_begin=0;rhs_end=1", empty(t, ndarray.Int8, 8, 5), []int{3, 8},
					func(o []int) []int { return []int{o[0], o[1] / 2, o[1] % 2} }},
				// the index tuples are idx's columns, (2, 0), (-1, 3) and (0, -4): rows (2, 0), (2, 3), (0, 0)
				{"gather_nd", "", idx, []int{3, 2}, func(o []int) []int { return []int{[]int{2, 2, 0}[o[0]], []int{0, 3, 0}[o[0]], o[1]} }},
				{"_sequence_reverse", "", nil, []int{3, 4, 2}, func(o []int) []int { return []int{2 - o[0], o[1], o[2]} }},
				{"_sequence_last", "axis=1", nil, []int{3, 2}, func(o []int) []int { return []int{o[0], 3, o[1]} }},
			} {
				what := fmt.Sprint(c.op, "(", c.attrs, ") ", dt, " layout ", li)
				arrays := []*ndarray.NDArray{a}
				if c.extra != nil {
					arrays = append(arrays, c.extra)
				}
				got, err := runOp(t, c.op, arrays, nil, c.attrs)
				require.NoError(t, err, what)
				var want []complex128
				if c.src != nil {
					want = refMap(vals, in, c.out, c.src)
				}
				checkProduct(t, got, want, c.out, dt, what)
			}
		}
	}
}

func TestLayoutSpaceAndPad(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Uint8, ndarray.Float16, ndarray.Float64, ndarray.Complex64} {
		a := index(t, laArray(t, dt, 3, 2, 8, 4, 3), all, all, S(nil, nil, 2), S(nil, nil, -1)) // (2, 8, 2, 3), strided
		in, vals := a.Shape(), complexValues(t, a)
		got := mustOp(t, "depth_to_space", "block_size=2", a)
		checkProduct(t, got, refMap(vals, in, []int{2, 2, 4, 6}, func(o []int) []int {
			i, j := o[2]%2, o[3]%2
			return []int{o[0], (i*2+j)*2 + o[1], o[2] / 2, o[3] / 2}
		}), []int{2, 2, 4, 6}, dt, "depth_to_space "+dt.String())
		back := mustOp(t, "space_to_depth", "block_size=2", got)
		checkProduct(t, back, vals, in, dt, "space_to_depth "+dt.String())
	}
	// pad, edge and reflect, on the last two axes of a strided (1, 2, 3, 3)
	a := index(t, laArray(t, ndarray.Float32, 2, 1, 2, 3, 6), all, all, all, S(nil, nil, 2))
	in, vals := a.Shape(), complexValues(t, a)
	clampTo := func(p, n int) int { return min(max(p, 0), n-1) }
	mirror := func(p, n int) int {
		if p < 0 {
			return -p
		}
		if p >= n {
			return 2*(n-1) - p
		}
		return p
	}
	for mode, at := range map[string]func(p, n int) int{"edge": clampTo, "reflect": mirror} {
		got := mustOp(t, "pad", "mode="+mode+";pad_width=0,0,0,0,2,1,1,2", a)
		checkProduct(t, got, refMap(vals, in, []int{1, 2, 6, 6}, func(o []int) []int {
			return []int{o[0], o[1], at(o[2]-2, 3), at(o[3]-1, 3)}
		}), []int{1, 2, 6, 6}, ndarray.Float32, "pad "+mode)
	}
}

func TestLayoutScatterAndRefusals(t *testing.T) {
	checkLeaks(t)
	data := fromValues(t, ndarray.Int32, []float64{1, 2, 3, 4, 5, 6}, 3, 2)
	idx := fromValues(t, ndarray.Int64, []float64{0, 1, 9, 2, 0, 0}, 2, 3) // (9, 0) lies outside: skipped
	got := mustOp(t, "scatter_nd", "shape=2,3,2", data, idx)
	checkProduct(t, got, []complex128{0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0}, []int{2, 3, 2}, ndarray.Int32, "scatter_nd")
	flat := mustOp(t, "ravel_multi_index", "shape=4,3", fromValues(t, ndarray.Float64, []float64{1, 3.9, 2, -1}, 2, 2))
	checkProduct(t, flat, []complex128{5, 8}, []int{2}, ndarray.Float64, "ravel_multi_index")
	x := arange(t, ndarray.Float32, 2, 3, 4)
	for _, c := range []struct {
		op, attrs string
		in        []*ndarray.NDArray
		kind      mxerr.Kind
	}{
		{"slice", "begin=0,0;end=2,3;step=1,0", []*ndarray.NDArray{x}, mxerr.Value},
		{"slice", "begin=0;end=2,3", []*ndarray.NDArray{x}, mxerr.Value},
		{"_split_part", "num_outputs=2;axis=1", []*ndarray.NDArray{x}, mxerr.Value},
		{"_split_part", "indices=0,3,1;axis=2", []*ndarray.NDArray{x}, mxerr.Value},
		{"_split_part", "num_outputs=2;axis=3", []*ndarray.NDArray{x}, mxerr.Index},
		{"pad", "mode=constant;pad_width=0,0,1,1,1,1", []*ndarray.NDArray{x}, mxerr.Value},
		{"depth_to_space", "block_size=0", []*ndarray.NDArray{arange(t, ndarray.Float32, 1, 4, 1, 1)}, mxerr.Value},
		{"gather_nd", "", []*ndarray.NDArray{x, fromValues(t, ndarray.Float32, []float64{2}, 1, 1)}, mxerr.Index},
		{"unravel_index", "shape=3,0", []*ndarray.NDArray{x}, mxerr.Value},
		{"Crop", "h_w=3,1", []*ndarray.NDArray{arange(t, ndarray.Float32, 1, 1, 2, 2)}, mxerr.Value},
		{"_sequence_mask", "use_sequence_length=1", []*ndarray.NDArray{x}, mxerr.Type},
	} {
		r, err := runOp(t, c.op, c.in, nil, c.attrs)
		if err == nil { // an error found by the kernel, on the engine, raised by the wait
			err = ops.WaitToRead(r)
			require.NoError(t, ops.WaitAll(), "raised once")
		}
		requireKind(t, err, c.kind)
	}
}
