package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/reduce"
)

// The AVX2 pairwise row sums (reduce_simd.c) against the Go ones, bit for bit, and sums
// through the operator that split long rows across cores: the same bits whatever
// GOMAXPROCS is.

// redSimdValues returns n values of mixed magnitudes; with specials, some are NaN,
// ±Inf, ±0, huge, tiny or subnormal.
func redSimdValues(rng *rand.Rand, n int, specials bool) []float64 {
	sp := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0,
		3e38, -3e38, 1e-38, -1e-45, 1e300, -1e-310}
	v := make([]float64, n)
	for i := range v {
		switch {
		case specials && rng.IntN(max(n/3, 4)) == 0:
			v[i] = sp[rng.IntN(len(sp))]
		default:
			v[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
		}
	}
	return v
}

// sameSum compares sums bit for bit, any NaN matching any NaN (payloads are not
// specified: the hardware keeps one operand's, and the order of operands is the compiler's).
func sameSum(t *testing.T, want, got float64, msg string, args ...any) {
	t.Helper()
	if math.IsNaN(want) && math.IsNaN(got) {
		return
	}
	require.Equal(t, math.Float64bits(want), math.Float64bits(got), "want %v got %v: %s", want, got, fmt.Sprintf(msg, args...))
}

func TestReduceSimdKernelsMatchGo(t *testing.T) {
	goF32, simdF32, goF64, simdF64 := reduce.PairwiseSumKernels()
	if simdF32 == nil {
		require.False(t, cpuHas("avx2"), "the CPU has AVX2, yet the C sum kernels are off")
		t.Log("no AVX2: only the Go sum kernels exist, and the reduction tests cover them")
		return
	}
	reduceSimdMatchesGo(t, goF32, simdF32, goF64, simdF64)
	reduceSimdRowsMatchGo(t, goF32, goF64)
}

func reduceSimdMatchesGo(t *testing.T, goF32, simdF32 func([]float32) float64, goF64, simdF64 func([]float64) float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	lengths := []int{}
	for n := 0; n <= 1000; n++ {
		lengths = append(lengths, n)
	}
	for range 40 {
		lengths = append(lengths, 1000+rng.IntN(300_000))
	}
	for _, n := range lengths {
		for _, specials := range []bool{false, true} {
			v64 := redSimdValues(rng, n, specials)
			v32 := make([]float32, n)
			for i, x := range v64 {
				v32[i] = float32(x)
			}
			sameSum(t, goF64(v64), simdF64(v64), "float64 n=%d", n)
			sameSum(t, goF32(v32), simdF32(v32), "float32 n=%d", n)
		}
		// Signed zeros: all -0.0 sums to -0.0 from 8 elements on (a running sum), +0.0 below.
		negz := make([]float64, n)
		for i := range negz {
			negz[i] = math.Copysign(0, -1)
		}
		sameSum(t, goF64(negz), simdF64(negz), "-0.0 n=%d", n)
	}
}

// reduceSimdRowsMatchGo checks simd.SumRows, many rows in one call, against the Go sum
// of each row: short, one-leaf and recursive rows, packed and apart.
func reduceSimdRowsMatchGo(t *testing.T, goF32 func([]float32) float64, goF64 func([]float64) float64) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 63, 100, 127, 128, 129, 300, 600} {
		for rows := range 10 {
			for _, gap := range []int{0, 3} {
				step := n + gap
				v64 := redSimdValues(rng, rows*step, true)
				v32 := make([]float32, len(v64)+1) // +1: a nil pointer never reaches C
				for i, x := range v64 {
					v32[i] = float32(x)
				}
				got32, got64 := make([]float64, rows), make([]float64, rows)
				require.True(t, simd.SumRows[float32](unsafe.Pointer(&v32[0]), step, n, got32) || rows == 0)
				v64 = append(v64, 0)
				require.True(t, simd.SumRows[float64](unsafe.Pointer(&v64[0]), step, n, got64) || rows == 0)
				for r := range rows {
					sameSum(t, goF32(v32[r*step:r*step+n]), got32[r], "float32 rows=%d n=%d gap=%d row %d", rows, n, gap, r)
					sameSum(t, goF64(v64[r*step:r*step+n]), got64[r], "float64 rows=%d n=%d gap=%d row %d", rows, n, gap, r)
				}
			}
		}
	}
}

