package ops

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Scalar is a Python number on its way into a kernel: an exact integer when IsInt,
// otherwise a complex value (real numbers have Imag 0).
type Scalar struct {
	Int   int64
	Value complex128
	IsInt bool
}

// Store writes s into one element of dtype dt at p, converting as a cast would.
func (s Scalar) Store(dt ndarray.DType, p unsafe.Pointer) {
	io := IOTable[dt]
	if s.IsInt && IsIntegral(dt) {
		io.StoreI(p, uint64(s.Int))
		return
	}
	v := s.Value
	if s.IsInt {
		v = complex(ScalarFloat(s), 0) // Int holds ints of 2**63 and more as their uint64 bits
	}
	io.StoreC(p, v)
}

// Fill sets every element of a to s (on the engine).
func Fill(a *ndarray.NDArray, s Scalar) error {
	if err := a.CheckWritable(); err != nil {
		return err
	}
	if !a.Storage().OnHost() {
		return fillDevice(a, s)
	}
	push(nil, []*ndarray.NDArray{a}, func(_, out []*ndarray.NDArray) error { FillKernel(out[0], s); return nil })
	return nil
}

func FillKernel(a *ndarray.NDArray, s Scalar) {
	size := a.DType().Size()
	var elem [16]byte
	s.Store(a.DType(), unsafe.Pointer(&elem[0]))
	pattern := elem[:size]
	base := a.Storage().Ptr()
	ndarray.ParallelRows(a.Shape(), Operands(a), func(offs []int, n int, steps []int) {
		if steps[0] == 1 || n == 1 { // contiguous rows: a few memmoves (or a clear)
			ndarray.RepeatBytes(unsafe.Slice((*byte)(unsafe.Add(base, offs[0]*size)), n*size), pattern)
			return
		}
		for i := 0; i < n; i++ {
			copy(unsafe.Slice((*byte)(unsafe.Add(base, (offs[0]+i*steps[0])*size)), size), pattern)
		}
	})
}

// Arange sets the elements of a, in C order, to start, start+step, start+2*step, ...
func Arange(a *ndarray.NDArray, start, step float64) error {
	if err := a.CheckWritable(); err != nil {
		return err
	}
	push(nil, []*ndarray.NDArray{a}, func(_, out []*ndarray.NDArray) error { ArangeKernel(out[0], start, step); return nil })
	return nil
}

func ArangeKernel(a *ndarray.NDArray, start, step float64) {
	store := IOTable[a.DType()].StoreC
	size := a.DType().Size()
	base := a.Storage().Ptr()
	i := 0
	ndarray.Rows(a.Shape(), Operands(a), func(offs []int, n int, steps []int) {
		for j := 0; j < n; j++ {
			store(unsafe.Add(base, (offs[0]+j*steps[0])*size), complex(start+float64(i)*step, 0))
			i++
		}
	})
}
