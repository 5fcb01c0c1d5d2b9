package mxgotest

import (
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

var reduceNames = []string{"sum", "mean", "prod", "max", "min", "argmax", "argmin"}

// reduceOp runs reduction name on x with wire-form attributes ("axis=0;keepdims=1"),
// into out when given; the result is released when the test ends.
func reduceOp(t *testing.T, name string, x, out *ndarray.NDArray, attrs string) (*ndarray.NDArray, error) {
	t.Helper()
	op, err := ops.Lookup(name)
	require.NoError(t, err)
	at, err := ops.ParseAttrs(op, attrs)
	require.NoError(t, err)
	r, err := op.Invoke([]*ndarray.NDArray{x}, out, at)
	if err == nil {
		t.Cleanup(r.Release)
	}
	return r, err
}

func mustReduce(t *testing.T, name string, x *ndarray.NDArray, attrs string) *ndarray.NDArray {
	t.Helper()
	r, err := reduceOp(t, name, x, nil, attrs)
	require.NoError(t, err, "%s(%s)", name, attrs)
	return r
}

// refReduce reduces vals (C order, shape) over axes (nil or empty: all, as MXNet) in
// float64, one output per kept index in C order. It is the obvious nested loop, independent
// of the kernels; asMXNet turns its results into the input dtype's.
func refReduce(name string, vals []float64, shape, axes []int) []float64 {
	if len(axes) == 0 {
		for d := range shape {
			axes = append(axes, d)
		}
	}
	red := make([]bool, len(shape))
	for _, a := range axes {
		red[(a+len(shape))%len(shape)] = true
	}
	var outShape, redShape []int
	for d, n := range shape {
		if red[d] {
			redShape = append(redShape, n)
		} else {
			outShape = append(outShape, n)
		}
	}
	strides := make([]int, len(shape))
	for d, s := len(shape)-1, 1; d >= 0; d-- {
		strides[d], s = s, s*shape[d]
	}
	var out []float64
	forEach(outShape, func(oi []int) {
		var group []float64
		forEach(redShape, func(ri []int) {
			off, k, j := 0, 0, 0
			for d := range shape {
				if red[d] {
					off += ri[j] * strides[d]
					j++
				} else {
					off += oi[k] * strides[d]
					k++
				}
			}
			group = append(group, vals[off])
		})
		out = append(out, refGroup(name, group))
	})
	return out
}

func refGroup(name string, g []float64) float64 {
	switch name {
	case "sum", "mean":
		s := 0.0
		for _, x := range g {
			s += x
		}
		if name == "mean" {
			s /= float64(len(g))
		}
		return s
	case "prod":
		p := 1.0
		for _, x := range g {
			p *= x
		}
		return p
	}
	best, bi := g[0], 0
	for i, x := range g {
		if math.IsNaN(best) {
			break
		}
		if math.IsNaN(x) || (name[len(name)-1] == 'x' && x > best) || (name[len(name)-1] == 'n' && x < best) {
			best, bi = x, i
		}
	}
	if name == "argmax" || name == "argmin" {
		return float64(bi)
	}
	return best
}

var reduceAxisCases = []struct {
	attr string
	axes []int // nil: all
}{
	{"axis=None", nil}, {"axis=0", []int{0}}, {"axis=-1", []int{-1}}, {"axis=1", []int{1}},
	{"axis=0,2", []int{0, 2}}, {"axis=2,0", []int{2, 0}}, {"axis=-1,0,1", []int{-1, 0, 1}}, {"axis=", []int{}},
}

// reduceOutShape is MXNet's result shape: axes nil or empty reduce every axis, and a
// result with no dimensions left has shape (1,).
func reduceOutShape(shape, axes []int, keep bool) []int {
	out := []int{}
	for d, n := range shape {
		isRed := len(axes) == 0
		for _, a := range axes {
			isRed = isRed || (a+len(shape))%len(shape) == d
		}
		switch {
		case !isRed:
			out = append(out, n)
		case keep:
			out = append(out, 1)
		}
	}
	if len(out) == 0 {
		return []int{1}
	}
	return out
}

// asMXNet stores refReduce's float64 results in dt, as MXNet's reductions do (their result
// keeps the input's dtype, argmax's indices too): a bool is whether the value is nonzero,
// an integer mean truncates toward zero (MXNet divides the wrapped sum: the same where, as
// in the tests that use this, the sum does not wrap), integer sums and products wrap
// around, and floating-point values round to dt.
func asMXNet(t *testing.T, dt ndarray.DType, vals []float64) []float64 {
	out := make([]float64, len(vals))
	for i, v := range vals {
		switch dt.Kind() {
		case ndarray.KindBool:
			out[i] = float64(b2i(v != 0))
		case ndarray.KindInt, ndarray.KindUint:
			out[i] = wrapInt(dt, int64(math.Trunc(v)))
		default:
			out[i] = v
		}
	}
	if !isIntegral(dt) {
		return roundTo(t, dt, out)
	}
	return out
}

// wrapInt is v in the integer dtype dt, its high bits dropped.
func wrapInt(dt ndarray.DType, v int64) float64 {
	bits := uint(64 - 8*dt.Size())
	if dt.Kind() == ndarray.KindUint {
		return float64(uint64(v) << bits >> bits)
	}
	return float64(v << bits >> bits)
}

func argCase(name string, axes []int) bool {
	isArg := name == "argmax" || name == "argmin"
	return !isArg || axes == nil || len(axes) == 1
}

// Small values whose sums, means and products are exact in every dtype tested.
func smallVals(n int) []float64 {
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64((i*7)%5) - 1 // -1..3
		if i%11 == 3 {
			vals[i] = 2 // ties for argmax/argmin
		}
	}
	return vals
}

