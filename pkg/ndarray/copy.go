package ndarray

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
)

// CopyInto copies src's elements into dst. Both must have the same dtype and shape;
// layouts may differ. Overlapping memory is handled by copying through a temporary.
func CopyInto(dst, src *NDArray) error {
	if dst.dtype != src.dtype {
		return mxerr.TypeErr("copy from %s to %s needs a cast", src.dtype, dst.dtype)
	}
	if err := SameShape(dst.shape, src.shape); err != nil {
		return err
	}
	if err := dst.CheckWritable(); err != nil {
		return err
	}
	if Overlaps(dst, src) && dst.storage != nil {
		tmp, err := Empty(src.dtype, src.shape, src.Device())
		if err != nil {
			return err
		}
		defer tmp.Release()
		copyElems(tmp, src)
		src = tmp
	}
	copyElems(dst, src)
	return nil
}

// SameShape returns a ValueError unless a and b are equal.
func SameShape(a, b []int) error {
	if len(a) != len(b) {
		return mxerr.ValueErr("shape mismatch: %v vs %v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			return mxerr.ValueErr("shape mismatch: %v vs %v", a, b)
		}
	}
	return nil
}

// Overlaps reports whether a and b may touch the same bytes (a conservative test on the
// address ranges they span).
func Overlaps(a, b *NDArray) bool {
	if a.Size() == 0 || b.Size() == 0 {
		return false
	}
	// Every array lies inside its storage (CheckLayout): storages apart, arrays apart. The
	// multi-weight updates compare every pair of their dozens of arrays.
	as, bs := uintptr(a.storage.ptr), uintptr(b.storage.ptr)
	if as+uintptr(a.storage.nbytes) <= bs || bs+uintptr(b.storage.nbytes) <= as {
		return false
	}
	alo, ahi := a.byteRange()
	blo, bhi := b.byteRange()
	return alo < bhi && blo < ahi
}

func (a *NDArray) byteRange() (lo, hi uintptr) {
	l, h, _ := Extent(a.shape, a.strides)
	size := a.dtype.Size()
	base := uintptr(a.storage.ptr)
	return base + uintptr((a.offset+l)*size), base + uintptr((a.offset+h+1)*size)
}

// MoveElems copies src's elements into dst without any checks: same dtype and shape,
// memory that does not overlap (CopyInto is the checked form). Large copies use every
// core; contiguous rows are memmoves, others typed loops by element size.
func MoveElems(dst, src *NDArray) { copyElems(dst, src) }

// splatMax is the longest broadcast last axis that copyElems writes by splatting each
// source element (a row per element costs a call; longer ones are memmoves of doubling
// length).
const splatMax = 16

// A copy whose source is read element by element along the last axis, or in runs of
// fewer than copyRunMin elements, costs stridedCopyCost float32 adds an element to
// ParallelRowsCost, which splits it across the cores from SerialBelow/stridedCopyCost
// elements: measured on the 2-core AMD VM, split in 4 parts along the last axis of
// (2, 2, 500, 500) float32 (runs of 125) took 213 µs serially, NumPy's 161; every other
// column reversed, 500k elements, 218 µs against 181.
const (
	copyRunMin      = 256
	stridedCopyCost = 4
)

