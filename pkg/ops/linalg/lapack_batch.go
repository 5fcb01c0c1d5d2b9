package linalg

import (
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The batch driver of MXNet's linalg operators (lapack.go): every input is converted
// once to a C-order float64 copy (any layout, float32 or float64; gonum's LAPACK is
// float64 only), cut into its nb problems (the matrices of the batch axes), and a
// per-problem kernel writes C-order float64 results, which are then rounded into the
// output (any layout). The copies cost O(size), negligible next to the O(n^3) kernels,
// and LAPACK works in place, so one copy is needed anyway.

// matKernel solves one problem: in[i] and out[j] are its parts of the inputs and of
// the outputs, in C order. The inputs are laRun's copies, which a kernel may overwrite.
type matKernel func(in, out [][]float64) error

// f64Copy returns a's elements as a new C-order float64 array and its data.
func f64Copy(a *ndarray.NDArray) (*ndarray.NDArray, []float64, error) {
	t, err := ndarray.Empty(ndarray.Float64, a.Shape(), a.Device())
	if err != nil {
		return nil, nil, err
	}
	if a.DType() == ndarray.Float32 {
		ops.Convert[float64, float32](t, a)
	} else {
		ndarray.MoveElems(t, a)
	}
	return t, unsafe.Slice((*float64)(t.Storage().Ptr()), t.Size()), nil
}

// laRun runs k on each of the nb problems of in and writes outs (most operators have
// one result; slogdet, gelqf and syevd two). Problems run in parallel, in float64
// buffers converted to each out's dtype at the end.
func laRun(in, outs []*ndarray.NDArray, nb int, k matKernel) error {
	var bufs []*ndarray.NDArray
	defer func() { ops.ReleaseAll(bufs) }()
	ins := make([][]float64, len(in))
	for i, a := range in {
		b, data, err := f64Copy(a)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
		ins[i] = data
	}
	res := make([]*ndarray.NDArray, len(outs))
	flat := make([][]float64, len(outs))
	for j, out := range outs {
		r, err := ndarray.Empty(ndarray.Float64, out.Shape(), out.Device())
		if err != nil {
			return err
		}
		bufs = append(bufs, r)
		res[j], flat[j] = r, unsafe.Slice((*float64)(r.Storage().Ptr()), r.Size())
	}
	if err := forProblems(nb, ins, flat, k); err != nil {
		return err
	}
	for j, out := range outs {
		if out.DType() == ndarray.Float32 {
			ops.Convert[float32, float64](out, res[j])
		} else {
			ndarray.MoveElems(out, res[j])
		}
	}
	return nil
}

// forProblems runs k on problem b (the b-th equal part of every slice) for b < nb,
// spread over the cores; it returns the first error.
func forProblems(nb int, ins, outs [][]float64, k matKernel) error {
	if nb == 0 {
		return nil
	}
	part := func(s []float64, b int) []float64 {
		n := len(s) / nb
		return s[b*n : (b+1)*n : (b+1)*n]
	}
	var mu sync.Mutex
	var first error
	ndarray.ForChunks(nb, min(ndarray.Cores(), nb), func(lo, hi int) {
		in, out := make([][]float64, len(ins)), make([][]float64, len(outs))
		for b := lo; b < hi; b++ {
			for i, s := range ins {
				in[i] = part(s, b)
			}
			for j, s := range outs {
				out[j] = part(s, b)
			}
			if err := k(in, out); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				return
			}
		}
	})
	return first
}

// laBatchCount is the number of problems of shape: the product of its axes before the
// last core ones.
func laBatchCount(shape []int, core int) int {
	n := 1
	for _, d := range shape[:len(shape)-core] {
		n *= d
	}
	return n
}

// squareMatrices checks that x is a stack of square matrices (at least 2-D) and returns n.
func squareMatrices(name string, x []int) (int, error) {
	if len(x) < 2 {
		return 0, mxerr.ValueErr("%s: input A must have at least 2 dimensions (a stack of matrices), got shape %s",
			name, ops.FmtShape(x))
	}
	n := x[len(x)-1]
	if x[len(x)-2] != n {
		return 0, mxerr.ValueErr("%s: input A must be a stack of square matrices, got shape %s", name, ops.FmtShape(x))
	}
	return n, nil
}

// laWithLast returns shape with its last drop axes replaced by tail.
func laWithLast(shape []int, drop int, tail ...int) []int {
	return append(append([]int{}, shape[:len(shape)-drop]...), tail...)
}

// mirrorTriangle copies the lower (fromLower) or upper triangle of the n x n matrix a
// onto the other side, making it symmetric.
func mirrorTriangle(a []float64, n int, fromLower bool) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if fromLower {
				a[j*n+i] = a[i*n+j]
			} else {
				a[i*n+j] = a[j*n+i]
			}
		}
	}
}

// zeroTriangle clears the strict upper (upper) or lower triangle of the n x n matrix a.
func zeroTriangle(a []float64, n int, upper bool) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if upper {
				a[j*n+i] = 0
			} else {
				a[i*n+j] = 0
			}
		}
	}
}