func TestReduceRegistered(t *testing.T) {
	for _, name := range reduceNames {
		op, err := ops.Lookup(name)
		require.NoError(t, err)
		assert.Equal(t, ops.Reduction, op.Category, name)
		assert.Equal(t, []string{"data"}, op.Inputs)
		if name == "argmax" || name == "argmin" {
			require.Len(t, op.Params, 2)
		} else { // sum, mean, prod, max and min: MXNet's exclude too
			require.Len(t, op.Params, 3)
			assert.Equal(t, "exclude", op.Params[2].Name)
			assert.Equal(t, ops.ParamBool, op.Params[2].Kind)
			assert.Equal(t, "0", op.Params[2].Default)
		}
		assert.Equal(t, ops.Param{Name: "axis", Kind: ops.ParamAxes, Default: "None", Doc: op.Params[0].Doc}, op.Params[0])
		assert.Equal(t, ops.ParamBool, op.Params[1].Kind)
		assert.Equal(t, "0", op.Params[1].Default)
		assert.Nil(t, op.DTypes, "%s takes every dtype", name)
	}
}

// TestReduceExclude: exclude=1 reduces every axis not named (MXNet's exclude on sum,
// mean, prod, max and min); with no axis named it reduces them all, and with every axis
// named the result is a copy of the input.
func TestReduceExclude(t *testing.T) {
	checkLeaks(t)
	shape := []int{2, 3, 4}
	vals := smallVals(24)
	for _, dt := range []ndarray.DType{ndarray.Int32, ndarray.Float32, ndarray.Float64} {
		x := fromValues(t, dt, vals, shape...)
		src := decode(x)
		for _, name := range reduceNames[:5] {
			for _, c := range []struct {
				attr      string
				kept, red []int // red nil: every axis
			}{
				{"axis=1", []int{1}, []int{0, 2}}, {"axis=0,2", []int{0, 2}, []int{1}}, {"axis=-1", []int{2}, []int{0, 1}},
				{"axis=None", nil, nil}, {"axis=", nil, nil},
			} {
				for _, keep := range []bool{false, true} {
					attrs := fmt.Sprintf("%s;keepdims=%d;exclude=1", c.attr, b2i(keep))
					r := mustReduce(t, name, x, attrs)
					what := fmt.Sprintf("%s %s(%s)", dt, name, attrs)
					assert.Equal(t, reduceOutShape(shape, c.red, keep), ints(r.Shape()), what)
					assert.Equal(t, dt, r.DType(), what)
					assert.InDeltaSlice(t, asMXNet(t, dt, refReduce(name, src, shape, c.red)), decode(r), 1e-6, what)
				}
			}
			for _, attrs := range []string{"axis=0,1,2;exclude=1", "axis=-1,0,1;keepdims=1;exclude=1"} {
				r := mustReduce(t, name, x, attrs)
				assert.Equal(t, shape, ints(r.Shape()), "%s %s(%s)", dt, name, attrs)
				assert.Equal(t, src, decode(r), "%s %s(%s): a copy", dt, name, attrs)
			}
		}
		_, err := reduceOp(t, "sum", x, nil, "axis=3;exclude=1")
		assert.Error(t, err, "an axis out of range")
	}
}

func TestReduceValues(t *testing.T) {
	checkLeaks(t)
	shape := []int{2, 3, 4}
	vals := smallVals(24)
	for _, dt := range []ndarray.DType{ndarray.Int8, ndarray.Int32, ndarray.Uint16, ndarray.Float16, ndarray.Float32, ndarray.Float64, ndarray.Complex64, ndarray.Bfloat16} {
		x := fromValues(t, dt, vals, shape...)
		if dt.Kind() == ndarray.KindUint {
			x = fromValues(t, dt, absAll(vals), shape...)
		}
		src := decode(x)
		for _, name := range reduceNames {
			for _, c := range reduceAxisCases {
				if !argCase(name, c.axes) {
					continue
				}
				for _, keep := range []bool{false, true} {
					attrs := fmt.Sprintf("%s;keepdims=%d", c.attr, b2i(keep))
					r := mustReduce(t, name, x, attrs)
					what := fmt.Sprintf("%s %s(%s)", dt, name, attrs)
					assert.Equal(t, reduceOutShape(shape, c.axes, keep), ints(r.Shape()), what)
					assert.Equal(t, dt, r.DType(), what)
					want := asMXNet(t, dt, refReduce(name, src, shape, c.axes))
					assert.InDeltaSlice(t, want, decode(r), 1e-6, what)
				}
			}
		}
		assert.Equal(t, src, decode(x), "%s input unchanged", dt)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func absAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Abs(x)
	}
	return out
}

