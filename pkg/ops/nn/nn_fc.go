package nn

import (
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"

	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/gemm"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// FullyConnected: out = data @ weight.T + bias, as MXNet's (float32 and float64 on CPU),
// through the packed float32 gemm of gemm_f32.go or gonum's Dgemm (gemm.go); the
// transposed weight is a strided view, never a copy.

func init() {
	ops.Register(&ops.Op{
		Name: "FullyConnected",
		Doc: "Applies a linear transformation: out = data @ weight.T + bias (MXNet's FullyConnected).\n\n" +
			"The arrays are data, weight and, unless no_bias, bias, positionally or by name. With flatten " +
			"(the default) data of shape (n, d1, ..., dk) is read as (n, d1*...*dk) and the result is " +
			"(n, num_hidden); without it the last axis is transformed: (..., k) gives (..., num_hidden). " +
			"weight has shape (num_hidden, k), bias (num_hidden,). float32 and float64, all inputs of " +
			"one dtype (MXNet's CPU kernel has no float16).",
		Category: ops.General, Inputs: []string{"data", "weight", "bias?"}, DTypes: ops.F32F64DTypes,
		Params: []ops.Param{
			{Name: "num_hidden", Kind: ops.ParamInt, Doc: "the number of outputs (rows of weight)"},
			{Name: "no_bias", Kind: ops.ParamBool, Default: "0", Doc: "take no bias array"},
			{Name: "flatten", Kind: ops.ParamBool, Default: "1", Doc: "collapse the axes after the first"},
		},
		Infer: inferFC,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			m, k := fcDims(in[0].Shape(), at.Bool("flatten"))
			h := at.Int("num_hidden")
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { fcForward(m, k, h, x, y) },
				func(x [][]float64, y []float64) { fcForward(m, k, h, x, y) })
		},
		Grad: fcGrad,
	})
}

var fcInputs = []string{"data", "weight", "bias"}

// fcDims are the rows and columns of data read as a matrix.
func fcDims(s []int, flatten bool) (m, k int) {
	if flatten {
		k, _ = ndarray.Size(s[1:])
		return s[0], k
	}
	k = s[len(s)-1]
	m, _ = ndarray.Size(s[:len(s)-1])
	return m, k
}

func inferFC(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	h := at.Int("num_hidden")
	if h < 1 {
		return nil, 0, mxerr.ValueErr("FullyConnected: num_hidden must be at least 1, got %d", h)
	}
	if err := nnArity("FullyConnected", in, 3-nnB2i(at.Bool("no_bias"))); err != nil {
		return nil, 0, err
	}
	if err := nnSameDType("FullyConnected", in, fcInputs); err != nil {
		return nil, 0, err
	}
	s := in[0].Shape()
	if len(s) == 0 {
		return nil, 0, mxerr.ValueErr("FullyConnected: data must have at least one axis")
	}
	flatten := at.Bool("flatten")
	_, k := fcDims(s, flatten)
	if err := nnCheckShape("FullyConnected", "weight", in[1].Shape(), []int{h, k}); err != nil {
		return nil, 0, err
	}
	if len(in) == 3 {
		if err := nnCheckShape("FullyConnected", "bias", in[2].Shape(), []int{h}); err != nil {
			return nil, 0, err
		}
	}
	if flatten {
		return []int{s[0], h}, in[0].DType(), nil
	}
	return append(append([]int{}, s[:len(s)-1]...), h), in[0].DType(), nil
}

func nnB2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fcForward computes y (m, h) = x[0] (m, k) @ x[1].T (+ x[2]).
func fcForward[T nnFloat](m, k, h int, x [][]T, y []T) {
	nnGemm(m, h, k, x[0], k, 1, x[1], 1, k, y, true)
	if len(x) == 3 {
		fcAddBias(y, x[2], m, h)
	}
}

// fcAddBias adds bias to each of the m rows of y (m, h): row + bias in AVX2 where
// internal/simd runs it (the Go loop's bits), else nnAddBias.
func fcAddBias[T nnFloat](y, bias []T, m, h int) {
	var fast func(row []T) bool
	switch b := any(bias).(type) {
	case []float32:
		fast = func(row []T) bool { r := any(row).([]float32); return simd.Arith(simd.Add, r, r, b[:h]) }
	case []float64:
		fast = func(row []T) bool { r := any(row).([]float64); return simd.Arith(simd.Add, r, r, b[:h]) }
	}
	for i := 0; i < m; i++ {
		if row := y[i*h : (i+1)*h]; fast == nil || !fast(row) {
			nnAddBias(row, bias, 1, h, 1)
		}
	}
}

// nnAddBias adds bias[j] to each of the inner elements of y[i, j, :], y being
// (outer, len(bias), inner) in C order.
func nnAddBias[T nnFloat](y, bias []T, outer, nb, inner int) {
	for i := 0; i < outer; i++ {
		for j, b := range bias[:nb] {
			row := y[(i*nb+j)*inner : (i*nb+j+1)*inner]
			for p := range row {
				row[p] += b
			}
		}
	}
}

// nnGemm sets c (m x n, C order) = a @ b, where element (i, j) of a is a[i*ars + j*acs]
// and element (i, j) of b is b[i*brs + j*bcs]: the kernel of dot for T (gemm.go), on
// several cores when parallel.
func nnGemm[T nnFloat](m, n, k int, a []T, ars, acs int, b []T, brs, bcs int, c []T, parallel bool) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		clear(c[:m*n])
		return
	}
	dt := ndarray.Float32
	if unsafe.Sizeof(a[0]) == 8 {
		dt = ndarray.Float64
	}
	gemm.Kernels[dt](m, n, k, gemm.MView{P: unsafe.Pointer(&a[0]), Rs: ars, Cs: acs}, gemm.MView{P: unsafe.Pointer(&b[0]), Rs: brs, Cs: bcs},
		gemm.MView{P: unsafe.Pointer(&c[0]), Rs: n, Cs: 1}, parallel)
}
