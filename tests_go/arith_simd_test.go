package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/elemwise"
)

// The AVX2 rows of float32 and float64 + - * / (internal/simd/arith_avx2.c) against arith.go's
// Go loops, bit for bit, NaN payloads included: every op, array and scalar forms (the
// scalar one reversed too), lengths 0..300 and some long ones, starts aligned to 32
// bytes and not, in place and not. Rows shorter than the C kernels' minimum run in Go
// either way, so the short lengths check the dispatch rather than C.

// arithSIMDOn reports whether the C kernels run here, failing where they should and
// do not.
func arithSIMDOn(t testing.TB) bool {
	t.Helper()
	require.NoError(t, ops.WaitAll())
	was := simd.SetArith(true)
	on := simd.SetArith(was)
	require.False(t, !on && cpuHas("avx2"), "the CPU has AVX2, yet the C kernels of + - * / are off")
	if !on {
		t.Log("no AVX2: the C kernels are off, and both runs below take the Go loops")
	}
	return on
}

// withArithSIMD runs f with the C kernels on or off.
func withArithSIMD(t testing.TB, on bool, f func()) {
	t.Helper()
	require.NoError(t, ops.WaitAll())
	was := simd.SetArith(on)
	defer func() {
		require.NoError(t, ops.WaitAll())
		simd.SetArith(was)
	}()
	f()
}

// simdFloat is what the kernels are for.
type simdFloat interface{ float32 | float64 }

// simdBits is x's bits, for exact comparison (NaN payloads, -0).
func simdBits[T simdFloat](x T) uint64 {
	if unsafe.Sizeof(x) == 4 {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(float64(x))
}

// simdSpecials are T's special values: NaNs of several payloads and signs (quiet and
// signaling), ±Inf, ±0, subnormals, the extremes.
func simdSpecials[T simdFloat]() []T {
	var z T
	if unsafe.Sizeof(z) == 4 {
		f := math.Float32frombits
		return []T{T(f(0x7fc00000)), T(f(0xffc00001)), T(f(0x7fc12345)), T(f(0x7f800001)), T(f(0xff812345)),
			T(float32(math.Inf(1))), T(float32(math.Inf(-1))), 0, T(f(0x80000000)),
			T(f(1)), T(f(0x80000001)), T(f(0x007fffff)), T(f(0x00400000)), T(f(0x00800000)),
			math.MaxFloat32, -math.MaxFloat32, 1e-38, -3e38, 1, -1}
	}
	f := math.Float64frombits
	return []T{T(f(0x7ff8000000000000)), T(f(0xfff8000000000001)), T(f(0x7ff8123456789abc)),
		T(f(0x7ff0000000000001)), T(f(0xfff0123456789abc)),
		T(math.Inf(1)), T(math.Inf(-1)), 0, T(f(0x8000000000000000)),
		T(f(1)), T(f(0x8000000000000001)), T(f(0x000fffffffffffff)), T(f(0x0008000000000000)),
		T(f(0x0010000000000000)), T(f(0x7fefffffffffffff)), T(f(0xffefffffffffffff)), T(f(0x01a56e1fc2f8f359)), T(f(0xffe1ccf385ebc8a0)), 1, -1}
}

// simdValues returns n values: about a quarter special, the rest random over 25 orders
// of magnitude, so that sums and products also overflow and underflow.
func simdValues[T simdFloat](rng *rand.Rand, n int) []T {
	sp := simdSpecials[T]()
	v := make([]T, n)
	for i := range v {
		if rng.IntN(4) == 0 {
			v[i] = sp[rng.IntN(len(sp))]
		} else {
			v[i] = T(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(25)-12)))
		}
	}
	return v
}

// simdCase is one row: o = x op y (form "array"), x op c ("scalar"), or c op x
// ("reversed"), with o, x and y starting at offsets into their buffers, and o the
// same slice as x or y where alias says so.
type simdCase[T simdFloat] struct {
	op               elemwise.BinaryOp
	form, alias      string
	n                int
	oOff, xOff, yOff int
	x, y             []T // inputs, n long
	c                T
}

// run computes the case in fresh buffers whose element 0 is 32-byte aligned and
// returns o (the aliased buffer for in-place cases).
func (k simdCase[T]) run() []T {
	buf := func(off int) []T {
		b := make([]T, k.n+off+64/int(unsafe.Sizeof(k.c)))
		for uintptr(unsafe.Pointer(unsafe.SliceData(b)))%32 != 0 {
			b = b[1:]
		}
		return b[off : off+k.n]
	}
	x, y := buf(k.xOff), buf(k.yOff)
	copy(x, k.x)
	copy(y, k.y)
	o := buf(k.oOff)
	switch k.alias {
	case "o=x":
		o = x
	case "o=y":
		o = y
	case "o=x=y":
		o, y = x, x
	case "x=y":
		y = x
	}
	switch k.form {
	case "array":
		elemwise.ArithRow(k.op, o, x, y)
	case "scalar":
		elemwise.ArithScalarRow(k.op, o, x, k.c, false)
	default:
		elemwise.ArithScalarRow(k.op, o, x, k.c, true)
	}
	return o
}

