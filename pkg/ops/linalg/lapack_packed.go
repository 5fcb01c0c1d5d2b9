package linalg

import (
	"math"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's linalg operators that only move elements between square matrices and vectors:
// extractdiag and makediag (a diagonal), extracttrian and maketrian (a triangle packed
// row by row). Each is a fixed list of (row, column) positions in packed order, copied
// in the array's own dtype straight between the operands' memory (any strides), with no
// float64 copy (unlike the LAPACK operators of lapack.go).

var diagParams = []ops.Param{{Name: "offset", Kind: ops.ParamInt, Default: "0", Doc: "which diagonal (0: the main one)"}}

var trianParams = []ops.Param{
	{Name: "offset", Kind: ops.ParamInt, Default: "0", Doc: "which diagonal bounds the triangle (0: the main one)"},
	{Name: "lower", Kind: ops.ParamBool, Default: "1", Doc: "with offset 0: the lower triangle, else the upper one"},
}

func init() {
	for _, diag := range []bool{true, false} {
		what, params := "diag", diagParams
		extractDoc := "Diagonal offset of each square matrix, as MXNet's linalg.extractdiag (offset > 0: above " +
			"the main diagonal, < 0: below)."
		makeDoc := "Square matrices with each vector (last axis) on diagonal offset, zero elsewhere, as MXNet's " +
			"linalg.makediag."
		if !diag {
			what, params = "trian", trianParams
			extractDoc = "Triangle of each square matrix, packed row by row into a vector, as MXNet's " +
				"linalg.extracttrian.\n\noffset > 0 takes the part above diagonal offset, < 0 the part below; offset 0 " +
				"takes the lower (lower=True) or upper triangle with the diagonal."
			makeDoc = "Square matrices whose triangle is filled row by row from each vector (last axis; its length " +
				"must be a triangular number), zero elsewhere, as MXNet's linalg.maketrian (the inverse of extracttrian)."
		}
		ops.Register(&ops.Op{
			Name: "linalg_extract" + what, Grad: packedGrad("linalg_make"+what, !diag), Doc: extractDoc, Category: ops.General, Inputs: []string{"A"}, Params: params,
			DTypes: ops.F32F64DTypes,
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				a := in[0].Shape()
				n, err := squareMatrices("linalg_extract"+what, a)
				if err != nil {
					return nil, 0, err
				}
				if n-laAbs(at.Int("offset")) <= 0 {
					return nil, 0, mxerr.ValueErr("linalg_extract%s: illegal offset %d for matrices of size %d",
						what, at.Int("offset"), n)
				}
				return laWithLast(a, 2, len(packedPositions(n, at, diag))), in[0].DType(), nil
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				n := in[0].Shape()[in[0].NDim()-1]
				copyPacked(in[0], out[0], packedPositions(n, at, diag), true)
				return nil
			},
		})
		ops.Register(&ops.Op{
			Name: "linalg_make" + what, Grad: packedGrad("linalg_extract"+what, !diag), Doc: makeDoc, Category: ops.General, Inputs: []string{"A"}, Params: params,
			DTypes: ops.F32F64DTypes,
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				n, err := madeSize("linalg_make"+what, in[0].Shape(), at, diag)
				if err != nil {
					return nil, 0, err
				}
				return laWithLast(in[0].Shape(), 1, n, n), in[0].DType(), nil
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				ops.FillKernel(out[0], ops.Scalar{})
				copyPacked(out[0], in[0], packedPositions(out[0].Shape()[out[0].NDim()-1], at, diag), false)
				return nil
			},
		})
	}
}

// madeSize is the size of the matrices makediag or maketrian build from vectors a.
func madeSize(name string, a []int, at ops.Attrs, diag bool) (int, error) {
	if len(a) == 0 {
		return 0, mxerr.ValueErr("%s: input A must have at least 1 dimension", name)
	}
	n := a[len(a)-1]
	if !diag {
		m := int(math.Floor(0.5 + (math.Sqrt(float64(8*n+1))-1)*0.5))
		if m*(m+1)/2 != n {
			return 0, mxerr.ValueErr("%s: the last axis has length %d, which is not a triangular number m(m+1)/2", name, n)
		}
		n = m
	}
	return n + laAbs(at.Int("offset")), nil
}

