package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The AVX-512 sort of 32-bit lanes (internal/simd's sort32) gives the radix sort's bits:
// sort and topk's values (whole lanes, and the selections of k < n) over float32, int32 and uint32, both directions, lanes short
// and long (one long lane splits among the cores), NaNs of every sign and payload, ±0,
// infinities and subnormals, many ties, strided and misaligned inputs (which the radix
// sort keeps).

// sortWords are n random 32-bit words: a mixture of any bits, few distinct values, and
// for float32 the special values.
func sortWords(dt ndarray.DType, n int, rng *rand.Rand) []uint32 {
	special := []uint32{0x7fc00000, 0xffc00001, 0x7f800001, 0xff812345, 0x80000000, 0, 0x7f800000, 0xff800000, 1, 0x80000001}
	w := make([]uint32, n)
	for i := range w {
		switch r := rng.IntN(10); {
		case r < 5:
			w[i] = rng.Uint32()
		case r < 8:
			w[i] = uint32(rng.IntN(7)) * 0x01010101
		case dt == ndarray.Float32:
			w[i] = special[rng.IntN(len(special))]
		default:
			w[i] = []uint32{0, 0x80000000, 0x7fffffff, 0xffffffff}[rng.IntN(4)]
		}
	}
	return w
}

// bothSorts runs op on x with the AVX-512 sort and with the radix sort and requires the
// same bits.
func bothSorts(t *testing.T, what, op, attrs string, x *ndarray.NDArray) {
	t.Helper()
	simd.SetSort32(true)
	fast := rawValues[uint32](mustOp(t, op, attrs, x))
	simd.SetSort32(false)
	radix := rawValues[uint32](mustOp(t, op, attrs, x))
	simd.SetSort32(true)
	require.Equal(t, radix, fast, "%s %s(%s)", what, op, attrs)
}

func TestSort32MatchesRadixSort(t *testing.T) {
	checkLeaks(t)
	require.Equal(t, cpuHas("avx512f"), simd.Running()["sort32"], "the AVX-512 sort runs where the CPU has AVX-512F")
	if !simd.Running()["sort32"] {
		t.Log("this CPU has no AVX-512F: both runs take the radix sort")
	}
	defer simd.SetSort32(true)
	rng := rand.New(rand.NewPCG(31, 32))
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Int32, ndarray.Uint32} {
		for _, shape := range [][]int{{1}, {16}, {17}, {3, 255}, {2, 257}, {5, 1000}, {2, 4099}, {300001}, {3, 4, 33}} {
			x := empty(t, dt, shape...)
			rawSet(x, sortWords(dt, x.Size(), rng))
			what := fmt.Sprintf("%s %v", dt, shape)
			for _, asc := range []string{"1", "0"} {
				bothSorts(t, what, "sort", "axis=-1;is_ascend="+asc, x)
				bothSorts(t, what, "sort", "axis=None;is_ascend="+asc, x)
				bothSorts(t, what, "sort", "axis=0;is_ascend="+asc, x) // strided lanes: the radix sort
				n := shape[len(shape)-1]
				for _, k := range []int{0, 1, n/3 + 1, n - 1} { // 0: the whole lane, sorted
					bothSorts(t, what, "topk", fmt.Sprintf("k=%d;ret_typ=value;is_ascend=%s", k, asc), x)
				}
				bothSorts(t, what, "topk", "axis=None;k=1;ret_typ=value;is_ascend="+asc, x)
			}
			if len(shape) == 2 { // a view with negative column steps, and one starting a column in
				bothSorts(t, what+" reversed", "sort", "axis=-1", index(t, x, S(nil, nil, -1), S(nil, nil, -1)))
				bothSorts(t, what+" offset", "sort", "axis=-1", index(t, x, S(nil, nil, nil), S(1, nil, nil)))
			}
		}
	}
	vals := make([]float64, 777)
	for i := range vals {
		vals[i] = rng.NormFloat64()
	}
	bothSorts(t, "misaligned float32", "sort", "axis=-1", misaligned(t, ndarray.Float32, len(vals), 2, vals))
}

// The quicksort on keys alone: every pattern sorted, with the partition levels it may
// take before the heapsort takes over cut to none, one and its own.
func TestSort32QuicksortAndHeapsort(t *testing.T) {
	if !simd.Running()["sort32"] {
		require.False(t, cpuHas("avx512f"))
		t.Log("this CPU has no AVX-512F: the kernel cannot run here")
		return
	}
	rng := rand.New(rand.NewPCG(33, 34))
	patterns := map[string]func(i, n int) uint32{
		"random":     func(i, n int) uint32 { return rng.Uint32() },
		"ascending":  func(i, n int) uint32 { return uint32(i) },
		"descending": func(i, n int) uint32 { return uint32(n - i) },
		"equal":      func(i, n int) uint32 { return 7 },
		"two values": func(i, n int) uint32 { return uint32(i%2) * math.MaxUint32 },
		"organ pipe": func(i, n int) uint32 { return uint32(min(i, n-i)) },
		"sawtooth":   func(i, n int) uint32 { return uint32(i % 33) },
	}
	for name, gen := range patterns {
		for _, n := range []int{0, 1, 255, 256, 257, 1000, 5000, 70000} {
			want := make([]uint32, n)
			for i := range want {
				want[i] = gen(i, n)
			}
			sorted := slices.Clone(want)
			slices.Sort(sorted)
			for _, levels := range []int{-1, 0, 1} {
				a, tmp := slices.Clone(want), make([]uint32, n)
				if levels < 0 {
					simd.Sort32Sort(a, tmp)
				} else {
					simd.Sort32SortWithin(a, tmp, levels)
				}
				require.Equal(t, sorted, a, "%s n=%d levels=%d", name, n, levels)
			}
		}
	}
}
