package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The float32 product (the packed AVX2 kernel where the CPU has one) against float64
// references: shapes around the register tile (6 x 16) and the cache blocks (k 256,
// rows 168, columns 4080), every operand layout, non-finite values, and splits across
// cores.

// gemmF32Layouts name the ways gemmF32Matrix can lay out a matrix.
var gemmF32Layouts = []string{"contiguous", "transposed", "step2", "reversed", "colslice"}

// gemmF32Matrix returns a rows x cols float32 matrix holding vals (C order) in the given
// layout: contiguous, transposed (a column-major view), step2 (every other row and
// column), reversed (negative row stride) or colslice (rows longer than the matrix).
func gemmF32Matrix(t *testing.T, how string, vals []float64, rows, cols int) *ndarray.NDArray {
	t.Helper()
	return gemmF32MatrixIn(t, how, vals, rows, cols, func(buf []float64, r, c int) *ndarray.NDArray {
		return fromValues(t, ndarray.Float32, buf, r, c)
	})
}

// gemmF32MatrixIn is gemmF32Matrix over the C-order r x c matrices that store makes.
func gemmF32MatrixIn(t *testing.T, how string, vals []float64, rows, cols int,
	store func(buf []float64, r, c int) *ndarray.NDArray) *ndarray.NDArray {
	t.Helper()
	at := func(i, j int) float64 { return vals[i*cols+j] }
	build := func(r, c int, f func(i, j int) float64) *ndarray.NDArray {
		buf := make([]float64, r*c)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				buf[i*c+j] = f(i, j)
			}
		}
		return store(buf, r, c)
	}
	switch how {
	case "contiguous":
		return build(rows, cols, at)
	case "transposed":
		return transposeView(t, build(cols, rows, func(i, j int) float64 { return at(j, i) }), nil)
	case "step2":
		wide := build(2*rows, 2*cols, func(i, j int) float64 {
			if i%2 != 0 || j%2 != 0 {
				return math.NaN() // never read
			}
			return at(i/2, j/2)
		})
		return index(t, wide, S(nil, nil, 2), S(nil, nil, 2))
	case "reversed":
		return index(t, build(rows, cols, func(i, j int) float64 { return at(rows-1-i, j) }), S(nil, nil, -1))
	case "colslice":
		wide := build(rows, cols+3, func(i, j int) float64 {
			if j == 0 || j > cols {
				return math.NaN()
			}
			return at(i, j-1)
		})
		return index(t, wide, all, S(1, cols+1, nil))
	}
	panic(how)
}

// gemmF32Values returns n values in [-1, 1) that float32 holds exactly.
func gemmF32Values(r *rand.Rand, n int) []float64 {
	out := randomFloats(r, n)
	for i, x := range out {
		out[i] = float64(float32(x))
	}
	return out
}

// refGemm64 returns a @ b in float64 and, per element, the sum of |a_ip * b_pj| that
// bounds float32's rounding error.
func refGemm64(a, b []float64, m, n, k int) (want, mag []float64) {
	want, mag = make([]float64, m*n), make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s, g float64
			for p := 0; p < k; p++ {
				s += a[i*k+p] * b[p*n+j]
				g += math.Abs(a[i*k+p] * b[p*n+j])
			}
			want[i*n+j], mag[i*n+j] = s, g
		}
	}
	return want, mag
}

