package mxgotest

import (
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The float32 kernels of exp, sigmoid and tanh (pkg/ops/unary/exp32.go) against float64
// math rounded to float32: accuracy over a sweep of all float32 bit patterns, special
// values, and the same bits on every layout (contiguous, strided, broadcast, in place).
// Each runs on every kernel the CPU has: the AVX-512 and AVX2 ones in C (exp32_avx512.c,
// exp32_avx2.c: one algorithm, exp32_lanes.h, on 16 and 8 lanes), which take rows of 32
// elements and more, and the Go one, which takes the rest; the sweep also checks that
// they give the same bits.

// f32Paths are the kernels to test: "go" always, "avx2" and "avx512" where the CPU runs them.
func f32Paths(t *testing.T) []string {
	t.Helper()
	running := simd.Running()
	if !running["unary32"] && cpuHas("avx2") {
		t.Fatal("the CPU has AVX2, yet the C kernels of exp, sigmoid and tanh are off")
	}
	if !running["unary512"] && cpuHas("avx512f") {
		t.Fatal("the CPU has AVX-512F, yet the 16-lane kernels of exp, sigmoid and tanh are off")
	}
	switch {
	case running["unary512"]:
		return []string{"avx512", "avx2", "go"}
	case running["unary32"]:
		t.Log("no AVX-512: testing the AVX2 and Go kernels")
		return []string{"avx2", "go"}
	}
	t.Log("no AVX2: testing the Go kernels only")
	return []string{"go"}
}

// onF32Path runs f with the kernel named by path (see f32Paths) on.
func onF32Path(t *testing.T, path string, f func()) {
	t.Helper()
	require.NoError(t, ops.WaitAll())
	was, was512 := simd.SetUnary32(path != "go"), simd.SetUnary32AVX512(path == "avx512")
	defer func() {
		require.NoError(t, ops.WaitAll())
		simd.SetUnary32(was)
		simd.SetUnary32AVX512(was512)
	}()
	f()
}

// f32Ref is each operator's float64 reference.
var f32Ref = map[string]func(float64) float64{
	"exp":     math.Exp,
	"sigmoid": func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
	"tanh":    math.Tanh,
}

// f32MaxUlp is each operator's error bound, in ulp from float32 of its f32Ref, met by
// every float32 input (checked exhaustively when the kernels were written). Sigmoid's
// is 2: rounding e**-|x|, 1 + it and the quotient (pkg/ops/unary/exp32.go) put some x in
// [-16, -1] 2 ulp off.
var f32MaxUlp = map[string]int64{"exp": 1, "sigmoid": 2, "tanh": 1}

// f32Array allocates a float32 array holding vals in C order.
func f32Array(t *testing.T, vals []float32, shape ...int) *ndarray.NDArray {
	t.Helper()
	if shape == nil {
		shape = []int{len(vals)}
	}
	a := empty(t, ndarray.Float32, shape...)
	require.NoError(t, ops.WaitToWrite(a))
	copy(unsafe.Slice((*float32)(a.Data()), len(vals)), vals)
	return a
}

// f32Values reads a float32 array in C order (straight from memory when contiguous).
func f32Values(t *testing.T, a *ndarray.NDArray) []float32 {
	t.Helper()
	require.NoError(t, ops.WaitToRead(a))
	if a.Contiguous() {
		return append([]float32{}, unsafe.Slice((*float32)(a.Data()), a.Size())...)
	}
	return rawValues[float32](a)
}

// ulpDiff is the number of float32 values between a and b (0 for two NaNs; huge for
// NaN against a number). -0 and +0 are 0 apart.
func ulpDiff(a, b float32) int64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.MaxInt64
	}
	ord := func(f float32) int64 {
		u := int64(math.Float32bits(f))
		if u&(1<<31) != 0 {
			return -(u &^ (1 << 31))
		}
		return u
	}
	d := ord(a) - ord(b)
	return max(d, -d)
}

