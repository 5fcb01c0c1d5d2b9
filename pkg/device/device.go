// Package device names the places an array's memory can live. Device type numbers are
// DLPack's, so a Device converts to and from a DLDevice without a table.
package device

import "fmt"

// Type is a DLPack device type code.
type Type int32

// The device types mxgo knows by name (DLPack's numbering).
const (
	CPU         Type = 1
	CUDA        Type = 2
	CUDAHost    Type = 3
	OpenCL      Type = 4
	Vulkan      Type = 7
	Metal       Type = 8
	VPI         Type = 9
	ROCM        Type = 10
	ROCMHost    Type = 11
	ExtDev      Type = 12
	CUDAManaged Type = 13
	OneAPI      Type = 14
	WebGPU      Type = 15
	Hexagon     Type = 16
	MAIA        Type = 17
	Trn         Type = 18
)

var typeNames = map[Type]string{
	CPU: "cpu", CUDA: "gpu", CUDAHost: "cpu_pinned", OpenCL: "opencl", Vulkan: "vulkan",
	Metal: "metal", VPI: "vpi", ROCM: "rocm", ROCMHost: "rocm_host", ExtDev: "ext_dev",
	CUDAManaged: "cuda_managed", OneAPI: "oneapi", WebGPU: "webgpu", Hexagon: "hexagon",
	MAIA: "maia", Trn: "trn",
}

// String returns MXNet's name for the device type ("cpu", "gpu", ...).
func (t Type) String() string {
	if s, ok := typeNames[t]; ok {
		return s
	}
	return fmt.Sprintf("device_type(%d)", int32(t))
}

// Device is a device type and an ordinal.
type Device struct {
	Type Type
	ID   int32
}

// Host is the CPU device, where every array lives until a GPU back end is built in.
var Host = Device{Type: CPU, ID: 0}

// String formats d as MXNet does: "cpu(0)", "gpu(1)".
func (d Device) String() string { return fmt.Sprintf("%s(%d)", d.Type, d.ID) }
