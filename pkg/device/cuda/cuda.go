//go:build mxgo_cuda

package cuda

/*
#cgo LDFLAGS: -lcuda -ldl
#include <stdlib.h>
#include "shim/shim.h"
*/
import "C"

import (
	"os"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"gorgonia.org/cu"
)

// Built reports whether the CUDA back end is compiled in (the mxgo_cuda build tag).
const Built = true

// The driver, loaded once (Load).
var (
	loadOnce sync.Once
	loadErr  error
	ndev     int
	devs     []*gpu // per ordinal, their primary contexts retained on first use
)

// gpu is one device: its primary context, retained once and held for the process's life.
type gpu struct {
	once sync.Once
	ctx  cu.CUContext
	err  error
}

// Counters of the back end's own work, for tests (Stats).
var (
	nAlloc, nFree, liveBytes atomic.Int64
	nHtoD, nDtoH, nDtoD      atomic.Int64
	nMemset, nCtxRetain      atomic.Int64
	nHandOff, nSync          atomic.Int64
)

// code returns the CUresult inside an error from cu (cu's result type is an int).
func code(err error) int {
	if v := reflect.ValueOf(err); v.Kind() >= reflect.Int && v.Kind() <= reflect.Int64 {
		return int(v.Int())
	}
	return -1
}

// callErr is the error of a driver call that returned code (non-zero): MemoryError for
// CUDA_ERROR_OUT_OF_MEMORY, MXNetError otherwise, naming the call and the code.
func callErr(call string, code int) error {
	k := mxerr.MXNet
	if code == errOutOfMemory {
		k = mxerr.Memory
	}
	return mxerr.New(k, "CUDA driver call %s failed: %s (%d)", call, ResultName(code), code)
}

func wrap(call string, err error) error {
	if err == nil {
		return nil
	}
	return callErr(call, code(err))
}

// Load loads the driver (libcuda.so.1, or $MXGO_LIBCUDA) and initialises it, once; later
// calls return the first one's result. The error names the cause: no library, a driver
// that fails cuInit (no device, too old), a driver older than MinDriverVersion.
func Load() error {
	loadOnce.Do(func() { loadErr = load() })
	return loadErr
}