// checkF32 asserts that got is within f32MaxUlp of the rounded reference at every
// input, and exactly 0 or ±Inf only where the reference is (no flushing of subnormals).
func checkF32(t *testing.T, name string, in, got []float32) (worst int64) {
	t.Helper()
	op := strings.Fields(name)[0]
	ref, maxUlp := f32Ref[op], f32MaxUlp[op]
	bad := 0
	for i, x := range in {
		want := float32(ref(float64(x)))
		d := ulpDiff(got[i], want)
		worst = max(worst, d)
		if d > maxUlp || (got[i] == 0) != (want == 0) || math.IsInf(float64(got[i]), 0) != math.IsInf(float64(want), 0) {
			if bad++; bad <= 10 {
				t.Errorf("%s(%v) [%#08x] = %v, want %v (%d ulp)", name, x, math.Float32bits(x), got[i], want, d)
			}
		}
	}
	return worst
}

// TestF32KernelsAccuracySweep runs every 97th float32 bit pattern (every 9973rd with
// -short) through each operator on each kernel: at most f32MaxUlp from
// float32(math.F(float64(x))), and the same bits from the C and Go kernels.
func TestF32KernelsAccuracySweep(t *testing.T) {
	checkLeaks(t)
	step := uint64(97)
	if testing.Short() {
		step = 9973
	}
	paths := f32Paths(t)
	const chunk = 1 << 22
	for _, name := range []string{"exp", "sigmoid", "tanh"} {
		t.Run(name, func(t *testing.T) {
			in := make([]float32, 0, chunk)
			worst := map[string]int64{}
			eval := func() []float32 { // frees each chunk's arrays now, not when the test ends
				x, err := ndarray.Empty(ndarray.Float32, []int{len(in)}, device.Host)
				require.NoError(t, err)
				defer x.Release()
				copy(unsafe.Slice((*float32)(x.Data()), len(in)), in)
				out, err := ewTry(name, nil, nil, x)
				require.NoError(t, err)
				defer out.Release()
				return f32Values(t, out)
			}
			run := func() {
				var first []float32
				for _, path := range paths {
					var got []float32
					onF32Path(t, path, func() { got = eval() })
					worst[path] = max(worst[path], checkF32(t, name+" ("+path+")", in, got))
					if first == nil {
						first = got
						continue
					}
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(first[i]) {
							t.Fatalf("%s(%v) [%#08x]: %s kernel gives %v, %s kernel %v", name, in[i],
								math.Float32bits(in[i]), path, got[i], paths[0], first[i])
						}
					}
				}
				in = in[:0]
			}
			for b := uint64(0); b < 1<<32; b += step {
				if in = append(in, math.Float32frombits(uint32(b))); len(in) == chunk {
					run()
				}
			}
			run()
			for _, path := range paths {
				t.Logf("%s (%s): max error %d ulp", name, path, worst[path])
			}
		})
	}
}

// f32Specials are edge inputs: signed zeros, infinities, NaN, the extremes of the
// finite and subnormal ranges, and the thresholds where exp overflows (88.72),
// leaves the normal range (-87.34) and underflows to 0 (-103.97).
func f32Specials() []float32 {
	bits := func(u uint32) float32 { return math.Float32frombits(u) }
	vals := []float32{
		0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		bits(0x00800000), bits(0x80800000), 1, -1, 0.5, -0.5, 1e-3, -1e-3, 1e-8, -1e-8,
		9, 9.1, -9.1, 17, -17, 20, 110, -110, 1e4, -1e4,
	}
	for _, c := range []float32{88.72283935546875, -87.33654022216797, -103.97208404541016, -103.2789306640625} {
		u := math.Float32bits(c)
		for d := uint32(0); d < 4; d++ {
			vals = append(vals, bits(u+d), bits(u-d))
		}
	}
	return vals
}

func TestF32KernelsSpecialValues(t *testing.T) {
	checkLeaks(t)
	for _, path := range f32Paths(t) {
		t.Run(path, func(t *testing.T) { onF32Path(t, path, func() { checkF32Specials(t) }) })
	}
}

