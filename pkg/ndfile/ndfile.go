// Package ndfile reads and writes MXNet 1.x's NDArray file format (the ".params" files of
// mx.nd.save and mx.nd.load), byte-compatible with MXNet 1.9.1 in both directions.
//
// The format, as MXNet 1.9.1 writes it (src/ndarray/ndarray.cc, NDArray::Save and
// NDArray::Load; include/mxnet/tuple.h, Tuple::Save), all little-endian:
//
//	file:   uint64 0x112 (list magic) | uint64 0 (reserved)
//	        | uint64 n | n arrays | uint64 m (0: a list, n: a dict) | m names
//	name:   uint64 length | that many bytes (UTF-8)
//	array:  uint32 magic | int32 storage type (0: dense) | shape | int32 device type
//	        | int32 device id | int32 type flag | the elements, C order
//	shape:  int32 ndim | ndim int64 dimensions
//
// The magic is 0xF993FAC9 (V2) outside NumPy shape semantics, where ndim 0 marks an
// uninitialised array (nothing follows its shape) and 0-d or size-0 arrays cannot be made;
// 0xF993FACA (V3) inside them (mx.util.np_shape), where ndim -1 or a dimension -1 marks an
// unknown shape and () and (2, 0) are ordinary shapes. MXNet 1.9.1 loads V3 records only
// with NumPy shape semantics on, V2 only with them off (or globally on). Older records it
// still reads: 0xF993FAC8 (V1: no storage type) and, before that, no magic at all (the
// first uint32 is ndim, dimensions are uint32). Type flags (mshadow): float32 0, float64 1,
// float16 2, uint8 3, int32 4, int8 5, int64 6, bool 7, int16 8, uint16 9, uint32 10,
// uint64 11, bfloat16 12; MXNet 1.9.1 refuses 8-11 when loading ("Unknown type enum").
//
// Reading trusts nothing: every count and size is checked against the bytes that remain
// before anything is allocated, and every failure is an mxerr error of kind Value (or
// NotImplemented for sparse arrays), with every array made so far released.
package ndfile

import (
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The magic numbers of the format.
const (
	ListMagic uint64 = 0x112      // kMXAPINDArrayListMagic: the file header
	MagicV1   uint32 = 0xF993FAC8 // NDARRAY_V1_MAGIC: int64 shape, no storage type
	MagicV2   uint32 = 0xF993FAC9 // NDARRAY_V2_MAGIC: storage type, legacy shape semantics
	MagicV3   uint32 = 0xF993FACA // NDARRAY_V3_MAGIC: storage type, NumPy shape semantics
)

// MXNet's device types (mxnet::Context::DeviceType) as they appear in a file.
const (
	ctxCPU       = 1
	ctxGPU       = 2
	ctxCPUPinned = 3
	ctxCPUShared = 5
)

// typeFlags maps mshadow's type flags to mxgo's dtypes.
var typeFlags = map[int32]ndarray.DType{
	0: ndarray.Float32, 1: ndarray.Float64, 2: ndarray.Float16, 3: ndarray.Uint8,
	4: ndarray.Int32, 5: ndarray.Int8, 6: ndarray.Int64, 7: ndarray.Bool,
	8: ndarray.Int16, 9: ndarray.Uint16, 10: ndarray.Uint32, 11: ndarray.Uint64,
	12: ndarray.Bfloat16,
}

// TypeFlags returns every dtype's name and MXNet's type flag for it (what a symbol file's
// __dtype__ attribute holds too).
func TypeFlags() map[string]int32 {
	flags := make(map[string]int32, len(typeFlags))
	for f, dt := range typeFlags {
		flags[dt.String()] = f
	}
	return flags
}

// writable lists the dtypes mxgo writes, with their flags: those MXNet 1.9.1 can load.
var writable = map[ndarray.DType]int32{
	ndarray.Float32: 0, ndarray.Float64: 1, ndarray.Float16: 2, ndarray.Uint8: 3,
	ndarray.Int32: 4, ndarray.Int8: 5, ndarray.Int64: 6, ndarray.Bool: 7, ndarray.Bfloat16: 12,
}

// TypeFlag returns MXNet's type flag for dt and whether mxgo writes dt (MXNet 1.9.1
// cannot load int16, uint16, uint32 or uint64 arrays, and has no complex types).
func TypeFlag(dt ndarray.DType) (int32, bool) {
	f, ok := writable[dt]
	return f, ok
}

// NumPySemantics reports whether arrays can only be written as V3 records (MXNet's NumPy
// shape semantics): some array is 0-d or has a dimension of size 0, which MXNet's legacy
// semantics cannot express. Write then marks every record V3, as MXNet does under
// mx.util.np_shape(True), so that MXNet loads the file inside that scope.
func NumPySemantics(arrays []*ndarray.NDArray) bool {
	for _, a := range arrays {
		if a.NDim() == 0 || a.Size() == 0 {
			return true
		}
	}
	return false
}

// Check returns the error Write would give for these arrays and names before writing
// anything: a TypeError for a dtype MXNet 1.9.1 cannot load, a ValueError for an array
// not in host memory or a names list of the wrong length.
func Check(arrays []*ndarray.NDArray, names []string) error {
	if names != nil && len(names) != len(arrays) {
		return mxerr.ValueErr("%d names for %d arrays", len(names), len(arrays))
	}
	for i, a := range arrays {
		if _, ok := writable[a.DType()]; !ok {
			return mxerr.TypeErr("array %d has dtype %s, which MXNet 1.x's NDArray file format cannot hold "+
				"(MXNet 1.9.1 loads float16, float32, float64, bfloat16, uint8, int8, int32, int64 and bool); "+
				"cast it first, e.g. x.astype('int64')", i, a.DType())
		}
		if t := a.Device().Type; t != device.CPU && t != device.CUDAHost && t != device.CUDA {
			return mxerr.ValueErr("array %d is on %s: only arrays in host or CUDA memory can be saved", i, a.Device())
		}
	}
	return nil
}
