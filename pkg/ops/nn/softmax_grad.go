package nn

import (
	"strconv"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The gradients of the softmax family. softmax, log_softmax, softmin and SoftmaxActivation
// differentiate their result along the lane (by operators: they have a second order);
// SoftmaxOutput and the regression outputs are MXNet's loss layers, whose backward
// ignores the head gradient and gives the gradient of their loss (softmax minus the
// one-hot label, output minus label), as MXNet's do.

// smGrad is the gradient of a softmax along axis (kind: softmax, log_softmax or softmin)
// with temperature t, cast back to the input's dtype when the result had another:
//
//	softmax:     y (g - sum(g y)) / t
//	log_softmax: (g - exp(y) sum(g)) / t
//	softmin:     -y (g - sum(g y)) / t
func smGrad(c *ops.GradCtx, kind smKind, axis int, t float64) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	y, g := c.Out[0], c.OutGrad[0]
	sum := "axis=" + strconv.Itoa(axis) + ";keepdims=1"
	var dx *ndarray.NDArray
	if kind == smLogSoftmax {
		dx = s.Call("subtract", "", g, s.Call("multiply", "", s.Call("exp", "", y), s.Call("sum", sum, g)))
	} else {
		dx = s.Call("multiply", "", y, s.Call("subtract", "", g, s.Call("sum", sum, s.Call("multiply", "", g, y))))
		if kind == smSoftmin {
			dx = s.Call("negative", "", dx)
		}
	}
	if t != 1 {
		dx = s.Call("_divide_scalar", nnScalar(t), dx)
	}
	if y.DType() != c.DTypes[0] {
		dx = s.Call("cast", "dtype="+c.DTypes[0].String(), dx)
	}
	grads := make([]*ndarray.NDArray, len(c.Shapes)) // a length array gets none
	grads[0] = dx
	return s.Done(grads...)
}

// softmaxGrad is the Gradient of softmax, log_softmax and softmin.
func softmaxGrad(kind smKind) *ops.Gradient {
	return &ops.Gradient{Uses: ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		axis, err := ops.LaneAxis(c.Op.Name, c.Attrs.Int("axis"), len(c.Shapes[0]))
		if err != nil {
			return nil, err
		}
		return smGrad(c, kind, axis, c.Attrs.Float("temperature"))
	}}
}

// softmaxActivationGrad is softmax's along axis 1, in both modes, as MXNet 1.9.1
// computes it: for data of 3 or more dimensions in mode 'instance' its forward normalizes
// the last axis but its backward differentiates along axis 1 (checked against it; the
// two agree for the usual 2-D data).
var softmaxActivationGrad = &ops.Gradient{Uses: ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	return smGrad(c, smSoftmax, min(1, len(c.Shapes[0])-1), 1)
}}

// softmaxOutputGrad calls _backward_SoftmaxOutput on the result and the label; the label
// gets no gradient. The head gradient is not used, even with out_grad: there MXNet 1.9.1
// multiplies by its output where its documentation says the head gradient (checked:
// (softmax - onehot) * softmax whatever the head gradient), and mxgo does the same.
var softmaxOutputGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	dx, err := runBackward(c, "_backward_SoftmaxOutput", c.Attrs, c.Out[0], c.In[1])
	return []*ndarray.NDArray{dx, nil}, err
}}

// smOutGeom is SoftmaxOutput's data seen as (outer, k, inner), the softmax along k, and
// the number its gradient is divided by besides valid_cnt (MXNet's s3[2]).
func smOutGeom(shape []int, at ops.Attrs) (outer, k, inner int) {
	size, _ := ndarray.Size(shape)
	switch {
	case at.Bool("multi_output"):
		outer, k = shape[0], shape[1]
		if outer*k > 0 {
			inner = size / outer / k
		}
	case at.Bool("preserve_shape"):
		k, inner = shape[len(shape)-1], 1
		if k > 0 {
			outer = size / k
		}
	default:
		outer, inner = 1, 1
		if len(shape) > 1 {
			outer = shape[0]
		}
		if outer > 0 {
			k = size / outer
		}
	}
	return outer, k, inner
}