func checkF32Specials(t *testing.T) {
	in := f32Specials()
	for _, name := range []string{"exp", "sigmoid", "tanh"} {
		got := f32Values(t, ewInvoke(t, name, nil, f32Array(t, in)))
		checkF32(t, name, in, got)
	}
	// Values NumPy gives for float32 (np.exp, np.tanh, 1/(1+np.exp(-x))), each 4 times
	// over: a row long enough for the C kernel, whose last 4 take its tail code.
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	bits := math.Float32frombits // the last finite and first infinite exp, the last subnormal and first 0
	vals := []float32{inf, -inf, nan, 0, negZero, bits(0x42b17217), bits(0x42b17218), bits(0xc2cff1b4), bits(0xc2cff1b5)}
	const reps = 4
	var tiled []float32
	for range reps {
		tiled = append(tiled, vals...)
	}
	x := f32Array(t, tiled)
	eval := func(name string) [][]float32 {
		out := f32Values(t, ewInvoke(t, name, nil, x))
		parts := make([][]float32, reps)
		for i := range parts {
			parts[i] = out[i*len(vals) : (i+1)*len(vals)]
		}
		return parts
	}
	for _, exp := range eval("exp") {
		assert.Equal(t, []float32{inf, 0}, exp[:2])
		assert.True(t, math.IsNaN(float64(exp[2])))
		assert.Equal(t, []float32{1, 1}, exp[3:5])
		assert.Equal(t, float32(3.4027985e38), exp[5], "largest finite result")
		assert.Equal(t, []float32{inf, math.SmallestNonzeroFloat32, 0}, exp[6:])
	}
	for _, sig := range eval("sigmoid") {
		assert.Equal(t, []float32{1, 0}, sig[:2])
		assert.True(t, math.IsNaN(float64(sig[2])))
		assert.Equal(t, []float32{0.5, 0.5, 1, 1}, sig[3:7])
		assert.Equal(t, []float32{math.SmallestNonzeroFloat32, 0}, sig[7:], "e**x/(1 + e**x) underflows as e**x")
	}
	for _, th := range eval("tanh") {
		assert.Equal(t, []float32{1, -1}, th[:2])
		assert.True(t, math.IsNaN(float64(th[2])))
		assert.Equal(t, uint32(0), math.Float32bits(th[3]), "tanh(+0) is +0")
		assert.Equal(t, uint32(1<<31), math.Float32bits(th[4]), "tanh(-0) is -0")
	}
	// tanh(x) = x for tiny x, either sign, subnormals included.
	tiny := make([]float32, 0, 64)
	for _, u := range []uint32{1, 2, 0x7fffff, 0x800000, 0x1000000, 0x20000000, 0x30000000, 0x38000000} {
		tiny = append(tiny, bits(u), bits(u|1<<31))
	}
	for len(tiny) < 40 {
		tiny = append(tiny, tiny[len(tiny)%16])
	}
	for i, y := range f32Values(t, ewInvoke(t, "tanh", nil, f32Array(t, tiny))) {
		assert.Equal(t, math.Float32bits(tiny[i]), math.Float32bits(y), "tanh(%v)", tiny[i])
	}
}

// TestF32KernelsLayouts checks that every way of walking the data gives the bits of
// the contiguous kernel: transposed, stepped and reversed inputs, a broadcast input,
// a strided out, out aliasing the input (contiguous and strided), on shapes small
// and large enough to be split across cores.
func TestF32KernelsLayouts(t *testing.T) {
	checkLeaks(t)
	for _, path := range f32Paths(t) {
		t.Run(path, func(t *testing.T) { onF32Path(t, path, func() { checkF32Layouts(t) }) })
	}
}

