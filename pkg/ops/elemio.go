package ops

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// elemIO reads and writes one element of a dtype through two universal forms: complex128
// for arithmetic values and uint64 two's-complement bits for exact integer transfers.
// It is the slow, general path used by casts, fills and the 16-bit float types.
type elemIO struct {
	LoadC  func(p unsafe.Pointer) complex128
	LoadI  func(p unsafe.Pointer) uint64
	StoreC func(p unsafe.Pointer, v complex128)
	StoreI func(p unsafe.Pointer, v uint64)
}

func at[T any](p unsafe.Pointer) *T { return (*T)(p) }

func intIO[T int8 | int16 | int32 | int64]() elemIO {
	return elemIO{
		LoadC:  func(p unsafe.Pointer) complex128 { return complex(float64(*at[T](p)), 0) },
		LoadI:  func(p unsafe.Pointer) uint64 { return uint64(int64(*at[T](p))) },
		StoreC: func(p unsafe.Pointer, v complex128) { *at[T](p) = T(floatToInt(real(v))) },
		StoreI: func(p unsafe.Pointer, v uint64) { *at[T](p) = T(v) },
	}
}

func uintIO[T uint8 | uint16 | uint32 | uint64]() elemIO {
	return elemIO{
		LoadC:  func(p unsafe.Pointer) complex128 { return complex(float64(*at[T](p)), 0) },
		LoadI:  func(p unsafe.Pointer) uint64 { return uint64(*at[T](p)) },
		StoreC: func(p unsafe.Pointer, v complex128) { *at[T](p) = T(floatToInt(real(v))) },
		StoreI: func(p unsafe.Pointer, v uint64) { *at[T](p) = T(v) },
	}
}

// floatToInt converts like C on x86 for in-range values; NaN and out-of-range values
// (undefined in C, NumPy gives INT_MIN) become the integer minimum, never a panic.
func floatToInt(f float64) uint64 {
	if f != f || f >= 1<<63 || f < -(1<<63) {
		if f >= 1<<63 && f < 1<<64 {
			return uint64(f)
		}
		return 1 << 63
	}
	return uint64(int64(f))
}

func floatIO[T float32 | float64]() elemIO {
	return elemIO{
		LoadC:  func(p unsafe.Pointer) complex128 { return complex(float64(*at[T](p)), 0) },
		LoadI:  func(p unsafe.Pointer) uint64 { return floatToInt(float64(*at[T](p))) },
		StoreC: func(p unsafe.Pointer, v complex128) { *at[T](p) = T(real(v)) },
		StoreI: nil, // integers reach floats through storeC with their value
	}
}

func complexIO[T complex64 | complex128]() elemIO {
	return elemIO{
		LoadC:  func(p unsafe.Pointer) complex128 { return complex128(*at[T](p)) },
		LoadI:  func(p unsafe.Pointer) uint64 { return floatToInt(real(complex128(*at[T](p)))) },
		StoreC: func(p unsafe.Pointer, v complex128) { *at[T](p) = T(v) },
	}
}

func halfIO(toF32 func(uint16) float32, fromF32 func(float32) uint16) elemIO {
	return elemIO{
		LoadC:  func(p unsafe.Pointer) complex128 { return complex(float64(toF32(*at[uint16](p))), 0) },
		LoadI:  func(p unsafe.Pointer) uint64 { return floatToInt(float64(toF32(*at[uint16](p)))) },
		StoreC: func(p unsafe.Pointer, v complex128) { *at[uint16](p) = fromF32(float32(real(v))) },
	}
}

var boolIO = elemIO{
	LoadC: func(p unsafe.Pointer) complex128 {
		if *at[uint8](p) != 0 {
			return 1
		}
		return 0
	},
	LoadI:  func(p unsafe.Pointer) uint64 { return uint64(min(*at[uint8](p), 1)) },
	StoreC: func(p unsafe.Pointer, v complex128) { *at[uint8](p) = B2u(v != 0) },
	StoreI: func(p unsafe.Pointer, v uint64) { *at[uint8](p) = B2u(v != 0) },
}

func B2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

var IOTable = map[ndarray.DType]elemIO{
	ndarray.Bool:       boolIO,
	ndarray.Int8:       intIO[int8](),
	ndarray.Int16:      intIO[int16](),
	ndarray.Int32:      intIO[int32](),
	ndarray.Int64:      intIO[int64](),
	ndarray.Uint8:      uintIO[uint8](),
	ndarray.Uint16:     uintIO[uint16](),
	ndarray.Uint32:     uintIO[uint32](),
	ndarray.Uint64:     uintIO[uint64](),
	ndarray.Float16:    halfIO(F16ToF32, F32ToF16),
	ndarray.Float32:    floatIO[float32](),
	ndarray.Float64:    floatIO[float64](),
	ndarray.Complex64:  complexIO[complex64](),
	ndarray.Complex128: complexIO[complex128](),
	ndarray.Bfloat16:   halfIO(Bf16ToF32, F32ToBF16),
}

// IsIntegral reports whether dt holds exact integers (bool included).
func IsIntegral(dt ndarray.DType) bool {
	k := dt.Kind()
	return k == ndarray.KindBool || k == ndarray.KindInt || k == ndarray.KindUint
}

// Transfer moves one element from src (dtype s) to dst (dtype d), exactly for integers.
func Transfer(d, s ndarray.DType) func(dst, src unsafe.Pointer) {
	dio, sio := IOTable[d], IOTable[s]
	if IsIntegral(d) && IsIntegral(s) {
		load, store := sio.LoadI, dio.StoreI
		return func(dst, src unsafe.Pointer) { store(dst, load(src)) }
	}
	if IsIntegral(s) && s.Kind() == ndarray.KindUint {
		load, store := sio.LoadI, dio.StoreC
		return func(dst, src unsafe.Pointer) { store(dst, complex(float64(load(src)), 0)) }
	}
	load, store := sio.LoadC, dio.StoreC
	return func(dst, src unsafe.Pointer) { store(dst, load(src)) }
}

// IndexValues reads idx in C order as float64 (exact for integers below 2**53, far past
// any axis length).
func IndexValues(idx *ndarray.NDArray) []float64 {
	if idx.Contiguous() { // the common index arrays, without a call per element
		switch n := idx.Size(); idx.DType() {
		case ndarray.Float32:
			return asFloats(unsafe.Slice((*float32)(idx.Data()), n))
		case ndarray.Float64:
			return asFloats(unsafe.Slice((*float64)(idx.Data()), n))
		case ndarray.Int64:
			return asFloats(unsafe.Slice((*int64)(idx.Data()), n))
		case ndarray.Int32:
			return asFloats(unsafe.Slice((*int32)(idx.Data()), n))
		}
	}
	io := IOTable[idx.DType()]
	isUint := idx.DType().Kind() == ndarray.KindUint
	size := idx.DType().Size()
	base := idx.Storage().Ptr()
	out := make([]float64, 0, idx.Size())
	ndarray.Rows(idx.Shape(), Operands(idx), func(offs []int, n int, steps []int) {
		for i := 0; i < n; i++ {
			p := unsafe.Add(base, (offs[0]+i*steps[0])*size)
			if isUint {
				out = append(out, float64(io.LoadI(p)))
			} else {
				out = append(out, real(io.LoadC(p)))
			}
		}
	})
	return out
}

func asFloats[T float32 | float64 | int32 | int64](v []T) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}
