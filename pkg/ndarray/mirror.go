package ndarray

import "github.com/mxgo/mxgo/pkg/device/cuda"

// Mirror returns a host array with a's layout over a copy of the device memory a's view
// spans, the gaps between its elements included (a is in device memory and has
// elements): CPU code reads a strided or cast device view through it, or writes one and
// puts it back with WriteBack. It waits for the copy; a's pending writes must be done.
func Mirror(a *NDArray) (*NDArray, error) {
	lo, n := span(a)
	hs, err := NewHostStorage(n)
	if err != nil {
		return nil, err
	}
	if err := cuda.CopyDtoH(a.Device().ID, hs.Ptr(), uintptr(a.Data())+uintptr(lo), n); err != nil {
		hs.releaseRef()
		return nil, err
	}
	m, err := Adopt(hs, a.dtype, append([]int(nil), a.shape...), append([]int(nil), a.strides...), -lo/a.dtype.Size(), true)
	if err != nil { // unreachable: a's layout fits its own span
		hs.releaseRef()
	}
	return m, err
}

// WriteBack copies m, a Mirror of a, over the device memory a spans, and waits for it.
func WriteBack(a, m *NDArray) error {
	lo, n := span(a)
	return cuda.CopyHtoD(a.Device().ID, uintptr(a.Data())+uintptr(lo), m.storage.ptr, n)
}

// span returns where the bytes a's view reaches start, relative to its first element (zero
// or less), and how many there are.
func span(a *NDArray) (lo, n int) {
	first, last, _ := Extent(a.shape, a.strides) // a's layout was checked when it was made
	size := a.dtype.Size()
	return first * size, (last - first + 1) * size
}
