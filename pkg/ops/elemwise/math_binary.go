package elemwise

import (
	"math"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet 1.x's binary math names: logical_and/or/xor (0 or 1 in the operands' dtype),
// broadcast_hypot, and the aliases MXNet keeps for the broadcasting operators
// (broadcast_add ...), the same-shape ones (elemwise_add ...) and true_divide.

type logicOp int

const (
	lAnd logicOp = iota
	lOr
	lXor
)

func (op logicOp) eval(x, y bool) bool {
	switch op {
	case lAnd:
		return x && y
	case lOr:
		return x || y
	}
	return x != y
}

const logicDoc = " elementwise, with NumPy broadcasting: 1 or 0 in the operands' dtype, as in MXNet (an element " +
	"is true when it is not 0; NaN is true). A Python number is first converted to the array's dtype " +
	"(logical_and(int_array, 0.5) is all 0). Bool and complex arrays are not supported (MXNet has no kernel for them)." +
	"\n\nBoth arrays must have the same dtype, as in MXNet."

func init() {
	for _, l := range []struct {
		name, what string
		op         logicOp
	}{{"logical_and", "Logical and", lAnd}, {"logical_or", "Logical or", lOr}, {"logical_xor", "Logical exclusive or", lXor}} {
		op := l.op
		ops.Register(&ops.Op{
			Name: l.name, Grad: ops.ZeroGrad, Doc: l.what + logicDoc, Category: ops.Broadcast, Inputs: []string{"lhs", "rhs"},
			DTypes: ops.RealNumericDTypes, InPlace: true, ScalarOp: "_" + l.name + "_scalar", Infer: ops.InferBroadcastSameDType,
			Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
				return ops.BroadcastKernel(in, out[0], func(in []*ndarray.NDArray) error {
					runLogical(op, out[0], in[0], in[1])
					return nil
				})
			},
		})
		ops.Register(&ops.Op{
			Name: "_" + l.name + "_scalar", Grad: ops.ZeroGrad, Doc: l.what + " with a Python number" + logicDoc,
			Category: ops.Elementwise,
			Inputs:   []string{"data"}, DTypes: ops.RealNumericDTypes, InPlace: true, Infer: ops.InferSame,
			Params: []ops.Param{
				{Name: "scalar", Kind: ops.ParamScalar, Doc: "the number"},
				{Name: "reverse", Kind: ops.ParamBool, Default: "0", Doc: "the number is the first operand (the result is the same)"},
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				return withScalarArray(in[0], out[0].Shape(), at.Scalar("scalar"), func(s *ndarray.NDArray) {
					runLogical(op, out[0], in[0], s)
				})
			},
		})
	}
	ops.Register(&ops.Op{
		Name: "broadcast_hypot", Grad: ops.GradExpr("g * a / y", "g * b / y"), Doc: "sqrt(lhs**2 + rhs**2) elementwise, with NumPy broadcasting, without " +
			"intermediate overflow. Integer arrays compute in float64 and truncate, as in MXNet." +
			"\n\nBoth arrays must have the same dtype, as in MXNet.",
		Category: ops.Broadcast, Inputs: []string{"lhs", "rhs"}, DTypes: ops.RealNumericDTypes, InPlace: true,
		Infer: ops.InferBroadcastSameDType,
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			return ops.BroadcastKernel(in, out[0], func(in []*ndarray.NDArray) error {
				runHypot(out[0], in[0], in[1])
				return nil
			})
		},
	})
	for _, a := range [][2]string{
		{"add", "broadcast_add"}, {"add", "broadcast_plus"}, {"subtract", "broadcast_sub"}, {"subtract", "broadcast_minus"},
		{"multiply", "broadcast_mul"}, {"divide", "broadcast_div"}, {"modulo", "broadcast_mod"}, {"power", "broadcast_power"},
		{"maximum", "broadcast_maximum"}, {"minimum", "broadcast_minimum"}, {"equal", "broadcast_equal"},
		{"not_equal", "broadcast_not_equal"}, {"greater", "broadcast_greater"}, {"greater_equal", "broadcast_greater_equal"},
		{"lesser", "broadcast_lesser"}, {"lesser_equal", "broadcast_lesser_equal"}, {"logical_and", "broadcast_logical_and"},
		{"logical_or", "broadcast_logical_or"}, {"logical_xor", "broadcast_logical_xor"},
	} {
		alias(a[0], a[1], "both operands must be arrays", func(op *ops.Op) { op.ScalarOp = "" })
	}
	for _, a := range [][2]string{{"add", "elemwise_add"}, {"subtract", "elemwise_sub"}, {"multiply", "elemwise_mul"}, {"divide", "elemwise_div"}} {
		name := a[1]
		alias(a[0], name, "both operands must be arrays of the same shape: no broadcasting", func(op *ops.Op) {
			op.ScalarOp, op.Category = "", ops.Elementwise
			op.Infer = func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
				if err := ops.SameDType(in); err != nil {
					return nil, 0, ops.WithOpName(name, err)
				}
				if err := sameShapeInputs(name, in); err != nil {
					return nil, 0, err
				}
				return in[0].Shape(), in[0].DType(), nil
			}
		})
	}
	alias("divide", "true_divide", "as in MXNet 1.x, integer arrays still divide with truncation", func(*ops.Op) {})
}

