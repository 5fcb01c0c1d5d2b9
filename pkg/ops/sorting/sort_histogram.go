package sorting

import (
	"math"
	"sort"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// _histogram: mx.nd.histogram's [counts, edges], one operator of two results. With one input, bin_cnt equal bins over [range_lo, range_hi] (a
// range of width 0 widened by 0.5 each way, as NumPy does); with two, the bins between
// consecutive edges of the second input (data's dtype, 1-D). Every bin holds its left
// edge, the last its right one too; values outside, and NaN, are not counted. Counts
// are int64, as MXNet's; the edges are in data's dtype (a copy of the bins array).

func init() {
	ops.Register(&ops.Op{
		Name:     "_histogram",
		Doc:      "Counts of data's elements per bin and the bins' edges (mx.nd.histogram): histogram(data, bin_cnt, range) or histogram(data, bins).",
		Category: ops.General, Inputs: []string{"*data"}, DTypes: ops.RealNumericDTypes,
		Params: []ops.Param{
			{Name: "bin_cnt", Kind: ops.ParamOptInt, Default: "None", Doc: "the number of equal bins (without a bins array)"},
			{Name: "range_lo", Kind: ops.ParamFloat, Default: "0", Doc: "the lower edge of the equal bins"},
			{Name: "range_hi", Kind: ops.ParamFloat, Default: "0", Doc: "the upper edge of the equal bins"},
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			n, err := histogramBins(in, at)
			return []ops.Result{{Shape: []int{n}, DType: ndarray.Int64}, {Shape: []int{n + 1}, DType: in[0].DType()}}, err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			n, err := histogramBins(in, at)
			if err != nil {
				return err
			}
			var bin func(v float64) int // the bin of v, or -1
			if len(in) == 2 {
				edges := histogramEdges(in[1])
				bin = func(v float64) int {
					if !(v >= edges[0] && v <= edges[n]) {
						return -1
					}
					return min(sort.SearchFloat64s(edges, math.Nextafter(v, math.Inf(1)))-1, n-1)
				}
			} else {
				lo, hi := histogramRange(at)
				w := (hi - lo) / float64(n)
				if ops.IsIntegral(in[0].DType()) && math.Trunc(w) > 0 {
					w = math.Trunc(w) // MXNet's bin width is in data's dtype: an integer division
				}
				bin = func(v float64) int {
					if !(v >= lo && v <= hi) {
						return -1
					}
					return min(int((v-lo)/w), n-1)
				}
			}
			counts := make([]int64, n)
			x := in[0]
			load, base, sz := ops.IOTable[x.DType()].LoadC, ops.LaneBase(x), x.DType().Size()
			for _, o := range ops.OffsetsOf(x.Shape(), x.Strides(), x.Offset()) {
				if b := bin(real(load(unsafe.Add(base, o*sz)))); b >= 0 {
					counts[b]++
				}
			}
			storeIdxAs[int64](ops.LaneBase(out[0]), out[0].Offset(), out[0].Strides()[0], intsOf(counts))
			if len(in) == 2 {
				return ndarray.CopyInto(out[1], in[1])
			}
			lo, hi := histogramRange(at)
			e, store, sz := out[1], ops.IOTable[out[1].DType()].StoreC, out[1].DType().Size()
			for i := 0; i <= n; i++ {
				v := lo // of no bins, the one edge lo
				if n > 0 {
					v += float64(i) * ((hi - lo) / float64(n))
				}
				store(unsafe.Add(ops.LaneBase(e), (e.Offset()+i*e.Strides()[0])*sz), complex(v, 0))
			}
			return nil
		},
	})
}

// histogramBins checks a call and returns its number of bins.
func histogramBins(in []*ndarray.NDArray, at ops.Attrs) (int, error) {
	cnt, ok := at.OptInt("bin_cnt")
	switch {
	case len(in) > 2:
		return 0, mxerr.TypeErr("histogram takes data and at most one bins array, got %d arrays", len(in))
	case len(in) == 2:
		b := in[1]
		if b.DType() != in[0].DType() {
			return 0, mxerr.TypeErr("histogram: bins have dtype %s, data %s (they must agree)", b.DType(), in[0].DType())
		}
		if b.NDim() != 1 || b.Size() < 1 {
			return 0, mxerr.ValueErr("histogram: bins must be a 1-D array of edges, got shape %v", b.Shape())
		}
		return b.Size() - 1, nil
	case !ok:
		return 0, mxerr.TypeErr("histogram needs bin_cnt or a bins array")
	case cnt < 0:
		return 0, mxerr.ValueErr("histogram: the number of bins must not be negative, got %d", cnt)
	case at.Float("range_lo") > at.Float("range_hi"):
		return 0, mxerr.ValueErr("histogram: range must be (lo, hi) with lo <= hi, got (%g, %g)", at.Float("range_lo"), at.Float("range_hi"))
	}
	return cnt, nil
}

// histogramRange is the range of equal bins, widened when it is empty.
func histogramRange(at ops.Attrs) (lo, hi float64) {
	lo, hi = at.Float("range_lo"), at.Float("range_hi")
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	return lo, hi
}

func histogramEdges(b *ndarray.NDArray) []float64 {
	load, base, sz := ops.IOTable[b.DType()].LoadC, ops.LaneBase(b), b.DType().Size()
	edges := make([]float64, b.Size())
	for i := range edges {
		edges[i] = real(load(unsafe.Add(base, (b.Offset()+i*b.Strides()[0])*sz)))
	}
	return edges
}

func intsOf(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}
