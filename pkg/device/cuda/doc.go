// Package cuda is mxgo's CUDA back end over gorgonia.org/cu's driver API (docs/gpu.md).
//
// It is compiled in with the build tag mxgo_cuda, which the wheel's build sets
// (gen/generate.py); without the tag (plain `go build/test ./...`) the package reports
// that mxgo was built without CUDA and needs neither cuda.h nor the shim.
//
// The driver is loaded at run time: cu's -lcuda is satisfied by mxgo's shim (shim/, built
// into a static libcuda.a by tools/cudashim.py), whose trampolines jump through a table
// that Load fills from dlopen("libcuda.so.1", or $MXGO_LIBCUDA). Nothing CUDA happens until
// a GPU is first used, the extension needs no libcuda.so.1 to load, and no path exits the
// process: cu's package init calls the shim's cuInit, which always succeeds; the driver's
// own cuInit runs inside Load and its failure becomes an error.
//
// Every driver call runs on a goroutine locked to its OS thread, after making the
// device's primary context (cuDevicePrimaryCtxRetain, the one PyTorch and CuPy use)
// current there: the context is set per call, never assumed.
package cuda

import "fmt"

// The CUresult codes mxgo names in its messages (cuda.h).
const (
	errInvalidValue       = 1
	errOutOfMemory        = 2
	errNotInitialized     = 3
	errInsufficientDriver = 35
	errNoDevice           = 100
	errInvalidDevice      = 101
	errNotFound           = 500
)

var resultNames = map[int]string{
	0: "CUDA_SUCCESS", errInvalidValue: "CUDA_ERROR_INVALID_VALUE", errOutOfMemory: "CUDA_ERROR_OUT_OF_MEMORY",
	errNotInitialized: "CUDA_ERROR_NOT_INITIALIZED", 4: "CUDA_ERROR_DEINITIALIZED",
	errInsufficientDriver: "CUDA_ERROR_INSUFFICIENT_DRIVER", errNoDevice: "CUDA_ERROR_NO_DEVICE",
	errInvalidDevice: "CUDA_ERROR_INVALID_DEVICE", 201: "CUDA_ERROR_INVALID_CONTEXT",
	400: "CUDA_ERROR_INVALID_HANDLE", errNotFound: "CUDA_ERROR_NOT_FOUND", 600: "CUDA_ERROR_NOT_READY",
	214: "CUDA_ERROR_ECC_UNCORRECTABLE", 217: "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", 700: "CUDA_ERROR_ILLEGAL_ADDRESS",
	719: "CUDA_ERROR_LAUNCH_FAILED", 999: "CUDA_ERROR_UNKNOWN",
}

// ResultName returns cuda.h's name of a CUresult code.
func ResultName(code int) string {
	if s, ok := resultNames[code]; ok {
		return s
	}
	return fmt.Sprintf("CUresult %d", code)
}

// MinDriverVersion is the oldest driver mxgo accepts (cuDriverGetVersion's 1000*major +
// 10*minor): CUDA 11.0, the oldest whose symbols cuda.h 12.9 maps the calls mxgo makes to.
const MinDriverVersion = 11000