// runHypot sets out = hypot(a, b), for a, b and out of one real dtype and shape.
func runHypot(out, a, b *ndarray.NDArray) {
	switch dt := a.DType(); {
	case dt == ndarray.Float32:
		ops.Map2(out, a, b, hypot32)
	case ops.IsFloat(dt):
		ops.FloatMap2(out, a, b, math.Hypot)
	default:
		ops.IntViaFloat2(out, a, b, math.Hypot)
	}
}

// hypot32 is hypot for float32: float64 holds the squares of every float32 without
// overflow or underflow, so the plain formula is exact to the float32 rounding, and
// faster than math.Hypot; an infinite operand gives +inf even with NaN, as hypot does.
func hypot32(x, y float32) float32 {
	x64, y64 := float64(x), float64(y)
	r := float32(math.Sqrt(x64*x64 + y64*y64))
	if r != r && (math.IsInf(x64, 0) || math.IsInf(y64, 0)) {
		return float32(math.Inf(1))
	}
	return r
}

// alias registers a copy of operator target under MXNet's other name, with what
// differs noted in its doc and applied by edit.
func alias(target, name, note string, edit func(op *ops.Op)) {
	t, err := ops.Lookup(target)
	if err != nil {
		panic("ops: alias of a missing operator " + target)
	}
	op := *t
	op.Name = name
	op.Doc = "MXNet's " + name + ": " + target + " (" + note + ").\n\n" + t.Doc
	edit(&op)
	ops.Register(&op)
}

// sameShapeInputs checks that every input has the first one's shape.
func sameShapeInputs(name string, in []*ndarray.NDArray) error {
	for _, a := range in[1:] {
		if !ops.SameShapes([]*ndarray.NDArray{a}, in[0].Shape()) {
			return mxerr.ValueErr("%s: shapes %s and %s differ (this operator does not broadcast)", name, ops.FmtShape(in[0].Shape()), ops.FmtShape(a.Shape()))
		}
	}
	return nil
}

// runLogical sets out to op(a != 0, b != 0) as 1 or 0, for a, b and out of one real dtype.
func runLogical(op logicOp, out, a, b *ndarray.NDArray) {
	switch a.DType() {
	case ndarray.Float16:
		logical16(op, out, a, b, 0x3c00)
	case ndarray.Bfloat16:
		logical16(op, out, a, b, 0x3f80)
	case ndarray.Float32:
		logicalTyped[float32, float32](op, out, a, b)
	case ndarray.Float64:
		logicalTyped[float64, float64](op, out, a, b)
	case ndarray.Int8:
		logicalTyped[int8, int8](op, out, a, b)
	case ndarray.Int16:
		logicalTyped[int16, int16](op, out, a, b)
	case ndarray.Int32:
		logicalTyped[int32, int32](op, out, a, b)
	case ndarray.Int64:
		logicalTyped[int64, int64](op, out, a, b)
	case ndarray.Uint8:
		logicalTyped[uint8, uint8](op, out, a, b)
	case ndarray.Uint16:
		logicalTyped[uint16, uint16](op, out, a, b)
	case ndarray.Uint32:
		logicalTyped[uint32, uint32](op, out, a, b)
	case ndarray.Uint64:
		logicalTyped[uint64, uint64](op, out, a, b)
	}
}

