package layout

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The kernels of advanced indexing (pysrc/mxgo/ndarray/indexing.py): x[key] and
// x[key] = value with integer arrays in key. Python reduces the key to a view of x whose
// indexed axes are the k consecutive axes axis, ..., axis+k-1, and an integer array of
// shape (k, n): column j holds the indices of the j-th selected position (a negative one
// counts from the end: x[rows] = v passes rows as they are). _gather_axes
// replaces those k axes by the index arrays' broadcast shape (n elements); _scatter_axes
// writes value, with one axis of length n there, back into them. Indices are checked here
// too: Python's checks are not a memory bound.

func init() {
	axisParam := []ops.Param{{Name: "axis", Kind: ops.ParamInt, Doc: "the first of the indexed axes"}}
	ops.Register(&ops.Op{
		Name: "_gather_axes", Grad: gatherAxesGrad,
		Doc: "Advanced indexing's read: data's axes axis..axis+k-1 gathered at the columns of indices (k, n), " +
			"as an array of index_shape (n elements) in their place.",
		Category: ops.General, Inputs: []string{"data", "indices"},
		Params: append(axisParam, ops.Param{Name: "index_shape", Kind: ops.ParamShape, Doc: "the index arrays' broadcast shape"}),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, b := in[0].Shape(), at.Ints("index_shape")
			axis, k, n, err := indexedSpan(s, in[1], at.Int("axis"))
			if err != nil {
				return nil, 0, err
			}
			if m, err := ndarray.Size(b); err != nil || m != n {
				return nil, 0, mxerr.ValueErr("_gather_axes: index_shape %v does not hold %d indices", b, n)
			}
			shape := slices.Concat(s[:axis], b, s[axis+k:])
			if len(shape) > ndarray.MaxDims {
				return nil, 0, mxerr.ValueErr("advanced indexing: the result has %d dimensions, more than %d", len(shape), ndarray.MaxDims)
			}
			return shape, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a, axis := in[0], at.Int("axis")
			rows, err := spanOffsets(a.Shape(), a.Strides(), in[1], axis)
			if err != nil {
				return err
			}
			return ops.GatherSpan(out[0], a, axis, in[1].Shape()[0], rows, 1, false)
		},
	})
	ops.Register(&ops.Op{
		Name: "_scatter_axes",
		Doc: "Advanced indexing's write: data with value (data's shape with axes axis..axis+k-1 replaced by n) " +
			"written at the columns of indices (k, n). The last write to a position repeated in indices wins.",
		Category: ops.General, Inputs: []string{"data", "indices", "value"}, Params: axisParam, InPlace: true,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			axis, k, n, err := indexedSpan(s, in[1], at.Int("axis"))
			if err != nil {
				return nil, 0, err
			}
			if want := slices.Concat(s[:axis], []int{n}, s[axis+k:]); !slices.Equal(in[2].Shape(), want) {
				return nil, 0, mxerr.ValueErr("_scatter_axes: value has shape %s, the selection %s", ops.FmtShape(in[2].Shape()), ops.FmtShape(want))
			}
			if in[2].DType() != in[0].DType() {
				return nil, 0, mxerr.TypeErr("_scatter_axes: value is %s, data %s", in[2].DType(), in[0].DType())
			}
			return s, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			o, axis := out[0], at.Int("axis")
			if o != in[0] {
				ndarray.MoveElems(o, in[0])
			}
			rows, err := spanOffsets(o.Shape(), o.Strides(), in[1], axis)
			if err != nil {
				return err
			}
			return scatterSpan(o, in[2], axis, in[1].Shape()[0], rows)
		},
	})
}

