package ops

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Uniform fills a with samples from [low, high) (on the engine).
func Uniform(a *ndarray.NDArray, low, high float64) error {
	return invokeInto("random_uniform", nil, a, randomAttrs(a, "low", low, "high", high))
}

// Normal fills a with samples from N(loc, scale^2) (on the engine).
func Normal(a *ndarray.NDArray, loc, scale float64) error {
	return invokeInto("random_normal", nil, a, randomAttrs(a, "loc", loc, "scale", scale))
}

func randomAttrs(a *ndarray.NDArray, na string, va float64, nb string, vb float64) Attrs {
	return Attrs{na: va, nb: vb, "shape": a.Shape(), "dtype": a.DType()}
}