// checkGemmF32 compares got with want within 1e-5 * mag per element (nan and inf exactly).
func checkGemmF32(t *testing.T, got, want, mag []float64, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	bad := 0
	for i, w := range want {
		g := got[i]
		var ok bool
		switch {
		case math.IsNaN(w):
			ok = math.IsNaN(g)
		case math.IsInf(w, 0):
			ok = g == w
		default:
			ok = math.Abs(g-w) <= 1e-5*mag[i]
		}
		if !ok {
			if bad < 5 {
				t.Errorf("%s: [%d] = %v, want %v (tolerance %g)", what, i, g, w, 1e-5*mag[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d elements wrong", what, bad, len(want))
	}
}

func TestGemmF32ShapesAndLayouts(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(3, 4))
	shapes := [][3]int{ // m, k, n
		{0, 5, 3}, {3, 0, 4}, {4, 5, 0},
		{1, 1, 1}, {1, 7, 1}, {2, 3, 2}, {7, 13, 5}, {6, 16, 16}, {5, 17, 15}, {7, 31, 17},
		{12, 256, 32}, {13, 257, 33}, {11, 255, 31}, {97, 101, 103},
		{1, 300, 1000}, {1000, 300, 1}, {1, 1000, 1}, {2500, 45, 1}, {1, 45, 2500}, {2000, 16, 3}, {3, 16, 2000},
		{169, 300, 170}, {337, 513, 61}, {5, 4100, 7}, {40, 9, 4100},
	}
	for _, s := range shapes {
		m, k, n := s[0], s[1], s[2]
		av, bv := gemmF32Values(r, m*k), gemmF32Values(r, k*n)
		want, mag := refGemm64(av, bv, m, n, k)
		layouts := gemmF32Layouts
		if m*n*k > 1<<20 { // large: a few combinations suffice
			layouts = []string{"contiguous", "transposed"}
		}
		for _, la := range layouts {
			for _, lb := range layouts {
				if m == 0 || n == 0 || k == 0 {
					la, lb = "contiguous", "contiguous"
				}
				a, b := gemmF32Matrix(t, la, av, m, k), gemmF32Matrix(t, lb, bv, k, n)
				got := values(t, mustOp(t, "dot", "", a, b))
				checkGemmF32(t, got, want, mag, fmt.Sprintf("%v %s . %s", s, la, lb))
			}
		}
	}
}

func TestGemmF32TransposeFlagsAndBatches(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(5, 6))
	const nb, m, k, n = 3, 37, 41, 29
	av, bv := gemmF32Values(r, nb*m*k), gemmF32Values(r, nb*k*n)
	want, mag := make([]float64, 0, nb*m*n), make([]float64, 0, nb*m*n)
	for i := 0; i < nb; i++ {
		w, g := refGemm64(av[i*m*k:(i+1)*m*k], bv[i*k*n:(i+1)*k*n], m, n, k)
		want, mag = append(want, w...), append(mag, g...)
	}
	a, b := fromValues(t, ndarray.Float32, av, nb, m, k), fromValues(t, ndarray.Float32, bv, nb, k, n)
	checkGemmF32(t, values(t, mustOp(t, "batch_dot", "", a, b)), want, mag, "batch_dot")
	checkGemmF32(t, values(t, mustOp(t, "matmul", "", a, b)), want, mag, "matmul")
	// the same operands stored transposed, through the transpose flags
	at := empty(t, ndarray.Float32, nb, k, m)
	require.NoError(t, ops.Copy(at, transposeView(t, a, []int{0, 2, 1})))
	bt := empty(t, ndarray.Float32, nb, n, k)
	require.NoError(t, ops.Copy(bt, transposeView(t, b, []int{0, 2, 1})))
	checkGemmF32(t, values(t, mustOp(t, "batch_dot", "transpose_a=1;transpose_b=1", at, bt)), want, mag, "batch_dot T T")
	a0, b0 := index(t, a, I(0)), index(t, b, I(0))
	at0, bt0 := index(t, at, I(0)), index(t, bt, I(0))
	for _, c := range []struct {
		attrs string
		l, r  *ndarray.NDArray
	}{{"", a0, b0}, {"transpose_a=1", at0, b0}, {"transpose_b=1", a0, bt0}, {"transpose_a=1;transpose_b=1", at0, bt0}} {
		checkGemmF32(t, values(t, mustOp(t, "dot", c.attrs, c.l, c.r)), want[:m*n], mag[:m*n], "dot "+c.attrs)
	}
	// one matrix broadcast over a batch
	var bwant, bmag []float64
	for i := 0; i < nb; i++ {
		w, g := refGemm64(av[i*m*k:(i+1)*m*k], bv[:k*n], m, n, k)
		bwant, bmag = append(bwant, w...), append(bmag, g...)
	}
	checkGemmF32(t, values(t, mustOp(t, "matmul", "", a, b0)), bwant, bmag, "matmul broadcast rhs")
}

// The split of a product across cores changes no bit of the result: every element
// sums its terms in the same order whatever block it falls in.
func TestGemmF32ResultIndependentOfSplit(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(7, 8))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range []struct {
		s      [3]int
		layout string
	}{
		{[3]int{301, 300, 299}, "contiguous"}, // split by rows
		{[3]int{13, 200, 900}, "contiguous"},  // by columns
		{[3]int{1003, 200, 1}, "transposed"},  // matrix . vector, summing columns
		{[3]int{1003, 200, 1}, "contiguous"},  // matrix . vector, dot products
	} {
		s, m, k, n := c.s, c.s[0], c.s[1], c.s[2]
		av, bv := gemmF32Values(r, m*k), gemmF32Values(r, k*n)
		a, b := gemmF32Matrix(t, c.layout, av, m, k), fromValues(t, ndarray.Float32, bv, k, n)
		want, mag := refGemm64(av, bv, m, n, k)
		var first []float32
		for _, procs := range []int{1, 2, 3, 4, 7} {
			useCores(procs)
			c := mustOp(t, "dot", "", a, b)
			got := rawValues[float32](c)
			if first == nil {
				first = got
				checkGemmF32(t, values(t, c), want, mag, fmt.Sprint(s))
				continue
			}
			require.Equal(t, first, got, "%v with GOMAXPROCS=%d", s, procs)
		}
	}
}

// Every term counts (NumPy's rule): 0 * inf and 0 * nan are nan, inf - inf is nan,
// in tiles of every kind (full, partial rows, partial columns).
func TestGemmF32NonFinite(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(9, 10))
	const m, k, n = 50, 300, 70
	av, bv := gemmF32Values(r, m*k), gemmF32Values(r, k*n)
	for p := 0; p < k; p++ {
		av[20*k+p] = 0 // a zero row of a
	}
	av[3*k+5], bv[5*n+9] = math.Inf(1), 0 // inf * 0 at (3, 9); +-inf elsewhere in row 3
	av[49*k+260], av[49*k+261] = math.Inf(1), math.Inf(1)
	bv[260*n+69], bv[261*n+69] = 1, -1 // inf - inf at (49, 69)
	bv[11*n+4] = math.Inf(-1)          // column 4: -inf or, for the zero row, nan
	bv[270*n+66] = math.NaN()          // column 66: nan
	want, mag := refGemm64(av, bv, m, n, k)
	require.True(t, math.IsNaN(want[3*n+9]) && math.IsNaN(want[20*n+4]) && math.IsNaN(want[49*n+69]))
	a, b := fromValues(t, ndarray.Float32, av, m, k), fromValues(t, ndarray.Float32, bv, k, n)
	checkGemmF32(t, values(t, mustOp(t, "dot", "", a, b)), want, mag, "non-finite")
	ta := gemmF32Matrix(t, "transposed", av, m, k)
	checkGemmF32(t, values(t, mustOp(t, "dot", "", ta, b)), want, mag, "non-finite, transposed lhs")
	// products with a vector: a . column 4 of b (-inf; nan in the zero row), row 3 of a . b
	bcol := make([]float64, k)
	for p := range bcol {
		bcol[p] = bv[p*n+4]
	}
	want, mag = refGemm64(av, bcol, m, 1, k)
	for _, la := range []string{"contiguous", "transposed"} {
		x := gemmF32Matrix(t, la, av, m, k)
		checkGemmF32(t, values(t, mustOp(t, "dot", "", x, fromValues(t, ndarray.Float32, bcol))), want, mag, "non-finite matrix . vector "+la)
	}
	want, mag = refGemm64(av[3*k:4*k], bv, 1, n, k)
	for _, lb := range []string{"contiguous", "transposed"} {
		y := gemmF32Matrix(t, lb, bv, k, n)
		checkGemmF32(t, values(t, mustOp(t, "dot", "", fromValues(t, ndarray.Float32, av[3*k:4*k]), y)), want, mag, "non-finite vector . matrix "+lb)
	}
}

