package sorting

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's sort, argsort and topk: along one axis (None: the flattened array), stable
// (equal elements keep their order, in both directions), NaN above +inf. Indices come
// in the dtype parameter (float32 by default, as in MXNet). The kernels sort order keys
// (sort_keys.go), lanes in parallel.

// sortDTypes are the dtypes MXNet sorts (it refuses float16 and bool); topk also takes
// float16.
var (
	sortDTypes = []ndarray.DType{ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64, ndarray.Uint8,
		ndarray.Uint16, ndarray.Uint32, ndarray.Uint64, ndarray.Float32, ndarray.Float64}
	topkDTypes = append(slices.Clone(sortDTypes), ndarray.Float16)
	// indexDTypes are the dtypes MXNet writes indices in.
	indexDTypes = []ndarray.DType{ndarray.Float16, ndarray.Float32, ndarray.Float64, ndarray.Int32, ndarray.Int64, ndarray.Uint8}
)

const sortAxisDoc = "the axis to sort along (None: the flattened array)"

var (
	sortParams = []ops.Param{
		{Name: "axis", Kind: ops.ParamOptInt, Default: "-1", Doc: sortAxisDoc},
		{Name: "is_ascend", Kind: ops.ParamBool, Default: "1", Doc: "ascending (True) or descending order"},
	}
	indexDTypeParam = ops.Param{Name: "dtype", Kind: ops.ParamDType, Default: "float32", Doc: "dtype of the indices: " + ops.DTypeNames(indexDTypes)}
)

func init() {
	ops.Register(&ops.Op{
		Name: "sort", Grad: sortGrad,
		Doc: "Sorts the elements along an axis (a copy).\n\n" +
			"axis=None sorts the flattened array. NaN sorts above +inf; a descending sort puts it first.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: sortDTypes,
		Params: sortParams,
		Infer:  sortInfer("sort"), Kernel: sortKernel("sort"),
	})
	ops.Register(&ops.Op{
		Name: "argsort", Grad: ops.ZeroGrad,
		Doc: "Indices that sort the array along an axis, in the dtype parameter (float32 by default, as in MXNet).\n\n" +
			"The sort is stable in both directions: equal elements keep their order.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: sortDTypes,
		Params: append(slices.Clone(sortParams), indexDTypeParam),
		Infer:  sortInfer("argsort"), Kernel: sortKernel("argsort"),
	})
	ops.Register(&ops.Op{
		Name: "topk", Grad: sortGrad,
		Doc: "The k largest (or, with is_ascend, smallest) elements along an axis: their indices, values or a mask.\n\n" +
			"ret_typ 'indices' gives their indices in the dtype parameter, 'value' the values, 'mask' an array of the\n" +
			"input's shape and dtype with 1 where they are, 'both' [values, indices] from one sort.\n" +
			"k < 1 takes the whole axis. Ties go to the lower index, as in MXNet.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: topkDTypes,
		Params: []ops.Param{
			{Name: "axis", Kind: ops.ParamOptInt, Default: "-1", Doc: sortAxisDoc},
			{Name: "k", Kind: ops.ParamInt, Default: "1", Doc: "how many elements to take (< 1: all)"},
			{Name: "ret_typ", Kind: ops.ParamString, Default: "indices", Doc: "what to return: indices, value, mask or both",
				Choices: []string{"indices", "value", "mask", "both"}},
			{Name: "is_ascend", Kind: ops.ParamBool, Default: "0", Doc: "take the smallest elements instead"},
			indexDTypeParam,
		},
		InferOuts: topkInfer, Kernel: sortKernel("topk"),
	})
}

// sortRets is what an operator writes, a result each: sort the values, argsort the
// indices, topk its ret_typ ('both': the values and the indices).
func sortRets(name string, at ops.Attrs) []string {
	switch name {
	case "sort":
		return []string{"value"}
	case "argsort":
		return []string{"indices"}
	}
	if r := at.Str("ret_typ"); r != "both" {
		return []string{r}
	}
	return []string{"value", "indices"}
}

func sortInfer(name string) func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	return func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
		res, err := inferSorted(name, in[0], at)
		if err != nil {
			return nil, 0, err
		}
		return res[0].Shape, res[0].DType, nil
	}
}

func topkInfer(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
	return inferSorted("topk", in[0], at)
}

// inferSorted gives the shape and dtype of each of sortRets' results.
func inferSorted(name string, x *ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
	k := 0
	if name == "topk" {
		k = at.Int("k")
	}
	sp, err := newSortSpec(name, x, at, k)
	if err != nil {
		return nil, err
	}
	rets := sortRets(name, at)
	res := make([]ops.Result, len(rets))
	for i, ret := range rets {
		switch ret {
		case "value":
			res[i] = ops.Result{Shape: sp.valueShape, DType: x.DType()}
		case "mask":
			res[i] = ops.Result{Shape: x.Shape(), DType: x.DType()}
		default:
			res[i] = ops.Result{Shape: sp.valueShape, DType: at.DType("dtype")}
		}
	}
	return res, nil
}

func sortKernel(name string) func(in, out []*ndarray.NDArray, at ops.Attrs) error {
	return func(in, out []*ndarray.NDArray, at ops.Attrs) error {
		return runSort(name, in[0], out, at, sortRets(name, at))
	}
}

