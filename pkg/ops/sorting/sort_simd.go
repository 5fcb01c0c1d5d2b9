package sorting

import (
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The values of a sort of 32-bit elements along contiguous lanes, and topk's, come from
// internal/simd's AVX-512 quicksort and quickselect where the CPU runs them: the radix
// sort's keys and bits (one NaN), 4-byte keys where the radix sort widens every key to 8,
// and no lane indices to carry.

var simdKinds = map[ndarray.DType]simd.Sort32Kind{
	ndarray.Float32: simd.Sort32Float32,
	ndarray.Int32:   simd.Sort32Int32,
	ndarray.Uint32:  simd.Sort32Uint32,
}

// simdParMin is the lane length from which one lane is split among the cores: a
// partition by a sampled pivot, then each side on its own, down to simdParDepth levels.
const (
	simdParMin   = 1 << 17
	simdParDepth = 3
)

// sortSimd writes the first k values of x's sorted lanes (ls) into out's (ol), and
// reports whether it did: false when C declines (not 32-bit elements, lanes not
// contiguous, AVX-512 off, misaligned). Fewer than all of a lane's values are a
// selection, then a sort of those.
func sortSimd(x, out *ndarray.NDArray, ls, ol ops.Lanes, k int, desc bool) bool {
	kind, ok := simdKinds[x.DType()]
	xb, ob := ops.LaneBase(x), ops.LaneBase(out)
	if !ok || ls.Stride != 1 && ls.N > 1 || ol.Stride != 1 && ol.N > 1 || !simd.Sort32On(ob, xb) {
		return false
	}
	n := ls.N
	if k < n {
		ops.ForLanes(len(ls.Starts), n, func() []uint32 { return make([]uint32, 2*n) }, func(tmp []uint32, lo, hi int) {
			simd.Sort32SelectRows(kind, desc, ob, ol.Starts[lo:hi], xb, ls.Starts[lo:hi], n, k, tmp)
		})
		return true
	}
	if len(ls.Starts) == 1 && n >= simdParMin && ndarray.Cores() >= 2 {
		src := unsafe.Slice((*uint32)(unsafe.Add(xb, ls.Starts[0]*4)), n)
		dst := unsafe.Slice((*uint32)(unsafe.Add(ob, ol.Starts[0]*4)), n)
		ndarray.ForItems(n, 1, func(lo, hi int) { simd.Sort32Keys(kind, desc, dst[lo:hi], src[lo:hi]) })
		sortKeysPar(dst, make([]uint32, n), simdParDepth)
		ndarray.ForItems(n, 1, func(lo, hi int) { simd.Sort32Values(kind, desc, dst[lo:hi]) })
		return true
	}
	ops.ForLanes(len(ls.Starts), n, func() []uint32 { return make([]uint32, n) }, func(tmp []uint32, lo, hi int) {
		simd.Sort32Rows(kind, desc, ob, ol.Starts[lo:hi], xb, ls.Starts[lo:hi], n, tmp)
	})
	return true
}

// sortKeysPar sorts the keys a (tmp: scratch of its length), its two sides of a
// partition at once while depth lasts.
func sortKeysPar(a, tmp []uint32, depth int) {
	if depth == 0 || len(a) < simdParMin {
		simd.Sort32Sort(a, tmp)
		return
	}
	lt, gt := simd.Sort32Partition(a, tmp)
	hi := len(a) - gt
	ndarray.ForChunks(2, 2, func(side, _ int) {
		if side == 0 {
			sortKeysPar(a[:lt], tmp[:lt], depth-1)
		} else {
			sortKeysPar(a[hi:], tmp[hi:], depth-1)
		}
	})
}