func TestReduceStridedViews(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Int64, ndarray.Float32, ndarray.Float16, ndarray.Complex128, ndarray.Bool} {
		base := fromValues(t, dt, smallVals(5*6*7), 5, 6, 7)
		views := map[string]*ndarray.NDArray{
			"x[::-1, 1::2, ::-3]":  index(t, base, S(nil, nil, -1), S(1, nil, 2), S(nil, nil, -3)),
			"x[1:4, ::-1, 2]":      index(t, base, S(1, 4, nil), S(nil, nil, -1), I(2)),
			"x[..., None, ::2]":    index(t, base, ellipsis, newAxis, S(nil, nil, 2)),
			"x[2].T (transposed)":  transpose2(t, index(t, base, I(2))),
			"x[:, 0:1, ::-1] (n1)": index(t, base, all, S(0, 1, nil), S(nil, nil, -1)),
		}
		for vname, v := range views {
			src := decode(v)
			for _, name := range reduceNames {
				for _, c := range reduceAxisCases {
					if !argCase(name, c.axes) || !axesFit(c.axes, v.NDim()) {
						continue
					}
					if name == "prod" && (dt != ndarray.Int64 || reducedCount(v.Shape(), c.axes) > 33) {
						continue // keep products exact in float64 and int64
					}
					r := mustReduce(t, name, v, c.attr)
					what := fmt.Sprintf("%s %s %s(%s)", dt, vname, name, c.attr)
					want := refReduce(name, src, v.Shape(), c.axes)
					if dt == ndarray.Bool && (name == "max" || name == "min") {
						want = refReduce(name, boolVals(src), v.Shape(), c.axes)
					}
					assert.Equal(t, dt, r.DType(), what)
					assert.InDeltaSlice(t, asMXNet(t, dt, want), decode(r), 1e-6, what)
				}
			}
		}
	}
}

func boolVals(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		if x != 0 {
			out[i] = 1
		}
	}
	return out
}

// axesFit reports whether axes are valid (in range, no repeats) for nd dimensions.
func axesFit(axes []int, nd int) bool {
	seen := map[int]bool{}
	for _, a := range axes {
		if a >= nd || a < -nd || seen[(a+nd)%nd] {
			return false
		}
		seen[(a+nd)%nd] = true
	}
	return true
}

func reducedCount(shape, axes []int) int {
	n := 1
	for d, k := range shape {
		isRed := len(axes) == 0
		for _, a := range axes {
			isRed = isRed || (a+len(shape))%len(shape) == d
		}
		if isRed {
			n *= k
		}
	}
	return n
}

// As in MXNet, every reduction keeps the input's dtype (argmax's indices too) and a
// whole-array reduction has shape (1,).
func TestReduceDTypes(t *testing.T) {
	checkLeaks(t)
	// sum, mean, prod, max, min, argmax, argmin of [[1, 0], [1, 1]], as each dtype holds them
	boolean := []float64{1, 1, 0, 1, 0, 0, 1} // bool: sum and mean are "any", argmin's 1 is true
	integer := []float64{3, 0, 0, 1, 0, 0, 1} // integers: the mean 0.75 truncates to 0
	float := []float64{3, 0.75, 0, 1, 0, 0, 1}
	require.Len(t, ndarray.DTypes(), 15)
	for _, dt := range ndarray.DTypes() {
		x := fromValues(t, dt, []float64{1, 0, 1, 1}, 2, 2)
		want := map[ndarray.Kind][]float64{ndarray.KindBool: boolean, ndarray.KindInt: integer, ndarray.KindUint: integer}[dt.Kind()]
		if want == nil {
			want = float
		}
		for i, name := range reduceNames {
			r := mustReduce(t, name, x, "")
			assert.Equal(t, dt, r.DType(), "%s(%s)", name, dt)
			assert.Equal(t, []float64{want[i]}, decode(r), "%s(%s)", name, dt)
			assert.Equal(t, []int{1}, r.Shape(), "%s(%s)", name, dt)
			k := mustReduce(t, name, x, "keepdims=1")
			assert.Equal(t, []int{1, 1}, k.Shape(), "%s(%s, keepdims)", name, dt)
		}
	}
}