// sortSpec is a checked sort, argsort or topk call.
type sortSpec struct {
	axis       int // -1: the flattened array
	k          int // elements kept per lane
	valueShape []int
}

// newSortSpec checks the call; k is topk's parameter (0 for sort and argsort: all).
func newSortSpec(name string, x *ndarray.NDArray, at ops.Attrs, k int) (*sortSpec, error) {
	if dt, ok := at["dtype"].(ndarray.DType); ok && !slices.Contains(indexDTypes, dt) {
		return nil, mxerr.TypeErr("%s: dtype %s is not one of %s", name, dt, ops.DTypeNames(indexDTypes))
	}
	sp := &sortSpec{axis: -1}
	n := x.Size()
	if axis, ok := at.OptInt("axis"); ok {
		if x.NDim() == 0 {
			return nil, mxerr.ValueErr("%s: a 0-d array has no axis %d", name, axis)
		}
		a, err := ops.LaneAxis(name, axis, x.NDim())
		if err != nil {
			return nil, err
		}
		sp.axis, n = a, x.Shape()[a]
	}
	if k > n {
		return nil, mxerr.ValueErr("%s: k must be at most %d (the axis length), got k = %d", name, n, k)
	}
	if k < 1 {
		k = n
	}
	sp.k = k
	if sp.axis < 0 {
		sp.valueShape = []int{k}
	} else {
		sp.valueShape = slices.Clone(x.Shape())
		sp.valueShape[sp.axis] = k
	}
	return sp, nil
}

// runSort is the kernel of sort, argsort and topk; ret is what it writes: "value",
// "indices" or "mask".
func runSort(name string, x *ndarray.NDArray, outs []*ndarray.NDArray, at ops.Attrs, rets []string) error {
	k := 0
	if name == "topk" {
		k = at.Int("k")
	}
	sp, err := newSortSpec(name, x, at, k)
	if err != nil {
		return err
	}
	ols := make([]ops.Lanes, len(outs))
	if sp.axis < 0 {
		src, ls, release, err := ops.FlatLanes(x)
		if err != nil {
			return err
		}
		defer release()
		if rets[0] == "mask" {
			return ops.IntoContiguous(outs[0], func(o *ndarray.NDArray) error {
				ols[0] = ops.Lanes{N: ls.N, Stride: 1, Starts: []int{o.Offset()}}
				return sortLanes(src, []*ndarray.NDArray{o}, ls, ols, sp.k, at, rets)
			})
		}
		for i, out := range outs {
			ols[i] = ops.Lanes{N: sp.k, Stride: out.Strides()[0], Starts: []int{out.Offset()}}
		}
		return sortLanes(src, outs, ls, ols, sp.k, at, rets)
	}
	for i, out := range outs {
		ols[i] = ops.LanesOf(out, sp.axis)
	}
	return sortLanes(x, outs, ops.LanesOf(x, sp.axis), ols, sp.k, at, rets)
}

// sortLanes sorts each lane of x (ls) and writes the first k results into each out's
// lane (ols), as its ret says: the values, the indices or a mask.
func sortLanes(x *ndarray.NDArray, outs []*ndarray.NDArray, ls ops.Lanes, ols []ops.Lanes, k int, at ops.Attrs, rets []string) error {
	codec, ok := keyCodecs[x.DType()]
	if !ok {
		return mxerr.TypeErr("cannot sort dtype %s", x.DType())
	}
	desc := !at.Bool("is_ascend")
	if len(rets) == 1 && rets[0] == "value" && sortSimd(x, outs[0], ls, ols[0], k, desc) {
		return nil
	}
	withIdx := false
	storeIdx := make([]func(base unsafe.Pointer, off, stride int, idx []int), len(outs))
	bases := make([]unsafe.Pointer, len(outs))
	for i, ret := range rets {
		withIdx = withIdx || ret != "value"
		if ret == "indices" {
			storeIdx[i] = indexStorer(outs[i].DType())
		}
		bases[i] = ops.LaneBase(outs[i])
	}
	xb := ops.LaneBase(x)
	ops.ForLanes(len(ls.Starts), ls.N, func() *laneSorter { return &laneSorter{codec: codec, desc: desc} },
		func(s *laneSorter, lo, hi int) {
			for l := lo; l < hi; l++ {
				s.sort(xb, ls.Starts[l], ls.Stride, ls.N, k, withIdx)
				for i, ret := range rets {
					ol, ob := ols[i], bases[i]
					o := ol.Starts[l]
					switch ret {
					case "value":
						ndarray.ForItems(len(s.keys), 1, func(lo, hi int) {
							codec.store(ob, o+lo*ol.Stride, ol.Stride, s.keys[lo:hi])
						})
					case "indices":
						ndarray.ForItems(len(s.idx), 1, func(lo, hi int) {
							storeIdx[i](ob, o+lo*ol.Stride, ol.Stride, s.idx[lo:hi])
						})
					default: // mask: 0 everywhere, then 1 where the kept elements are
						io, esz := ops.IOTable[outs[i].DType()], outs[i].DType().Size()
						for j := 0; j < ol.N; j++ {
							io.StoreC(unsafe.Add(ob, (o+j*ol.Stride)*esz), 0)
						}
						for _, j := range s.idx {
							io.StoreC(unsafe.Add(ob, (o+j*ol.Stride)*esz), 1)
						}
					}
				}
			}
		})
	return nil
}
