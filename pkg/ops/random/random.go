package random

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Uniform fills a with samples from [low, high) (on the engine).
func Uniform(a *ndarray.NDArray, low, high float64) error {
	return ops.InvokeInto("random_uniform", nil, a, randomAttrs(a, "low", low, "high", high))
}

// Normal fills a with samples from N(loc, scale^2) (on the engine).
func Normal(a *ndarray.NDArray, loc, scale float64) error {
	return ops.InvokeInto("random_normal", nil, a, randomAttrs(a, "loc", loc, "scale", scale))
}

func randomAttrs(a *ndarray.NDArray, na string, va float64, nb string, vb float64) ops.Attrs {
	return ops.Attrs{na: va, nb: vb, "shape": a.Shape(), "dtype": a.DType()}
}
