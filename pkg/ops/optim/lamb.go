package optim

import (
	"fmt"
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// LAMB in MXNet's two phases: phase 1 updates the moments and gives the step direction
// g; the caller takes the norms r1 = |weight| and r2 = |g|; phase 2 moves the weight by
// lr*r1/r2*g (lr alone when either norm is 0), r1 first clamped to [lower_bound,
// upper_bound] where those are not negative. The mp_* forms read the float32 master copy
// weight32 (their last input) instead of the weight; phase 2 leaves it as it is, as
// MXNet 1.9.1's does (so mx.optimizer.LAMB's master copy keeps its first value there too).

func init() {
	phase1 := []ops.Param{pBeta1, pBeta2,
		{Name: "epsilon", Kind: ops.ParamFloat, Default: "1e-06", Doc: "added for numerical stability"},
		{Name: "t", Kind: ops.ParamInt, Doc: "the number of updates so far, this one included"},
		{Name: "bias_correction", Kind: ops.ParamBool, Default: "1", Doc: "divide the moments by 1 - beta**t"},
		{Name: "wd", Kind: ops.ParamFloat, Doc: "the weight decay"}, pRescale, pClip}
	doc := "LAMB's first phase, as MXNet's %s: g = clip(rescale_grad*grad); mean = beta1*mean + (1-beta1)*g; var = " +
		"beta2*var + (1-beta2)*g*g (both in place); out = mean'/(sqrt(var') + epsilon) + wd*weight, where mean' and " +
		"var' are bias-corrected when bias_correction."
	for _, mp := range []bool{false, true} {
		u := update{name: "lamb_update_phase1", inputs: []string{"weight", "grad", "mean", "var"}, mutates: []int{2, 3},
			params: phase1, b32: func(at ops.Attrs) body[float32] { return lambBody[float32](at, mp) },
			b64: func(at ops.Attrs) body[float64] { return lambBody[float64](at, mp) }}
		if mp {
			u.name, u.inputs, u.f32 = "mp_"+u.name, append(u.inputs, "weight32"), []int{2, 3, 4}
			u.out = func([]*ndarray.NDArray) ndarray.DType { return ndarray.Float32 }
		}
		u.doc = fmt.Sprintf(doc, u.name)
		u.register()
		registerPhase2(mp)
	}
}

func lambBody[T float](at ops.Attrs, mp bool) body[T] {
	h := hyperOf[T](at)
	b1, b2, eps, t := param[T](at, "beta1"), param[T](at, "beta2"), param[T](at, "epsilon"), float64(at.Int("t"))
	c1, c2 := T(1), T(1)
	if at.Bool("bias_correction") {
		c1, c2 = 1-pow(b1, t), 1-pow(b2, t)
	}
	return func(v [][]T, lo, hi int) {
		w, _ := master(v, mp)
		g, mean, vr, out := v[1], v[2], v[3], v[len(v)-1]
		for i := lo; i < hi; i++ {
			gi := h.grad(g[i])
			mean[i] = b1*mean[i] + (1-b1)*gi
			vr[i] = b2*vr[i] + (1-b2)*gi*gi
			out[i] = mean[i]/c1/(sqrt(vr[i]/c2)+eps) + h.wd*w[i]
		}
	}
}

func registerPhase2(mp bool) {
	name, inputs := "lamb_update_phase2", []string{"weight", "g", "r1", "r2"}
	if mp {
		name, inputs = "mp_"+name, append(inputs, "weight32")
	}
	ops.Register(&ops.Op{
		Name: name, Category: ops.General, Inputs: inputs, DTypes: floatDTypes, InPlace: true,
		Doc: "LAMB's second phase, as MXNet's " + name + ": out = weight - lr*r1/r2*g, r1 clamped to [lower_bound, " +
			"upper_bound] (each where not negative), lr alone when r1 or r2 is 0; r1 and r2 have one element each." +
			map[bool]string{true: " Reads the weight from the float32 weight32, which it leaves as it is (as MXNet 1.9.1's does).", false: ""}[mp] +
			" Non-differentiable, as MXNet's.",
		Params: []ops.Param{pLR,
			{Name: "lower_bound", Kind: ops.ParamFloat, Default: "-1", Doc: "r1's lower bound; negative: none"},
			{Name: "upper_bound", Kind: ops.ParamFloat, Default: "-1", Doc: "r1's upper bound; negative: none"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			for _, r := range in[2:4] {
				if r.Size() != 1 {
					return nil, 0, mxerr.ValueErr("%s: r1 and r2 must have one element, got shape %v", name, r.Shape())
				}
			}
			arrs, names, f32 := []*ndarray.NDArray{in[0], in[1]}, []string{"weight", "g"}, []int(nil)
			if mp {
				arrs, names, f32 = append(arrs, in[4]), append(names, "weight32"), []int{1, 2}
			}
			return in[0].Shape(), in[0].DType(), checkArrays(name, names, arrs, f32...)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			r1, r2 := ops.IndexValues(in[2])[0], ops.IndexValues(in[3])[0]
			if lb := float64(float32(at.Float("lower_bound"))); lb >= 0 {
				r1 = max(r1, lb)
			}
			if ub := float64(float32(at.Float("upper_bound"))); ub >= 0 {
				r1 = min(r1, ub)
			}
			lr := float64(float32(at.Float("lr")))
			if r1 != 0 && r2 != 0 {
				lr *= r1 / r2
			}
			arrs := append(slices.Clip(in[:2]), in[4:]...)
			return sweep(append(arrs, out[0]), []int{len(arrs)}, phase2Body[float32](lr, mp), phase2Body[float64](lr, mp))
		},
	})
}

func phase2Body[T float](lr float64, mp bool) body[T] {
	step := T(lr)
	return func(v [][]T, lo, hi int) {
		w, _ := master(v, mp)
		g, out := v[1], v[len(v)-1]
		for i := lo; i < hi; i++ {
			out[i] = w[i] - step*g[i]
		}
	}
}
