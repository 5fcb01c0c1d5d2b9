package pybridge

import (
	"encoding/json"

	"github.com/mxgo/mxgo/pkg/device/cuda"
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