func TestReduceIntegerWraps(t *testing.T) {
	checkLeaks(t)
	x := empty(t, ndarray.Int64, 3)
	rawSet(x, []int64{math.MaxInt64, 1, 1})
	assert.Equal(t, []int64{math.MinInt64 + 1}, rawValues[int64](mustReduce(t, "sum", x, "")))
	u := empty(t, ndarray.Uint64, 2)
	rawSet(u, []uint64{math.MaxUint64, 2})
	assert.Equal(t, []uint64{1}, rawValues[uint64](mustReduce(t, "sum", u, "")))
	assert.Equal(t, []uint64{math.MaxUint64 - 1}, rawValues[uint64](mustReduce(t, "prod", u, "")))
	assert.Equal(t, []uint64{math.MaxUint64}, rawValues[uint64](mustReduce(t, "max", u, "")))
	// int8 sums wrap at 8 bits (MXNet keeps the dtype): -130 is 126; int32 sums and
	// products at 32 bits.
	b := fromValues(t, ndarray.Int8, []float64{127, 127, -128, -128, -128})
	assert.Equal(t, []int8{126}, rawValues[int8](mustReduce(t, "sum", b, "")))
	i32 := empty(t, ndarray.Int32, 2)
	rawSet(i32, []int32{math.MaxInt32, 3})
	assert.Equal(t, []int32{math.MinInt32 + 2}, rawValues[int32](mustReduce(t, "sum", i32, "")))
	assert.Equal(t, []int32{math.MaxInt32 - 2}, rawValues[int32](mustReduce(t, "prod", i32, "")))
	// An integer mean is the wrapped sum divided by the count, truncated (MXNet 1.9.1 gives
	// [-28, 50] for this int8 mean over axis 0: 200 wraps to -56).
	assert.Equal(t, []int32{(math.MinInt32 + 2) / 2}, rawValues[int32](mustReduce(t, "mean", i32, "")))
	m8 := fromValues(t, ndarray.Int8, []float64{100, 100, 100, 1}, 2, 2)
	assert.Equal(t, []int8{-28, 50}, rawValues[int8](mustReduce(t, "mean", m8, "axis=0")))
	assert.Equal(t, []int8{11}, rawValues[int8](mustReduce(t, "mean", m8, "")), "301 wraps to 45; 45 / 4")
	u8 := fromValues(t, ndarray.Uint8, []float64{200, 200, 200, 1})
	assert.Equal(t, []uint8{22}, rawValues[uint8](mustReduce(t, "mean", u8, "")), "601 wraps to 89; 89 / 4")
	n3 := fromValues(t, ndarray.Int32, []float64{-3, -3, -4})
	assert.Equal(t, []int32{-3}, rawValues[int32](mustReduce(t, "mean", n3, "")), "toward zero")
	// Large int64 keep every bit in max/min/argmax (no float64 round trip).
	big := empty(t, ndarray.Int64, 3)
	rawSet(big, []int64{1<<62 + 1, 1<<62 + 3, 1<<62 + 2})
	assert.Equal(t, []int64{1<<62 + 3}, rawValues[int64](mustReduce(t, "max", big, "")))
	assert.Equal(t, []int64{1}, rawValues[int64](mustReduce(t, "argmax", big, "")))
	assert.Equal(t, []int64{1<<62 + 1}, rawValues[int64](mustReduce(t, "min", big, "")))
}

func TestReduceNaNAndTies(t *testing.T) {
	checkLeaks(t)
	nan := math.NaN()
	// argmax and argmin give their indices in the input's dtype (MXNet)
	for _, dt := range []ndarray.DType{ndarray.Float16, ndarray.Float32, ndarray.Float64, ndarray.Bfloat16} {
		x := fromValues(t, dt, []float64{1, 5, nan, 5, nan, -1}, 2, 3)
		assert.True(t, math.IsNaN(decode(mustReduce(t, "max", x, ""))[0]), "%s max", dt)
		assert.True(t, math.IsNaN(decode(mustReduce(t, "min", x, ""))[0]), "%s min", dt)
		assert.True(t, math.IsNaN(decode(mustReduce(t, "sum", x, ""))[0]), "%s sum", dt)
		assert.Equal(t, []float64{2}, decode(mustReduce(t, "argmax", x, "")), "%s first NaN", dt)
		assert.Equal(t, []float64{2}, decode(mustReduce(t, "argmin", x, "")), "%s first NaN", dt)
		// x = [[1, 5, nan], [5, nan, -1]]
		assert.Equal(t, []float64{2, 1}, decode(mustReduce(t, "argmax", x, "axis=1")), "%s", dt)
		assert.Equal(t, []float64{1, 1, 0}, decode(mustReduce(t, "argmax", x, "axis=0")), "%s", dt)
		assert.Equal(t, []float64{0, 1, 0}, decode(mustReduce(t, "argmin", x, "axis=0")), "%s", dt)
		m := decode(mustReduce(t, "min", x, "axis=0"))
		assert.Equal(t, 1.0, m[0], "%s", dt)
		assert.True(t, math.IsNaN(m[1]) && math.IsNaN(m[2]), "%s", dt)
		ties := fromValues(t, dt, []float64{3, 1, 3, 1, 3}, 5)
		assert.Equal(t, []float64{0}, decode(mustReduce(t, "argmax", ties, "")))
		assert.Equal(t, []float64{1}, decode(mustReduce(t, "argmin", ties, "")))
		rev := index(t, ties, S(nil, nil, -1)) // 3 1 3 1 3 read backwards
		assert.Equal(t, []float64{0}, decode(mustReduce(t, "argmax", rev, "")))
		assert.Equal(t, []float64{1}, decode(mustReduce(t, "argmin", rev, "")))
		inf := fromValues(t, dt, []float64{math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)})
		assert.Equal(t, []float64{2}, decode(mustReduce(t, "argmax", inf, "")))
		assert.Equal(t, []float64{0}, decode(mustReduce(t, "argmin", inf, "")))
		assert.True(t, math.IsNaN(decode(mustReduce(t, "sum", inf, ""))[0]), "inf + -inf")
	}
}

