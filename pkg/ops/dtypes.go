package ops

import (
	"strings"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

func DTypeNames(dts []ndarray.DType) string {
	names := make([]string, len(dts))
	for i, d := range dts {
		names[i] = d.String()
	}
	return strings.Join(names, ", ")
}

// The dtype sets of the elementwise operators, spelled out so the registry lists them.
var (
	AllDTypes         = ndarray.DTypes()
	NumericDTypes     = DTypesExcept(ndarray.Bool)
	RealDTypes        = DTypesExcept(ndarray.Complex64, ndarray.Complex128)
	RealNumericDTypes = DTypesExcept(ndarray.Bool, ndarray.Complex64, ndarray.Complex128)
	FloatDTypes       = []ndarray.DType{ndarray.Float16, ndarray.Bfloat16, ndarray.Float32, ndarray.Float64}
	F32F64DTypes      = []ndarray.DType{ndarray.Float32, ndarray.Float64} // MXNet's LAPACK and CPU layers
)