// The result overwrites whatever out= held (nan included) and nothing beside it, even
// where tiles are partial.
func TestGemmF32IntoOutWithGarbageAndNeighbours(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(11, 12))
	for _, s := range [][3]int{{7, 300, 17}, {100, 20, 35}, {6, 16, 16}} {
		m, k, n := s[0], s[1], s[2]
		av, bv := gemmF32Values(r, m*k), gemmF32Values(r, k*n)
		want, mag := refGemm64(av, bv, m, n, k)
		a, b := fromValues(t, ndarray.Float32, av, m, k), fromValues(t, ndarray.Float32, bv, k, n)
		wide := empty(t, ndarray.Float32, m+1, n+2)
		require.NoError(t, ops.Fill(wide, floatScalar(math.NaN())))
		out := index(t, wide, S(0, m, nil), S(1, n+1, nil))
		_, err := runOp(t, "dot", []*ndarray.NDArray{a, b}, out, "")
		require.NoError(t, err)
		checkGemmF32(t, values(t, out), want, mag, fmt.Sprint(s))
		whole := values(t, wide)
		for i := 0; i <= m; i++ {
			for j := 0; j < n+2; j++ {
				if i == m || j == 0 || j == n+1 {
					require.True(t, math.IsNaN(whole[i*(n+2)+j]), "%v: wide[%d, %d] was written", s, i, j)
				}
			}
		}
	}
}