func load() error {
	path := os.Getenv("MXGO_LIBCUDA")
	name := path
	if name == "" {
		name = "libcuda.so.1"
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var msg [512]C.char
	st := int(C.mxgo_cuda_load(cpath, &msg[0], C.size_t(len(msg))))
	detail := C.GoString(&msg[0])
	switch st {
	case 0:
	case -1:
		return mxerr.New(mxerr.MXNet, "no CUDA driver: cannot load %s (%s)", name, detail)
	case errNoDevice:
		return mxerr.New(mxerr.MXNet, "no CUDA device: the driver (%s) found no CUDA-capable device (cuInit: %s)", name, ResultName(st))
	case errInsufficientDriver:
		return mxerr.New(mxerr.MXNet, "the CUDA driver (%s) is too old for this system's CUDA (cuInit: %s)", name, ResultName(st))
	default:
		return mxerr.New(mxerr.MXNet, "the CUDA driver (%s) failed to initialise: cuInit returned %s (%d)", name, ResultName(st), st)
	}
	v := cu.Version() // cuDriverGetVersion; -1 when it fails
	if v < 0 {
		return mxerr.New(mxerr.MXNet, "the CUDA driver (%s) does not report its version (cuDriverGetVersion failed)", name)
	}
	if v < MinDriverVersion {
		return mxerr.New(mxerr.MXNet, "the CUDA driver (%s) is too old: version %d.%d, mxgo needs %d.%d or newer",
			name, v/1000, v%1000/10, MinDriverVersion/1000, MinDriverVersion%1000/10)
	}
	n, err := cu.NumDevices()
	if err != nil {
		return wrap("cuDeviceGetCount", err)
	}
	if n <= 0 {
		return mxerr.New(mxerr.MXNet, "no CUDA device: the driver (%s) reports none", name)
	}
	ndev = n
	devs = make([]*gpu, n)
	for i := range devs {
		devs[i] = &gpu{}
	}
	return nil
}

// Count returns the number of usable GPUs: 0 when the driver cannot be loaded.
func Count() int {
	if Load() != nil {
		return 0
	}
	return ndev
}

// CheckDevice returns nil when gpu(id) can be used, else why not (no driver, no device,
// an id out of range, a primary context that cannot be retained).
func CheckDevice(id int32) error {
	_, err := device(id)
	return err
}

func device(id int32) (*gpu, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	if id < 0 || int(id) >= ndev {
		return nil, mxerr.New(mxerr.MXNet, "invalid device id: gpu(%d) does not exist, the CUDA driver reports %d device(s)", id, ndev)
	}
	g := devs[id]
	g.once.Do(func() {
		dev, err := cu.GetDevice(int(id))
		if err != nil {
			g.err = wrap("cuDeviceGet", err)
			return
		}
		if g.ctx, err = dev.RetainPrimaryCtx(); err != nil {
			g.err = wrap("cuDevicePrimaryCtxRetain", err)
			return
		}
		nCtxRetain.Add(1)
	})
	return g, g.err
}

// on runs fn on this goroutine's OS thread with gpu(id)'s primary context current there:
// CUDA's current context belongs to the OS thread, which Go may change between calls.
func on(id int32, fn func() error) error {
	g, err := device(id)
	if err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.SetCurrentContext(g.ctx); err != nil {
		return wrap("cuCtxSetCurrent", err)
	}
	return fn()
}

// settle waits for the work mxgo issued on the legacy default stream (cuStreamSynchronize):
// the driver returns from cuMemset*, device-to-device copies and pageable host-to-device
// copies before the device has finished them, and mxgo's engine, which has no device
// streams yet, must not mark an operation done before its memory is. With it, an
// operation's completion (wait_to_read, to_dlpack_for_read, asnumpy) means the device's.
func settle(call string, err error) error {
	if err != nil {
		return err
	}
	nSync.Add(1)
	return wrap("cuStreamSynchronize (after "+call+")", cu.NoStream.Synchronize())
}

// Alloc allocates nbytes on gpu(id) (cuMemAlloc; at least one byte, so that no array has
// a null pointer) and returns the address and the function that frees it, which must be
// called exactly once.
func Alloc(id int32, nbytes int) (uintptr, func(), error) {
	if nbytes < 0 {
		return 0, nil, mxerr.ValueErr("negative allocation size %d", nbytes)
	}
	n := int64(max(nbytes, 1))
	var p cu.DevicePtr
	err := on(id, func() (err error) {
		p, err = cu.MemAlloc(n)
		return wrap("cuMemAlloc", err)
	})
	if err != nil {
		return 0, nil, err
	}
	nAlloc.Add(1)
	liveBytes.Add(n)
	var freed atomic.Bool
	free := func() {
		if !freed.CompareAndSwap(false, true) {
			panic("cuda: device memory freed twice")
		}
		// A failed free (a driver that went away) cannot be reported to anyone: the
		// storage is gone. Count it as freed either way.
		_ = on(id, func() error { return cu.MemFree(p) })
		nFree.Add(1)
		liveBytes.Add(-n)
	}
	return uintptr(p), free, nil
}

// CopyHtoD copies nbytes from host memory to gpu(id), synchronously.
func CopyHtoD(id int32, dst uintptr, src unsafe.Pointer, nbytes int) error {
	if nbytes == 0 {
		return nil
	}
	return on(id, func() error {
		nHtoD.Add(1)
		return settle("cuMemcpyHtoD", wrap("cuMemcpyHtoD", cu.MemcpyHtoD(cu.DevicePtr(dst), src, int64(nbytes))))
	})
}

// CopyDtoH copies nbytes from gpu(id) to host memory, synchronously.
func CopyDtoH(id int32, dst unsafe.Pointer, src uintptr, nbytes int) error {
	if nbytes == 0 {
		return nil
	}
	return on(id, func() error {
		nDtoH.Add(1)
		return wrap("cuMemcpyDtoH", cu.MemcpyDtoH(dst, cu.DevicePtr(src), int64(nbytes)))
	})
}

// CopyDtoD copies nbytes between device allocations (of one device, or of two through
// cuMemcpyPeer), synchronously.
func CopyDtoD(dstID int32, dst uintptr, srcID int32, src uintptr, nbytes int) error {
	if nbytes == 0 {
		return nil
	}
	if dstID == srcID {
		return on(dstID, func() error {
			nDtoD.Add(1)
			return settle("cuMemcpyDtoD", wrap("cuMemcpyDtoD", cu.MemcpyDtoD(cu.DevicePtr(dst), cu.DevicePtr(src), int64(nbytes))))
		})
	}
	gs, err := device(srcID)
	if err != nil {
		return err
	}
	gd, err := device(dstID)
	if err != nil {
		return err
	}
	return on(dstID, func() error {
		nDtoD.Add(1)
		return settle("cuMemcpyPeer", wrap("cuMemcpyPeer", cu.MemcpyPeer(cu.DevicePtr(dst), gd.ctx, cu.DevicePtr(src), gs.ctx, int64(nbytes))))
	})
}

// MemsetD8 sets n bytes at dst on gpu(id) to v.
func MemsetD8(id int32, dst uintptr, v byte, n int) error {
	if n == 0 {
		return nil
	}
	return on(id, func() error {
		nMemset.Add(1)
		return settle("cuMemsetD8", wrap("cuMemsetD8", cu.MemsetD8(cu.DevicePtr(dst), v, int64(n))))
	})
}

// MemsetD32 sets n 32-bit words at dst on gpu(id) to v.
func MemsetD32(id int32, dst uintptr, v uint32, n int) error {
	if n == 0 {
		return nil
	}
	return on(id, func() error {
		nMemset.Add(1)
		return settle("cuMemsetD32", wrap("cuMemsetD32", cu.MemsetD32(cu.DevicePtr(dst), v, int64(n))))
	})
}

// cu.Stream is one CUstream handle; HandOff builds one from a consumer's raw handle.
var _ [unsafe.Sizeof(cu.Stream{}) - unsafe.Sizeof(uintptr(0))]struct{}
var _ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(cu.Stream{})]struct{}

