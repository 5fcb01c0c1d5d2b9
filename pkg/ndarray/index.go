package ndarray

import (
	"math"

	"github.com/mxgo/mxgo/pkg/mxerr"
)

// KeyKind says what one component of an index key is.
type KeyKind uint8

// Index key components, as in NumPy's basic indexing.
const (
	KeyInt      KeyKind = iota // x[i]: selects one position and drops the axis
	KeySlice                   // x[start:stop:step]
	KeyNewAxis                 // x[None]
	KeyEllipsis                // x[...]
)

// KeyItem is one component of an index key. For slices, HasStart/HasStop/HasStep say
// which bounds were given (Python's None otherwise).
type KeyItem struct {
	Kind                       KeyKind
	Start, Stop, Step          int
	HasStart, HasStop, HasStep bool
}

// Index applies a basic-indexing key with NumPy's rules and returns a view sharing a's
// storage: ints select (negative counts from the end, out of range is an IndexError),
// slices clamp, None inserts an axis of length 1, one Ellipsis stands for the rest.
func (a *NDArray) Index(key []KeyItem) (*NDArray, error) {
	consumed, ellipses := 0, 0
	for _, k := range key {
		switch k.Kind {
		case KeyInt, KeySlice:
			consumed++
		case KeyEllipsis:
			ellipses++
		}
	}
	if ellipses > 1 {
		return nil, mxerr.IndexErr("an index can only have a single ellipsis ('...')")
	}
	if consumed > len(a.shape) {
		return nil, mxerr.IndexErr("too many indices for array: array is %d-dimensional, but %d were indexed", len(a.shape), consumed)
	}
	shape := make([]int, 0, len(a.shape)+len(key))
	strides := make([]int, 0, len(a.shape)+len(key))
	offset, axis := a.offset, 0
	for _, k := range key {
		switch k.Kind {
		case KeyInt:
			n := a.shape[axis]
			i := k.Start
			if i < 0 {
				i += n
			}
			if i < 0 || i >= n {
				return nil, mxerr.IndexErr("index %d is out of bounds for axis %d with size %d", k.Start, axis, n)
			}
			offset += i * a.strides[axis]
			axis++
		case KeySlice:
			start, step, length, err := SliceIndices(k, a.shape[axis])
			if err != nil {
				return nil, err
			}
			stride := a.strides[axis]
			if length > 0 {
				offset += start * stride
			}
			if length > 1 { // a stride only matters when it is used
				stride *= step
			}
			shape = append(shape, length)
			strides = append(strides, stride)
			axis++
		case KeyNewAxis:
			shape = append(shape, 1)
			strides = append(strides, 0)
		case KeyEllipsis:
			for rest := len(a.shape) - consumed; rest > 0; rest-- {
				shape = append(shape, a.shape[axis])
				strides = append(strides, a.strides[axis])
				axis++
			}
		default:
			return nil, mxerr.TypeErr("invalid index component %d", k.Kind)
		}
	}
	shape = append(shape, a.shape[axis:]...)
	strides = append(strides, a.strides[axis:]...)
	if len(shape) > MaxDims {
		return nil, mxerr.IndexErr("indexing result would have %d dimensions, more than %d", len(shape), MaxDims)
	}
	return a.view(shape, strides, offset), nil
}

// SliceIndices resolves a slice against an axis of length n exactly as Python's
// slice.indices does, returning the first index, the step and the number of elements.
func SliceIndices(k KeyItem, n int) (start, step, length int, err error) {
	step = 1
	if k.HasStep {
		step = k.Step
	}
	if step == 0 {
		return 0, 0, 0, mxerr.ValueErr("slice step cannot be zero")
	}
	if step == math.MinInt { // -step would overflow
		step = -math.MaxInt
	}
	lower, upper := 0, n
	if step < 0 {
		lower, upper = -1, n-1
	}
	clamp := func(v int, given bool, def int) int {
		if !given {
			return def
		}
		if v < 0 {
			v += n
			if v < lower {
				return lower
			}
			return v
		}
		if v > upper {
			return upper
		}
		return v
	}
	if step > 0 {
		start = clamp(k.Start, k.HasStart, lower)
		stop := clamp(k.Stop, k.HasStop, upper)
		if stop > start { // CPython's form: no overflow for any step
			length = (stop-start-1)/step + 1
		}
	} else {
		start = clamp(k.Start, k.HasStart, upper)
		stop := clamp(k.Stop, k.HasStop, lower)
		if start > stop {
			length = (start-stop-1)/-step + 1
		}
	}
	return start, step, length, nil
}

// ErrNotContiguous is returned by Reshape for arrays whose elements are not contiguous:
// reshaping them needs a copy (see ops.Reshape).
var ErrNotContiguous = mxerr.ValueErr("reshape of a non-contiguous array needs a copy")

// Reshape returns a view of a contiguous array with a new shape; one dimension may be
// -1 (inferred). For a non-contiguous a it returns ErrNotContiguous.
func (a *NDArray) Reshape(shape []int) (*NDArray, error) {
	shape, err := a.resolveShape(shape)
	if err != nil {
		return nil, err
	}
	if !a.Contiguous() {
		return nil, ErrNotContiguous
	}
	return a.view(shape, ContiguousStrides(shape), a.offset), nil
}

func (a *NDArray) resolveShape(shape []int) ([]int, error) {
	if len(shape) > MaxDims {
		return nil, mxerr.ValueErr("%d dimensions exceed the maximum of %d", len(shape), MaxDims)
	}
	shape = append([]int(nil), shape...)
	infer, known := -1, 1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			return nil, mxerr.ValueErr("invalid dimension %d in new shape %v", d, shape)
		default:
			if _, err := Size([]int{known, d}); err != nil {
				return nil, err
			}
			known *= d
		}
	}
	total := a.Size()
	if infer >= 0 {
		if known == 0 || total%known != 0 {
			return nil, mxerr.ValueErr("cannot reshape array of size %d into shape %s", total, ShapeString(shape))
		}
		shape[infer] = total / known
	} else if known != total {
		return nil, mxerr.ValueErr("cannot reshape array of size %d into shape %s", total, ShapeString(shape))
	}
	return shape, nil
}
