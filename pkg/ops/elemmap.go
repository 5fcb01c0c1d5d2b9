package ops

import (
	"math"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Typed elementwise loops shared by the unary, binary, comparison, where and clip
// kernels. Each runs a Go function over every element of out, split across cores by
// ndarray.ParallelRows, with a contiguous fast path that the compiler compiles into a
// plain slice loop. Inputs must already have out's shape (broadcastKernel gives views).

type IntElem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

type floatElem interface{ ~float32 | ~float64 }

type OrderedElem interface{ IntElem | floatElem }

// ElemAt is the address of element i (counted in T) after base.
func ElemAt[T any](base unsafe.Pointer, i int) *T {
	var zero T
	return (*T)(unsafe.Add(base, i*int(unsafe.Sizeof(zero))))
}

// Map1 sets out[i] = f(in[i]).
func Map1[I, O any](out, in *ndarray.NDArray, f func(I) O) {
	rows1(out, in, func(os []O, xs []I) {
		for i := range os {
			os[i] = f(xs[i])
		}
	}, func(o *O, x *I) { *o = f(*x) })
}

// Convert sets out[i] = O(in[i]) between float types: Map1 without a call per element
// (a batch of 64 float32 64 x 64 matrices through linalg's float64 LAPACK spent 0.9 ms
// of 1.4 in Map1's calls).
func Convert[O, I floatElem](out, in *ndarray.NDArray) {
	rows1(out, in, func(os []O, xs []I) {
		for i := range os {
			os[i] = O(xs[i])
		}
	}, func(o *O, x *I) { *o = O(*x) })
}

// rows1 runs the loop of Map1 and Convert over out's rows, split across cores: row on
// the rows where out and in are both contiguous, one on each element of the others.
func rows1[I, O any](out, in *ndarray.NDArray, row func(os []O, xs []I), one func(o *O, x *I)) {
	po, pi := out.Storage().Ptr(), in.Storage().Ptr()
	ndarray.ParallelRows(out.Shape(), Operands(out, in), func(offs []int, n int, st []int) {
		o, x := ElemAt[O](po, offs[0]), ElemAt[I](pi, offs[1])
		if st[0] == 1 && st[1] == 1 {
			row(unsafe.Slice(o, n), unsafe.Slice(x, n))
			return
		}
		po, pi := unsafe.Pointer(o), unsafe.Pointer(x)
		for i := 0; i < n; i++ {
			one(ElemAt[O](po, i*st[0]), ElemAt[I](pi, i*st[1]))
		}
	})
}

// MapRows is map1 for a kernel f that maps a whole slice (dst[i] from src[i], dst may
// be src), so that its loop compiles without a call per element. A row of out that is
// contiguous but whose input is strided is first gathered into out and mapped in place
// (separate guarantees in and out do not partly overlap); a strided row of out is
// mapped one element at a time. Every path runs the same code, hence the same bits.
func MapRows[T any](out, in *ndarray.NDArray, f func(dst, src []T)) { MapRowsCost(out, in, 1, f) }

// MapRowsCost is MapRows for a kernel whose elements each cost about cost float32 adds
// (ndarray.ParallelRowsCost: such loops split across the cores from fewer elements).
func MapRowsCost[T any](out, in *ndarray.NDArray, cost int, f func(dst, src []T)) {
	po, pi := out.Storage().Ptr(), in.Storage().Ptr()
	ndarray.ParallelRowsCost(out.Shape(), Operands(out, in), cost, func(offs []int, n int, st []int) {
		o, x := ElemAt[T](po, offs[0]), ElemAt[T](pi, offs[1])
		switch {
		case st[0] == 1 && st[1] == 1:
			f(unsafe.Slice(o, n), unsafe.Slice(x, n))
		case st[0] == 1:
			os, px := unsafe.Slice(o, n), unsafe.Pointer(x)
			for i := range os {
				os[i] = *ElemAt[T](px, i*st[1])
			}
			f(os, os)
		default:
			po, px := unsafe.Pointer(o), unsafe.Pointer(x)
			for i := 0; i < n; i++ {
				f(unsafe.Slice(ElemAt[T](po, i*st[0]), 1), unsafe.Slice(ElemAt[T](px, i*st[1]), 1))
			}
		}
	})
}

// Map2 sets out[i] = f(a[i], b[i]).
func Map2[A, B, O any](out, a, b *ndarray.NDArray, f func(A, B) O) {
	po, pa, pb := out.Storage().Ptr(), a.Storage().Ptr(), b.Storage().Ptr()
	ndarray.ParallelRows(out.Shape(), Operands(out, a, b), func(offs []int, n int, st []int) {
		o, x, y := ElemAt[O](po, offs[0]), ElemAt[A](pa, offs[1]), ElemAt[B](pb, offs[2])
		switch {
		case st[0] == 1 && st[1] == 1 && st[2] == 1:
			os, xs, ys := unsafe.Slice(o, n), unsafe.Slice(x, n), unsafe.Slice(y, n)
			for i := range os {
				os[i] = f(xs[i], ys[i])
			}
			return
		case st[0] == 1 && st[1] == 1 && st[2] == 0: // b is a scalar along the row
			os, xs, c := unsafe.Slice(o, n), unsafe.Slice(x, n), *y
			for i := range os {
				os[i] = f(xs[i], c)
			}
			return
		case st[0] == 1 && st[1] == 0 && st[2] == 1: // a is a scalar along the row
			os, c, ys := unsafe.Slice(o, n), *x, unsafe.Slice(y, n)
			for i := range os {
				os[i] = f(c, ys[i])
			}
			return
		}
		po, px, py := unsafe.Pointer(o), unsafe.Pointer(x), unsafe.Pointer(y)
		for i := 0; i < n; i++ {
			*ElemAt[O](po, i*st[0]) = f(*ElemAt[A](px, i*st[1]), *ElemAt[B](py, i*st[2]))
		}
	})
}

// Map3 sets out[i] = f(a[i], b[i], c[i]).
func Map3[A, B, C, O any](out, a, b, c *ndarray.NDArray, f func(A, B, C) O) {
	po, pa, pb, pc := out.Storage().Ptr(), a.Storage().Ptr(), b.Storage().Ptr(), c.Storage().Ptr()
	ndarray.ParallelRows(out.Shape(), Operands(out, a, b, c), func(offs []int, n int, st []int) {
		for i := 0; i < n; i++ {
			*ElemAt[O](po, offs[0]+i*st[0]) = f(*ElemAt[A](pa, offs[1]+i*st[1]), *ElemAt[B](pb, offs[2]+i*st[2]), *ElemAt[C](pc, offs[3]+i*st[3]))
		}
	})
}

// Scalar conversions of the 16-bit float formats, through float32 as NumPy computes them.
func H2f(h uint16) float64  { return float64(F16ToF32(h)) }
func F2h(v float64) uint16  { return F32ToF16(float32(v)) }
func Bh2f(h uint16) float64 { return float64(Bf16ToF32(h)) }
func F2bh(v float64) uint16 { return F32ToBF16(float32(v)) }

// IsFloat reports whether dt is a real floating-point dtype (bfloat16 included).
func IsFloat(dt ndarray.DType) bool {
	return dt.Kind() == ndarray.KindFloat || dt.Kind() == ndarray.KindBfloat
}

// RealMap sets out[i] = f(in[i]) for a real in (bool, integer or float) and a float
// out, computing in float64 and rounding once to out's dtype (through float32 for the
// 16-bit formats, as NumPy computes them).
func RealMap(out, in *ndarray.NDArray, f func(float64) float64) {
	switch {
	case in.DType() == ndarray.Float64 && out.DType() == ndarray.Float64:
		Map1(out, in, f) // one call per element: the common cases skip realApply's wrapper
		return
	case in.DType() == ndarray.Float32 && out.DType() == ndarray.Float32:
		Map1(out, in, func(x float32) float32 { return float32(f(float64(x))) })
		return
	}
	switch out.DType() {
	case ndarray.Float64:
		RealApply(out, in, f)
	case ndarray.Float32:
		RealApply(out, in, func(v float64) float32 { return float32(f(v)) })
	case ndarray.Float16:
		RealApply(out, in, func(v float64) uint16 { return F2h(f(v)) })
	case ndarray.Bfloat16:
		RealApply(out, in, func(v float64) uint16 { return F2bh(f(v)) })
	}
}

// RealApply sets out[i] = f(in[i]) for a real in, read as float64 (bool as 0 or 1).
func RealApply[O any](out, in *ndarray.NDArray, f func(float64) O) {
	switch in.DType() {
	case ndarray.Bool:
		Map1(out, in, func(x uint8) O { return f(float64(min(x, 1))) })
	case ndarray.Int8:
		Map1(out, in, func(x int8) O { return f(float64(x)) })
	case ndarray.Int16:
		Map1(out, in, func(x int16) O { return f(float64(x)) })
	case ndarray.Int32:
		Map1(out, in, func(x int32) O { return f(float64(x)) })
	case ndarray.Int64:
		Map1(out, in, func(x int64) O { return f(float64(x)) })
	case ndarray.Uint8:
		Map1(out, in, func(x uint8) O { return f(float64(x)) })
	case ndarray.Uint16:
		Map1(out, in, func(x uint16) O { return f(float64(x)) })
	case ndarray.Uint32:
		Map1(out, in, func(x uint32) O { return f(float64(x)) })
	case ndarray.Uint64:
		Map1(out, in, func(x uint64) O { return f(float64(x)) })
	case ndarray.Float16:
		Map1(out, in, func(x uint16) O { return f(H2f(x)) })
	case ndarray.Bfloat16:
		Map1(out, in, func(x uint16) O { return f(Bh2f(x)) })
	case ndarray.Float32:
		Map1(out, in, func(x float32) O { return f(float64(x)) })
	case ndarray.Float64:
		Map1(out, in, f)
	}
}

// FloatMap2 sets out[i] = f(a[i], b[i]) for float a, b and out of one dtype.
func FloatMap2(out, a, b *ndarray.NDArray, f func(x, y float64) float64) {
	switch a.DType() {
	case ndarray.Float64:
		Map2(out, a, b, f)
	case ndarray.Float32:
		Map2(out, a, b, func(x, y float32) float32 { return float32(f(float64(x), float64(y))) })
	case ndarray.Float16:
		Map2(out, a, b, func(x, y uint16) uint16 { return F2h(f(H2f(x), H2f(y))) })
	case ndarray.Bfloat16:
		Map2(out, a, b, func(x, y uint16) uint16 { return F2bh(f(Bh2f(x), Bh2f(y))) })
	}
}

// ComplexMap sets out[i] = f(in[i]) for complex in and out of one dtype.
func ComplexMap(out, in *ndarray.NDArray, f func(complex128) complex128) {
	if in.DType() == ndarray.Complex64 {
		Map1(out, in, func(x complex64) complex64 { return complex64(f(complex128(x))) })
		return
	}
	Map1(out, in, f)
}

// ComplexMap2 sets out[i] = f(a[i], b[i]) for complex a, b and out of one dtype.
func ComplexMap2(out, a, b *ndarray.NDArray, f func(x, y complex128) complex128) {
	if a.DType() == ndarray.Complex64 {
		Map2(out, a, b, func(x, y complex64) complex64 { return complex64(f(complex128(x), complex128(y))) })
		return
	}
	Map2(out, a, b, f)
}

// ScalarFloat is s's real part as a float64 (exact for integers below 2**53).
func ScalarFloat(s Scalar) float64 {
	if !s.IsInt {
		return real(s.Value)
	}
	if s.Int < 0 && real(s.Value) > 0 { // a Python int of 2**63 or more, as its uint64 bits
		return float64(uint64(s.Int))
	}
	return float64(s.Int)
}

// ScalarLoad converts s to dtype dt and reads the result back as a complex128.
func ScalarLoad(dt ndarray.DType, s Scalar) complex128 {
	var buf [2]uint64
	s.Store(dt, unsafe.Pointer(&buf[0]))
	return IOTable[dt].LoadC(unsafe.Pointer(&buf[0]))
}

// IntViaFloat sets out[i] = f(in[i]) for integer arrays of one dtype, computed in
// float64 and converted back as C does (MXNet's kernels): intViaFloat2 (math_binary.go)
// with the input twice.
func IntViaFloat(out, in *ndarray.NDArray, f func(float64) float64) {
	IntViaFloat2(out, in, in, func(x, _ float64) float64 { return f(x) })
}

// IntViaFloat2 sets out[i] = f(a[i], b[i]) for integer arrays of one dtype, computed in
// float64 and converted back as C does (MXNet's kernels; see cToInt).
func IntViaFloat2(out, a, b *ndarray.NDArray, f func(x, y float64) float64) {
	switch a.DType() {
	case ndarray.Int8:
		Map2(out, a, b, func(x, y int8) int8 { return cToInt[int8](f(float64(x), float64(y))) })
	case ndarray.Int16:
		Map2(out, a, b, func(x, y int16) int16 { return cToInt[int16](f(float64(x), float64(y))) })
	case ndarray.Int32:
		Map2(out, a, b, func(x, y int32) int32 { return cToInt[int32](f(float64(x), float64(y))) })
	case ndarray.Int64:
		Map2(out, a, b, func(x, y int64) int64 { return cToInt[int64](f(float64(x), float64(y))) })
	case ndarray.Uint8:
		Map2(out, a, b, func(x, y uint8) uint8 { return cToInt[uint8](f(float64(x), float64(y))) })
	case ndarray.Uint16:
		Map2(out, a, b, func(x, y uint16) uint16 { return cToInt[uint16](f(float64(x), float64(y))) })
	case ndarray.Uint32:
		Map2(out, a, b, func(x, y uint32) uint32 { return cToInt[uint32](f(float64(x), float64(y))) })
	case ndarray.Uint64:
		Map2(out, a, b, func(x, y uint64) uint64 { return cToInt[uint64](f(float64(x), float64(y))) })
	}
}

// cToInt converts v to T as C compiled for x86-64 does: types narrower than 32 bits and
// int32 through a 32-bit truncation (CVTTSD2SI), uint32 and int64 through a 64-bit one,
// keeping the low bits; NaN and out-of-range values give the "integer indefinite" (the
// minimum of the 32- or 64-bit integer), so arccos(int8 2) is 0 and arccos(int32 2) is
// INT32_MIN, as in MXNet. uint64 (which MXNet lacks) converts as NumPy's casts do.
// CToInt converts v to T as C does on x86 (MXNet's casts of a double, as cToInt).
func CToInt[T IntElem](v float64) T { return cToInt[T](v) }

func cToInt[T IntElem](v float64) T {
	var zero T
	signed := ^zero < 0
	switch size := unsafe.Sizeof(zero); {
	case size < 4 || (size == 4 && signed):
		i := int32(math.MinInt32)
		if v > -(1<<31)-1 && v < 1<<31 {
			i = int32(v)
		}
		return T(i)
	case size == 4 || signed:
		i := int64(math.MinInt64)
		if v >= -(1<<63) && v < 1<<63 {
			i = int64(v)
		}
		return T(i)
	}
	return T(floatToInt(v))
}
