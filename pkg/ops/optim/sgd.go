package optim

import (
	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"
)

// SGD and its kin, as MXNet 1.9.1's kernels (src/operator/optimizer_op-inl.h): the
// gradient is rescaled, then clipped, then used; sgd_update's weight decay scales the
// weight, the momentum variants subtract lr*wd*weight from the momentum, NAG adds
// wd*weight to the clipped gradient. The mp_* variants update the float32 master copy weight32
// (their last input) and write its value, cast, into out.

func init() {
	common := []ops.Param{pWD, pRescale, pClip}
	withLazy := append(common[:3:3], pLazy)
	sgd := func(name string, mom, mp bool, params []ops.Param, doc string) update {
		u := update{name: name, doc: doc, inputs: []string{"weight", "grad"}, params: append([]ops.Param{pLR}, params...),
			b32: func(at ops.Attrs) body[float32] { return sgdBody[float32](at, mom, mp) },
			b64: func(at ops.Attrs) body[float64] { return sgdBody[float64](at, mom, mp) }}
		if mom {
			u.inputs = append(u.inputs, "mom")
		}
		if mp {
			u.inputs = append(u.inputs, "weight32")
		}
		for i := 2; i < len(u.inputs); i++ { // the states: updated in place, float32 under mp
			u.mutates = append(u.mutates, i)
			if mp {
				u.f32 = append(u.f32, i)
			}
		}
		return u
	}
	sgd("sgd_update", false, false, withLazy,
		"SGD, as MXNet's sgd_update: out = (1 - lr*wd)*weight - lr*clip(rescale_grad*grad).").register()
	sgd("sgd_mom_update", true, false, append([]ops.Param{pMomentum}, withLazy...),
		"SGD with momentum, as MXNet's sgd_mom_update: mom = momentum*mom - lr*wd*weight - lr*clip(rescale_grad*grad) "+
			"(in place); out = weight + mom.").register()
	sgd("mp_sgd_update", false, true, withLazy,
		"Multi-precision SGD, as MXNet's mp_sgd_update: sgd_update on the float32 weight32 (in place), cast into out.").register()
	sgd("mp_sgd_mom_update", true, true, append([]ops.Param{pMomentum}, withLazy...),
		"Multi-precision SGD with momentum, as MXNet's mp_sgd_mom_update: sgd_mom_update on the float32 weight32 "+
			"and mom (both in place), cast into out.").register()
	nag := func(name string, mp bool, doc string) update {
		u := sgd(name, true, mp, append([]ops.Param{pMomentum}, common...), doc)
		u.b32 = func(at ops.Attrs) body[float32] { return nagBody[float32](at, mp) }
		u.b64 = func(at ops.Attrs) body[float64] { return nagBody[float64](at, mp) }
		return u
	}
	nag("nag_mom_update", false, "Nesterov momentum, as MXNet's nag_mom_update: step = lr*(clip(rescale_grad*grad) + wd*weight); "+
		"mom = momentum*mom - step (in place); out = weight + momentum*mom - step.").register()
	nag("mp_nag_mom_update", true, "Multi-precision Nesterov momentum, as MXNet's mp_nag_mom_update: nag_mom_update "+
		"on the float32 weight32 and mom (both in place), cast into out.").register()
	signs := sgd("signsgd_update", false, false, common,
		"signSGD, as MXNet's signsgd_update: out = (1 - lr*wd)*weight - lr*sign(grad).")
	signs.b32, signs.b64 = signSGDBody[float32], signSGDBody[float64]
	signs.register()
	signum := sgd("signum_update", true, false, append([]ops.Param{pMomentum}, append(common[:3:3],
		ops.Param{Name: "wd_lh", Kind: ops.ParamFloat, Default: "0", Doc: "the decoupled weight decay"})...),
		"Signum, as MXNet's signum_update: mom = momentum*mom - (1-momentum)*(wd*weight + clip(rescale_grad*grad)) "+
			"(in place); out = (1 - lr*wd_lh)*weight + lr*sign(mom).")
	signum.b32, signum.b64 = signumBody[float32], signumBody[float64]
	signum.register()
}

// master returns the slice an SGD-like body reads the weight from and writes it back
// to: weight32 (the last input) for mp, else nil (the weight, v[0], is only read).
func master[T float](v [][]T, mp bool) (w, back []T) {
	if mp {
		return v[len(v)-2], v[len(v)-2]
	}
	return v[0], nil
}

func sgdBody[T float](at ops.Attrs, withMom, mp bool) body[T] {
	h, m := hyperOf[T](at), param[T](at, "momentum")
	return func(v [][]T, lo, hi int) {
		w, back := master(v, mp)
		g, out := v[1], v[len(v)-1]
		if back == nil && h.clip < 0 && sgdSIMD(v, withMom, lo, hi, m, h) {
			return
		}
		for i := lo; i < hi; i++ {
			var nw T
			if withMom {
				mom := v[2]
				mom[i] = m*mom[i] - h.lr*h.wd*w[i] - h.lr*h.grad(g[i])
				nw = w[i] + mom[i]
			} else {
				nw = (1-h.lr*h.wd)*w[i] - h.lr*h.grad(g[i])
			}
			if back != nil {
				back[i] = nw
			}
			out[i] = nw
		}
	}
}

// sgdSIMD runs sgdBody's update (without master copy or clipping) of float32 weights in
// C, reporting false where that kernel does not run.
func sgdSIMD[T float](v [][]T, withMom bool, lo, hi int, m T, h hyper[T]) bool {
	v32, ok := any(v).([][]float32)
	if !ok {
		return false
	}
	var mom []float32
	if withMom {
		mom = v32[2][lo:hi]
	}
	return simd.SGD32(v32[len(v)-1][lo:hi], mom, v32[0][lo:hi], v32[1][lo:hi], float32(m), float32(h.lr*h.wd),
		float32(h.lr), float32(h.rescale))
}

func nagBody[T float](at ops.Attrs, mp bool) body[T] {
	h, m := hyperOf[T](at), param[T](at, "momentum")
	return func(v [][]T, lo, hi int) {
		w, back := master(v, mp)
		g, mom, out := v[1], v[2], v[len(v)-1]
		for i := lo; i < hi; i++ {
			gi := h.grad(g[i])
			step := h.lr * (gi + h.wd*w[i])
			nw := w[i] + m*(m*mom[i]-step) - step
			if back != nil {
				back[i] = nw
			}
			out[i] = nw
			// MXNet's kernel updates mom after out, reading weight[i] again: the new
			// weight when out is the weight (as mx.optimizer calls it)
			mom[i] = m*mom[i] - h.lr*(gi+h.wd*w[i])
		}
	}
}

func signSGDBody[T float](at ops.Attrs) body[T] {
	h := hyperOf[T](at)
	return func(v [][]T, lo, hi int) {
		w, g, out := v[0], v[1], v[2]
		for i := lo; i < hi; i++ {
			out[i] = (1-h.lr*h.wd)*w[i] - h.lr*sign(g[i])
		}
	}
}

func signumBody[T float](at ops.Attrs) body[T] {
	h, m, wdlh := hyperOf[T](at), param[T](at, "momentum"), param[T](at, "wd_lh")
	return func(v [][]T, lo, hi int) {
		w, g, mom, out := v[0], v[1], v[2], v[3]
		for i := lo; i < hi; i++ {
			mom[i] = m*mom[i] - (1-m)*h.wd*w[i] - (1-m)*h.grad(g[i])
			out[i] = (1-h.lr*wdlh)*w[i] + h.lr*sign(mom[i])
		}
	}
}
