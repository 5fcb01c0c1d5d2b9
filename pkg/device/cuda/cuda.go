//go:build mxgo_cuda

package cuda

/*
#cgo LDFLAGS: -lcuda -ldl
#include <stdlib.h>
#include <cuda.h>
#include "shim/shim.h"
*/
import "C"

import (
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/proc"
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

// gpu is one device: its primary context, retained once and held for the process's life,
// and mxgo's stream there, on which the engine issues all of mxgo's work on the device.
type gpu struct {
	once   sync.Once
	ctx    cu.CUContext
	stream cu.Stream // non-blocking, as MXNet's: the legacy stream's users do not wait for it
	err    error
}

// Counters of the back end's own work, for tests (Stats).
var (
	nAlloc, nFree, liveBytes atomic.Int64
	nHtoD, nDtoH, nDtoD      atomic.Int64
	nMemset, nCtxRetain      atomic.Int64
	nHostAlloc, nHostFree    atomic.Int64
	liveHostBytes            atomic.Int64
	nHandOff, nWaitFor       atomic.Int64
	nSync                    atomic.Int64
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
	path := proc.Getenv("MXGO_LIBCUDA")
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
		g.err = current(g.ctx, func() (err error) {
			g.stream, err = cu.MakeStream(cu.NonBlocking)
			return wrap("cuStreamCreate", err)
		})
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
	return current(g.ctx, fn)
}

func current(ctx cu.CUContext, fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.SetCurrentContext(ctx); err != nil {
		return wrap("cuCtxSetCurrent", err)
	}
	return fn()
}

// onStream is on with mxgo's stream on gpu(id) passed to fn, which issues work there;
// its work is waited for (cuStreamSynchronize) before onStream returns, as MXNet 1.x's
// engine waits for a GPU operation's stream: an engine operation is done when the device
// is, so wait_to_read, to_dlpack_for_read and asnumpy mean what they mean in MXNet, and
// host memory a copy reads or writes may be reused. Events for engine dependencies,
// instead of this wait, are the next step; the hand-overs (HandOff, WaitFor) already
// order other streams after this one with events.
func onStream(id int32, call string, fn func(s cu.Stream) error) error {
	g, err := device(id)
	if err != nil {
		return err
	}
	return current(g.ctx, func() error {
		if err := wrap(call, fn(g.stream)); err != nil {
			return err
		}
		nSync.Add(1)
		return wrap("cuStreamSynchronize (after "+call+")", g.stream.Synchronize())
	})
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
	return uintptr(p), freer(id, "device memory", n, func() error { return cu.MemFree(p) }, &nFree, &liveBytes), nil
}

// freer returns the function that gives back n bytes through release, in gpu(id)'s
// context, exactly once: a second call panics. A failed release (a driver that went away)
// cannot be reported to anyone, the storage being gone: it counts as freed either way.
func freer(id int32, what string, n int64, release func() error, frees, live *atomic.Int64) func() {
	var freed atomic.Bool
	return func() {
		if !freed.CompareAndSwap(false, true) {
			panic("cuda: " + what + " freed twice")
		}
		_ = on(id, release)
		frees.Add(1)
		live.Add(-n)
	}
}

// AllocHost allocates nbytes of page-locked host memory (cuMemHostAlloc, portable: every
// context sees it as page-locked; at least one byte) in gpu(0)'s primary context, and
// returns it and the function that frees it, which must be called exactly once.
func AllocHost(nbytes int) (unsafe.Pointer, func(), error) {
	if nbytes < 0 {
		return nil, nil, mxerr.ValueErr("negative allocation size %d", nbytes)
	}
	n := int64(max(nbytes, 1))
	var p unsafe.Pointer
	err := on(0, func() error {
		// cu wraps cuMemFreeHost but not cuMemHostAlloc: called through the shim directly.
		if r := int(C.cuMemHostAlloc(&p, C.size_t(n), C.CU_MEMHOSTALLOC_PORTABLE)); r != 0 {
			return callErr("cuMemHostAlloc", r)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	nHostAlloc.Add(1)
	liveHostBytes.Add(n)
	return p, freer(0, "page-locked memory", n, func() error { return cu.MemFreeHost(p) }, &nHostFree, &liveHostBytes), nil
}

// CopyHtoD copies nbytes from host memory to gpu(id) on mxgo's stream, and waits for it.
func CopyHtoD(id int32, dst uintptr, src unsafe.Pointer, nbytes int) error {
	if nbytes == 0 {
		return nil
	}
	nHtoD.Add(1)
	return onStream(id, "cuMemcpyHtoDAsync", func(s cu.Stream) error {
		return cu.MemcpyHtoDAsync(cu.DevicePtr(dst), src, int64(nbytes), s)
	})
}

// CopyDtoH copies nbytes from gpu(id) to host memory on mxgo's stream, and waits for it.
func CopyDtoH(id int32, dst unsafe.Pointer, src uintptr, nbytes int) error {
	if nbytes == 0 {
		return nil
	}
	nDtoH.Add(1)
	return onStream(id, "cuMemcpyDtoHAsync", func(s cu.Stream) error {
		return cu.MemcpyDtoHAsync(dst, cu.DevicePtr(src), int64(nbytes), s)
	})
}

// CopyDtoD copies nbytes between device allocations (of one device, or of two through
// cuMemcpyPeer) on mxgo's stream of the destination, and waits for it.
func CopyDtoD(dstID int32, dst uintptr, srcID int32, src uintptr, nbytes int) error {
	if nbytes == 0 {
		return nil
	}
	nDtoD.Add(1)
	if dstID == srcID {
		return onStream(dstID, "cuMemcpyDtoDAsync", func(s cu.Stream) error {
			return cu.MemcpyDtoDAsync(cu.DevicePtr(dst), cu.DevicePtr(src), int64(nbytes), s)
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
	// On the destination's stream; the source's stream has no work left (onStream).
	return onStream(dstID, "cuMemcpyPeerAsync", func(s cu.Stream) error {
		return cu.MemcpyPeerAsync(cu.DevicePtr(dst), gd.ctx, cu.DevicePtr(src), gs.ctx, int64(nbytes), s)
	})
}

// MemsetD8 sets n bytes at dst on gpu(id) to v.
func MemsetD8(id int32, dst uintptr, v byte, n int) error {
	return memset(id, "cuMemsetD8Async", n, func(s cu.Stream) error { return cu.MemsetD8Async(cu.DevicePtr(dst), v, int64(n), s) })
}

// MemsetD16 sets n 16-bit words at dst on gpu(id) to v.
func MemsetD16(id int32, dst uintptr, v uint16, n int) error {
	return memset(id, "cuMemsetD16Async", n, func(s cu.Stream) error { return cu.MemsetD16Async(cu.DevicePtr(dst), v, int64(n), s) })
}

// MemsetD32 sets n 32-bit words at dst on gpu(id) to v.
func MemsetD32(id int32, dst uintptr, v uint32, n int) error {
	return memset(id, "cuMemsetD32Async", n, func(s cu.Stream) error { return cu.MemsetD32Async(cu.DevicePtr(dst), uint(v), int64(n), s) })
}

// memset issues a fill of n elements (none: nothing) on mxgo's stream on gpu(id).
func memset(id int32, call string, n int, issue func(cu.Stream) error) error {
	if n == 0 {
		return nil
	}
	nMemset.Add(1)
	return onStream(id, call, issue)
}

// cu.Stream is one CUstream handle: rawStream and Stream convert.
var _ [unsafe.Sizeof(cu.Stream{}) - unsafe.Sizeof(uintptr(0))]struct{}
var _ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(cu.Stream{})]struct{}

// HandOff orders a consumer's work on stream after mxgo's work on gpu(id), without
// blocking the host, as the Array API's __dlpack__(stream=...) asks: -1 (the consumer
// synchronises itself) needs nothing; 0 (None) and 1 name the legacy default stream, 2
// the per-thread default stream, anything else a CUstream, which waits on an event
// recorded on mxgo's stream.
func HandOff(id int32, stream int64) error {
	if stream == -1 {
		return nil
	}
	g, err := device(id)
	if err != nil {
		return err
	}
	if err := order(g, g.stream, rawStream(uintptr(stream))); err != nil {
		return err
	}
	nHandOff.Add(1)
	return nil
}

// Stream returns the handle of mxgo's stream on gpu(id): what mxgo passes as
// __dlpack__(stream=...) when it imports a producer's tensor there, so that the producer
// orders mxgo's stream after its own work.
func Stream(id int32) (uintptr, error) {
	g, err := device(id)
	if err != nil {
		return 0, err
	}
	return *(*uintptr)(unsafe.Pointer(&g.stream)), nil
}

// WaitFor orders mxgo's stream on gpu(id) after the work issued so far on a producer's
// stream (0 and 1: the legacy default stream, 2: the per-thread one, else a CUstream),
// without blocking the host: the consumer's side of the DLPack C exchange API, whose
// imports do not synchronise (current_work_stream names the producer's stream).
func WaitFor(id int32, producer uintptr) error {
	g, err := device(id)
	if err != nil {
		return err
	}
	if err := order(g, rawStream(producer), g.stream); err != nil {
		return err
	}
	nWaitFor.Add(1)
	return nil
}

// order makes stream to wait for the work issued so far on stream from, on the device g
// (cuEventRecord, cuStreamWaitEvent; the event is released once the wait is issued).
func order(g *gpu, from, to cu.Stream) error {
	return current(g.ctx, func() error {
		ev, err := cu.MakeEvent(cu.DisableTiming)
		if err != nil {
			return wrap("cuEventCreate", err)
		}
		defer func() { _ = cu.DestroyEvent(&ev) }()
		if err := ev.Record(from); err != nil {
			return wrap("cuEventRecord", err)
		}
		return wrap("cuStreamWaitEvent", to.Wait(ev, 0))
	})
}

// rawStream is the cu.Stream of a raw CUstream handle (0, the NULL stream, and 1 are the
// legacy default stream, 2 the per-thread one).
func rawStream(h uintptr) cu.Stream { return *(*cu.Stream)(unsafe.Pointer(&h)) }

// Stats returns the back end's counters: allocations, frees, live bytes, copies by
// direction, fills, primary contexts retained, trampolines and those the driver lacks,
// and the calls cu's init made to the shim's cuInit.
func Stats() map[string]int64 {
	return map[string]int64{
		"built": 1, "alloc": nAlloc.Load(), "free": nFree.Load(), "live_bytes": liveBytes.Load(),
		"htod": nHtoD.Load(), "dtoh": nDtoH.Load(), "dtod": nDtoD.Load(), "memset": nMemset.Load(),
		"ctx_retain": nCtxRetain.Load(), "host_alloc": nHostAlloc.Load(), "host_free": nHostFree.Load(), "live_host_bytes": liveHostBytes.Load(),
		"handoff": nHandOff.Load(), "waitfor": nWaitFor.Load(), "sync": nSync.Load(), "shim_funcs": int64(C.mxgo_cuda_nfuncs()),
		"shim_missing": int64(C.mxgo_cuda_nmissing()), "shim_init_calls": int64(C.mxgo_cuda_init_calls()),
	}
}
