package ndarray

/*
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "store.h"

#define MXGO_HUGE (2u << 20) // a transparent huge page on x86-64

// Host memory is aligned for any vector unit and for DLPack consumers that prefer it.
// Blocks of 4 MiB or more are aligned to, and advised into, huge pages, as NumPy does:
// a fresh 40 MB output then takes 20 page faults instead of 10,000, and streaming
// kernels fewer TLB misses. The advice is only a hint (THP may be off).
static void* mxgo_host_alloc(size_t n) {
	void* p = NULL;
	if (n == 0) n = 1;                       // never hand out NULL data
	if (posix_memalign(&p, n >= 2 * MXGO_HUGE ? MXGO_HUGE : 64, n) != 0) return NULL;
#ifdef MADV_HUGEPAGE
	if (n >= 2 * MXGO_HUGE) madvise(p, n - n % MXGO_HUGE, MADV_HUGEPAGE);
#endif
	return p;
}

// Freed blocks stay in malloc's arenas up to 256 MiB instead of going back to the
// kernel: a training step frees and reallocates the same few MB of activations, and
// handing them back made every step fault them in again (1,300 page faults, a fifth of
// a small CNN's step). MXNet's CPU storage pool keeps its blocks the same way. The
// setting is the process's (glibc has one malloc): MXGO_MALLOC_KEEP=0 leaves glibc's.
__attribute__((constructor)) static void mxgo_malloc_keep(void) {
	const char* keep = getenv("MXGO_MALLOC_KEEP");
	if (keep && strcmp(keep, "0") == 0) return;
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
}
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/device/cuda"
	"github.com/mxgo/mxgo/pkg/engine"
	"github.com/mxgo/mxgo/pkg/mxerr"
)

// HostAlign is the alignment in bytes of every host allocation mxgo makes.
const HostAlign = 64

// Storage is a refcounted block of memory shared by every array that views it. Its
// memory never lives on the Go heap, so other frameworks may hold it after any call.
type Storage struct {
	ptr     unsafe.Pointer
	nbytes  int
	dev     device.Device
	hdr     *C.mxgo_store // the C half: reference count and table slot (store.go)
	mem     memSource     // where the memory came from, so finalize knows how to let it go
	release func()        // hands foreign memory back to its producer; runs once
	v       engine.Var    // orders the engine's work on this memory
	graph   atomic.Int32  // arrays over this memory that a recorded graph uses (entry.go)
}

// memSource says where a storage's memory came from.
type memSource uint8

const (
	fromProducer  memSource = iota // someone else's: hand it back through release
	fromMalloc                     // mxgo_host_alloc
	fromPool                       // the small-block pool (small.go)
	fromDevice                     // device or page-locked memory (cuda.Alloc, AllocHost): freed through release
	fromBorrowing                  // lent for a call (Borrowing): nothing to free, the block may be reused
)

var liveStorages atomic.Int64

// LiveStorages returns the number of storages not yet released (for leak tests). A
// borrowed storage counts from when it outlives its call (Borrowings.Release) on.
func LiveStorages() int64 { return liveStorages.Load() }

// NewHostStorage allocates nbytes of uninitialised, 64-byte aligned host memory.
func NewHostStorage(nbytes int) (*Storage, error) {
	if nbytes < 0 {
		return nil, mxerr.ValueErr("negative allocation size %d", nbytes)
	}
	mem := fromMalloc
	p := unsafe.Pointer(nil)
	if nbytes <= smallBlock {
		if p = smallAlloc(); p != nil {
			mem = fromPool
		}
	}
	if p == nil {
		if p = C.mxgo_host_alloc(C.size_t(nbytes)); p == nil {
			return nil, mxerr.New(mxerr.Memory, "cannot allocate %d bytes", nbytes)
		}
	}
	s := newStorage(p, nbytes, device.Host, nil)
	s.mem = mem
	return s, nil
}

// NewDeviceStorage allocates nbytes of uninitialised memory on a GPU (dev.Type CUDA).
// The storage's pointer is a device address: no CPU code may read or write through it.
// Its memory is freed exactly once, with the last reference.
func NewDeviceStorage(dev device.Device, nbytes int) (*Storage, error) {
	if dev.Type != device.CUDA {
		return nil, mxerr.New(mxerr.MXNet, "cannot allocate device memory on %s", dev)
	}
	if err := cuda.CheckDevice(dev.ID); err != nil {
		return nil, mxerr.New(mxerr.KindOf(err), "cannot allocate on %s: the CUDA back end cannot be used: %v", dev, err)
	}
	p, free, err := cuda.Alloc(dev.ID, nbytes)
	if err != nil {
		return nil, mxerr.New(mxerr.KindOf(err), "cannot allocate %d bytes on %s: %v", nbytes, dev, err)
	}
	// A device address in an unsafe.Pointer: outside Go's heap (the collector ignores it),
	// never dereferenced by mxgo (OnHost), converted without uintptr arithmetic.
	s := newStorage(*(*unsafe.Pointer)(unsafe.Pointer(&p)), nbytes, dev, free)
	s.mem = fromDevice
	return s, nil
}

// NewPinnedStorage allocates nbytes of uninitialised page-locked host memory
// (cuMemHostAlloc: mx.cpu_pinned(), DLPack's kDLCUDAHost), which needs a CUDA driver.
// CPU code reads and writes it as any host memory; copies between it and a GPU are done
// by the device's DMA engine. It is freed exactly once, with the last reference.
func NewPinnedStorage(dev device.Device, nbytes int) (*Storage, error) {
	if dev.Type != device.CUDAHost {
		return nil, mxerr.New(mxerr.MXNet, "cannot allocate page-locked memory on %s", dev)
	}
	p, free, err := cuda.AllocHost(nbytes)
	if err != nil {
		return nil, mxerr.New(mxerr.KindOf(err), "cannot allocate %d bytes on %s: %v", nbytes, dev, err)
	}
	s := newStorage(p, nbytes, dev, free)
	s.mem = fromDevice
	return s, nil
}

// Borrowed reports whether the storage is lent for a call (Borrowing): it cannot be
// exported, since its header is Go memory outside the storage table.
func (s *Storage) Borrowed() bool { return s.mem == fromBorrowing }

// OnHost reports whether CPU code may read and write the storage's memory.
func (s *Storage) OnHost() bool { return s.dev.Type != device.CUDA }

// NewForeignStorage wraps memory owned by someone else. release is called exactly once,
// when the last array viewing the storage is released; it must not wait on a lock that
// a caller of Release may hold.
func NewForeignStorage(ptr unsafe.Pointer, nbytes int, dev device.Device, release func()) *Storage {
	return newStorage(ptr, nbytes, dev, release)
}

func newStorage(ptr unsafe.Pointer, nbytes int, dev device.Device, release func()) *Storage {
	s := &Storage{ptr: ptr, nbytes: nbytes, dev: dev, release: release}
	attach(s)
	liveStorages.Add(1)
	return s
}

// Ptr returns the start of the storage's memory.
func (s *Storage) Ptr() unsafe.Pointer { return s.ptr }

// Bytes returns the storage size in bytes.
func (s *Storage) Bytes() int { return s.nbytes }

// Device returns where the memory lives.
func (s *Storage) Device() device.Device { return s.dev }

// Var returns the engine variable that orders work on this storage.
func (s *Storage) Var() *engine.Var { return &s.v }

// Refs returns the current reference count (for tests).
func (s *Storage) Refs() int64 { return s.refs().Load() }

func (s *Storage) retain() {
	if s.refs().Add(1) <= 1 {
		panic("ndarray: retain of a released storage")
	}
}

func (s *Storage) releaseRef() {
	switch n := s.refs().Add(-1); {
	case n == 0:
		s.finalize()
	case n < 0:
		panic("ndarray: storage released more often than retained")
	}
}

// finalize runs once, after the last reference (from Go or from C) is gone.
func (s *Storage) finalize() {
	if s.mem == fromBorrowing {
		if (*Borrowing)(unsafe.Pointer(s)).outlived { // s is its Borrowing's first field
			liveStorages.Add(-1)
		}
		return
	}
	detach(s)
	liveStorages.Add(-1)
	switch {
	case s.mem == fromMalloc:
		C.free(s.ptr)
	case s.mem == fromPool:
		smallFree(s.ptr)
	case s.release != nil:
		s.release()
	}
}

// ReleaseStorage drops a reference to s held by a caller that never made an array of it.
func ReleaseStorage(s *Storage) { s.releaseRef() }