func copyElems(dst, src *NDArray) {
	size := dst.dtype.Size()
	dbase, sbase := dst.storage.ptr, src.storage.ptr
	if nd := len(dst.shape); nd >= 2 && dst.shape[nd-1] > 1 && dst.shape[nd-1] <= splatMax &&
		dst.strides[nd-1] == 1 && src.strides[nd-1] == 0 {
		// Each source element repeated along a short last axis (repeat, broadcast_to of a
		// column): one loop over the other axes writes r copies of each element.
		r := dst.shape[nd-1]
		ops := []Operand{{dst.strides[:nd-1], dst.offset}, {src.strides[:nd-1], src.offset}}
		ParallelRows(dst.shape[:nd-1], ops, func(offs []int, n int, steps []int) {
			d, s := unsafe.Add(dbase, offs[0]*size), unsafe.Add(sbase, offs[1]*size)
			switch size {
			case 1:
				splat[uint8](d, s, n, r, steps)
			case 2:
				splat[uint16](d, s, n, r, steps)
			case 4:
				splat[uint32](d, s, n, r, steps)
			case 8:
				splat[uint64](d, s, n, r, steps)
			default:
				splat[[2]uint64](d, s, n, r, steps)
			}
		})
		return
	}
	cost := 1
	if nd := len(dst.shape); nd > 0 && (src.strides[nd-1] != 1 || dst.shape[nd-1] < copyRunMin) {
		cost = stridedCopyCost
	}
	ParallelRowsCost(dst.shape, []Operand{{dst.strides, dst.offset}, {src.strides, src.offset}}, cost, func(offs []int, n int, steps []int) {
		d := unsafe.Add(dbase, offs[0]*size)
		s := unsafe.Add(sbase, offs[1]*size)
		if (steps[0] == 1 && steps[1] == 1) || n == 1 {
			copy(unsafe.Slice((*byte)(d), n*size), unsafe.Slice((*byte)(s), n*size))
			return
		}
		if steps[0] == 1 && steps[1] == 0 { // one element repeated (a broadcast source)
			RepeatBytes(unsafe.Slice((*byte)(d), n*size), unsafe.Slice((*byte)(s), size))
			return
		}
		switch size {
		case 1:
			stridedCopy[uint8](d, s, n, steps)
		case 2:
			stridedCopy[uint16](d, s, n, steps)
		case 4:
			stridedCopy[uint32](d, s, n, steps)
		case 8:
			stridedCopy[uint64](d, s, n, steps)
		default:
			stridedCopy[[2]uint64](d, s, n, steps)
		}
	})
}

// RepeatBytes fills b, whose length is a multiple of len(pattern), with copies of
// pattern: memmoves of doubling length (or a clear for a zero pattern).
func RepeatBytes(b, pattern []byte) {
	zero := true
	for _, c := range pattern {
		zero = zero && c == 0
	}
	if zero {
		clear(b)
		return
	}
	for k := copy(b, pattern); k < len(b); {
		k += copy(b[k:], b[:k])
	}
}

// splat writes r copies of each of the n source elements steps[1] apart into rows of r
// contiguous elements steps[0] apart.
func splat[T any](d, s unsafe.Pointer, n, r int, steps []int) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	ds, ss := steps[0]*size, steps[1]*size
	for i := range n {
		v := *(*T)(unsafe.Add(s, i*ss))
		row := unsafe.Slice((*T)(unsafe.Add(d, i*ds)), r)
		for j := range row {
			row[j] = v
		}
	}
}

func stridedCopy[T any](d, s unsafe.Pointer, n int, steps []int) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	ss := steps[1] * size // in locals: the loops below load no step from memory
	if steps[0] == 1 {    // a contiguous result read through a strided view (slice, flip)
		dst := unsafe.Slice((*T)(d), n)
		i := 0
		for ; i+4 <= n; i += 4 { // four independent loads a turn
			p := unsafe.Add(s, i*ss)
			e0, e1 := *(*T)(p), *(*T)(unsafe.Add(p, ss))
			e2, e3 := *(*T)(unsafe.Add(p, 2*ss)), *(*T)(unsafe.Add(p, 3*ss))
			q := (*[4]T)(dst[i : i+4])
			q[0], q[1], q[2], q[3] = e0, e1, e2, e3
		}
		for ; i < n; i++ {
			dst[i] = *(*T)(unsafe.Add(s, i*ss))
		}
		return
	}
	ds := steps[0] * size
	for i := range n {
		*(*T)(unsafe.Add(d, i*ds)) = *(*T)(unsafe.Add(s, i*ss))
	}
}