// Packing reads every layout of the operands into the same packed slivers (lines
// contiguous along k are transposed in registers, the others copied element by element),
// so the product has the same bits whatever the layouts: shapes around the 8-step
// transposes, the register tile and the k block.
func TestGemmF32SameBitsEveryLayout(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(9, 10))
	for _, s := range [][3]int{{2, 9, 17}, {5, 17, 15}, {6, 16, 16}, {7, 31, 17}, {13, 257, 33}, {64, 300, 40}} {
		m, k, n := s[0], s[1], s[2]
		av, bv := gemmF32Values(r, m*k), gemmF32Values(r, k*n)
		var want []uint32
		for _, la := range gemmF32Layouts {
			for _, lb := range gemmF32Layouts {
				got := f32Bits(t, mustOp(t, "dot", "", gemmF32Matrix(t, la, av, m, k), gemmF32Matrix(t, lb, bv, k, n)))
				if want == nil {
					want = got
				}
				require.Equal(t, want, got, "%v %s . %s", s, la, lb)
			}
		}
	}
}

// Products from several goroutines at once share internal/simd's thread pool: one of
// them holds it and the others run their blocks on their own threads. Every result has
// the bits of the same product run alone, whichever way it ran.
func TestGemmF32ConcurrentProductsShareThePool(t *testing.T) {
	checkLeaks(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	useCores(4)
	r := rand.New(rand.NewPCG(9, 10))
	shapes := [][3]int{{256, 200, 300}, {64, 300, 257}, {300, 128, 64}, {17, 900, 400}}
	type product struct {
		a, b *ndarray.NDArray
		want []float32
	}
	var ps []product
	for _, s := range shapes {
		m, k, n := s[0], s[1], s[2]
		a := fromValues(t, ndarray.Float32, gemmF32Values(r, m*k), m, k)
		b := fromValues(t, ndarray.Float32, gemmF32Values(r, k*n), k, n)
		ps = append(ps, product{a, b, rawValues[float32](mustOp(t, "dot", "", a, b))})
	}
	op, at, err := parsedOp(t, "dot", "")
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				p := ps[(g+i)%len(ps)]
				c, err := op.Invoke([]*ndarray.NDArray{p.a, p.b}, nil, at)
				if err != nil {
					errs <- err.Error()
					return
				}
				if !slices.Equal(rawValues[float32](c), p.want) {
					errs <- fmt.Sprintf("goroutine %d, product %d: other bits", g, (g+i)%len(ps))
				}
				c.Release()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
