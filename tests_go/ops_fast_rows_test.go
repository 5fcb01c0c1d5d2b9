package mxgotest

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The typed row loops of comparisons, maximum/minimum, sqrt, sign, abs, negative,
// square and the max/min/argmax/argmin reductions (pkg/ops/elemwise/fast_rows.go,
// pkg/ops/reduce/reduce_lanes.go, internal/simd's cmp, maxmin and math32) against the general paths (ops.SetFastKernels(false)): the same
// bits on every dtype, layout (contiguous, strided, broadcast, scalar) and length around
// the loops' chunks (C's 8 lanes and 128-element minimum, rows2's 512-element buffer,
// the reductions' 32-element minimum, ParallelRows' split at 2**20), with NaN (quiet,
// signalling, negative), ±inf and ±0 among random bits.

var fastDTypes = []ndarray.DType{ndarray.Bool, ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64, ndarray.Uint8,
	ndarray.Uint16, ndarray.Uint32, ndarray.Uint64, ndarray.Float16, ndarray.Bfloat16, ndarray.Float32, ndarray.Float64}

var fastLens = []int{1, 7, 8, 31, 32, 33, 127, 128, 129, 511, 512, 513, 1027}

// specialBits are the float32 and float64 values the loops treat apart.
var specialBits = map[ndarray.DType][]uint64{
	ndarray.Float32: {0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc01234, 0x7f800000, 0xff800000, 0, 0x80000000, 0x3f800000, 0xbf800000},
	ndarray.Float64: {0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x7ff0000000000000, 0xfff0000000000000,
		0, 0x8000000000000000, 0x3ff0000000000000},
	ndarray.Float16:  {0x7e00, 0x7c01, 0x7c00, 0xfc00, 0, 0x8000, 0x3c00},
	ndarray.Bfloat16: {0x7fc0, 0x7f81, 0x7f80, 0xff80, 0, 0x8000, 0x3f80},
}

// fastData fills an array of dt with random bits, a third of them special values; with
// like, a quarter of the elements copy like's (equal operands).
func fastData(t *testing.T, rng *rand.Rand, dt ndarray.DType, like *ndarray.NDArray, shape ...int) *ndarray.NDArray {
	a := empty(t, dt, shape...)
	size := dt.Size()
	var src []byte
	if like != nil {
		src = elemBytes(like)
	}
	i := 0
	mustWait(ops.WaitToWrite(a))
	forEach(a.Shape(), func(idx []int) {
		var v uint64
		sp := specialBits[dt]
		switch {
		case src != nil && rng.Intn(4) == 0 && len(src) >= (i+1)*size:
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&v)), size), src[i*size:])
		case len(sp) > 0 && rng.Intn(3) == 0:
			v = sp[rng.Intn(len(sp))]
		case dt == ndarray.Bool:
			v = uint64(rng.Intn(2))
		default:
			v = rng.Uint64()
		}
		copy(unsafe.Slice((*byte)(elemPtr(a, idx)), size), unsafe.Slice((*byte)(unsafe.Pointer(&v)), size))
		i++
	})
	return a
}

// elemBytes is a's elements' bytes in C order.
func elemBytes(a *ndarray.NDArray) []byte {
	mustWait(ops.WaitToRead(a))
	var out []byte
	forEach(a.Shape(), func(idx []int) { out = append(out, unsafe.Slice((*byte)(elemPtr(a, idx)), a.DType().Size())...) })
	return out
}

// bothPaths runs f on the general paths and on the fast ones (with C's kernels on and
// off) and requires the same bytes.
func bothPaths(t *testing.T, what string, f func() *ndarray.NDArray) {
	t.Helper()
	run := func(fast, c bool) []byte {
		require.NoError(t, ops.WaitAll())
		wasF, wasM, wasS, wasC := ops.SetFastKernels(fast), simd.SetMaxMin(c), simd.SetMath32(c), simd.SetCmp(c)
		defer func() {
			require.NoError(t, ops.WaitAll())
			ops.SetFastKernels(wasF)
			simd.SetMaxMin(wasM)
			simd.SetMath32(wasS)
			simd.SetCmp(wasC)
		}()
		r := f()
		defer r.Release()
		return elemBytes(r)
	}
	want := run(false, false)
	require.Equal(t, want, run(true, false), "%s: Go row loops", what)
	require.Equal(t, want, run(true, true), "%s: C kernels", what)
}