// logicalTyped loops over whole rows, with the operator chosen once per row, so that
// the contiguous loops compile without a call per element. The result is 1 or 0 in O
// (uint8 for a bool result).
func logicalTyped[O, T ops.OrderedElem](op logicOp, out, a, b *ndarray.NDArray) {
	rows2(out, a, b, func(o []O, x, y []T) {
		x, y = x[:len(o)], y[:len(o)]
		switch op {
		case lAnd:
			for i := range o {
				o[i] = truth[O](x[i] != 0 && y[i] != 0)
			}
		case lOr:
			for i := range o {
				o[i] = truth[O](x[i] != 0 || y[i] != 0)
			}
		default:
			for i := range o {
				o[i] = truth[O]((x[i] != 0) != (y[i] != 0))
			}
		}
	})
}

// truth is 1 or 0 in T (with a branch: the logical ops' && || and != of bools
// compile to branches anyway, and ran 2-4 times slower through flag).
func truth[T ops.OrderedElem](c bool) T {
	if c {
		return 1
	}
	return 0
}

// flag is 1 or 0 in T from c's byte, without a branch: comparisons of random data
// mispredict half the branches of truth (15 times slower for float T).
func flag[T ops.OrderedElem](c bool) T { return T(*(*uint8)(unsafe.Pointer(&c))) }

// rows2 calls f with the rows of out (of elements O), a and b (of T; all of one shape):
// contiguous rows as whole slices; rows where a or b repeats one element (a broadcast
// scalar) in chunks, against a buffer of copies; the elements of other rows one at a
// time (as slices of one element). f must be elementwise.
func rows2[O, T any](out, a, b *ndarray.NDArray, f func(o []O, x, y []T)) {
	po, pa, pb := out.Storage().Ptr(), a.Storage().Ptr(), b.Storage().Ptr()
	ndarray.ParallelRows(out.Shape(), ops.Operands(out, a, b), func(offs []int, n int, st []int) {
		o, x, y := ops.ElemAt[O](po, offs[0]), ops.ElemAt[T](pa, offs[1]), ops.ElemAt[T](pb, offs[2])
		switch {
		case st[0] == 1 && st[1] == 1 && st[2] == 1:
			f(unsafe.Slice(o, n), unsafe.Slice(x, n), unsafe.Slice(y, n))
			return
		case st[0] == 1 && st[1]|st[2] == 1 && st[1]&st[2] == 0: // one of a and b repeats
			repeatRows(unsafe.Slice(o, n), x, y, st[1] == 0, f)
			return
		}
		po, px, py := unsafe.Pointer(o), unsafe.Pointer(x), unsafe.Pointer(y)
		for i := 0; i < n; i++ {
			f(unsafe.Slice(ops.ElemAt[O](po, i*st[0]), 1), unsafe.Slice(ops.ElemAt[T](px, i*st[1]), 1), unsafe.Slice(ops.ElemAt[T](py, i*st[2]), 1))
		}
	})
}

// repeatChunk is the length of repeatRows' buffer: long enough for the loops to run
// at full speed, short enough to stay in L1.
const repeatChunk = 512

// repeatRows is rows2 for a row of o against x and y, one of which (x when xRepeats)
// holds one element for the whole row.
func repeatRows[O, T any](o []O, x, y *T, xRepeats bool, f func(o []O, x, y []T)) {
	c, s := *y, unsafe.Slice(x, len(o))
	if xRepeats {
		c, s = *x, unsafe.Slice(y, len(o))
	}
	buf := make([]T, min(len(o), repeatChunk))
	for i := range buf {
		buf[i] = c
	}
	for lo := 0; lo < len(o); lo += repeatChunk {
		hi := min(lo+repeatChunk, len(o))
		if xRepeats {
			f(o[lo:hi], buf[:hi-lo], s[lo:hi])
		} else {
			f(o[lo:hi], s[lo:hi], buf[:hi-lo])
		}
	}
}

// logical16 is runLogical for the 16-bit float formats, on their bits: an element is
// false when only its sign bit may be set (±0); one is the bits of 1.0.
func logical16(op logicOp, out, a, b *ndarray.NDArray, one uint16) {
	ops.Map2(out, a, b, func(x, y uint16) uint16 {
		if op.eval(x&0x7fff != 0, y&0x7fff != 0) {
			return one
		}
		return 0
	})
}