func checkF32Layouts(t *testing.T) {
	for _, dims := range [][2]int{{7, 9}, {600, 501}} { // the second splits across cores (ndarray.SerialBelow)
		rows, cols := dims[0], dims[1]
		n := rows * cols
		vals := make([]float32, n)
		for i := range vals {
			vals[i] = float32(i%997)/997*40 - 20 // spans where exp, sigmoid and tanh are non-trivial
		}
		vals[n/2] = float32(math.NaN())
		vals[n/3] = float32(math.Inf(-1))
		for _, name := range []string{"exp", "sigmoid", "tanh"} {
			f := func(in []float32) []float32 { // the contiguous kernel, run on in
				return f32Values(t, ewInvoke(t, name, nil, f32Array(t, in)))
			}
			same := func(want, got []float32, what string) {
				t.Helper()
				require.Len(t, got, len(want), what)
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
						t.Fatalf("%s %s %dx%d: element %d: %v, contiguous gives %v", name, what, rows, cols, i, got[i], want[i])
					}
				}
			}
			base := f(vals)
			checkF32(t, name, vals, base)

			a := f32Array(t, vals, rows, cols)
			tr := transposeView(t, a, []int{1, 0})
			trVals := f32Values(t, tr)
			same(f(trVals), f32Values(t, ewInvoke(t, name, nil, tr)), "transposed input")

			step := index(t, a, S(nil, nil, -2), S(1, nil, 3))
			stepVals := f32Values(t, step)
			same(f(stepVals), f32Values(t, ewInvoke(t, name, nil, step)), "stepped, reversed input")

			row := index(t, a, S(0, 1, nil), all) // shape (1, cols) broadcast to (rows, cols)
			bc, err := row.BroadcastTo([]int{rows, cols})
			require.NoError(t, err)
			t.Cleanup(bc.Release)
			same(f(f32Values(t, bc)), f32Values(t, ewInvoke(t, name, nil, bc)), "broadcast input")

			// out is every other column of a wider array: a strided out.
			wide := empty(t, ndarray.Float32, rows, 2*cols)
			outView := index(t, wide, all, S(nil, nil, 2))
			require.NoError(t, ewInto(name, nil, outView, a))
			same(base, f32Values(t, outView), "strided out")
			require.NoError(t, ewInto(name, nil, outView, transposedLayout(t, a, rows, cols)))
			same(base, f32Values(t, outView), "strided out, transposed input")

			// In place: out is the input itself, contiguous and strided.
			c := f32Array(t, vals, rows, cols)
			require.NoError(t, ewInto(name, nil, c, c))
			same(base, f32Values(t, c), "in place")
			w := empty(t, ndarray.Float32, rows, 2*cols)
			wv := index(t, w, all, S(1, nil, 2))
			require.NoError(t, ops.Copy(wv, a))
			require.NoError(t, ewInto(name, nil, wv, wv))
			same(base, f32Values(t, wv), "in place, strided")
		}
	}
}

// transposedLayout holds a's values in a column-major buffer viewed as (rows, cols):
// an input whose rows are strided, for an out whose rows are strided too.
func transposedLayout(t *testing.T, a *ndarray.NDArray, rows, cols int) *ndarray.NDArray {
	t.Helper()
	m := empty(t, ndarray.Float32, cols, rows)
	mt := transposeView(t, m, []int{1, 0})
	require.NoError(t, ops.Copy(mt, a))
	return mt
}

// TestF32KernelsRowLengths checks every row length from 1 to 80, into a new array
// and in place, against the Go kernel: the C kernel's two-stage loop, its padded
// tail and the cut-over to C at 32 elements. One input mixes edge values into a ramp,
// so that exp's vectors take its path for |x| > 87 (which then runs on lanes with
// ordinary x too), the other is the ramp alone (its fast path).
func TestF32KernelsRowLengths(t *testing.T) {
	checkLeaks(t)
	paths := f32Paths(t)
	specials := f32Specials()
	for n := 1; n <= 80; n++ {
		ramp := make([]float32, n)
		mixed := make([]float32, n)
		for i := range ramp {
			ramp[i] = float32(i*37%101)/101*24 - 12
			mixed[i] = ramp[i]
			if i%3 == 0 {
				mixed[i] = specials[(i+n)%len(specials)]
			}
		}
		for _, in := range [][]float32{mixed, ramp} {
			for _, name := range []string{"exp", "sigmoid", "tanh"} {
				var want []float32
				for _, path := range paths {
					onF32Path(t, path, func() {
						got := f32Values(t, ewInvoke(t, name, nil, f32Array(t, in)))
						a := f32Array(t, in)
						require.NoError(t, ewInto(name, nil, a, a))
						for _, res := range [][]float32{got, f32Values(t, a)} {
							if want == nil {
								want = res
								checkF32(t, name, in, want)
							}
							for i := range res {
								if math.Float32bits(res[i]) != math.Float32bits(want[i]) {
									t.Fatalf("%s, n = %d, %s kernel: element %d (%v) is %v, want %v",
										name, n, path, i, in[i], res[i], want[i])
								}
							}
						}
					})
				}
			}
		}
	}
}