func TestReduceComplexOrdersLexicographically(t *testing.T) {
	checkLeaks(t)
	x := empty(t, ndarray.Complex64, 4)
	rawSet(x, []complex64{1 + 2i, 1 + 3i, 0 + 9i, -5})
	assert.Equal(t, []complex64{1 + 3i}, rawValues[complex64](mustReduce(t, "max", x, "")))
	assert.Equal(t, []complex64{-5}, rawValues[complex64](mustReduce(t, "min", x, "")))
	assert.Equal(t, []complex64{1}, rawValues[complex64](mustReduce(t, "argmax", x, "")))
	assert.Equal(t, []complex64{3}, rawValues[complex64](mustReduce(t, "argmin", x, "")))
	assert.Equal(t, []complex64{-3 + 14i}, rawValues[complex64](mustReduce(t, "sum", x, "")))
	assert.Equal(t, []complex64{-0.75 + 3.5i}, rawValues[complex64](mustReduce(t, "mean", x, "")))
	nan := float32(math.NaN())
	rawSet(x, []complex64{1, complex(2, nan), 9, complex(nan, 1)})
	assert.Equal(t, []complex64{1}, rawValues[complex64](mustReduce(t, "argmax", x, "")))
	assert.Equal(t, []complex64{1}, rawValues[complex64](mustReduce(t, "argmin", x, "")))
	m := rawValues[complex64](mustReduce(t, "max", x, ""))[0]
	assert.True(t, math.IsNaN(float64(real(m))) || math.IsNaN(float64(imag(m))))
}

func TestReduceEmptyAndZeroD(t *testing.T) {
	checkLeaks(t)
	e := empty(t, ndarray.Float32, 0, 3)
	s := mustReduce(t, "sum", e, "axis=0")
	assert.Equal(t, []int{3}, s.Shape())
	assert.Equal(t, []float64{0, 0, 0}, decode(s))
	assert.Equal(t, []float64{1, 1, 1}, decode(mustReduce(t, "prod", e, "axis=0")))
	m := decode(mustReduce(t, "mean", e, "axis=0"))
	assert.True(t, math.IsNaN(m[0]))
	for _, attrs := range []string{"", "axis=", "axis=0,1"} { // () reduces every axis, as in MXNet
		s := mustReduce(t, "sum", e, attrs)
		assert.Equal(t, []int{1}, s.Shape(), attrs)
		assert.Equal(t, []float64{0}, decode(s), attrs)
		_, err := reduceOp(t, "max", e, nil, attrs)
		requireKind(t, err, mxerr.Value, "zero-size array")
	}
	assert.Equal(t, []int{1, 1}, mustReduce(t, "sum", e, "axis=;keepdims=1").Shape())
	assert.Equal(t, []int{0}, mustReduce(t, "max", e, "axis=1").Shape(), "reducing a non-empty axis of an empty array")
	assert.Equal(t, []int{0, 1}, mustReduce(t, "argmin", e, "axis=1;keepdims=1").Shape())
	ei := empty(t, ndarray.Int8, 0)
	si := mustReduce(t, "sum", ei, "")
	assert.Equal(t, ndarray.Int8, si.DType())
	assert.Equal(t, []int8{0}, rawValues[int8](si))

	z := fromValues(t, ndarray.Int16, []float64{-7}, []int{}...)
	z0 := index(t, fromValues(t, ndarray.Int16, []float64{-7}, 1), I(0))
	for _, x := range []*ndarray.NDArray{z, z0} {
		require.Equal(t, 0, x.NDim())
		for _, name := range reduceNames {
			for _, attrs := range []string{"", "keepdims=1", "axis="} {
				if attrs == "axis=" && (name == "argmax" || name == "argmin") {
					continue // argmax takes None or one axis
				}
				r := mustReduce(t, name, x, attrs)
				assert.Equal(t, []int{1}, r.Shape(), "%s(%s): no 0-d results", name, attrs)
				assert.Equal(t, ndarray.Int16, r.DType(), "%s(%s)", name, attrs)
				want := map[string]float64{"sum": -7, "mean": -7, "prod": -7, "max": -7, "min": -7, "argmax": 0, "argmin": 0}[name]
				assert.Equal(t, []float64{want}, decode(r), "%s(%s)", name, attrs)
			}
			_, err := reduceOp(t, name, x, nil, "axis=0")
			requireKind(t, err, mxerr.Index, "out of bounds")
		}
	}
}

