package optim

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// What optimizers compute over whole arrays: sums of squares (multi_sum_sq), LARS'
// learning rates from them (multi_lars), and the finiteness checks of mixed-precision
// training's loss scaling (all_finite, multi_all_finite).

func init() {
	numArrays := ops.Param{Name: "num_arrays", Kind: ops.ParamInt, Default: "1", Doc: "the number of arrays"}
	initOutput := ops.Param{Name: "init_output", Kind: ops.ParamBool, Default: "1", Doc: "set out to 1 first (else only a non-finite element writes it)"}
	required := numArrays
	required.Default = ""
	ops.Register(&ops.Op{
		Name: "multi_sum_sq", Category: ops.General, Inputs: []string{"*data"}, Params: []ops.Param{required}, DTypes: floatDTypes,
		Doc: "The sum of squares of each array, as MXNet's multi_sum_sq: a float32 array of num_arrays elements.",
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			return []int{len(in)}, ndarray.Float32, checkCount("multi_sum_sq", in, at)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			sums := make([]float64, len(in))
			for i, a := range in {
				var mu sync.Mutex
				err := sweep([]*ndarray.NDArray{a}, nil, sumSquares[float32](&sums[i], &mu), sumSquares[float64](&sums[i], &mu))
				if err != nil {
					return err
				}
			}
			return store(out[0], sums)
		},
	})
	ops.Register(&ops.Op{
		Name: "multi_lars", Category: ops.General, Inputs: []string{"lrs", "weights_sum_sq", "grads_sum_sq", "wds"},
		DTypes: []ndarray.DType{ndarray.Float32},
		Params: []ops.Param{{Name: "eta", Kind: ops.ParamFloat, Doc: "LARS' trust coefficient"},
			{Name: "eps", Kind: ops.ParamFloat, Doc: "added to the denominator"}, pRescale},
		Doc: "LARS' learning rates, as MXNet's multi_lars: lrs[i]*eta*|w|/(|g|*rescale_grad + wds[i]*|w| + eps) " +
			"where both norms (the square roots of the sums of squares) are positive, else lrs[i]. float32 arrays of one length.",
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			return in[0].Shape(), ndarray.Float32, checkArrays("multi_lars", []string{"lrs", "weights_sum_sq", "grads_sum_sq", "wds"}, in)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			eta, eps, rescale := float32(at.Float("eta")), float32(at.Float("eps")), float32(at.Float("rescale_grad"))
			lrs, ws, gs, wds := ops.IndexValues(in[0]), ops.IndexValues(in[1]), ops.IndexValues(in[2]), ops.IndexValues(in[3])
			res := make([]float64, len(lrs))
			for i, lr := range lrs {
				w, g := float32(math.Sqrt(ws[i])), float32(math.Sqrt(gs[i]))*rescale
				res[i] = lr
				if w > 0 && g > 0 {
					res[i] = float64(float32(lr) * eta * w / (g + float32(wds[i])*w + eps))
				}
			}
			return store(out[0], res)
		},
	})
	finiteDoc := " Gives a float32 array of one element: 1 if every element is finite, else 0; with init_output=False " +
		"a finite input leaves out as it was (so calls can chain into one out)."
	ops.Register(&ops.Op{
		Name: "all_finite", Category: ops.General, Inputs: []string{"data"}, Params: []ops.Param{initOutput},
		Doc: "Whether an array is finite, as MXNet's all_finite." + finiteDoc,
		Infer: func([]*ndarray.NDArray, ops.Attrs) ([]int, ndarray.DType, error) {
			return []int{1}, ndarray.Float32, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			return allFinite(in, out[0], at.Bool("init_output"))
		},
	})
	ops.Register(&ops.Op{
		Name: "reset_arrays", Category: ops.General, Inputs: []string{"*data"}, Params: []ops.Param{required},
		Doc: "Sets every array to zero in place, as MXNet's reset_arrays (Gluon's zero_grad): returns no array.",
		Mutates: func(n int) []int {
			all := make([]int, n)
			for i := range all {
				all[i] = i
			}
			return all
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			return nil, checkCount("reset_arrays", in, at)
		},
		Kernel: func(in, _ []*ndarray.NDArray, _ ops.Attrs) error {
			for _, a := range in {
				ops.FillKernel(a, ops.Scalar{})
			}
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name: "multi_all_finite", Category: ops.General, Inputs: []string{"*data"}, Params: []ops.Param{numArrays, initOutput},
		Doc: "Whether num_arrays arrays are all finite, as MXNet's multi_all_finite." + finiteDoc,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			return []int{1}, ndarray.Float32, checkCount("multi_all_finite", in, at)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			return allFinite(in, out[0], at.Bool("init_output"))
		},
	})
}

func checkCount(op string, in []*ndarray.NDArray, at ops.Attrs) error {
	if n := at.Int("num_arrays"); n != len(in) {
		return mxerr.ValueErr("%s: num_arrays=%d, got %d arrays", op, n, len(in))
	}
	return nil
}

// store writes v into the float32 array out.
func store(out *ndarray.NDArray, v []float64) error {
	i := 0
	ops.FillInOrder(out, func() float64 { i++; return v[i-1] })
	return nil
}

func sumSquares[T float](sum *float64, mu *sync.Mutex) body[T] {
	return func(v [][]T, lo, hi int) {
		s := 0.0
		for _, x := range v[0][lo:hi] {
			s += float64(x) * float64(x)
		}
		mu.Lock()
		*sum += s
		mu.Unlock()
	}
}

func allFinite(in []*ndarray.NDArray, out *ndarray.NDArray, init bool) error {
	var bad atomic.Bool
	for _, a := range in {
		if a.DType() == ndarray.Float16 || a.DType() == ndarray.Float32 || a.DType() == ndarray.Float64 || a.DType() == ndarray.Bfloat16 {
			if err := sweep([]*ndarray.NDArray{a}, nil, nonFinite[float32](&bad), nonFinite[float64](&bad)); err != nil {
				return err
			}
		}
	}
	if bad.Load() {
		return store(out, []float64{0})
	}
	if init {
		return store(out, []float64{1})
	}
	return nil
}

func nonFinite[T float](bad *atomic.Bool) body[T] {
	return func(v [][]T, lo, hi int) {
		for _, x := range v[0][lo:hi] {
			if f := float64(x); math.IsInf(f, 0) || math.IsNaN(f) {
				bad.Store(true)
				return
			}
		}
	}
}
