package layout

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// gather_nd with integer indices (x[i], x[rows], x[rows, cols] come here): each index
// tuple is checked, wrapped and read in one pass, with no table of offsets in between
// (ndOffsets + GatherSpan, the general path, allocates one int per tuple and reads the
// indices twice). Results are the general path's, bit for bit (tests_go/gather_ints_test.go).

func init() {
	ops.Register(&ops.Op{
		Name: "_gather_leading", Grad: gatherLeadingGrad,
		Doc: "Advanced indexing's x[i0, ..., ik-1] for k integer index arrays of one shape (arrays: data, then " +
			"the index arrays): data's first k axes gathered at them, the result the indices' shape + " +
			"data.shape[k:]. gather_nd of the stacked indices, without stacking them. A negative index counts " +
			"from the end; one outside [-n, n-1] raises IndexError.",
		Category: ops.General, Inputs: []string{"*arrays"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			if len(in) < 2 || len(in)-1 > in[0].NDim() {
				return nil, 0, mxerr.ValueErr("_gather_leading: %d index arrays for data of %d dimensions", len(in)-1, in[0].NDim())
			}
			is := in[1].Shape()
			for _, idx := range in[1:] {
				if !ops.IsIntegral(idx.DType()) || idx.DType() == ndarray.Uint64 || idx.DType() == ndarray.Bool {
					return nil, 0, mxerr.TypeErr("_gather_leading: index arrays must have an integer dtype other than uint64, not %s",
						idx.DType())
				}
				if !slices.Equal(idx.Shape(), is) {
					return nil, 0, mxerr.ValueErr("_gather_leading: index arrays of shapes %s and %s",
						ops.FmtShape(is), ops.FmtShape(idx.Shape()))
				}
			}
			shape := slices.Concat(is, in[0].Shape()[len(in)-1:])
			if len(shape) > ndarray.MaxDims {
				return nil, 0, mxerr.ValueErr("_gather_leading: the result has %d dimensions, more than %d", len(shape), ndarray.MaxDims)
			}
			return shape, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			cols := make([][]int64, len(in)-1)
			for j, idx := range in[1:] {
				cols[j] = int64Indices(idx)
			}
			return gatherNDInts(out[0], in[0], cols)
		},
	})
}

// gatherLeadingGrad is gather_nd's data gradient at the stacked indices.
var gatherLeadingGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	if !c.Need[0] {
		return grads, nil
	}
	idx, err := c.Call("stack", "axis=0", c.In[1:]...)
	if err != nil {
		return nil, err
	}
	defer idx.Release()
	op, err := ops.Lookup("_backward_gather_nd")
	if err != nil {
		return nil, err
	}
	grads[0], err = c.Run(op, []*ndarray.NDArray{c.OutGrad[0], idx}, ops.Attrs{"shape": slices.Clone(c.Shapes[0])})
	return grads, err
}}

// gatherNDInts writes into out data[cols[0][i], ..., cols[m-1][i], ...] for each of the k
// index tuples, m = len(cols) >= 1 columns of k indices each; IndexError (and out partly
// written) for an index outside [-n, n-1].
func gatherNDInts(out, a *ndarray.NDArray, cols [][]int64) error {
	s, st, m := a.Shape(), a.Strides(), len(cols)
	g := ndIntsJob{src: a.Storage().Ptr(), base: a.Offset(), cols: cols, dims: s[:m], strides: st[:m],
		k: len(cols[0]), post: ops.OffsetsOf(s[m:], st[m:], 0), run: ndarray.IsContiguous(s[m:], st[m:])}
	return ops.IntoContiguous(out, func(o *ndarray.NDArray) error {
		g.dst = unsafe.Add(o.Storage().Ptr(), o.Offset()*o.DType().Size())
		switch a.DType().Size() {
		case 1:
			return gatherNDIntsT[uint8](g)
		case 2:
			return gatherNDIntsT[uint16](g)
		case 4:
			return gatherNDIntsT[uint32](g)
		case 8:
			return gatherNDIntsT[uint64](g)
		default:
			return gatherNDIntsT[[2]uint64](g)
		}
	})
}

type ndIntsJob struct {
	dst, src      unsafe.Pointer
	base, k       int       // data's element offset; the number of index tuples
	cols          [][]int64 // one column of k indices per indexed axis
	dims, strides []int     // of the indexed axes
	post          []int     // element offsets of the positions after them
	run           bool      // post is 0, 1, ..., len(post)-1
}

// gatherNDIntsT runs g in blocks of ndBlock tuples, on the cores when g is large. A
// block is checked and read as the serial loop did, and the lowest block's error wins:
// the message does not depend on the split (out may be written around a bad index).
func gatherNDIntsT[T any](g ndIntsJob) error {
	blocks := (g.k + ndBlock - 1) / ndBlock
	errs := make([]error, blocks)
	// a read at a computed offset costs several times an element of a copy
	ndarray.ForItems(blocks, ndBlock*len(g.post)*4, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			if errs[b] = gatherNDIntsBlock[T](g, b*ndBlock, min(g.k, (b+1)*ndBlock)); errs[b] != nil {
				return
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ndBlock is the number of index tuples whose offsets are computed before their reads:
// the reads of a block stay independent of the index checks.
const ndBlock = 512

// gatherNDIntsBlock gathers tuples lo..hi-1 of g.
func gatherNDIntsBlock[T any](g ndIntsJob, lo, hi int) error {
	var zero T
	size := int(unsafe.Sizeof(zero))
	q, post := len(g.post), g.post
	src := unsafe.Add(g.src, g.base*size)
	var buf [ndBlock]int
	offs := buf[:hi-lo]
	for j, n := range g.dims {
		st, col := g.strides[j], g.cols[j][lo:hi]
		for i, v := range col {
			if v < 0 {
				v += int64(n)
			}
			if uint64(v) >= uint64(n) { // also a negative one that stays negative
				return mxerr.IndexErr("gather_nd: index %d is out of bounds for axis %d with size %d", col[i], j, n)
			}
			offs[i] += int(v) * st
		}
	}
	switch out := unsafe.Slice((*T)(unsafe.Add(g.dst, lo*q*size)), len(offs)*q); {
	case q == 1:
		at := unsafe.Add(src, post[0]*size)
		for i, o := range offs {
			out[i] = *(*T)(unsafe.Add(at, o*size))
		}
	case g.run:
		for i, o := range offs {
			copy(out[i*q:(i+1)*q], unsafe.Slice((*T)(unsafe.Add(src, o*size)), q))
		}
	default:
		for i, o := range offs {
			for p, po := range post {
				out[i*q+p] = *(*T)(unsafe.Add(src, (o+po)*size))
			}
		}
	}
	return nil
}