func (k simdCase[T]) String() string {
	return fmt.Sprintf("%T op %d %s n=%d offsets o%d x%d y%d %s c=%v", k.c, k.op, k.form, k.n, k.oOff, k.xOff, k.yOff, k.alias, k.c)
}

// checkSIMDCase runs k with the C kernels off and on and requires the same bits.
func checkSIMDCase[T simdFloat](t *testing.T, k simdCase[T]) {
	var goOut, cOut []T
	simd.SetArith(false)
	goOut = k.run()
	simd.SetArith(true)
	cOut = k.run()
	for i := range goOut {
		if simdBits(goOut[i]) != simdBits(cOut[i]) {
			xi, yi := k.x[i], k.c
			if k.form == "array" {
				yi = k.y[i]
			}
			require.Failf(t, "C and Go differ", "%v: element %d: x %v [%#x], y/c %v [%#x]: Go %v [%#x], C %v [%#x]",
				k, i, xi, simdBits(xi), yi, simdBits(yi), goOut[i], simdBits(goOut[i]), cOut[i], simdBits(cOut[i]))
		}
	}
}

var simdOps = []elemwise.BinaryOp{elemwise.Add, elemwise.Sub, elemwise.Mul, elemwise.Div}

// testSIMDRows runs every case for T.
func testSIMDRows[T simdFloat](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var lengths []int
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1000, 4101, 65536, 100_003)
	offsets := [][3]int{{0, 0, 0}, {1, 1, 1}, {0, 1, 3}, {3, 2, 0}} // o, x, y, in elements
	sp := simdSpecials[T]()
	require.NoError(t, ops.WaitAll())
	defer simd.SetArith(simd.SetArith(true))
	for _, n := range lengths {
		x, y := simdValues[T](rng, n), simdValues[T](rng, n)
		for _, op := range simdOps {
			for _, off := range offsets {
				for _, alias := range []string{"", "o=x", "o=y", "o=x=y", "x=y"} {
					checkSIMDCase(t, simdCase[T]{op: op, form: "array", alias: alias, n: n,
						oOff: off[0], xOff: off[1], yOff: off[2], x: x, y: y})
				}
				for _, form := range []string{"scalar", "reversed"} {
					c := T(rng.NormFloat64())
					if rng.IntN(2) == 0 {
						c = sp[rng.IntN(len(sp))]
					}
					for _, alias := range []string{"", "o=x"} {
						checkSIMDCase(t, simdCase[T]{op: op, form: form, alias: alias, n: n,
							oOff: off[0], xOff: off[1], x: x, y: y, c: c})
					}
				}
			}
		}
	}
}

func TestArithSIMDRowsMatchGo(t *testing.T) {
	arithSIMDOn(t)
	t.Run("float32", testSIMDRows[float32])
	t.Run("float64", testSIMDRows[float64])
}

// Where both operands are NaN, the result carries the first one's payload (x86's
// rule; Go's ADDSS and friends keep the source order): x's in x op y and x op c, c's
// in c - x and c / x, but x's in the reversed + and *, which arith.go computes as
// x + c and x * c. The C kernels must match on every op; a Go compiler that swapped
// operands would show here first.
func TestArithSIMDNaNPayloads(t *testing.T) {
	on := arithSIMDOn(t)
	const n = 100 // long enough for C
	xNaN, cNaN := math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00002)
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = xNaN, cNaN
	}
	for _, simd := range []bool{false, true} {
		withArithSIMD(t, simd, func() {
			for _, op := range simdOps {
				o := make([]float32, n)
				elemwise.ArithRow(op, o, x, y)
				require.Equal(t, math.Float32bits(xNaN), math.Float32bits(o[n-1]), "op %d array (C %v)", op, simd && on)
				elemwise.ArithScalarRow(op, o, x, cNaN, false)
				require.Equal(t, math.Float32bits(xNaN), math.Float32bits(o[0]), "op %d scalar (C %v)", op, simd && on)
				elemwise.ArithScalarRow(op, o, x, cNaN, true)
				want := cNaN
				if op == elemwise.Add || op == elemwise.Mul {
					want = xNaN
				}
				require.Equal(t, math.Float32bits(want), math.Float32bits(o[n/2]), "op %d reversed (C %v)", op, simd && on)
			}
		})
	}
}

