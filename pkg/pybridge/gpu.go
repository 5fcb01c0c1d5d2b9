package pybridge

/*
#include "bridge.h"
*/
import "C"

import (
	"encoding/json"

	"github.com/mxgo/mxgo/pkg/device/cuda"
	"github.com/mxgo/mxgo/pkg/mxerr"
)

// GPUCount returns the number of usable GPUs: 0 when no CUDA driver can be loaded, or it
// finds no device. The first call loads the driver (docs/gpu.md).
func GPUCount() int { return cuda.Count() }

// GPUStatus returns "" when at least one GPU can be used, else why none can (no driver,
// no device, a driver too old, a back end not built in).
func GPUStatus() string {
	if err := cuda.Load(); err != nil {
		return err.Error()
	}
	return ""
}

// GPUStats returns the CUDA back end's counters as JSON (cuda.Stats), for tests.
func GPUStats() string {
	b, _ := json.Marshal(cuda.Stats()) // a map of ints always marshals
	return string(b)
}

// mxgoCudaStream puts in *out the handle of mxgo's stream on gpu(id), which a producer
// orders after its own work when mxgo imports its tensor there (__dlpack__(stream=...),
// the exchange API's current_work_stream). The error, a BufferError, says why gpu(id)
// cannot be used.
//
//export mxgoCudaStream
func mxgoCudaStream(id C.int32_t, out *C.int64_t, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	s, err := cuda.Stream(int32(id))
	if err != nil {
		err = mxerr.BufferErr("cannot use memory on gpu(%d): %v", int32(id), err)
	}
	*out = C.int64_t(s)
	return fastResult(err, msg)
}

// mxgoCudaWaitFor orders mxgo's stream on gpu(id) after the work issued so far on a
// producer's stream: for imports through the DLPack C exchange API, which do not
// synchronise. It does not block the host.
//
//export mxgoCudaWaitFor
func mxgoCudaWaitFor(id C.int32_t, stream C.int64_t, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	err := cuda.WaitFor(int32(id), uintptr(stream))
	if err != nil {
		err = mxerr.BufferErr("cannot order mxgo's stream on gpu(%d) after the producer's: %v", int32(id), err)
	}
	return fastResult(err, msg)
}