func TestReduceErrors(t *testing.T) {
	checkLeaks(t)
	x := arange(t, ndarray.Float32, 2, 3, 4)
	before := decode(x)
	for _, name := range reduceNames {
		_, err := reduceOp(t, name, x, nil, "axis=3")
		requireKind(t, err, mxerr.Index, "axis 3 is out of bounds for array of dimension 3")
		_, err = reduceOp(t, name, x, nil, "axis=-4")
		requireKind(t, err, mxerr.Index, "axis -4")
		if name == "argmax" || name == "argmin" {
			_, err = reduceOp(t, name, x, nil, "axis=0,1")
			requireKind(t, err, mxerr.Type, "single")
			_, err = reduceOp(t, name, x, nil, "axis=")
			requireKind(t, err, mxerr.Type, "single")
		} else {
			_, err = reduceOp(t, name, x, nil, "axis=0,-3")
			requireKind(t, err, mxerr.Value, "duplicate")
		}
		out := empty(t, ndarray.Int8, 3, 4)
		_, err = reduceOp(t, name, x, out, "axis=0")
		requireKind(t, err, mxerr.Type, "out has dtype")
		okType := empty(t, ndarray.Float32, 3, 5) // the input's dtype, argmax's too
		_, err = reduceOp(t, name, x, empty(t, ndarray.Int64, 4), "axis=0")
		requireKind(t, err, mxerr.Type, "out has dtype")
		_, err = reduceOp(t, name, x, okType, "axis=0")
		requireKind(t, err, mxerr.Value, "out has shape")
	}
	e := empty(t, ndarray.Float64, 2, 0)
	for _, c := range []struct{ name, attrs, msg string }{
		{"max", "", "zero-size array to reduction operation maximum which has no identity"},
		{"min", "axis=1", "zero-size array to reduction operation minimum which has no identity"},
		{"max", "axis=0,1;keepdims=1", "maximum"},
		{"argmax", "", "attempt to get argmax of an empty sequence"},
		{"argmin", "axis=-1", "attempt to get argmin of an empty sequence"},
	} {
		_, err := reduceOp(t, c.name, e, nil, c.attrs)
		requireKind(t, err, mxerr.Value, c.msg)
	}
	assert.Equal(t, before, decode(x), "inputs intact")
	require.NoError(t, ops.WaitAll())
}

func TestReduceIntoOutViews(t *testing.T) {
	checkLeaks(t)
	x := arange(t, ndarray.Float64, 3, 4)
	z := empty(t, ndarray.Float64, 4, 2)
	require.NoError(t, ops.Fill(z, intScalar(-1)))
	out := index(t, z, S(nil, nil, -1), I(1)) // (4,), stride -2
	r, err := reduceOp(t, "sum", x, out, "axis=0")
	require.NoError(t, err)
	assert.Same(t, out.Storage(), r.Storage())
	assert.Equal(t, []float64{-1, 21, -1, 18, -1, 15, -1, 12}, decode(z))
	// out overlapping the input: the kernel reads a copy.
	y := arange(t, ndarray.Float64, 2, 3)
	_, err = reduceOp(t, "sum", y, index(t, y, I(0)), "axis=0")
	require.NoError(t, err)
	assert.Equal(t, []float64{3, 5, 7, 3, 4, 5}, decode(y))
	// keepdims out shape; argmax's out has the input's dtype
	k := empty(t, ndarray.Float64, 1, 4)
	_, err = reduceOp(t, "argmax", x, k, "axis=0;keepdims=1")
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 2, 2, 2}, decode(k))
}

// withProcs runs f with GOMAXPROCS n, so that the parallel paths run (and race-check)
// on small machines too.
func withProcs(n int, f func()) {
	old := useCores(n)
	defer runtime.GOMAXPROCS(old)
	f()
}