// Through the operators: contiguous arrays (one row, split across cores when long),
// in place, a column broadcast along rows (the scalar form with the array's value as
// c) and a row broadcast over rows (several rows a call), the same bits with the C
// kernels on and off.
func TestArithSIMDOperators(t *testing.T) {
	checkLeaks(t)
	arithSIMDOn(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		for _, n := range []int{300, 200_001} {
			xv, yv := simdValues[float64](rng, n), simdValues[float64](rng, n)
			for _, op := range simdOps {
				run := func(t *testing.T, simd bool) (res [][]uint64) {
					withArithSIMD(t, simd, func() {
						a, b := fromValues(t, dt, xv), fromValues(t, dt, yv)
						out := empty(t, dt, n)
						require.NoError(t, elemwise.Binary(op, out, a, b))
						res = append(res, simdArrayBits(t, out))
						require.NoError(t, elemwise.BinaryScalar(op, out, a, floatScalar(yv[0]), true))
						res = append(res, simdArrayBits(t, out))
						col := fromValues(t, dt, yv[:3], 3, 1) // rows of a (3, n/3) against one value each
						a2 := fromValues(t, dt, xv[:n/3*3], 3, n/3)
						out2 := empty(t, dt, 3, n/3)
						require.NoError(t, elemwise.Binary(op, out2, col, a2))
						res = append(res, simdArrayBits(t, out2))
						require.NoError(t, elemwise.Binary(op, out2, a2, col)) // and each row against its value
						res = append(res, simdArrayBits(t, out2))
						// rows of 150 (R, 150) against one row (150,), both orders, and (2, R/2, 150)
						// against (R/2, 150): several rows a call into C (arithSIMDRows)
						r := n / 150 / 2 * 2
						row, a3 := fromValues(t, dt, yv[:150], 150), fromValues(t, dt, xv[:r*150], r, 150)
						out3 := empty(t, dt, r, 150)
						require.NoError(t, elemwise.Binary(op, out3, a3, row))
						res = append(res, simdArrayBits(t, out3))
						require.NoError(t, elemwise.Binary(op, out3, row, a3))
						res = append(res, simdArrayBits(t, out3))
						half := fromValues(t, dt, yv[:r/2*150], r/2, 150)
						a4, out4 := fromValues(t, dt, xv[:r*150], 2, r/2, 150), empty(t, dt, 2, r/2, 150)
						require.NoError(t, elemwise.Binary(op, out4, a4, half))
						res = append(res, simdArrayBits(t, out4))
						require.NoError(t, elemwise.Binary(op, a, a, b)) // in place
						res = append(res, simdArrayBits(t, a))
					})
					return res
				}
				t.Run(fmt.Sprintf("%s/op=%d/n=%d", dt, op, n), func(t *testing.T) { // frees the arrays as it ends
					require.Equal(t, run(t, false), run(t, true))
				})
			}
		}
	}
}

// simdArrayBits is a float32 or float64 array's bits in C order.
func simdArrayBits(t *testing.T, a *ndarray.NDArray) []uint64 {
	t.Helper()
	var out []uint64
	if a.DType() == ndarray.Float32 {
		for _, v := range rawValues[float32](a) {
			out = append(out, simdBits(v))
		}
		return out
	}
	for _, v := range rawValues[float64](a) {
		out = append(out, simdBits(v))
	}
	return out
}

// BenchmarkArithSIMD is float32 add through the operator, into a preallocated out,
// with the C kernels on ("c") and off ("go"), in ns per element. For NumPy's
// figure: np.add(a, b, out=o) on float32 of the same length.
func BenchmarkArithSIMD(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		for _, path := range []string{"c", "go"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, path), func(b *testing.B) {
				if path == "c" && !arithSIMDOn(b) {
					b.Log("no AVX2: the C kernels are off, so this runs the Go loops")
				}
				withArithSIMD(b, path == "c", func() {
					arr := func() *ndarray.NDArray {
						a, err := ndarray.Empty(ndarray.Float32, []int{n}, device.Host)
						require.NoError(b, err)
						b.Cleanup(a.Release)
						return a
					}
					x, y, out := arr(), arr(), arr()
					require.NoError(b, ops.Arange(x, 1, 1))
					require.NoError(b, ops.Arange(y, 0.5, 2))
					require.NoError(b, ops.WaitAll())
					for b.Loop() {
						if err := elemwise.Binary(elemwise.Add, out, x, y); err != nil {
							b.Fatal(err)
						}
						if err := ops.WaitToRead(out); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
				})
			})
		}
	}
}

// BenchmarkArithRowSIMD is one float32 or float64 row of add, called directly (no
// engine, one core), C against Go, for rows around the C kernels' minimum length
// (simd.ArithMin in internal/simd/arith.go: lower it to 8 to see C below it) and
// long ones.
func BenchmarkArithRowSIMD(b *testing.B) {
	bench := func(b *testing.B, n int, path string, f func()) {
		withArithSIMD(b, path == "c", func() {
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
		})
	}
	for _, n := range []int{64, 128, 256, 1024, 100_000, 1_000_000} {
		for _, path := range []string{"c", "go"} {
			x32, y32, o32 := make([]float32, n), make([]float32, n), make([]float32, n)
			x64, y64, o64 := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range x32 {
				x32[i], y32[i], x64[i], y64[i] = float32(i), 0.5, float64(i), 0.5
			}
			b.Run(fmt.Sprintf("f32/n=%d/%s", n, path), func(b *testing.B) {
				bench(b, n, path, func() { elemwise.ArithRow(elemwise.Add, o32, x32, y32) })
			})
			b.Run(fmt.Sprintf("f64/n=%d/%s", n, path), func(b *testing.B) {
				bench(b, n, path, func() { elemwise.ArithRow(elemwise.Add, o64, x64, y64) })
			})
		}
	}
}
