package ops

import (
	"strings"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

func dtypeNames(dts []ndarray.DType) string {
	names := make([]string, len(dts))
	for i, d := range dts {
		names[i] = d.String()
	}
	return strings.Join(names, ", ")
}

// The dtype sets of the elementwise operators, spelled out so the registry lists them.
var (
	allDTypes         = ndarray.DTypes()
	numericDTypes     = dtypesExcept(ndarray.Bool)
	realDTypes        = dtypesExcept(ndarray.Complex64, ndarray.Complex128)
	realNumericDTypes = dtypesExcept(ndarray.Bool, ndarray.Complex64, ndarray.Complex128)
	floatDTypes       = []ndarray.DType{ndarray.Float16, ndarray.Bfloat16, ndarray.Float32, ndarray.Float64}
	f32f64DTypes      = []ndarray.DType{ndarray.Float32, ndarray.Float64} // MXNet's LAPACK and CPU layers
)
