package dlpack

/*
#cgo CFLAGS: -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion
#include "dlpack.h"
*/
import "C"

import (
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// dlpack.h's copies of facts that Go owns, checked at compile time: an array type whose
// length is negative fails the build, so each pair below holds only if they agree.
var (
	_ [C.MXGO_DLPACK_MAJOR - VersionMajor]struct{}
	_ [VersionMajor - C.MXGO_DLPACK_MAJOR]struct{}
	_ [C.MXGO_DLPACK_MINOR - VersionMinor]struct{}
	_ [VersionMinor - C.MXGO_DLPACK_MINOR]struct{}
	_ [C.MXGO_MAX_DIMS - ndarray.MaxDims]struct{}
	_ [ndarray.MaxDims - C.MXGO_MAX_DIMS]struct{}
	_ [C.MXGO_DEVICE_CPU - device.CPU]struct{}
	_ [device.CPU - C.MXGO_DEVICE_CPU]struct{}
	_ [C.MXGO_DEVICE_CUDA - device.CUDA]struct{}
	_ [device.CUDA - C.MXGO_DEVICE_CUDA]struct{}
	_ [C.MXGO_DEVICE_CUDA_HOST - device.CUDAHost]struct{}
	_ [device.CUDAHost - C.MXGO_DEVICE_CUDA_HOST]struct{}
	_ [C.MXGO_DEVICE_CUDA_MANAGED - device.CUDAManaged]struct{}
	_ [device.CUDAManaged - C.MXGO_DEVICE_CUDA_MANAGED]struct{}
	_ [C.MXGO_DLPACK_FLAG_READ_ONLY - FlagReadOnly]struct{}
	_ [FlagReadOnly - C.MXGO_DLPACK_FLAG_READ_ONLY]struct{}
	_ [C.MXGO_DLPACK_FLAG_IS_COPIED - FlagIsCopied]struct{}
	_ [FlagIsCopied - C.MXGO_DLPACK_FLAG_IS_COPIED]struct{}
)