// softmaxOutputBackward computes MXNet's SoftmaxOutput gradient into dx: per lane,
// (out - target) with target the one-hot label (1 - smooth_alpha on the label's class,
// smooth_alpha/(k-1) elsewhere), or out - label for a label of data's shape; lanes whose
// label is ignore_label get 0 with use_ignore; then times grad_scale over the
// normalization's count, and times out (see softmaxOutputGrad) with out_grad. The
// constants are float32, as MXNet's parameters are, for every dtype.
func softmaxOutputBackward(in, out []*ndarray.NDArray, at ops.Attrs) error {
	p, label := ops.IndexValues(in[0]), ops.IndexValues(in[1])
	outer, k, inner := smOutGeom(in[0].Shape(), at)
	ignore, useIgnore, alpha := int(at.Float("ignore_label")), at.Bool("use_ignore"), float32(at.Float("smooth_alpha"))
	on, off := 1-float64(alpha), float64(alpha)/float64(k-1)
	probs := len(label) == len(p)
	dx := make([]float64, len(p))
	valid := len(label)
	for o := range outer {
		for j := range inner {
			l := 0
			if !probs {
				l = int(label[o*inner+j]) // MXNet truncates the label to an int
				if l == ignore {
					valid--
					if useIgnore {
						continue
					}
				}
			}
			for c := range k {
				i := (o*k+c)*inner + j
				target := 0.0
				switch {
				case probs:
					target = label[i]
				case c == l:
					target = on
				case alpha != 0:
					target = off
				}
				dx[i] = p[i] - target
			}
		}
	}
	// MXNet's DType(grad_scale / s3[2] / valid_cnt), in float32 (grad_scale's type)
	// whatever the data's dtype; multi_output divides by the positions (s3[2]) too
	// unless normalization is valid.
	scale := float32(at.Float("grad_scale"))
	multi := at.Bool("multi_output")
	if multi && at.Str("normalization") != "valid" {
		scale /= float32(inner)
	}
	switch at.Str("normalization") {
	case "valid":
		scale /= float32(max(valid, 1))
	case "batch":
		if multi {
			scale /= float32(outer)
		} else {
			scale /= float32(len(label))
		}
	}
	useOG := at.Bool("out_grad")
	i := 0
	ops.FillInOrder(out[0], func() float64 {
		v := dx[i] * float64(scale)
		if useOG {
			v *= p[i]
		}
		i++
		return v
	})
	return nil
}

// crossEntropyGrad is softmax_cross_entropy's: (softmax(data) - one_hot(label)) times the
// head gradient, the label truncated toward zero and one outside [0, classes) subtracting
// nothing (MXNet 1.9.1's, checked); a gradient of the label is refused, as MXNet's
// "Cannot take gradient wrt label".
var crossEntropyGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	if c.Need[1] {
		return nil, mxerr.New(mxerr.MXNet, "SoftmaxCrossEntropy: Check failed: req[1] == kNullOp: Cannot take gradient wrt label")
	}
	s := &ops.GradCalls{C: c}
	x := c.In[0]
	k := c.Shapes[0][len(c.Shapes[0])-1]
	hot := s.Call("one_hot", "depth="+strconv.Itoa(k)+";dtype="+x.DType().String(), c.In[1])
	dx := s.Call("subtract", "", s.Call("softmax", "axis=-1", x), hot)
	return s.Done(s.Call("broadcast_mul", "", dx, c.OutGrad[0]), nil)
}}

// regressionGrad is the gradient of an output layer (LinearRegressionOutput ...):
// d(y, label) * grad_scale / (label's size over its first axis), the head gradient
// ignored; the label (data's shape, or without a last axis of 1) gets none.
func regressionGrad(mae bool) *ops.Gradient {
	return &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		s := &ops.GradCalls{C: c}
		ls := c.Shapes[1]
		size, _ := ndarray.Size(ls)
		num := 1
		if len(ls) > 0 && ls[0] > 0 {
			num = size / ls[0]
		}
		label := s.Call("reshape", "shape="+ops.WireInts(c.Shapes[0]), c.In[1])
		d := s.Call("subtract", "", c.Out[0], label)
		if mae {
			d = s.Call("sign", "", d)
		}
		scale := float32(c.Attrs.Float("grad_scale")) / float32(num) // MXNet's, in float32
		return s.Done(s.Call("_multiply_scalar", nnScalar(float64(scale)), d), nil)
	}}
}

func init() {
	ops.Register(&ops.Op{
		Name: "_backward_SoftmaxOutput",
		Doc: "SoftmaxOutput's gradient (MXNet's backward of it): from its result and label, " +
			"with SoftmaxOutput's parameters. Internal: SoftmaxOutput's Grad calls it.",
		Category: ops.General, Inputs: []string{"out", "label"}, DTypes: ops.FloatDTypes, Params: smOutputParams,
		Infer:  ops.InferSame,
		Kernel: softmaxOutputBackward,
	})
}

// nnScalar is the wire form of a scalar parameter of value v ("scalar=f:2.5").
func nnScalar(v float64) string { return "scalar=f:" + strconv.FormatFloat(v, 'g', -1, 64) }
