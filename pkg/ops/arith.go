package ops

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// BinaryOp is an elementwise arithmetic operator.
type BinaryOp int

// The arithmetic operators of NDArray's + - * /.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div
)

var binaryNames = map[string]BinaryOp{"add": Add, "subtract": Sub, "multiply": Mul, "divide": Div}

// ParseBinaryOp returns the operator named s ("add", "subtract", "multiply", "divide").
func ParseBinaryOp(s string) (BinaryOp, error) {
	op, ok := binaryNames[s]
	if !ok {
		return 0, mxerr.ValueErr("unknown operator %q", s)
	}
	return op, nil
}

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// apply computes x op y. Integer division by zero gives 0 (NumPy's result) instead of
// Go's panic.
func apply[T number](op BinaryOp, x, y T, integral bool) T {
	switch op {
	case Add:
		return x + y
	case Sub:
		return x - y
	case Mul:
		return x * y
	}
	if integral && y == 0 {
		return 0
	}
	return x / y
}

// Binary computes out = a op b elementwise. All three must share shape and dtype, as in
// MXNet's NDArray arithmetic; out may be a or b (in-place forms).
func Binary(op BinaryOp, out, a, b *ndarray.NDArray) error {
	if err := checkArith(out, a); err != nil {
		return err
	}
	if b.DType() != a.DType() {
		return mxerr.TypeErr("dtype mismatch: %s and %s (cast one with astype)", a.DType(), b.DType())
	}
	if err := ndarray.SameShape(a.Shape(), b.Shape()); err != nil {
		return err
	}
	push([]*ndarray.NDArray{a, b}, []*ndarray.NDArray{out}, func(in, o []*ndarray.NDArray) error {
		return runBinary(op, o[0], in[0], in[1], nil, false)
	})
	return nil
}

// BinaryScalar computes out = a op s, or s op a when reverse is set. The scalar is first
// converted to a's dtype, as MXNet does.
func BinaryScalar(op BinaryOp, out, a *ndarray.NDArray, s Scalar, reverse bool) error {
	if err := checkArith(out, a); err != nil {
		return err
	}
	push([]*ndarray.NDArray{a}, []*ndarray.NDArray{out}, func(in, o []*ndarray.NDArray) error {
		return runBinary(op, o[0], in[0], nil, &s, reverse)
	})
	return nil
}

func checkArith(out, a *ndarray.NDArray) error {
	if a.DType() == ndarray.Bool {
		return mxerr.TypeErr("arithmetic is not supported for bool arrays; cast with astype first")
	}
	if out.DType() != a.DType() {
		return mxerr.TypeErr("output dtype %s differs from input dtype %s", out.DType(), a.DType())
	}
	if err := ndarray.SameShape(out.Shape(), a.Shape()); err != nil {
		return err
	}
	return out.CheckWritable()
}

// runBinary is the kernel of Binary and BinaryScalar; it dispatches on dtype. b is nil
// for the scalar forms.
func runBinary(op BinaryOp, out, a, b *ndarray.NDArray, s *Scalar, reverse bool) error {
	a, b, release, err := binaryInputs(out, a, b)
	if err != nil {
		return err
	}
	defer release()
	switch a.DType() {
	case ndarray.Int8:
		binaryTyped[int8](op, out, a, b, s, reverse)
	case ndarray.Int16:
		binaryTyped[int16](op, out, a, b, s, reverse)
	case ndarray.Int32:
		binaryTyped[int32](op, out, a, b, s, reverse)
	case ndarray.Int64:
		binaryTyped[int64](op, out, a, b, s, reverse)
	case ndarray.Uint8:
		binaryTyped[uint8](op, out, a, b, s, reverse)
	case ndarray.Uint16:
		binaryTyped[uint16](op, out, a, b, s, reverse)
	case ndarray.Uint32:
		binaryTyped[uint32](op, out, a, b, s, reverse)
	case ndarray.Uint64:
		binaryTyped[uint64](op, out, a, b, s, reverse)
	case ndarray.Float32:
		binaryTyped[float32](op, out, a, b, s, reverse)
	case ndarray.Float64:
		binaryTyped[float64](op, out, a, b, s, reverse)
	case ndarray.Complex64:
		binaryTyped[complex64](op, out, a, b, s, reverse)
	case ndarray.Complex128:
		binaryTyped[complex128](op, out, a, b, s, reverse)
	case ndarray.Float16, ndarray.Bfloat16:
		binaryGeneral(op, out, a, b, s, reverse)
	default:
		return mxerr.TypeErr("arithmetic is not supported for %s", a.DType())
	}
	return nil
}

