package ndarray

import (
	"fmt"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/engine"
	"github.com/mxgo/mxgo/pkg/mxerr"
)

// NDArray is a strided view of a Storage. Shape, strides and offset count elements.
// Every NDArray holds one reference to its storage until Release.
type NDArray struct {
	storage  *Storage
	dtype    DType
	shape    []int
	strides  []int
	offset   int
	writable bool
	entry    any // package autograd's record of what wrote this array (entry.go)
}

// Empty allocates a C-contiguous array with uninitialised contents on dev.
func Empty(dt DType, shape []int, dev device.Device) (*NDArray, error) {
	if !dt.Valid() {
		return nil, mxerr.TypeErr("invalid dtype %d", dt)
	}
	if dev.Type != device.CPU && dev.Type != device.CUDA && dev.Type != device.CUDAHost {
		return nil, mxerr.New(mxerr.MXNet, "cannot allocate on %s: mxgo has no back end for this device (only cpu, cpu_pinned and gpu)", dev)
	}
	if len(shape) > MaxDims {
		return nil, mxerr.ValueErr("%d dimensions exceed the maximum of %d", len(shape), MaxDims)
	}
	n, err := Size(shape)
	if err != nil {
		return nil, err
	}
	if _, ok := mulInt(n, dt.Size()); !ok {
		return nil, mxerr.New(mxerr.Memory, "cannot allocate %d elements of %s", n, dt)
	}
	var s *Storage
	switch dev.Type {
	case device.CUDA:
		s, err = NewDeviceStorage(dev, n*dt.Size())
	case device.CUDAHost:
		s, err = NewPinnedStorage(dev, n*dt.Size())
	default:
		s, err = NewHostStorage(n * dt.Size())
	}
	if err != nil {
		return nil, err
	}
	s.dev = dev // every CPU ordinal is host memory; keep the one asked for, as MXNet does
	nd := len(shape)
	dims := make([]int, 2*nd) // shape and strides in one allocation
	sh, st := dims[:nd:nd], dims[nd:]
	copy(sh, shape)
	FillContiguousStrides(st, sh)
	return &NDArray{storage: s, dtype: dt, shape: sh, strides: st, writable: true}, nil
}

// View makes an array over s with the given layout, after checking that every element it
// can reach lies inside s. The new array holds its own reference to s.
func View(s *Storage, dt DType, shape, strides []int, offset int, writable bool) (*NDArray, error) {
	if err := CheckLayout(s, dt, shape, strides, offset); err != nil {
		return nil, err
	}
	s.retain()
	return &NDArray{storage: s, dtype: dt, shape: append([]int(nil), shape...),
		strides: append([]int(nil), strides...), offset: offset, writable: writable}, nil
}

// Adopt makes an array that takes over the caller's reference to s (for fresh storages)
// and the shape and strides slices, which the caller must not use again.
func Adopt(s *Storage, dt DType, shape, strides []int, offset int, writable bool) (*NDArray, error) {
	if err := CheckLayout(s, dt, shape, strides, offset); err != nil {
		return nil, err
	}
	return &NDArray{storage: s, dtype: dt, shape: shape, strides: strides, offset: offset, writable: writable}, nil
}

// CheckLayout verifies that an array of dtype dt, shape, strides and offset stays inside s.
func CheckLayout(s *Storage, dt DType, shape, strides []int, offset int) error {
	if !dt.Valid() {
		return mxerr.TypeErr("invalid dtype %d", dt)
	}
	if len(shape) != len(strides) {
		return mxerr.ValueErr("shape %v and strides %v differ in length", shape, strides)
	}
	if len(shape) > MaxDims {
		return mxerr.ValueErr("%d dimensions exceed the maximum of %d", len(shape), MaxDims)
	}
	n, err := Size(shape)
	if err != nil || n == 0 {
		return err
	}
	lo, hi, err := Extent(shape, strides)
	if err != nil {
		return err
	}
	first, ok1 := addInt(offset, lo)
	last, ok2 := addInt(offset, hi)
	end, ok3 := mulInt(last+1, dt.Size())
	if !ok1 || !ok2 || !ok3 || first < 0 || end > s.nbytes {
		return mxerr.IndexErr("layout (shape %v, strides %v, offset %d) reaches outside its %d-byte storage", shape, strides, offset, s.nbytes)
	}
	return nil
}

// Release drops the array's reference to its storage. The array must not be used after.
func (a *NDArray) Release() {
	if a.storage == nil {
		panic("ndarray: double release")
	}
	s := a.storage
	a.storage = nil
	a.entry = nil // a dead array keeps no recorded graph alive
	s.releaseRef()
}

// Storage returns the array's storage.
func (a *NDArray) Storage() *Storage { return a.storage }

// DType returns the element type.
func (a *NDArray) DType() DType { return a.dtype }

// Shape returns the dimensions. The slice must not be modified.
func (a *NDArray) Shape() []int { return a.shape }

// Strides returns the element strides. The slice must not be modified.
func (a *NDArray) Strides() []int { return a.strides }

// Offset returns the element offset of the first element within the storage.
func (a *NDArray) Offset() int { return a.offset }

// NDim returns the number of dimensions.
func (a *NDArray) NDim() int { return len(a.shape) }

// Size returns the number of elements.
func (a *NDArray) Size() int {
	n := 1
	for _, d := range a.shape {
		n *= d
	}
	return n
}

// Var returns the engine variable of the array's storage (shared by all its views).
func (a *NDArray) Var() *engine.Var { return &a.storage.v }

// Device returns where the array's memory lives.
func (a *NDArray) Device() device.Device { return a.storage.dev }

// Writable reports whether writes through this array are allowed.
func (a *NDArray) Writable() bool { return a.writable }

// Contiguous reports whether the array is C-contiguous.
func (a *NDArray) Contiguous() bool { return IsContiguous(a.shape, a.strides) }

// Data returns the address of the first element.
func (a *NDArray) Data() unsafe.Pointer {
	return unsafe.Add(a.storage.ptr, a.offset*a.dtype.Size())
}

// CheckWritable returns an error if the array is read-only.
func (a *NDArray) CheckWritable() error {
	if !a.writable {
		return mxerr.ValueErr("assignment destination is read-only")
	}
	return nil
}

// String describes the array's layout (not its values).
func (a *NDArray) String() string {
	return fmt.Sprintf("NDArray(%s, shape=%v, strides=%v, offset=%d, %s)", a.dtype, a.shape, a.strides, a.offset, a.Device())
}

// view returns a new array over the same storage; layouts computed by this package are
// in bounds by construction.
func (a *NDArray) view(shape, strides []int, offset int) *NDArray {
	a.storage.retain()
	return &NDArray{storage: a.storage, dtype: a.dtype, shape: shape, strides: strides, offset: offset, writable: a.writable}
}

// Share returns a new reference to the same view.
func (a *NDArray) Share() *NDArray {
	nd := len(a.shape)
	dims := make([]int, 2*nd) // one allocation for both: Share is on every operation's path
	copy(dims, a.shape)
	copy(dims[nd:], a.strides)
	return a.view(dims[:nd:nd], dims[nd:], a.offset)
}

// ReadOnly returns a read-only view of a.
func (a *NDArray) ReadOnly() *NDArray {
	v := a.Share()
	v.writable = false
	return v
}