func TestReduceLargeParallelSum(t *testing.T) {
	checkLeaks(t)
	const n = 10_000_000
	rng := rand.New(rand.NewSource(1))
	vals := make([]float32, n)
	ref := 0.0
	for i := range vals {
		vals[i] = float32(rng.Float64()*2 - 0.5)
		ref += float64(vals[i])
	}
	x := empty(t, ndarray.Float32, n)
	rawSet(x, vals)
	withProcs(8, func() {
		s := rawValues[float32](mustReduce(t, "sum", x, ""))[0]
		assert.InEpsilon(t, ref, float64(s), 1e-6, "float32 sum of 1e7")
		m := rawValues[float32](mustReduce(t, "mean", x, ""))[0]
		assert.InEpsilon(t, ref/n, float64(m), 1e-6)
		// The same elements as a (1000, 10000) matrix, reduced both ways, and strided.
		x2, err := x.Reshape([]int{1000, 10000})
		require.NoError(t, err)
		defer x2.Release()
		for _, c := range []struct {
			attrs string
			nOut  int
		}{{"axis=0", 10000}, {"axis=1", 1000}, {"axis=0,1", 1}} {
			r := rawValues[float32](mustReduce(t, "sum", x2, c.attrs))
			require.Len(t, r, c.nOut)
			total := 0.0
			for _, v := range r {
				total += float64(v)
			}
			assert.InEpsilon(t, ref, total, 1e-5, c.attrs)
		}
		col := rawValues[float32](mustReduce(t, "sum", x2, "axis=0"))
		want := 0.0
		for i := 0; i < 1000; i++ {
			want += float64(vals[i*10000+7])
		}
		assert.InEpsilon(t, want, float64(col[7]), 1e-6)
		row := rawValues[float32](mustReduce(t, "sum", x2, "axis=1"))
		want = 0
		for j := 0; j < 10000; j++ {
			want += float64(vals[999*10000+j])
		}
		assert.InEpsilon(t, want, float64(row[999]), 1e-6)
		// A reversed, strided view of the whole: every other element, backwards.
		v := index(t, x, S(nil, nil, -2))
		want = 0
		for i := n - 1; i >= 0; i -= 2 {
			want += float64(vals[i])
		}
		assert.InEpsilon(t, want, float64(rawValues[float32](mustReduce(t, "sum", v, ""))[0]), 1e-6)
	})
}

func TestReduceLargeParallelOthers(t *testing.T) {
	checkLeaks(t)
	const rows, cols = 3, 400_000 // few outputs: the split falls on the reduced axis
	rng := rand.New(rand.NewSource(2))
	vals := make([]int32, rows*cols)
	for i := range vals {
		vals[i] = int32(rng.Intn(2_000_001) - 1_000_000)
	}
	vals[123_456] = 5_000_000
	vals[cols+7] = 5_000_000 // ties within row 1 too: the first occurrence
	vals[cols+300_000] = 5_000_000
	vals[2*cols+399_999] = -5_000_000
	x := empty(t, ndarray.Int32, rows, cols)
	rawSet(x, vals)
	var wantSum int32 // int32 sums wrap around, as in MXNet
	rowSum := make([]int32, rows)
	for i, v := range vals {
		wantSum += v
		rowSum[i/cols] += v
	}
	withProcs(8, func() {
		assert.Equal(t, []int32{wantSum}, rawValues[int32](mustReduce(t, "sum", x, "")))
		assert.Equal(t, rowSum, rawValues[int32](mustReduce(t, "sum", x, "axis=1")))
		assert.Equal(t, []int32{123_456}, rawValues[int32](mustReduce(t, "argmax", x, "")))
		assert.Equal(t, []int32{123_456, 7, rawArgmax(vals[2*cols:])}, rawValues[int32](mustReduce(t, "argmax", x, "axis=1")))
		assert.Equal(t, []int32{2*cols + 399_999}, rawValues[int32](mustReduce(t, "argmin", x, "")))
		assert.Equal(t, []int32{5_000_000}, rawValues[int32](mustReduce(t, "max", x, "")))
		assert.Equal(t, []int32{-5_000_000}, rawValues[int32](mustReduce(t, "min", x, "")))
		// Transposed: many outputs, the reduced axis strided.
		xt := transpose2(t, x)
		am := rawValues[int32](mustReduce(t, "argmax", xt, "axis=0"))
		assert.Equal(t, int32(123_456), am[0])
		assert.Equal(t, int32(7), am[1])
		mx := rawValues[int32](mustReduce(t, "max", xt, "axis=1"))
		require.Len(t, mx, cols)
		for j := 0; j < cols; j += 9973 {
			want := max(vals[j], vals[cols+j], vals[2*cols+j])
			assert.Equal(t, want, mx[j], "column %d", j)
		}
		// A float64 NaN deep inside a large array wins max and argmax from any task.
		f := empty(t, ndarray.Float64, 1_000_000)
		fv := make([]float64, 1_000_000)
		for i := range fv {
			fv[i] = float64(i % 1000)
		}
		fv[999_000], fv[999_500] = math.NaN(), math.NaN()
		rawSet(f, fv)
		assert.True(t, math.IsNaN(rawValues[float64](mustReduce(t, "max", f, ""))[0]))
		assert.Equal(t, []float64{999_000}, rawValues[float64](mustReduce(t, "argmin", f, "")))
		fr := index(t, f, S(nil, nil, -1))
		assert.Equal(t, []float64{499}, rawValues[float64](mustReduce(t, "argmax", fr, "")), "reversed: NaN at 999_500 comes first")
	})
}

func rawArgmax(v []int32) int32 {
	bi := 0
	for i, x := range v {
		if x > v[bi] {
			bi = i
		}
	}
	return int32(bi)
}