// indexedSpan checks indices (int64, shape (k, n), k >= 1) against an array of shape s.
func indexedSpan(s []int, idx *ndarray.NDArray, axis int) (int, int, int, error) {
	is := idx.Shape()
	if !ops.IsIntegral(idx.DType()) || idx.DType() == ndarray.Bool || idx.DType() == ndarray.Uint64 || len(is) != 2 || is[0] < 1 {
		return 0, 0, 0, mxerr.TypeErr("advanced indexing: indices must be integers (not bool or uint64) of shape (k, n), got %s %s", idx.DType(), ops.FmtShape(is))
	}
	if axis < 0 || axis+is[0] > len(s) {
		return 0, 0, 0, mxerr.IndexErr("advanced indexing: %d indexed axes from axis %d in %d dimensions", is[0], axis, len(s))
	}
	return axis, is[0], is[1], nil
}

// spanOffsets returns, for each column of idx, the element offset of the indexed position
// in an array of the given shape and strides (over the indexed axes); IndexError for an
// index out of range.
func spanOffsets(shape, strides []int, idx *ndarray.NDArray, axis int) ([]int, error) {
	k, n := idx.Shape()[0], idx.Shape()[1]
	v := readIndices(idx, false)
	rows := make([]int, n)
	for i := range k {
		dim, st := shape[axis+i], strides[axis+i]
		for j, x := range v[i*n : (i+1)*n] {
			w := x
			if w < 0 {
				w += int64(dim)
			}
			if uint64(w) >= uint64(dim) { // also a negative one that stays negative
				return nil, mxerr.IndexErr("index %d is out of bounds for axis %d with size %d", x, axis+i, dim)
			}
			rows[j] += int(w) * st
		}
	}
	return rows, nil
}

// scatterSpan writes value (dst's shape with the span axes replaced by len(rows)) into dst
// at the element offsets rows, in C order, so that the last of repeated rows wins.
func scatterSpan(dst, value *ndarray.NDArray, axis, span int, rows []int) error {
	value, err := ops.ContiguousOf(value)
	if err != nil {
		return err
	}
	defer value.Release()
	s, st := dst.Shape(), dst.Strides()
	j := scatterJob{dst: dst.Storage().Ptr(), src: value.Data(), rows: rows,
		pre: ops.OffsetsOf(s[:axis], st[:axis], dst.Offset()), post: ops.OffsetsOf(s[axis+span:], st[axis+span:], 0),
		postRun: ndarray.IsContiguous(s[axis+span:], st[axis+span:])}
	switch dst.DType().Size() {
	case 1:
		scatterT[uint8](j)
	case 2:
		scatterT[uint16](j)
	case 4:
		scatterT[uint32](j)
	case 8:
		scatterT[uint64](j)
	default:
		scatterT[[2]uint64](j)
	}
	return nil
}

type scatterJob struct {
	dst, src        unsafe.Pointer
	pre, rows, post []int
	postRun         bool // post is 0, 1, ..., len(post)-1: each row is one copy
}

func scatterT[T any](j scatterJob) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	q := len(j.post)
	src := unsafe.Slice((*T)(j.src), len(j.pre)*len(j.rows)*q)
	if j.postRun {
		// Whole rows: the cores take a band of columns each, every row in order, so that
		// the last of repeated rows still wins everywhere.
		cols := func(lo, hi int) {
			i := 0
			for _, p := range j.pre {
				for _, r := range j.rows {
					copy(unsafe.Slice((*T)(unsafe.Add(j.dst, (p+r+lo)*size)), hi-lo), src[i+lo:i+hi])
					i += q
				}
			}
		}
		if bands := min(ndarray.Cores(), q*size/scatterBand); bands > 1 && len(src)*size >= scatterSplit {
			ndarray.ForChunks(q, bands, cols)
		} else {
			cols(0, q)
		}
		return
	}
	i := 0
	for _, p := range j.pre {
		for _, r := range j.rows {
			for _, o := range j.post {
				*(*T)(unsafe.Add(j.dst, (p+r+o)*size)) = src[i]
				i++
			}
		}
	}
}

const (
	// scatterSplit is the fewest bytes a scatter of whole rows splits across the cores;
	// scatterBand the narrowest band of a row a core takes.
	scatterSplit = 1 << 20
	scatterBand  = 1 << 10
)
