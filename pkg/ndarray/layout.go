package ndarray

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/mxgo/mxgo/pkg/mxerr"
)

// MaxDims bounds the rank of an array, as NumPy's NPY_MAXDIMS does, so that a foreign
// description cannot make mxgo allocate or loop without limit.
const MaxDims = 64

// ShapeString is shape as Python writes a tuple, "(5,)" or "(2, 3)", for messages that
// NumPy users read.
func ShapeString(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	if len(shape) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Size returns the number of elements of shape, or an error if a dimension is negative or
// the count overflows int.
func Size(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, mxerr.ValueErr("negative dimension %d in shape %v", d, shape)
		}
		hi, lo := bits.Mul64(uint64(n), uint64(d))
		if hi != 0 || lo > math.MaxInt {
			return 0, mxerr.ValueErr("shape %v has too many elements", shape)
		}
		n = int(lo)
	}
	return n, nil
}

// ContiguousStrides returns the C-order element strides of shape.
func ContiguousStrides(shape []int) []int {
	strides := make([]int, len(shape))
	FillContiguousStrides(strides, shape)
	return strides
}

// FillContiguousStrides writes ContiguousStrides(shape) into strides.
func FillContiguousStrides(strides, shape []int) {
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = acc
		if shape[i] > 1 {
			acc *= shape[i]
		}
	}
}

// IsContiguous reports whether shape and strides describe C-order elements with no gaps.
// Strides of dimensions of size 1 are ignored (PyTorch reports arbitrary ones there), and
// an array with no elements is contiguous.
func IsContiguous(shape, strides []int) bool {
	for _, d := range shape {
		if d == 0 { // checked first: a zero anywhere, not only right of a stride mismatch
			return true
		}
	}
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] == 1 {
			continue
		}
		if strides[i] != acc {
			return false
		}
		acc *= shape[i]
	}
	return true
}

// Extent returns the lowest and highest element offsets (relative to the first element)
// that an array of this shape and strides touches. ok is false when the array is empty
// or the arithmetic overflows.
func Extent(shape, strides []int) (lo, hi int, err error) {
	for _, d := range shape {
		if d == 0 {
			return 0, 0, nil
		}
	}
	for i, d := range shape {
		if d == 1 {
			continue
		}
		step, ok := mulInt(strides[i], d-1)
		if !ok {
			return 0, 0, mxerr.ValueErr("strides %v overflow for shape %v", strides, shape)
		}
		if step < 0 {
			if lo, ok = addInt(lo, step); !ok {
				return 0, 0, mxerr.ValueErr("strides %v overflow for shape %v", strides, shape)
			}
		} else if hi, ok = addInt(hi, step); !ok {
			return 0, 0, mxerr.ValueErr("strides %v overflow for shape %v", strides, shape)
		}
	}
	return lo, hi, nil
}

func mulInt(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == math.MinInt) || (b == -1 && a == math.MinInt) {
		return 0, false
	}
	return c, true
}

func addInt(a, b int) (int, bool) {
	c := a + b
	if (c > a) != (b > 0) {
		return 0, false
	}
	return c, true
}