// simd.SumPar (C's split of a row sum across the pool's threads) against the one-piece
// sum, bit for bit, for any number of parts, lengths around its cuts, and offsets.
func TestReduceSumParMatchesOnePiece(t *testing.T) {
	if _, ok := simd.SumF32(make([]float32, simd.SumMin)); !ok {
		require.False(t, cpuHas("avx2"), "the CPU has AVX2, yet the C sum kernels are off")
		return
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{simd.SumMin, 2*simd.SumParMin - 1, 2 * simd.SumParMin, 2*simd.SumParMin + 9, 3*simd.SumParMin + 5, 100_013, 200_003} {
		vals := redSimdValues(rng, n+3, false) // finite: a sum a bit off shows
		f32 := make([]float32, len(vals))
		for i, v := range vals {
			f32[i] = float32(v)
		}
		for off := range 3 {
			w32, _ := simd.SumF32(f32[off : off+n])
			w64, _ := simd.SumF64(vals[off : off+n])
			for _, parts := range []int{1, 2, 3, 4, 7, 64, 100} {
				g32, ok := simd.SumPar(f32[off:off+n], parts)
				require.True(t, ok)
				sameSum(t, w32, g32, "float32 n=%d off=%d parts=%d", n, off, parts)
				g64, _ := simd.SumPar(vals[off:off+n], parts)
				sameSum(t, w64, g64, "float64 n=%d off=%d parts=%d", n, off, parts)
			}
		}
	}
}

// TestReduceSumLongRowsExact sums long float32 and float64 arrays (contiguous, several
// rows, and a view whose rows are not contiguous with each other) under several
// GOMAXPROCS: the bits must be those of the single-threaded pairwise sum.
func TestReduceSumLongRowsExact(t *testing.T) {
	goF32, _, goF64, _ := reduce.PairwiseSumKernels()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1 << 15, 1<<15 + 7, 50_001, 1 << 17, 1<<17 + 13, 1_000_003, 3_000_000 + rng.IntN(1000)} {
		vals := redSimdValues(rng, n, false)
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			x := fromValues(t, dt, vals)
			s := 0 + goF64(vals) // the accumulator starts at 0
			if dt == ndarray.Float32 {
				s = 0 + goF32(rawValues[float32](x))
			}
			want := map[string]float64{"sum": redStored(dt, s), "mean": redStored(dt, s/float64(n))}
			for _, procs := range []int{1, 2, 3, 4, 8} {
				useCores(procs)
				for op, w := range want {
					got := values(t, mustReduce(t, op, x, ""))[0]
					sameSum(t, w, got, "%s %s n=%d procs=%d", op, dt, n, procs)
				}
			}
		}
	}
	// Rows: (3, m) reduced along axis 1, all of it, and all of a view dropping columns.
	m := 400_001
	vals := redSimdValues(rng, 3*m, false)
	x := fromValues(t, ndarray.Float64, vals, 3, m)
	rowSums := make([]float64, 3)
	for i := range rowSums {
		rowSums[i] = goF64(vals[i*m : (i+1)*m])
	}
	view := index(t, x, S(nil, nil, nil), S(nil, m-5, nil))
	viewSum := 0.0
	for i := range 3 {
		viewSum += goF64(vals[i*m : i*m+m-5])
	}
	for _, procs := range []int{1, 2, 3, 4} {
		useCores(procs)
		got := values(t, mustReduce(t, "sum", x, "axis=1"))
		for i := range rowSums {
			sameSum(t, 0+rowSums[i], got[i], "row %d procs=%d", i, procs)
		}
		sameSum(t, 0+goF64(vals), values(t, mustReduce(t, "sum", x, ""))[0], "all procs=%d", procs)
		sameSum(t, viewSum, values(t, mustReduce(t, "sum", view, ""))[0], "view procs=%d", procs)
	}
}

// redStored is the float64 accumulator v as stored in dt.
func redStored(dt ndarray.DType, v float64) float64 {
	if dt == ndarray.Float32 {
		return float64(float32(v))
	}
	return v
}

// BenchmarkReduceF32 is a full sum, and a full max, of a contiguous float32 array into a
// preallocated output. Run with
//
//	go test ./tests_go/ -run '^$' -bench ReduceF32 -benchtime 100x
func BenchmarkReduceF32(b *testing.B) {
	for _, name := range []string{"sum", "max"} {
		b.Run(name, func(b *testing.B) { benchReduceF32(b, name) })
	}
}