func TestReduceFloat16Accumulates(t *testing.T) {
	checkLeaks(t)
	// 4096 ones: a float16 running sum would stop at 2048.
	for _, dt := range []ndarray.DType{ndarray.Float16, ndarray.Bfloat16} {
		x := fromValues(t, dt, ones(4096), 4096)
		assert.Equal(t, []float64{4096}, decode(mustReduce(t, "sum", x, "")), "%s", dt)
		assert.Equal(t, []float64{1}, decode(mustReduce(t, "mean", x, "")), "%s", dt)
		x2 := fromValues(t, dt, ones(4096), 4096, 1)
		assert.Equal(t, []float64{4096}, decode(mustReduce(t, "sum", x2, "axis=0")), "%s outer axis", dt)
	}
}

func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

func TestReduceBroadcastInput(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, -2, 3})
	b, err := x.BroadcastTo([]int{4, 3}) // stride 0 along the first axis
	require.NoError(t, err)
	t.Cleanup(b.Release)
	assert.Equal(t, []float64{4, -8, 12}, decode(mustReduce(t, "sum", b, "axis=0")))
	assert.Equal(t, []float64{2, 2, 2, 2}, decode(mustReduce(t, "sum", b, "axis=1")))
	assert.Equal(t, []float64{8}, decode(mustReduce(t, "sum", b, "")))
	assert.Equal(t, []float32{2}, rawValues[float32](mustReduce(t, "argmax", b, "")))
	assert.Equal(t, []float32{0, 0, 0}, rawValues[float32](mustReduce(t, "argmax", b, "axis=0")), "ties: the first")
}

// Random views (negative and non-unit steps, dimensions of length 1), random axes and
// sizes large enough for every way of splitting work across tasks, against refReduce.
func TestReduceRandomViewsParallel(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(5))
	const n = 1 << 20
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(rng.Intn(200) - 100) // many ties; sums exact in float64
	}
	flat := fromValues(t, ndarray.Int32, vals)
	checked := 0
	withProcs(8, func() {
		for iter := 0; iter < 60; iter++ {
			nd := 1 + rng.Intn(4)
			shape := make([]int, nd)
			size := 1
			for d := range shape {
				shape[d] = []int{1, 2, 3, 5, 7, 16, 40, 64, 300}[rng.Intn(9)]
				size *= shape[d]
			}
			for size*2 <= n/2 { // grow the last dimensions until the view is large
				shape[rng.Intn(nd)] *= 2
				size *= 2
			}
			if size > n {
				continue
			}
			base, err := flat.Reshape([]int{n})
			require.NoError(t, err)
			arr := index(t, base, S(0, size, nil))
			arr2, err := ndarray.View(arr.Storage(), arr.DType(), shape, cStridesOf(shape), arr.Offset(), true)
			require.NoError(t, err)
			base.Release()
			t.Cleanup(arr2.Release)
			key := make([]ndarray.KeyItem, nd)
			for d := range key {
				switch rng.Intn(4) {
				case 0:
					key[d] = S(nil, nil, -1)
				case 1:
					key[d] = S(nil, nil, 2)
				case 2:
					key[d] = S(1, nil, -2+4*rng.Intn(2)) // 1::2 or 1::-2
				default:
					key[d] = all
				}
			}
			v := index(t, arr2, key...)
			if v.Size() == 0 {
				continue
			}
			name := []string{"sum", "max", "min", "argmax", "argmin", "mean"}[rng.Intn(6)]
			var axes []int
			attr := "axis=None"
			if name[0] == 'a' {
				if rng.Intn(3) > 0 {
					axes = []int{rng.Intn(v.NDim())}
				}
			} else {
				axes = []int{}
				for d := 0; d < v.NDim(); d++ {
					if rng.Intn(2) == 0 {
						axes = append(axes, d)
					}
				}
				if rng.Intn(4) == 0 {
					axes = nil
				}
			}
			if axes != nil {
				attr = "axis=" + joinInts(axes)
			}
			keep := rng.Intn(2)
			attrs := fmt.Sprintf("%s;keepdims=%d", attr, keep)
			r := mustReduce(t, name, v, attrs)
			what := fmt.Sprintf("%s(shape %v of %v, %s)", name, v.Shape(), shape, attrs)
			require.Equal(t, reduceOutShape(v.Shape(), axes, keep == 1), ints(r.Shape()), what)
			// int32 in, int32 out: means truncate (the sums are exact, so the quotients are too)
			require.Equal(t, asMXNet(t, ndarray.Int32, refReduce(name, decode(v), v.Shape(), axes)), decode(r), what)
			checked++
		}
	})
	require.Greater(t, checked, 40)
}

func cStridesOf(shape []int) []int {
	st := make([]int, len(shape))
	for d, s := len(shape)-1, 1; d >= 0; d-- {
		st[d], s = s, s*shape[d]
	}
	return st
}

func joinInts(x []int) string {
	s := ""
	for i, v := range x {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(v)
	}
	return s
}
