package dlpack

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// DLPack type codes.
const (
	CodeInt     uint8 = 0
	CodeUInt    uint8 = 1
	CodeFloat   uint8 = 2
	CodeOpaque  uint8 = 3
	CodeBfloat  uint8 = 4
	CodeComplex uint8 = 5
	CodeBool    uint8 = 6
)

// Flags of DLManagedTensorVersioned.
const (
	FlagReadOnly          uint64 = 1 << 0
	FlagIsCopied          uint64 = 1 << 1
	FlagSubbyteTypePadded uint64 = 1 << 2
)

// The DLPack version mxgo implements.
const (
	VersionMajor = 1
	VersionMinor = 3
)

// Version is the DLPack version mxgo implements, as (major, minor).
var Version = [2]uint32{VersionMajor, VersionMinor}

// TypeOf returns the DLPack (code, bits) of dt; lanes are always 1.
func TypeOf(dt ndarray.DType) (code, bits uint8) {
	bits = uint8(dt.Size() * 8)
	switch dt.Kind() {
	case ndarray.KindBool:
		return CodeBool, 8
	case ndarray.KindInt:
		return CodeInt, bits
	case ndarray.KindUint:
		return CodeUInt, bits
	case ndarray.KindFloat:
		return CodeFloat, bits
	case ndarray.KindComplex:
		return CodeComplex, bits
	default:
		return CodeBfloat, bits
	}
}

// dtypeOf is each dtype + 1 by DLPack (code, bits), 0 for none: FromType runs for every
// operand an operator call borrows, where a scan of the dtypes showed in profiles.
var dtypeOf = func() (t [8][129]int8) {
	for _, dt := range ndarray.DTypes() {
		if c, b := TypeOf(dt); int(c) < len(t) && int(b) < len(t[0]) {
			t[c][b] = int8(dt) + 1
		}
	}
	return t
}()

// FromType returns the dtype of a DLPack (code, bits, lanes), accepting MXNet 1.x's
// (UInt, 1) encoding of bool.
func FromType(code, bits uint8, lanes uint16) (ndarray.DType, error) {
	if lanes != 1 {
		return 0, mxerr.BufferErr("dtype.lanes: vector types (lanes=%d) are not supported", lanes)
	}
	if code == CodeUInt && bits == 1 {
		return ndarray.Bool, nil
	}
	if int(code) < len(dtypeOf) && int(bits) < len(dtypeOf[0]) {
		if v := dtypeOf[code][bits]; v != 0 {
			return ndarray.DType(v - 1), nil
		}
	}
	switch code {
	case CodeInt, CodeUInt, CodeFloat, CodeBfloat, CodeComplex, CodeBool:
		return 0, mxerr.BufferErr("dtype.bits: %d bits is not valid for type code %d", bits, code)
	}
	return 0, mxerr.BufferErr("dtype.code: unsupported DLPack type code %d", code)
}
