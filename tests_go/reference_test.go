package mxgotest

import (
	"math"
	"math/big"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Reference implementations of Python's and NumPy's indexing rules, written from the
// language definitions with arbitrary-precision integers, for comparison with mxgo's.

// refSliceIndices follows Python's slice.indices(n) (Objects/sliceobject.c,
// _PySlice_GetLongIndices) and len(range(start, stop, step)). ok is false where Python
// raises ValueError (step 0). As NumPy's indexing does through PySlice_Unpack, a step
// below -sys.maxsize is first raised to -sys.maxsize.
func refSliceIndices(k ndarray.KeyItem, n int) (start, step, length int, ok bool) {
	st := int64(1)
	if k.HasStep {
		st = int64(k.Step)
	}
	if st == 0 {
		return 0, 0, 0, false
	}
	if st < -math.MaxInt64 {
		st = -math.MaxInt64
	}
	bn, bstep := big.NewInt(int64(n)), big.NewInt(st)
	lower, upper := big.NewInt(0), new(big.Int).Set(bn)
	if st < 0 {
		lower = big.NewInt(-1)
		upper = new(big.Int).Sub(bn, big.NewInt(1))
	}
	resolve := func(v int, given bool, def *big.Int) *big.Int {
		if !given {
			return def
		}
		x := big.NewInt(int64(v))
		if x.Sign() < 0 {
			x.Add(x, bn)
			if x.Cmp(lower) < 0 {
				return lower
			}
			return x
		}
		if x.Cmp(upper) > 0 {
			return upper
		}
		return x
	}
	var bstart, bstop *big.Int
	if st > 0 {
		bstart, bstop = resolve(k.Start, k.HasStart, lower), resolve(k.Stop, k.HasStop, upper)
	} else {
		bstart, bstop = resolve(k.Start, k.HasStart, upper), resolve(k.Stop, k.HasStop, lower)
	}
	// len(range(start, stop, step)) = max(0, ceil((stop - start) / step))
	num := new(big.Int).Sub(bstop, bstart)
	q, m := new(big.Int).DivMod(num, bstep, new(big.Int)) // Euclidean: m >= 0
	if m.Sign() != 0 && bstep.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if q.Sign() < 0 {
		q.SetInt64(0)
	}
	return int(bstart.Int64()), int(st), int(q.Int64()), true
}

// refIndex applies a basic-indexing key to a C-contiguous array of the given shape the
// plain way: it lists, for every result axis, the source positions it visits, and then
// the flat source index of every result element in C order. ok is false where NumPy
// raises.
func refIndex(shape []int, key []ndarray.KeyItem) (outShape []int, flat []int, ok bool) {
	consumed, ellipses := 0, 0
	for _, k := range key {
		switch k.Kind {
		case ndarray.KeyInt, ndarray.KeySlice:
			consumed++
		case ndarray.KeyEllipsis:
			ellipses++
		}
	}
	if ellipses > 1 || consumed > len(shape) {
		return nil, nil, false
	}
	// Expand the key to one item per source axis, plus new axes.
	var full []ndarray.KeyItem
	for _, k := range key {
		if k.Kind == ndarray.KeyEllipsis {
			for i := 0; i < len(shape)-consumed; i++ {
				full = append(full, all)
			}
			continue
		}
		full = append(full, k)
	}
	for len(full) < len(shape)+countNewAxes(key) {
		full = append(full, all)
	}
	type axis struct {
		stride    int   // source stride of the axis (0 for a new axis)
		positions []int // source positions along it
		keep      bool  // whether it is a result axis
	}
	var axes []axis
	src := 0
	for _, k := range full {
		if k.Kind == ndarray.KeyNewAxis {
			axes = append(axes, axis{positions: []int{0}, keep: true})
			continue
		}
		n, stride := shape[src], 1
		for _, d := range shape[src+1:] {
			stride *= d
		}
		src++
		switch k.Kind {
		case ndarray.KeyInt:
			i := k.Start
			if i < -n || i >= n {
				return nil, nil, false
			}
			if i < 0 {
				i += n
			}
			axes = append(axes, axis{stride: stride, positions: []int{i}})
		case ndarray.KeySlice:
			start, step, length, sok := refSliceIndices(k, n)
			if !sok {
				return nil, nil, false
			}
			pos := make([]int, length)
			for j := range pos {
				pos[j] = start + j*step
			}
			axes = append(axes, axis{stride: stride, positions: pos, keep: true})
		}
	}
	outShape = []int{}
	for _, a := range axes {
		if a.keep {
			outShape = append(outShape, len(a.positions))
		}
	}
	if len(outShape) > ndarray.MaxDims {
		return nil, nil, false
	}
	// Walk the cartesian product of all axes (dropped ones have one position).
	dims := make([]int, len(axes))
	for i, a := range axes {
		dims[i] = len(a.positions)
	}
	forEach(dims, func(idx []int) {
		off := 0
		for i, a := range axes {
			off += a.positions[idx[i]] * a.stride
		}
		flat = append(flat, off)
	})
	return outShape, flat, true
}

func countNewAxes(key []ndarray.KeyItem) int {
	n := 0
	for _, k := range key {
		if k.Kind == ndarray.KeyNewAxis {
			n++
		}
	}
	return n
}

// viewOffsets lists the element offsets (relative to the storage) of v in C order.
func viewOffsets(v *ndarray.NDArray) []int {
	var out []int
	forEach(v.Shape(), func(idx []int) {
		off := v.Offset()
		for i, x := range idx {
			off += x * v.Strides()[i]
		}
		out = append(out, off)
	})
	return out
}
