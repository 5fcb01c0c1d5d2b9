package nn

import (
	"math"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/gemm"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Embedding, L2Normalization and LRN, as MXNet's.

func init() {
	ops.Register(&ops.Op{
		Name: "Embedding",
		Doc: "Looks up rows of weight (input_dim, output_dim) by the indices in data, as MXNet's Embedding: " +
			"the result has shape data.shape + (output_dim,) and weight's dtype. Indices are truncated toward " +
			"zero and clipped to [0, input_dim - 1]. dtype and sparse_grad are accepted for MXNet compatibility " +
			"(the result has weight's dtype, as in MXNet).",
		Category: ops.General, Inputs: []string{"data", "weight"},
		Params: []ops.Param{
			{Name: "input_dim", Kind: ops.ParamInt, Doc: "the number of rows of weight"},
			{Name: "output_dim", Kind: ops.ParamInt, Doc: "the number of columns of weight"},
			{Name: "dtype", Kind: ops.ParamDType, Default: "float32", Doc: "accepted for MXNet compatibility"},
			{Name: "sparse_grad", Kind: ops.ParamBool, Default: "0", Doc: "accepted for MXNet compatibility"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			rows, cols := at.Int("input_dim"), at.Int("output_dim")
			if rows < 1 || cols < 1 {
				return nil, 0, mxerr.ValueErr("Embedding: input_dim (%d) and output_dim (%d) must be at least 1", rows, cols)
			}
			for _, a := range in {
				if k := a.DType().Kind(); k == ndarray.KindComplex || k == ndarray.KindBool {
					return nil, 0, mxerr.TypeErr("Embedding does not support dtype %s", a.DType())
				}
			}
			if err := nnCheckShape("Embedding", "weight", in[1].Shape(), []int{rows, cols}); err != nil {
				return nil, 0, err
			}
			return append(append([]int{}, in[0].Shape()...), cols), in[1].DType(), nil
		},
		Kernel: embeddingKernel,
		Grad:   embeddingGrad,
	})
	ops.Register(&ops.Op{
		Name: "L2Normalization",
		Doc: "Divides data by its L2 norm, as MXNet's L2Normalization: out = x / sqrt(sum(x**2) + eps), the " +
			"sum over every axis but the first (mode 'instance'), over axis 1 ('channel') or over the axes after " +
			"the first two ('spatial'); the last two need data of at least 3 dimensions. float16, float32 and float64.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "eps", Kind: ops.ParamFloat, Default: "1e-10", Doc: "added to the sum of squares"},
			{Name: "mode", Kind: ops.ParamString, Default: "instance", Choices: []string{"instance", "channel", "spatial"},
				Doc: "which axes the norm runs over"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, err := l2NormSpec(in[0].Shape(), at)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s, err := l2NormSpec(in[0].Shape(), at)
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { l2Normalize(x[0], y, s) },
				func(x [][]float64, y []float64) { l2Normalize(x[0], y, s) })
		},
		Grad: l2NormGrad,
	})
	ops.Register(&ops.Op{
		Name: "LRN",
		Doc: "Local response normalisation across channels, as MXNet's LRN: out = x / (knorm + alpha/nsize * " +
			"sum of x**2 over the nsize channels around each one)**beta. data is 4-D (batch, channel, height, " +
			"width) float32, as MXNet's CPU kernel requires.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: []ndarray.DType{ndarray.Float32},
		Params: []ops.Param{
			{Name: "nsize", Kind: ops.ParamInt, Doc: "the number of channels summed (odd)"},
			{Name: "alpha", Kind: ops.ParamFloat, Default: "0.0001", Doc: "the scale of the sum of squares"},
			{Name: "beta", Kind: ops.ParamFloat, Default: "0.75", Doc: "the power"},
			{Name: "knorm", Kind: ops.ParamFloat, Default: "2", Doc: "the constant added"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if in[0].NDim() != 4 {
				return nil, 0, mxerr.ValueErr("LRN needs 4-D data (batch, channel, height, width), got shape %v", in[0].Shape())
			}
			if at.Int("nsize") < 1 {
				return nil, 0, mxerr.ValueErr("LRN: nsize must be positive, got %d", at.Int("nsize"))
			}
			return in[0].Shape(), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s := in[0].Shape()
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { nnLRN(x[0], y, s[0], s[1], s[2]*s[3], at) },
				func(x [][]float64, y []float64) { nnLRN(x[0], y, s[0], s[1], s[2]*s[3], at) })
		},
		Grad: lrnGrad,
	})
}

func embeddingKernel(in, out []*ndarray.NDArray, at ops.Attrs) error {
	idx, err := nnContiguous(in[0], ndarray.Float64)
	if err != nil {
		return err
	}
	defer idx.Release()
	w, err := nnContiguous(in[1], in[1].DType())
	if err != nil {
		return err
	}
	defer w.Release()
	y, direct := out[0], out[0].Contiguous()
	if !direct { // gather into a contiguous result, then copy
		if y, err = ndarray.Empty(out[0].DType(), out[0].Shape(), out[0].Device()); err != nil {
			return err
		}
		defer y.Release()
	}
	rows := at.Int("input_dim")
	rowBytes := at.Int("output_dim") * w.DType().Size()
	src := unsafe.Slice((*byte)(w.Data()), rows*rowBytes)
	dst := unsafe.Slice((*byte)(y.Data()), y.Size()*y.DType().Size())
	ids := nnSlice[float64](idx)
	simd.GatherRows(dst, src, ids, rows, rowBytes, gemm.PoolTasks(len(ids), rowBytes/4)) // embedRow's rows
	if !direct {
		return ndarray.CopyInto(out[0], y)
	}
	return nil
}

// l2NormSpec lays data out as (outer, n, inner) with the norm over n.
func l2NormSpec(shape []int, at ops.Attrs) (nnNormSpec, error) {
	s := nnNormSpec{eps: nnEps(at)}
	if len(shape) == 0 {
		return s, mxerr.ValueErr("L2Normalization needs data with at least one axis")
	}
	switch at.Str("mode") {
	case "instance":
		s.outer, s.n, s.inner = nnAxisDims(append([]int{shape[0]}, nnSizeOf(shape[1:])), 1)
	case "channel":
		if len(shape) < 3 {
			return s, mxerr.ValueErr("L2Normalization: mode 'channel' needs data of at least 3 dimensions")
		}
		s.outer, s.n, s.inner = nnAxisDims(shape, 1)
	default:
		if len(shape) < 3 {
			return s, mxerr.ValueErr("L2Normalization: mode 'spatial' needs data of at least 3 dimensions")
		}
		s.outer, s.n, s.inner = shape[0]*shape[1], nnSizeOf(shape[2:]), 1
	}
	return s, nil
}

func nnSizeOf(shape []int) int {
	n, _ := ndarray.Size(shape)
	return n
}

func l2Normalize[T nnFloat](x, y []T, s nnNormSpec) {
	nnParallel(s.outer*s.inner, s.n, func(lo, hi int) {
		for gi := lo; gi < hi; gi++ {
			base := gi/s.inner*s.n*s.inner + gi%s.inner
			var sum float64
			for j := range s.n {
				v := float64(x[base+j*s.inner])
				sum += v * v
			}
			inv := 1 / math.Sqrt(sum+s.eps)
			for j := range s.n {
				p := base + j*s.inner
				y[p] = T(float64(x[p]) * inv)
			}
		}
	})
}

// lrn normalises x (batch, c, plane) across channels.
func nnLRN[T nnFloat](x, y []T, batch, c, plane int, at ops.Attrs) {
	size := at.Int("nsize")
	alpha, beta, k := at.Float("alpha")/float64(size), at.Float("beta"), at.Float("knorm")
	nnParallel(batch*plane, c*size, func(lo, hi int) {
		for gi := lo; gi < hi; gi++ {
			base := gi/plane*c*plane + gi%plane
			for ch := range c {
				var sum float64
				for q := max(0, ch-size/2); q < min(c, ch-size/2+size); q++ {
					v := float64(x[base+q*plane])
					sum += v * v
				}
				p := base + ch*plane
				y[p] = T(float64(x[p]) * math.Pow(k+alpha*sum, -beta))
			}
		}
	})
}

// embedRow is the row of weight an index selects: truncated toward zero and clipped to
// [0, rows-1]; NaN takes row 0.
func embedRow(v float64, rows int) int {
	if v != v {
		return 0
	}
	return int(min(max(math.Trunc(v), 0), float64(rows-1)))
}
