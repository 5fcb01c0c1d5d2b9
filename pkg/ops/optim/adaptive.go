package optim

import (
	"math"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The adaptive updates, as MXNet 1.9.1's kernels: Adam, RMSProp (plain and centred,
// "alex"), FTRL and FTML. Adam, RMSProp and FTML add wd*weight to the rescaled gradient
// before clipping it; FTRL applies the decay in its closed form.

func init() {
	tail := []ops.Param{pWD, pRescale, pClip}
	adaptive := func(name, doc string, states []string, params []ops.Param, b32 func(ops.Attrs) body[float32], b64 func(ops.Attrs) body[float64]) {
		u := update{name: name, doc: doc, inputs: append([]string{"weight", "grad"}, states...),
			params: append([]ops.Param{pLR}, params...), b32: b32, b64: b64}
		for i := range states {
			u.mutates = append(u.mutates, 2+i)
		}
		u.register()
	}
	adaptive("adam_update", "Adam, as MXNet's adam_update: g = clip(rescale_grad*grad + wd*weight); mean = beta1*mean + "+
		"(1-beta1)*g; var = beta2*var + (1-beta2)*g*g (both in place); out = weight - lr*mean/(sqrt(var) + epsilon). "+
		"The bias correction is the caller's (mx.optimizer.Adam scales lr).",
		[]string{"mean", "var"}, append([]ops.Param{pBeta1, pBeta2, pEpsilon}, append(tail[:3:3], pLazy)...), adamBody[float32], adamBody[float64])
	gamma1 := ops.Param{Name: "gamma1", Kind: ops.ParamFloat, Default: "0.95", Doc: "the decay rate of the squared gradients' average"}
	clipW := ops.Param{Name: "clip_weights", Kind: ops.ParamFloat, Default: "-1", Doc: "clips the new weight to [-clip_weights, clip_weights]; negative: off"}
	adaptive("rmsprop_update", "RMSProp, as MXNet's rmsprop_update: g = clip(rescale_grad*grad + wd*weight); "+
		"n = (1-gamma1)*g*g + gamma1*n (in place); out = clip_weights(weight - lr*g/sqrt(n + epsilon)).",
		[]string{"n"}, append([]ops.Param{gamma1, pEpsilon}, append(tail[:3:3], clipW)...), rmspropBody[float32], rmspropBody[float64])
	adaptive("rmspropalex_update", "Centred RMSProp (Graves), as MXNet's rmspropalex_update: g = clip(rescale_grad*grad + "+
		"wd*weight); n = (1-gamma1)*g*g + gamma1*n; g_avg = (1-gamma1)*g + gamma1*g_avg; delta = gamma2*delta - "+
		"lr*g/sqrt(n - g_avg**2 + epsilon) (all in place); out = clip_weights(weight + delta).",
		[]string{"n", "g", "delta"}, append([]ops.Param{gamma1, {Name: "gamma2", Kind: ops.ParamFloat, Default: "0.9", Doc: "the momentum of delta"}, pEpsilon},
			append(tail[:3:3], clipW)...), rmspropBody[float32], rmspropBody[float64])
	adaptive("ftrl_update", "FTRL-proximal, as MXNet's ftrl_update: g = clip(rescale_grad*grad); z += g - (sqrt(n + g*g) - "+
		"sqrt(n))*weight/lr; n += g*g (both in place); out = (sign(z)*lamda1 - z)/((beta + sqrt(n))/lr + wd) where "+
		"|z| > lamda1, else 0.",
		[]string{"z", "n"}, append([]ops.Param{{Name: "lamda1", Kind: ops.ParamFloat, Default: "0.01", Doc: "the L1 coefficient"},
			{Name: "beta", Kind: ops.ParamFloat, Default: "1", Doc: "the per-coordinate learning rate's offset"}}, tail...),
		ftrlBody[float32], ftrlBody[float64])
	adaptive("ftml_update", "FTML, as MXNet's ftml_update: g = clip(rescale_grad*grad + wd*weight, clip_grad); v = beta2*v + "+
		"(1-beta2)*g*g; d_t = (1 - beta1**t)/lr*(sqrt(v/(1 - beta2**t)) + epsilon); z = beta1*z + (1-beta1)*g - "+
		"(d_t - beta1*d)*weight; d = d_t (d, v and z in place); out = -z/d_t.",
		[]string{"d", "v", "z"}, []ops.Param{{Name: "beta1", Kind: ops.ParamFloat, Default: "0.6", Doc: "the decay rate of z"}, pBeta2,
			{Name: "epsilon", Kind: ops.ParamFloat, Default: "1e-08", Doc: "added for numerical stability (a double, as MXNet's)"},
			{Name: "t", Kind: ops.ParamInt, Doc: "the number of updates so far, this one included"}, pWD, pRescale,
			{Name: "clip_grad", Kind: ops.ParamFloat, Default: "-1", Doc: "clips the gradient; negative: off"}},
		ftmlBody[float32], ftmlBody[float64])
}

func sqrt[T float](x T) T { return T(math.Sqrt(float64(x))) }

// decayed is the gradient with weight decay, rescaled then clipped (Adam, RMSProp, FTML).
func (h hyper[T]) decayed(g, w T) T { return clip(h.rescale*g+h.wd*w, h.clip) }

func adamBody[T float](at ops.Attrs) body[T] {
	h, b1, b2, eps := hyperOf[T](at), param[T](at, "beta1"), param[T](at, "beta2"), param[T](at, "epsilon")
	return func(v [][]T, lo, hi int) {
		if v32, ok := any(v).([][]float32); ok && h.clip != 0 && // a zero clip's signed zeros: the Go loop's
			simd.Adam32(v32[4][lo:hi], v32[2][lo:hi], v32[3][lo:hi], v32[0][lo:hi], v32[1][lo:hi], float32(h.lr), float32(b1),
				float32(b2), float32(1-b1), float32(1-b2), float32(eps), float32(h.wd), float32(h.rescale), float32(h.clip)) {
			return
		}
		w, g, mean, vr, out := v[0], v[1], v[2], v[3], v[4]
		for i := lo; i < hi; i++ {
			gi := h.decayed(g[i], w[i])
			mean[i] = b1*mean[i] + (1-b1)*gi
			vr[i] = b2*vr[i] + (1-b2)*gi*gi
			out[i] = w[i] - h.lr*mean[i]/(sqrt(vr[i])+eps)
		}
	}
}

// rmspropBody serves both RMSProps: the centred one has the states g and delta too.
func rmspropBody[T float](at ops.Attrs) body[T] {
	h, g1, g2, eps, cw := hyperOf[T](at), param[T](at, "gamma1"), param[T](at, "gamma2"), param[T](at, "epsilon"), param[T](at, "clip_weights")
	return func(v [][]T, lo, hi int) {
		w, g, n, out := v[0], v[1], v[2], v[len(v)-1]
		centred := len(v) == 6
		for i := lo; i < hi; i++ {
			gi := h.decayed(g[i], w[i])
			n[i] = (1-g1)*gi*gi + g1*n[i]
			if centred {
				avg, delta := v[3], v[4]
				avg[i] = (1-g1)*gi + g1*avg[i]
				delta[i] = g2*delta[i] - h.lr*(gi/sqrt(n[i]-avg[i]*avg[i]+eps))
				out[i] = clip(w[i]+delta[i], cw)
			} else {
				out[i] = clip(w[i]-h.lr*(gi/sqrt(n[i]+eps)), cw)
			}
		}
	}
}

func ftrlBody[T float](at ops.Attrs) body[T] {
	h, l1, beta := hyperOf[T](at), param[T](at, "lamda1"), param[T](at, "beta")
	return func(v [][]T, lo, hi int) {
		w, g, z, n, out := v[0], v[1], v[2], v[3], v[4]
		for i := lo; i < hi; i++ {
			gi := h.grad(g[i])
			z[i] += gi - (sqrt(n[i]+gi*gi)-sqrt(n[i]))*w[i]/h.lr
			n[i] += gi * gi
			out[i] = 0
			if abs(z[i]) > l1 {
				out[i] = (sign(z[i])*l1 - z[i]) / ((beta+sqrt(n[i]))/h.lr + h.wd)
			}
		}
	}
}

func ftmlBody[T float](at ops.Attrs) body[T] {
	h := hyperOf[T](at)
	h.clip = param[T](at, "clip_grad")
	b1, b2, eps, t := param[T](at, "beta1"), param[T](at, "beta2"), T(at.Float("epsilon")), float64(at.Int("t"))
	c1, c2 := 1-pow(b1, t), 1-pow(b2, t)
	return func(v [][]T, lo, hi int) {
		w, g, d, vv, z, out := v[0], v[1], v[2], v[3], v[4], v[5]
		for i := lo; i < hi; i++ {
			gi := h.decayed(g[i], w[i])
			vv[i] = b2*vv[i] + (1-b2)*gi*gi
			dt := c1 / h.lr * (sqrt(vv[i]/c2) + eps)
			z[i] = b1*z[i] + (1-b1)*gi - (dt-b1*d[i])*w[i]
			d[i] = dt
			out[i] = -z[i] / dt
		}
	}
}

// pow is beta**t in the compute type, as MXNet's kernels take it (1 - pow then loses
// what the compute type cannot hold, as theirs does).
func pow[T float](beta T, t float64) T { return T(math.Pow(float64(beta), t)) }

func abs[T float](x T) T { return max(x, -x) }