// packedPositions lists the (row, column) of each packed element of an n x n matrix:
// diagonal offset k, or (trian) MXNet's CopyTrian order: the lower triangle below
// diagonal k <= 0 row by row, or for k > 0 (or k == 0 without lower) the upper triangle,
// packed as the lower one of the transpose.
func packedPositions(n int, at ops.Attrs, diag bool) [][2]int {
	k := at.Int("offset")
	m := max(n-laAbs(k), 0)
	if diag {
		pos := make([][2]int, m)
		for i := range pos {
			pos[i] = [2]int{i + max(-k, 0), i + max(k, 0)}
		}
		return pos
	}
	upper := k > 0 || (k == 0 && !at.Bool("lower"))
	pos := make([][2]int, 0, m*(m+1)/2)
	for r := 0; r < m; r++ {
		for c := 0; c <= r; c++ {
			if upper {
				pos = append(pos, [2]int{c, r + laAbs(k)})
			} else {
				pos = append(pos, [2]int{r + laAbs(k), c})
			}
		}
	}
	return pos
}

// laBatchOffsets returns the element offset of each of a's problems: the index tuples
// of its axes before the last core ones, in C order.
func laBatchOffsets(a *ndarray.NDArray, core int) []int {
	shape, strides := a.Shape()[:a.NDim()-core], a.Strides()
	offs := []int{a.Offset()}
	for d := range shape {
		next := make([]int, 0, len(offs)*shape[d])
		for _, o := range offs {
			for i := 0; i < shape[d]; i++ {
				next = append(next, o+i*strides[d])
			}
		}
		offs = next
	}
	return offs
}

// copyPacked copies between the matrices of mat (last two axes) and the vectors of vec
// (last axis), element p of a vector being element pos[p] of its matrix: into vec when
// extract, else into mat.
func copyPacked(mat, vec *ndarray.NDArray, pos [][2]int, extract bool) {
	if mat.Size() == 0 || len(pos) == 0 {
		return
	}
	if mat.DType() == ndarray.Float32 {
		copyPackedT[float32](mat, vec, pos, extract)
	} else {
		copyPackedT[float64](mat, vec, pos, extract)
	}
}

// copyPackedT is copyPacked for one dtype: each position's element offset within a
// matrix is computed once, and the loop per matrix is a bare strided copy (a gather of
// one cache line per element of a diagonal, bound by the loads in flight: a lean loop
// keeps more of them in flight, and the matrices are split across the cores).
func copyPackedT[T float32 | float64](mat, vec *ndarray.NDArray, pos [][2]int, extract bool) {
	mo, vo := laBatchOffsets(mat, 2), laBatchOffsets(vec, 1)
	ms, vs := mat.Strides(), vec.Strides()
	rs, cs := ms[len(ms)-2], ms[len(ms)-1]
	size := int(unsafe.Sizeof(T(0)))
	offs := make([]int, len(pos)) // byte offsets within a matrix
	for p, rc := range pos {
		offs[p] = (rc[0]*rs + rc[1]*cs) * size
	}
	ps := vs[len(vs)-1] * size
	pm, pv := mat.Storage().Ptr(), vec.Storage().Ptr()
	tasks := min(ndarray.Cores(), len(mo), 1+len(mo)*len(pos)/(1<<14))
	ndarray.ForChunks(len(mo), tasks, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			m, v := unsafe.Add(pm, mo[b]*size), unsafe.Add(pv, vo[b]*size)
			if extract {
				for p, o := range offs {
					*(*T)(unsafe.Add(v, p*ps)) = *(*T)(unsafe.Add(m, o))
				}
			} else {
				for p, o := range offs {
					*(*T)(unsafe.Add(m, o)) = *(*T)(unsafe.Add(v, p*ps))
				}
			}
		}
	})
}

func laAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
