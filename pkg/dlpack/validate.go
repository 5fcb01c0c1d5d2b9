package dlpack

import (
	"math"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/device/cuda"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Desc is a copy of a foreign DLTensor's fields (plus the versioned flags), made before
// anything is trusted. Shape and Strides are nil where the producer passed NULL.
type Desc struct {
	Data       uintptr
	Device     device.Device
	NDim       int32
	Code, Bits uint8
	Lanes      uint16
	Shape      []int64
	Strides    []int64
	ByteOffset uint64
	Flags      uint64
}

// Layout is a validated Desc: the memory block [Base, Base+NBytes) holds every element,
// and the first element is Offset elements past Base.
type Layout struct {
	DType    ndarray.DType
	Shape    []int
	Strides  []int
	Base     uintptr
	NBytes   int
	Offset   int
	Device   device.Device // where mxgo keeps it (placeOf)
	ReadOnly bool
}

// Validate checks every field of d and resolves it into a Layout. Errors are BufferErrors
// that name the offending field.
func Validate(d Desc) (Layout, error) {
	var l Layout
	err := validateInto(&l, &d, nil)
	return l, err
}

// validateInto is Validate into *l, with the Layout's shape and strides in buf when it
// has room for both (a Borrowing's), else in a new allocation. Pointers, not copies: a
// borrowed operand's every nanosecond counts.
func validateInto(l *Layout, d *Desc, buf []int) error {
	dev, err := placeOf(d.Device)
	if err != nil {
		return err
	}
	if d.NDim < 0 || d.NDim > ndarray.MaxDims {
		return mxerr.BufferErr("ndim: %d is outside [0, %d]", d.NDim, ndarray.MaxDims)
	}
	dt, err := FromType(d.Code, d.Bits, d.Lanes)
	if err != nil {
		return err
	}
	nd := int(d.NDim)
	if nd > 0 && len(d.Shape) != nd {
		return mxerr.BufferErr("shape: NULL or short shape for ndim %d", nd)
	}
	if d.Strides != nil && nd > 0 && len(d.Strides) != nd {
		return mxerr.BufferErr("strides: %d strides for ndim %d", len(d.Strides), nd)
	}
	dims := buf
	if len(buf) < 2*nd {
		dims = make([]int, 2*nd) // one allocation for both, which the array adopts
	}
	shape, strides := dims[:nd:nd], dims[nd:2*nd:2*nd]
	for i := range shape {
		if d.Shape[i] < 0 {
			return mxerr.BufferErr("shape: negative dimension %d at axis %d", d.Shape[i], i)
		}
		shape[i] = int(d.Shape[i])
	}
	n, err := ndarray.Size(shape)
	if err != nil {
		return mxerr.BufferErr("shape: %v has too many elements", d.Shape)
	}
	ndarray.FillContiguousStrides(strides, shape)
	if d.Strides != nil && nd > 0 {
		for i := range strides {
			strides[i] = int(d.Strides[i])
		}
	}
	*l = Layout{DType: dt, Shape: shape, Strides: strides, Device: dev, ReadOnly: d.Flags&FlagReadOnly != 0}
	if n == 0 {
		l.Base = d.Data
		return nil
	}
	if d.Data == 0 {
		return mxerr.BufferErr("data: NULL data pointer for %d elements", n)
	}
	lo, hi, err := ndarray.Extent(shape, strides)
	if err != nil {
		return mxerr.BufferErr("strides: %v overflow for shape %v", d.Strides, d.Shape)
	}
	size := uint64(dt.Size())
	// hi-lo is exact as a uint64 (hi >= 0 >= lo) but may be 2^64-1, so compare before
	// adding 1: span = 2^64 would wrap to 0 and pass.
	if diff := uint64(hi - lo); diff >= math.MaxInt/size {
		return mxerr.BufferErr("shape: %v with strides %v spans more bytes than memory holds", d.Shape, strides)
	}
	span := uint64(hi-lo) + 1
	if d.ByteOffset > math.MaxInt64 || d.Data > math.MaxUint64-uintptr(d.ByteOffset) {
		return mxerr.BufferErr("byte_offset: %d overflows the data pointer", d.ByteOffset)
	}
	first := d.Data + uintptr(d.ByteOffset) // any alignment: NumPy and PyTorch make unaligned arrays too
	back := uint64(-lo) * size
	if uint64(first) < back || uint64(first)-back > math.MaxUint64-span*size {
		return mxerr.BufferErr("strides: negative strides %v reach outside the address space", strides)
	}
	l.Base = first - uintptr(back)
	l.NBytes = int(span * size)
	l.Offset = -lo
	return nil
}

// placeOf is the device an array over memory on dev lives on in mxgo: the CPU's memory
// (kDLCPU) and page-locked host memory (kDLCUDAHost, which is cpu_pinned) as they are;
// memory on a GPU (kDLCUDA), and managed memory (kDLCUDAManaged, which every GPU of the
// process can address) as gpu(id), when the CUDA back end can use that device. Anything
// else, or a GPU mxgo cannot use, is a BufferError that says why.
func placeOf(dev device.Device) (device.Device, error) {
	switch dev.Type {
	case device.CPU, device.CUDAHost:
		return dev, nil
	case device.CUDA, device.CUDAManaged:
		g := device.Device{Type: device.CUDA, ID: dev.ID}
		if err := cuda.CheckDevice(dev.ID); err != nil {
			return g, mxerr.BufferErr("device: cannot use memory on %s (DLPack device (%d, %d)): %v", g, dev.Type, dev.ID, err)
		}
		return g, nil
	}
	return dev, mxerr.BufferErr("device: mxgo cannot address memory on %s (device_type %d)", dev, dev.Type)
}