func invokeNew(t *testing.T, name string, at ops.Attrs, in ...*ndarray.NDArray) *ndarray.NDArray {
	op, err := ops.Lookup(name)
	require.NoError(t, err)
	r, err := op.Invoke(in, nil, at)
	require.NoError(t, err, name)
	return r
}

var fastBinary = []string{"equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal", "maximum", "minimum"}

func TestFastBinaryRowsMatchGeneral(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(1))
	for _, dt := range fastDTypes {
		for _, n := range fastLens {
			x := fastData(t, rng, dt, nil, n)
			y := fastData(t, rng, dt, x, n)
			xs := index(t, fastData(t, rng, dt, nil, 2*n), S(nil, nil, -2)) // strided, backwards
			rows, cols := fastData(t, rng, dt, nil, 3, n), fastData(t, rng, dt, nil, 1, n)
			col := fastData(t, rng, dt, nil, 3, 1)
			for _, name := range fastBinary {
				if (name == "maximum" || name == "minimum") && dt == ndarray.Bool {
					continue
				}
				for form, in := range map[string][]*ndarray.NDArray{
					"contiguous": {x, y}, "strided": {xs, y}, "row": {rows, cols}, "column": {rows, col}, "outer": {col, cols},
				} {
					bothPaths(t, fmt.Sprintf("%s %s n=%d %s", name, dt, n, form), func() *ndarray.NDArray {
						return invokeNew(t, name, nil, in...)
					})
				}
				for _, s := range []ops.Scalar{floatScalar(0.5), floatScalar(math.Copysign(0, -1)), floatScalar(math.NaN()), intScalar(-3), intScalar(300)} {
					for _, rev := range []bool{false, true} {
						bothPaths(t, fmt.Sprintf("_%s_scalar(%v, %v) %s n=%d", name, s, rev, dt, n), func() *ndarray.NDArray {
							return invokeNew(t, "_"+name+"_scalar", ops.Attrs{"scalar": s, "reverse": rev}, xs)
						})
					}
				}
			}
		}
	}
}

// mx.np's comparisons give bool bytes; float32's and float64's rows run in C.
func TestNpCompareRowsMatchGo(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(4))
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		for _, n := range fastLens {
			x := fastData(t, rng, dt, nil, n)
			y := fastData(t, rng, dt, x, n)
			xs := index(t, fastData(t, rng, dt, nil, 2*n), S(nil, nil, -2))
			for _, name := range []string{"equal", "not_equal", "greater", "greater_equal", "less", "less_equal"} {
				for form, in := range map[string][]*ndarray.NDArray{"contiguous": {x, y}, "strided": {xs, y}} {
					bothPaths(t, fmt.Sprintf("_npi_%s %s n=%d %s", name, dt, n, form), func() *ndarray.NDArray {
						return invokeNew(t, "_npi_"+name, nil, in...)
					})
				}
				for _, s := range []ops.Scalar{floatScalar(0.5), floatScalar(math.NaN()), floatScalar(math.Copysign(0, -1))} {
					for _, rev := range []bool{false, true} {
						bothPaths(t, fmt.Sprintf("_npi_%s_scalar(%v, %v) %s n=%d", name, s, rev, dt, n), func() *ndarray.NDArray {
							return invokeNew(t, "_npi_"+name+"_scalar", ops.Attrs{"scalar": s, "is_int": false, "reverse": rev}, x)
						})
					}
				}
			}
		}
	}
}

// TestFastRowsAcrossCores: arrays of 2**20 elements and more split across the cores.
func TestFastRowsAcrossCores(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(2))
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Int16} {
		x := fastData(t, rng, dt, nil, 1<<20+5)
		y := fastData(t, rng, dt, x, 1<<20+5)
		for _, name := range []string{"greater", "maximum", "sqrt", "max", "argmax"} {
			bothPaths(t, name+" "+dt.String(), func() *ndarray.NDArray {
				switch name {
				case "sqrt":
					return invokeNew(t, name, nil, x)
				case "max", "argmax":
					return mustReduce(t, name, x, "").Share()
				}
				return invokeNew(t, name, nil, x, y)
			})
		}
	}
}