func benchReduceF32(b *testing.B, name string) {
	op, err := ops.Lookup(name)
	require.NoError(b, err)
	at, err := ops.ParseAttrs(op, "")
	require.NoError(b, err)
	for _, n := range []int{100_000, 1_000_000, 10_000_000, 100_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x, err := ndarray.Empty(ndarray.Float32, []int{n}, device.Host)
			require.NoError(b, err)
			defer x.Release()
			require.NoError(b, ops.WaitToWrite(x))
			xs := unsafe.Slice((*float32)(x.Data()), n)
			for i := range xs {
				xs[i] = float32(i%1000) - 500
			}
			out, err := ndarray.Empty(ndarray.Float32, []int{1}, device.Host) // MXNet 1.x: a full reduction has shape (1,)
			require.NoError(b, err)
			defer out.Release()
			b.SetBytes(int64(4 * n))
			for b.Loop() {
				r, err := op.Invoke([]*ndarray.NDArray{x}, out, at)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
				if err := ops.WaitToRead(out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReduceShortRowsInOneCall: sums and means of many short contiguous rows (axis 1 of
// (rows, n), the last two axes of (4, rows/4, ...)), which go to C a batch of rows at a
// time, on contiguous arrays and views whose rows are strided or reversed: each output
// the row's own pairwise sum, bit for bit, for rows shorter and longer than a batch and
// lengths around the pairwise sum's blocks; nansum and norm, which keep their own row
// kernels, still skip NaN and take absolute values.
func TestReduceShortRowsInOneCall(t *testing.T) {
	checkLeaks(t)
	goF32, _, goF64, _ := reduce.PairwiseSumKernels()
	rng := rand.New(rand.NewPCG(5, 6))
	// (rows of 8 to 15 are not here: under many of them reducePlan walks the kept axis
	// innermost and adds in sequence)
	for _, n := range []int{1, 7, 16, 63, 64, 128, 129, 196, 1000} {
		for _, rows := range []int{3, 300} {
			vals := redSimdValues(rng, 2*rows*n, false)
			for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
				full := fromValues(t, dt, vals, 2*rows, n)
				views := map[string]*ndarray.NDArray{
					"contiguous":      index(t, full, S(nil, rows, nil)),
					"every other row": index(t, full, S(nil, nil, 2)),
					"reversed rows":   index(t, full, S(nil, nil, -1)),
				}
				for name, x := range views {
					xv := values(t, x)
					m := x.Shape()[0]
					for _, op := range []string{"sum", "mean"} {
						got := values(t, mustReduce(t, op, x, "axis=1"))
						for r := range m {
							row := xv[r*n : (r+1)*n]
							s := 0 + goF64(row)
							if dt == ndarray.Float32 {
								r32 := make([]float32, n)
								for i, v := range row {
									r32[i] = float32(v)
								}
								s = 0 + goF32(r32)
							}
							if op == "mean" {
								s /= float64(n)
							}
							sameSum(t, redStored(dt, s), got[r], "%s %s n=%d rows=%d %s row %d", op, dt, n, rows, name, r)
						}
					}
				}
			}
		}
	}
	x := fromValues(t, ndarray.Float32, []float64{1, math.NaN(), -2, 4, -8, 16}, 2, 3)
	require.Equal(t, []float64{-1, 12}, values(t, mustReduce(t, "nansum", x, "axis=1")))
	y := fromValues(t, ndarray.Float32, []float64{1, -2, 3, -4, 5, -6}, 2, 3)
	require.Equal(t, []float64{6, 15}, values(t, mustOp(t, "norm", "ord=1;axis=1", y)))
}

// firstBest is the serial fold argmax and argmin keep: the first index of the best
// value (±0 equal), or -1 past a NaN (where C declines).
func firstBest[T float32 | float64](isMax bool, x []T) int {
	bi := 0
	for i, v := range x {
		if v != v {
			return -1
		}
		if (isMax && v > x[bi]) || (!isMax && v < x[bi]) {
			bi = i
		}
	}
	return bi
}

// simd.ArgMaxMin (one pass, four chains of AVX2 or AVX-512F lanes) finds the serial
// fold's index on rows of few distinct values (ties in every lane and chain), with ±0,
// ±Inf, the best at each end and around the chains' and the tail's boundaries, and
// declines on NaN. Where the CPU lacks AVX-512F both settings run AVX2's lanes.
func TestArgMaxMinOnePassIsTheFirstBest(t *testing.T) {
	inC := simd.SetMaxMin(true) // whether the CPU runs the kernels (AVX2)
	rng := rand.New(rand.NewPCG(9, 9))
	vals := []float64{math.Inf(-1), -2, -1, math.Copysign(0, -1), 0, 1, 2, math.Inf(1)}
	for _, n := range []int{128, 129, 159, 160, 161, 191, 192, 1000, 4099} {
		for trial := range 40 {
			distinct := 1 + trial%len(vals)
			pick := vals[rng.IntN(len(vals)-distinct+1):][:distinct]
			x64 := make([]float64, n)
			for i := range x64 {
				x64[i] = pick[rng.IntN(len(pick))]
			}
			if trial%5 == 0 { // a single best somewhere near a boundary
				p := []int{0, n - 1, 31, 32, 63, 64, n - n%32, n - n%32 - 1}[trial/5%8]
				x64[min(max(p, 0), n-1)] = 3
			}
			if trial%7 == 0 {
				x64[rng.IntN(n)] = math.NaN()
			}
			x32 := make([]float32, n)
			for i, v := range x64 {
				x32[i] = float32(v)
			}
			for _, c := range []struct{ isMax, wide bool }{{true, true}, {false, true}, {true, false}, {false, false}} {
				isMax := c.isMax
				was := simd.SetArgMaxMin512(c.wide) // AVX2's lanes, or AVX-512F's where the CPU has them
				want := firstBest(isMax, x64)
				got, ok := simd.ArgMaxMin(isMax, x64)
				got32, ok32 := simd.ArgMaxMin(isMax, x32)
				simd.SetArgMaxMin512(was)
				if !inC { // C declines every row
					require.False(t, ok || ok32)
					continue
				}
				msg := fmt.Sprintf("n=%d trial %d %+v", n, trial, c)
				require.Equal(t, want >= 0, ok, "float64 "+msg)
				require.Equal(t, want >= 0, ok32, "float32 "+msg)
				if want >= 0 {
					require.Equal(t, want, got, "float64 "+msg)
					require.Equal(t, want, got32, "float32 "+msg)
				}
			}
		}
	}
}