// HandOff orders a consumer's work on stream after mxgo's work on gpu(id), without
// blocking the host, as the Array API's __dlpack__(stream=...) asks. mxgo issues its
// driver calls on the legacy default stream (and, for now, waits for them: settle; the
// hand-over is what stays right once mxgo's device work becomes asynchronous), so: -1 (the consumer synchronises itself),
// 0 (None, the legacy default stream) and 1 (the legacy default stream) need nothing;
// any other stream (2, the per-thread default, or a CUstream) waits on an event recorded
// on the legacy default stream (cuEventRecord, cuStreamWaitEvent).
func HandOff(id int32, stream int64) error {
	if stream == -1 || stream == 0 || stream == 1 {
		return nil
	}
	return on(id, func() error {
		ev, err := cu.MakeEvent(cu.DisableTiming)
		if err != nil {
			return wrap("cuEventCreate", err)
		}
		defer func() { _ = cu.DestroyEvent(&ev) }() // released once the wait is done
		if err := ev.Record(cu.NoStream); err != nil {
			return wrap("cuEventRecord", err)
		}
		h := uintptr(stream)
		consumer := *(*cu.Stream)(unsafe.Pointer(&h))
		if err := consumer.Wait(ev, 0); err != nil {
			return wrap("cuStreamWaitEvent", err)
		}
		nHandOff.Add(1)
		return nil
	})
}

// Stats returns the back end's counters: allocations, frees, live bytes, copies by
// direction, fills, primary contexts retained, trampolines and those the driver lacks,
// and the calls cu's init made to the shim's cuInit.
func Stats() map[string]int64 {
	return map[string]int64{
		"built": 1, "alloc": nAlloc.Load(), "free": nFree.Load(), "live_bytes": liveBytes.Load(),
		"htod": nHtoD.Load(), "dtoh": nDtoH.Load(), "dtod": nDtoD.Load(), "memset": nMemset.Load(),
		"ctx_retain": nCtxRetain.Load(), "handoff": nHandOff.Load(), "sync": nSync.Load(), "shim_funcs": int64(C.mxgo_cuda_nfuncs()),
		"shim_missing": int64(C.mxgo_cuda_nmissing()), "shim_init_calls": int64(C.mxgo_cuda_init_calls()),
	}
}
