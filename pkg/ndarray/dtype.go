package ndarray

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
)

// DType is an element type. Its numeric value is stable: the Python layer and the C
// fast path use it as a small integer code.
type DType int32

// The element types. Names follow NumPy.
const (
	Bool DType = iota
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float16
	Float32
	Float64
	Complex64
	Complex128
	Bfloat16
	numDTypes
)

// Kind groups dtypes the way DLPack's type codes do.
type Kind uint8

// DType kinds.
const (
	KindBool Kind = iota
	KindInt
	KindUint
	KindFloat
	KindComplex
	KindBfloat
)

type dtypeInfo struct {
	name string
	size int
	kind Kind
}

var dtypeTable = [numDTypes]dtypeInfo{
	Bool:       {"bool", 1, KindBool},
	Int8:       {"int8", 1, KindInt},
	Int16:      {"int16", 2, KindInt},
	Int32:      {"int32", 4, KindInt},
	Int64:      {"int64", 8, KindInt},
	Uint8:      {"uint8", 1, KindUint},
	Uint16:     {"uint16", 2, KindUint},
	Uint32:     {"uint32", 4, KindUint},
	Uint64:     {"uint64", 8, KindUint},
	Float16:    {"float16", 2, KindFloat},
	Float32:    {"float32", 4, KindFloat},
	Float64:    {"float64", 8, KindFloat},
	Complex64:  {"complex64", 8, KindComplex},
	Complex128: {"complex128", 16, KindComplex},
	Bfloat16:   {"bfloat16", 2, KindBfloat},
}

// DTypes lists every dtype in code order.
func DTypes() []DType {
	out := make([]DType, numDTypes)
	for i := range out {
		out[i] = DType(i)
	}
	return out
}

// Valid reports whether d is a known dtype.
func (d DType) Valid() bool { return d >= 0 && d < numDTypes }

// String returns the NumPy name of d.
func (d DType) String() string {
	if !d.Valid() {
		return "invalid"
	}
	return dtypeTable[d].name
}

// Size returns the size of one element in bytes.
func (d DType) Size() int { return dtypeTable[d].size }

// Kind returns the kind of d.
func (d DType) Kind() Kind { return dtypeTable[d].kind }

// ParseDType returns the dtype named s ("float32", ...).
func ParseDType(s string) (DType, error) {
	for i, info := range dtypeTable {
		if info.name == s {
			return DType(i), nil
		}
	}
	return 0, mxerr.TypeErr("unsupported dtype %q", s)
}
