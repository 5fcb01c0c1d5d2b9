package ops

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// ScatterAdd is the adjoint of a gather, the kernel of the gathers' gradients (take, pick,
// gather_nd, advanced indexing, sort, topk): out is zeroed, then each element i of g, in C
// order, is added at element offs[i] of out seen C-contiguous. Positions that several
// elements of g came from (repeated indices) get their sum. float32 and float64 add in
// their own dtype, as MXNet's kernels do; other dtypes add in float64 and round once.
func ScatterAdd(out, g *ndarray.NDArray, offs []int) error {
	g, err := ContiguousOf(g)
	if err != nil {
		return err
	}
	defer g.Release()
	return IntoContiguous(out, func(o *ndarray.NDArray) error {
		n, m := o.Size(), g.Size()
		switch o.DType() {
		case ndarray.Float32:
			scatterAddT(unsafe.Slice((*float32)(o.Data()), n), unsafe.Slice((*float32)(g.Data()), m), offs)
		case ndarray.Float64:
			scatterAddT(unsafe.Slice((*float64)(o.Data()), n), unsafe.Slice((*float64)(g.Data()), m), offs)
		default:
			io, size := IOTable[o.DType()], o.DType().Size()
			src := make([]float64, m)
			for i := range src {
				src[i] = real(io.LoadC(unsafe.Add(g.Data(), i*size)))
			}
			acc := make([]float64, n)
			scatterAddT(acc, src, offs)
			for i, v := range acc {
				io.StoreC(unsafe.Add(o.Data(), i*size), complex(v, 0))
			}
		}
		return nil
	})
}

func scatterAddT[T float32 | float64](dst, src []T, offs []int) {
	clear(dst)
	for i, v := range src {
		dst[offs[i]] += v
	}
}

// AlongOffsets is ScatterAdd's offs for the adjoint of GatherAlong from a C-contiguous
// array of shape: element (p, r, q) of the gather (or (p, q) per position) came from
// row rows[r] (rows[p*Q+q]) of axis.
func AlongOffsets(shape []int, axis int, rows []int, perPosition bool) []int {
	pre, _ := ndarray.Size(shape[:axis])
	post, _ := ndarray.Size(shape[axis+1:])
	n := shape[axis]
	var offs []int
	for p := 0; p < pre; p++ {
		if perPosition {
			for q := 0; q < post; q++ {
				offs = append(offs, (p*n+rows[p*post+q])*post+q)
			}
			continue
		}
		for _, r := range rows {
			for q := 0; q < post; q++ {
				offs = append(offs, (p*n+r)*post+q)
			}
		}
	}
	return offs
}
