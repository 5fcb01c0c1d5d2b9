package elemwise

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.np's bitwise operators: _npi_bitwise_and/or/xor/not (MXNet's names) for bool and
// the integers, and _npi_left_shift/_npi_right_shift (MXNet 1.9.1 has none) for the
// integers, with NumPy's shifts: a count of the bit width or more, or a negative one,
// gives 0 (-1 for a negative number shifted right), never C's undefined behaviour.

type bitOp int

const (
	bAnd bitOp = iota
	bOr
	bXor
	bShl
	bShr
)

var (
	bitDTypes   = append([]ndarray.DType{ndarray.Bool}, intDTypes...)
	intDTypes   = []ndarray.DType{ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64, ndarray.Uint8, ndarray.Uint16, ndarray.Uint32, ndarray.Uint64}
	bitKernels  = [8]func(bitOp, *ndarray.NDArray, *ndarray.NDArray, *ndarray.NDArray){bitRun[int8], bitRun[int16], bitRun[int32], bitRun[int64], bitRun[uint8], bitRun[uint16], bitRun[uint32], bitRun[uint64]}
	shiftByNums = [8]func(bitOp, *ndarray.NDArray, *ndarray.NDArray, uint64){shiftBy[int8], shiftBy[int16], shiftBy[int32], shiftBy[int64], shiftBy[uint8], shiftBy[uint16], shiftBy[uint32], shiftBy[uint64]}
)

func init() {
	for _, b := range []struct {
		name, doc string
		op        bitOp
	}{
		{"bitwise_and", "Bitwise and", bAnd}, {"bitwise_or", "Bitwise or", bOr}, {"bitwise_xor", "Bitwise exclusive or", bXor},
		{"left_shift", "x << n: shifts the bits of x left by n; n of the bit width or more, or negative, gives 0", bShl},
		{"right_shift", "x >> n: shifts the bits of x right by n, arithmetically for signed x; n of the bit width or more, " +
			"or negative, gives 0, or -1 for a negative x", bShr},
	} {
		op, dtypes := b.op, bitDTypes
		if op >= bShl {
			dtypes = intDTypes
		}
		npBinary{
			name: "_npi_" + b.name, dtypes: dtypes, grad: ops.ZeroGrad, sgrad: ops.ZeroGrad, intScalar: true,
			doc: b.doc + ", elementwise, as NumPy's " + b.name + ". A Python integer is converted to the array's " +
				"dtype (wrapped; for bool arrays true when not 0), except a shift count, which counts as itself.",
			run: func(out, a, b *ndarray.NDArray) { pickInt(a.DType(), bitKernels)(op, out, a, b) },
			scalar: func(out, a *ndarray.NDArray, s ops.Scalar, rev bool) error {
				if op < bShl || rev {
					return withScalarArray(a, out.Shape(), s, func(c *ndarray.NDArray) {
						if rev {
							a, c = c, a
						}
						pickInt(a.DType(), bitKernels)(op, out, a, c)
					})
				}
				pickInt(a.DType(), shiftByNums)(op, out, a, uint64(s.Int)) // a negative count: 2**64 - |n|, too large
				return nil
			},
		}.register()
	}
	npUnary{
		name: "_npi_bitwise_not", dtypes: bitDTypes, out: func(dt ndarray.DType) ndarray.DType { return dt }, grad: ops.ZeroGrad,
		doc: "Bitwise not, elementwise, as NumPy's invert: ~x for integers, logical not for bool.",
		run: func(out, in *ndarray.NDArray) error {
			if in.DType() == ndarray.Bool {
				ops.Map1(out, in, func(x uint8) uint8 { return ops.B2u(x == 0) })
				return nil
			}
			pickInt(in.DType(), [8]func(out, in *ndarray.NDArray){bitNot[int8], bitNot[int16], bitNot[int32], bitNot[int64],
				bitNot[uint8], bitNot[uint16], bitNot[uint32], bitNot[uint64]})(out, in)
			return nil
		},
	}.register()
}

func bitRun[T ops.IntElem](op bitOp, out, a, b *ndarray.NDArray) {
	switch op {
	case bAnd:
		ops.Map2(out, a, b, func(x, y T) T { return x & y })
	case bOr:
		ops.Map2(out, a, b, func(x, y T) T { return x | y })
	case bXor:
		ops.Map2(out, a, b, func(x, y T) T { return x ^ y })
	case bShl: // Go's shifts by a count of the width or more are NumPy's; a negative count becomes one
		ops.Map2(out, a, b, func(x, y T) T { return x << uint64(y) })
	default:
		ops.Map2(out, a, b, func(x, y T) T { return x >> uint64(y) })
	}
}

// shiftBy shifts every element of a by n.
func shiftBy[T ops.IntElem](op bitOp, out, a *ndarray.NDArray, n uint64) {
	if op == bShl {
		ops.Map1(out, a, func(x T) T { return x << n })
	} else {
		ops.Map1(out, a, func(x T) T { return x >> n })
	}
}

func bitNot[T ops.IntElem](out, in *ndarray.NDArray) { ops.Map1(out, in, func(x T) T { return ^x }) }