// binaryInputs copies overlapping inputs so that writing out cannot change what a later
// element reads (out exactly equal to an input is safe and is not copied).
func binaryInputs(out, a, b *ndarray.NDArray) (ra, rb *ndarray.NDArray, release func(), err error) {
	var tmps []*ndarray.NDArray
	release = func() {
		for _, t := range tmps {
			t.Release()
		}
	}
	fix := func(x *ndarray.NDArray) (*ndarray.NDArray, error) {
		if x == nil || sameLayout(out, x) || !ndarray.Overlaps(out, x) {
			return x, nil
		}
		t, err := ndarray.Empty(x.DType(), x.Shape(), x.Device())
		if err != nil {
			return nil, err
		}
		tmps = append(tmps, t)
		return t, ndarray.CopyInto(t, x)
	}
	if ra, err = fix(a); err == nil {
		rb, err = fix(b)
	}
	if err != nil {
		release()
	}
	return ra, rb, release, err
}

func sameLayout(x, y *ndarray.NDArray) bool {
	if x.Storage() != y.Storage() || x.Offset() != y.Offset() {
		return false
	}
	for i, s := range x.Strides() {
		if y.Strides()[i] != s && x.Shape()[i] > 1 {
			return false
		}
	}
	return true
}

func binaryTyped[T number](op BinaryOp, out, a, b *ndarray.NDArray, s *Scalar, reverse bool) {
	integral := isIntegral(a.DType())
	po, pa := out.Storage().Ptr(), a.Storage().Ptr()
	o := func(i int) *T { return (*T)(unsafe.Add(po, i*int(unsafe.Sizeof(T(0))))) }
	x := func(i int) T { return *(*T)(unsafe.Add(pa, i*int(unsafe.Sizeof(T(0))))) }
	if b == nil {
		var c T
		s.store(a.DType(), unsafe.Pointer(&c))
		ndarray.Rows(out.Shape(), operands(out, a), func(offs []int, n int, st []int) {
			for i := 0; i < n; i++ {
				v := x(offs[1] + i*st[1])
				if reverse {
					*o(offs[0] + i*st[0]) = apply(op, c, v, integral)
				} else {
					*o(offs[0] + i*st[0]) = apply(op, v, c, integral)
				}
			}
		})
		return
	}
	pb := b.Storage().Ptr()
	y := func(i int) T { return *(*T)(unsafe.Add(pb, i*int(unsafe.Sizeof(T(0))))) }
	ndarray.Rows(out.Shape(), operands(out, a, b), func(offs []int, n int, st []int) {
		for i := 0; i < n; i++ {
			*o(offs[0] + i*st[0]) = apply(op, x(offs[1]+i*st[1]), y(offs[2]+i*st[2]), integral)
		}
	})
}

// binaryGeneral computes in float64 through elemIO (float16 and bfloat16).
func binaryGeneral(op BinaryOp, out, a, b *ndarray.NDArray, s *Scalar, reverse bool) {
	io := ioTable[a.DType()]
	size := a.DType().Size()
	po, pa := out.Storage().Ptr(), a.Storage().Ptr()
	at := func(p unsafe.Pointer, i int) unsafe.Pointer { return unsafe.Add(p, i*size) }
	if b == nil {
		var c [2]byte
		s.store(a.DType(), unsafe.Pointer(&c[0]))
		cv := real(io.loadC(unsafe.Pointer(&c[0])))
		ndarray.Rows(out.Shape(), operands(out, a), func(offs []int, n int, st []int) {
			for i := 0; i < n; i++ {
				v := real(io.loadC(at(pa, offs[1]+i*st[1])))
				r := apply(op, v, cv, false)
				if reverse {
					r = apply(op, cv, v, false)
				}
				io.storeC(at(po, offs[0]+i*st[0]), complex(r, 0))
			}
		})
		return
	}
	pb := b.Storage().Ptr()
	ndarray.Rows(out.Shape(), operands(out, a, b), func(offs []int, n int, st []int) {
		for i := 0; i < n; i++ {
			r := apply(op, real(io.loadC(at(pa, offs[1]+i*st[1]))), real(io.loadC(at(pb, offs[2]+i*st[2]))), false)
			io.storeC(at(po, offs[0]+i*st[0]), complex(r, 0))
		}
	})
}
