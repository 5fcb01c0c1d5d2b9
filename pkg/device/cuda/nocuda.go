//go:build !mxgo_cuda

package cuda

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
)

// Built reports whether the CUDA back end is compiled in (the mxgo_cuda build tag).
const Built = false

var errNotBuilt = mxerr.New(mxerr.MXNet, "no CUDA: this mxgo was built without its CUDA back end (build tag mxgo_cuda)")

// Load reports why no GPU can be used.
func Load() error { return errNotBuilt }

// Count returns the number of usable GPUs: none.
func Count() int { return 0 }

// CheckDevice returns why gpu(id) cannot be used.
func CheckDevice(id int32) error { return errNotBuilt }

// Alloc cannot allocate without the back end.
func Alloc(id int32, nbytes int) (uintptr, func(), error) { return 0, nil, errNotBuilt }

// AllocHost cannot allocate without the back end.
func AllocHost(nbytes int) (unsafe.Pointer, func(), error) { return nil, nil, errNotBuilt }

// CopyHtoD cannot copy without the back end.
func CopyHtoD(id int32, dst uintptr, src unsafe.Pointer, nbytes int) error { return errNotBuilt }

// CopyDtoH cannot copy without the back end.
func CopyDtoH(id int32, dst unsafe.Pointer, src uintptr, nbytes int) error { return errNotBuilt }

// CopyDtoD cannot copy without the back end.
func CopyDtoD(dstID int32, dst uintptr, srcID int32, src uintptr, nbytes int) error {
	return errNotBuilt
}

// MemsetD8 cannot fill without the back end.
func MemsetD8(id int32, dst uintptr, v byte, n int) error { return errNotBuilt }

// MemsetD16 cannot fill without the back end.
func MemsetD16(id int32, dst uintptr, v uint16, n int) error { return errNotBuilt }

// MemsetD32 cannot fill without the back end.
func MemsetD32(id int32, dst uintptr, v uint32, n int) error { return errNotBuilt }

// HandOff has no stream to order without the back end.
func HandOff(id int32, stream int64) error { return errNotBuilt }

// Stream has no stream without the back end.
func Stream(id int32) (uintptr, error) { return 0, errNotBuilt }

// WaitFor has no stream to order without the back end.
func WaitFor(id int32, producer uintptr) error { return errNotBuilt }

// Stats returns the back end's counters (none).
func Stats() map[string]int64 { return map[string]int64{"built": 0} }
