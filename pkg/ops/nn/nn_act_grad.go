package nn

import (
	"maps"
	"strconv"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The gradients of Activation, LeakyReLU and Dropout. Each act_type's derivative is
// written, as MXNet's backward kernels compute it, from the result y where MXNet reads the
// output (relu, sigmoid, tanh, softrelu, leaky, elu, selu) and from the input x where it
// reads the input (softsign, gelu, prelu).

var activationGrads = map[string]*ops.Gradient{
	"relu":     ops.GradExpr("_relu_backward(g, y)"),
	"sigmoid":  ops.GradExpr("g * y * (1 - y)"),
	"tanh":     ops.GradExpr("g * (1 - y * y)"),
	"softrelu": ops.GradExpr("-(g * expm1(-y))"), // 1 - exp(-y) is the sigmoid of x
	"softsign": ops.GradExpr("g / ((1 + abs(x)) * (1 + abs(x)))"),
}

// byActType is a gradient that dispatches on the call's act_type; it keeps whatever any
// of them reads.
func byActType(grads map[string]*ops.Gradient, def *ops.Gradient) *ops.Gradient {
	var uses ops.GradUses
	for _, g := range grads {
		uses |= g.Uses
	}
	uses |= def.Uses
	return &ops.Gradient{Uses: uses, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		if g, ok := grads[c.Attrs.Str("act_type")]; ok {
			return g.Func(c)
		}
		return def.Func(c)
	}}
}

var activationGrad = byActType(activationGrads, activationGrads["relu"])

// LeakyReLU: leaky and rrelu (in inference, whose slope is the mean of its bounds) have
// the slope below 0; elu's derivative below 0 is y + slope; gelu's is Phi(x) + x phi(x).
// selu's is MXNet's: lambda*y + lambda*alpha below 0, where the true one is y +
// lambda*alpha (MXNet 1.9.1 applies its selu_grad to lambda times the output; checked
// against it).
var leakyGrad = byActType(map[string]*ops.Gradient{
	"elu":   ops.GradExpr("g * ((y > 0) + (y <= 0) * (y + $slope))"),
	"selu":  ops.GradExpr("g * ((y > 0) * " + f64s(nnSeluLambda) + " + (y <= 0) * (" + f64s(nnSeluLambda) + " * y + " + f64s(nnSeluLambda*nnSeluAlpha) + "))"),
	"gelu":  ops.GradExpr("g * (0.5 * (1 + erf(x * 0.7071067811865476)) + x * 0.3989422804014327 / exp(0.5 * x * x))"),
	"prelu": {Uses: ops.UsesInputs, Func: preluGrad},
	"rrelu": {Uses: leaky.Uses, Func: rreluGrad},
}, leaky)

var leaky = ops.GradExpr("g * ((y > 0) + (y <= 0) * $slope)")

func f64s(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// rreluGrad is leaky's gradient with rrelu's inference slope, the mean of its bounds.
func rreluGrad(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	rc := *c
	rc.Attrs = maps.Clone(c.Attrs)
	rc.Attrs["slope"] = (c.Attrs.Float("lower_bound") + c.Attrs.Float("upper_bound")) / 2
	return leaky.Func(&rc)
}

// preluGrad: dx = g where x > 0, g*gamma elsewhere; dgamma sums g*x where x <= 0 over
// the axes gamma is broadcast along (preluShape's matching).
func preluGrad(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	bshape, err := preluShape(c.Shapes[0], c.Shapes[1])
	if err != nil {
		return nil, err
	}
	s := &ops.GradCalls{C: c}
	x, g := c.In[0], c.OutGrad[0]
	neg := s.Call("_lesser_equal_scalar", nnScalar(0), x)
	var dx, dgamma *ndarray.NDArray
	if c.Need[0] {
		gamma := s.Call("reshape", "shape="+ops.WireInts(bshape), c.In[1])
		below := s.Call("multiply", "", neg, s.Call("_subtract_scalar", nnScalar(1), gamma)) // gamma-1 where x <= 0
		dx = s.Call("multiply", "", g, s.Call("_add_scalar", nnScalar(1), below))
	}
	if c.Need[1] {
		full := s.Call("multiply", "", g, s.Call("multiply", "", x, neg))
		dgamma = s.Call("reshape", "shape="+ops.WireInts(c.Shapes[1]), s.SumTo(full, bshape))
	}
	return s.Done(dx, dgamma)
}

// dropoutApplies reports whether a Dropout call drops: p > 0, in training mode or with
// mode 'always' (MXNet's rule).
func dropoutApplies(at ops.Attrs) bool {
	return at.Float("p") > 0 && (at.Str("mode") == "always" || ops.Training(at))
}

// dropoutPrepare draws the call's seed, unless the call is Dropout's own gradient, which
// passes its forward's seed: the gradient of dropping is dropping the head gradient with
// the same mask (MXNet keeps the mask as a hidden second result; the seed redraws it).
func dropoutPrepare(at ops.Attrs) {
	if _, ok := at["seed"]; !ok {
		at["seed"] = ops.DrawSeed()
	}
}

// dropoutGrad is Dropout again, on the head gradient, with the forward's mask (its seed)
// where the forward dropped, and the identity where it did not.
var dropoutGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	g := c.OutGrad[0]
	if !dropoutApplies(c.Attrs) {
		return []*ndarray.NDArray{g.ShareWithEntry()}, nil
	}
	at := maps.Clone(c.Attrs)
	at["mode"] = "always"
	delete(at, ops.TrainingAttr)
	r, err := c.Run(c.Op, []*ndarray.NDArray{g}, at)
	return []*ndarray.NDArray{r}, err
}}
