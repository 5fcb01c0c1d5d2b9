package ops

// Arrays in device memory (mx.gpu(i)): the operations that have a device path (Copy in
// every direction, Fill) and the guard that keeps device memory away from CPU kernels.
// There are no GPU kernels yet: an operator given a device array raises
// NotImplementedError naming itself and the device, never a silent host round trip.

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/device/cuda"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// offHost returns the first array whose memory the CPU cannot touch, or nil.
func offHost(arrs []*ndarray.NDArray) *ndarray.NDArray {
	for _, a := range arrs {
		if !a.Storage().OnHost() {
			return a
		}
	}
	return nil
}

// noKernel is the error of an operation that has no kernel for a's device.
func noKernel(what string, a *ndarray.NDArray) error {
	return mxerr.New(mxerr.NotImplemented, "%s has no kernel for %s yet (mxgo's GPU back end moves and fills memory only)", what, a.Device())
}

// guardHost wraps a CPU kernel so that it refuses arrays in device memory: the last line
// of defence under the per-operation checks (Invoke, PushFunc), for any path that would
// reach a CPU kernel with a device array.
func guardHost(ins, outs []*ndarray.NDArray, kernel func(ins, outs []*ndarray.NDArray) error) func(ins, outs []*ndarray.NDArray) error {
	if a := offHost(ins); a != nil {
		return func(_, _ []*ndarray.NDArray) error { return noKernel("this CPU operation", a) }
	}
	if a := offHost(outs); a != nil {
		return func(_, _ []*ndarray.NDArray) error { return noKernel("this CPU operation", a) }
	}
	return kernel
}

// copyDevice is Copy when src or dst lives in device memory, pushed on the engine like
// any copy. The same dtype, both C-contiguous: one cuMemcpy. Otherwise, between the host
// and a GPU, the GPU's side moves as one block, the bytes its view spans, to or from a
// mirror in host memory, and the host does the cast and the strides (copyCast); between
// two GPUs that would need a kernel: NotImplementedError.
func copyDevice(dst, src *ndarray.NDArray) error {
	direct := dst.DType() == src.DType() && dst.Contiguous() && src.Contiguous()
	if !direct && !dst.Storage().OnHost() && !src.Storage().OnHost() {
		what := "a cast (" + src.DType().String() + " to " + dst.DType().String() + ")"
		if dst.DType() == src.DType() {
			what = "a non-contiguous array"
		}
		return mxerr.New(mxerr.NotImplemented, "copy from %s to %s with %s needs a GPU kernel, which mxgo does not have yet: "+
			"copy it through the host", src.Device(), dst.Device(), what)
	}
	pushAny([]*ndarray.NDArray{src}, []*ndarray.NDArray{dst}, func(in, out []*ndarray.NDArray) error {
		d, s := out[0], in[0]
		switch {
		case d.Size() == 0:
			return nil
		case direct:
			return copyBlock(d, s)
		case !s.Storage().OnHost(): // device -> host
			return throughMirror(s, false, func(m *ndarray.NDArray) error { return CopyCast(d, m) })
		case d.Contiguous(): // host -> device, through a contiguous host copy
			tmp, err := ndarray.Empty(d.DType(), d.Shape(), device.Host)
			if err != nil {
				return err
			}
			defer tmp.Release()
			if err := CopyCast(tmp, s); err != nil {
				return err
			}
			return copyBlock(d, tmp)
		default: // host -> a strided device view: its span, read, written in, written back
			return throughMirror(d, true, func(m *ndarray.NDArray) error { return CopyCast(m, s) })
		}
	})
	return nil
}

// throughMirror runs fn on a host Mirror of the device view a, then writes the mirror back
// over a's span when write is set.
func throughMirror(a *ndarray.NDArray, write bool, fn func(m *ndarray.NDArray) error) error {
	m, err := ndarray.Mirror(a)
	if err != nil {
		return err
	}
	defer m.Release()
	if err := fn(m); err != nil || !write {
		return err
	}
	return ndarray.WriteBack(a, m)
}

// copyBlock copies src to dst, the same dtype and both C-contiguous, one at least in
// device memory: one cuMemcpy.
func copyBlock(d, s *ndarray.NDArray) error {
	n := d.Size() * d.DType().Size()
	switch dh, sh := d.Storage().OnHost(), s.Storage().OnHost(); {
	case dh && !sh:
		return cuda.CopyDtoH(s.Device().ID, d.Data(), devAddr(s), n)
	case !dh && sh:
		return cuda.CopyHtoD(d.Device().ID, devAddr(d), s.Data(), n)
	default:
		return cuda.CopyDtoD(d.Device().ID, devAddr(d), s.Device().ID, devAddr(s), n)
	}
}

// devAddr is the device address of a's first element.
func devAddr(a *ndarray.NDArray) uintptr { return uintptr(a.Data()) }

// fillDevice is Fill for an array in device memory: cuMemsetD8 when every byte of the
// element is the same (zeros), cuMemsetD16 and cuMemsetD32 for 2- and 4-byte elements,
// otherwise the element is repeated in a host buffer and copied over (a staged copy).
// A non-contiguous view is filled in a mirror of its span on the host, written back.
func fillDevice(a *ndarray.NDArray, s Scalar) error {
	if !a.Contiguous() {
		pushAny(nil, []*ndarray.NDArray{a}, func(_, out []*ndarray.NDArray) error {
			if out[0].Size() == 0 {
				return nil
			}
			return throughMirror(out[0], true, func(m *ndarray.NDArray) error { FillKernel(m, s); return nil })
		})
		return nil
	}
	size := a.DType().Size()
	var elem [16]byte
	s.Store(a.DType(), unsafe.Pointer(&elem[0]))
	pattern := elem[:size]
	pushAny(nil, []*ndarray.NDArray{a}, func(_, out []*ndarray.NDArray) error {
		d := out[0]
		id, n := d.Device().ID, d.Size()
		if n == 0 {
			return nil
		}
		same := true
		for _, b := range pattern {
			same = same && b == pattern[0]
		}
		switch {
		case same:
			return cuda.MemsetD8(id, devAddr(d), pattern[0], n*size)
		case size == 2:
			return cuda.MemsetD16(id, devAddr(d), *(*uint16)(unsafe.Pointer(&pattern[0])), n)
		case size == 4:
			return cuda.MemsetD32(id, devAddr(d), *(*uint32)(unsafe.Pointer(&pattern[0])), n)
		}
		host, err := ndarray.Empty(d.DType(), d.Shape(), device.Host)
		if err != nil {
			return err
		}
		defer host.Release()
		FillKernel(host, s)
		return cuda.CopyHtoD(id, devAddr(d), host.Data(), n*size)
	})
	return nil
}