// TestFastUnaryRowsMatchFloat64: the float32 rows of sqrt, sign, abs, negative and
// square, in C and in Go, and float64 sqrt's, give the bits of the float32 operations (sqrt: float64's
// rounded; sign: 0 for ±0 and NaN, as MXNet's; abs and negative: the sign bit alone,
// NaN payloads kept).
func TestFastUnaryRowsMatchFloat64(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(3))
	one := map[bool]float32{true: 1}
	fns := map[string]func(float32) float32{
		"sqrt":     func(x float32) float32 { return float32(math.Sqrt(float64(x))) },
		"abs":      func(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) },
		"negative": func(x float32) float32 { return -x },
		"square":   func(x float32) float32 { return x * x },
		"sign":     func(x float32) float32 { return one[x > 0] - one[x < 0] },
	}
	for _, n := range fastLens {
		x := fastData(t, rng, ndarray.Float32, nil, n)
		for _, in := range []*ndarray.NDArray{x, index(t, fastData(t, rng, ndarray.Float32, nil, 2*n), S(nil, nil, 2))} {
			for name, f := range fns {
				for _, c := range []bool{false, true} {
					was := simd.SetMath32(c)
					r := invokeNew(t, name, nil, in)
					got := rawValues[uint32](r)
					r.Release()
					simd.SetMath32(was)
					for i, v := range rawValues[float32](in) {
						require.Equal(t, math.Float32bits(f(v)), got[i], "%s(%x) n=%d C=%v", name, math.Float32bits(v), n, c)
					}
				}
			}
		}
		x64 := index(t, fastData(t, rng, ndarray.Float64, nil, 2*n), S(nil, nil, 2)) // float64 sqrt's rows
		for _, in := range []*ndarray.NDArray{x64, fastData(t, rng, ndarray.Float64, nil, n)} {
			for _, c := range []bool{false, true} {
				was := simd.SetMath32(c)
				r := invokeNew(t, "sqrt", nil, in)
				got := rawValues[uint64](r)
				r.Release()
				simd.SetMath32(was)
				for i, v := range rawValues[float64](in) {
					require.Equal(t, math.Float64bits(math.Sqrt(v)), got[i], "sqrt(%x) n=%d C=%v", math.Float64bits(v), n, c)
				}
			}
		}
	}
}

func TestFastMaxMinReductionsMatchGeneral(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewSource(4))
	for _, dt := range fastDTypes[1:] {
		if dt == ndarray.Float16 || dt == ndarray.Bfloat16 {
			continue // reduced in float64 (redFloatIO): not the native loops
		}
		for _, n := range fastLens {
			x := fastData(t, rng, dt, nil, 3, n)
			// ±0 and ∓1 in random places: the result a zero, the first of 0 and -0 wins
			zv := make([]float64, 2*n)
			for i := range zv {
				zv[i] = []float64{0, math.Copysign(0, -1), 1 - float64(2*(1-i/n))}[rng.Intn(3)]
			}
			zeros := fromValues(t, dt, zv, 2, n)
			ramp := make([]float64, n) // the maximum last, then the minimum
			for i := range ramp {
				ramp[i] = float64(i + 1)
			}
			for _, name := range []string{"max", "min", "argmax", "argmin"} {
				bothPaths(t, fmt.Sprintf("%s of a ramp %s n=%d", name, dt, n), func() *ndarray.NDArray {
					return mustReduce(t, name, fromValues(t, dt, ramp, n), "").Share()
				})
				for i := range ramp {
					ramp[i] = -ramp[i]
				}
				for _, p := range []int{0, n / 2, n - 17, n - 9, n - 8, n - 2} { // one extreme at p
					if p < 0 {
						continue
					}
					spike := make([]float64, n) // ∓1, and ±5 at p
					for i := range spike {
						spike[i] = ramp[0]
					}
					spike[p] = -ramp[0] * 5
					bothPaths(t, fmt.Sprintf("%s with its extreme at %d %s n=%d", name, p, dt, n), func() *ndarray.NDArray {
						return mustReduce(t, name, fromValues(t, dt, spike, n), "").Share()
					})
				}
				for _, attrs := range []string{"", "axis=1", "axis=0"} {
					bothPaths(t, fmt.Sprintf("%s(%s) %s n=%d", name, attrs, dt, n), func() *ndarray.NDArray {
						return mustReduce(t, name, x, attrs).Share()
					})
				}
				for _, row := range []int{0, 1} { // row 0: ±0 and -1 (max ±0), row 1: ±0 and 1 (min ±0)
					bothPaths(t, fmt.Sprintf("%s of zeros %s n=%d", name, dt, n), func() *ndarray.NDArray {
						return mustReduce(t, name, index(t, zeros, I(row), S(nil, nil, 2)), "").Share()
					})
				}
			}
		}
	}
}
