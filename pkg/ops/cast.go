package ops

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Copy copies src into dst, casting between dtypes as NumPy's astype does (C casts).
// Shapes must match and dst must be writable; the copy runs on the engine.
func Copy(dst, src *ndarray.NDArray) error {
	if err := ndarray.SameShape(dst.Shape(), src.Shape()); err != nil {
		return err
	}
	if err := dst.CheckWritable(); err != nil {
		return err
	}
	if !dst.Storage().OnHost() || !src.Storage().OnHost() {
		return copyDevice(dst, src)
	}
	push([]*ndarray.NDArray{src}, []*ndarray.NDArray{dst}, func(in, out []*ndarray.NDArray) error {
		return CopyCast(out[0], in[0])
	})
	return nil
}

// CopyCast is Copy's kernel.
func CopyCast(dst, src *ndarray.NDArray) error {
	if dst.DType() == src.DType() {
		return ndarray.CopyInto(dst, src)
	}
	if ndarray.Overlaps(dst, src) {
		tmp, err := ndarray.Empty(src.DType(), src.Shape(), src.Device())
		if err != nil {
			return err
		}
		defer tmp.Release()
		if err := ndarray.CopyInto(tmp, src); err != nil {
			return err
		}
		src = tmp
	}
	move := Transfer(dst.DType(), src.DType())
	dsize, ssize := dst.DType().Size(), src.DType().Size()
	dbase, sbase := dst.Storage().Ptr(), src.Storage().Ptr()
	ndarray.Rows(dst.Shape(), Operands(dst, src), func(offs []int, n int, steps []int) {
		for i := 0; i < n; i++ {
			move(unsafe.Add(dbase, (offs[0]+i*steps[0])*dsize), unsafe.Add(sbase, (offs[1]+i*steps[1])*ssize))
		}
	})
	return nil
}

func Operands(arrs ...*ndarray.NDArray) []ndarray.Operand {
	ops := make([]ndarray.Operand, len(arrs))
	for i, a := range arrs {
		ops[i] = ndarray.Operand{Strides: a.Strides(), Offset: a.Offset()}
	}
	return ops
}
