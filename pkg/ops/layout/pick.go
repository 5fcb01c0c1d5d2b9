package layout

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// pick's forward in one pass: data, index and out walked together over the positions of
// data without the axis, each index read, resolved by mode and its element copied. The
// general gather (readIndices, resolveIndices, then GatherAlong's table of the positions'
// offsets) built three tables of the positions' size first; for 2,000 rows of floats,
// allocating them was most of a 50-56 us call.

// pickInto sets out[p] = a[p with axis at index[p]] for each position p of a without
// axis; index and out have those positions' shape, or a's with axis of length 1 (out: or
// (1,) when a is 1-D). Indices read as pick's 32-bit integers, then clip or wrap.
func pickInto(out, a, index *ndarray.NDArray, axis int, wrap bool) error {
	s, st := a.Shape(), a.Strides()
	pos := slices.Concat(s[:axis], s[axis+1:])
	n := s[axis]
	if size, _ := ndarray.Size(pos); size == 0 {
		return nil
	}
	if n == 0 {
		return mxerr.IndexErr("pick: cannot index an axis of length 0")
	}
	over := func(x *ndarray.NDArray) ndarray.Operand { // x's view of the positions
		xs := x.Strides()
		if x.NDim() == len(s) {
			xs = slices.Concat(xs[:axis], xs[axis+1:])
		} else if len(pos) == 0 {
			xs = nil
		}
		return ndarray.Operand{Strides: xs, Offset: x.Offset()}
	}
	job := pickJob{src: a.Storage().Ptr(), idx: index.Storage().Ptr(), dst: out.Storage().Ptr(),
		load: indexLoader(index.DType(), true), isize: index.DType().Size(), n: n, stride: st[axis], wrap: wrap,
		pos: pos, ops: []ndarray.Operand{{Strides: slices.Concat(st[:axis], st[axis+1:]), Offset: a.Offset()}, over(index), over(out)}}
	switch a.DType().Size() {
	case 1:
		pickT[uint8](job)
	case 2:
		pickT[uint16](job)
	case 4:
		pickT[uint32](job)
	case 8:
		pickT[uint64](job)
	default:
		pickT[[2]uint64](job)
	}
	return nil
}

type pickJob struct {
	src, idx, dst unsafe.Pointer
	load          func(unsafe.Pointer) int64
	isize, n      int // the index's element size; the axis' length
	stride        int // of the axis in data
	wrap          bool
	pos           []int
	ops           []ndarray.Operand // data, index, out
}

func pickT[T any](j pickJob) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	n := int64(j.n)
	ndarray.ParallelRows(j.pos, j.ops, func(offs []int, m int, steps []int) {
		for i := range m {
			r := j.load(unsafe.Add(j.idx, (offs[1]+i*steps[1])*j.isize))
			switch {
			case r >= 0 && r < n:
			case j.wrap:
				if r %= n; r < 0 {
					r += n
				}
			default:
				r = min(max(r, 0), n-1)
			}
			src := unsafe.Add(j.src, (offs[0]+i*steps[0]+int(r)*j.stride)*size)
			*(*T)(unsafe.Add(j.dst, (offs[2]+i*steps[2])*size)) = *(*T)(src)
		}
	})
}

// indexLoader returns the reader of one index of dtype dt, as readIndices converts them:
// floats truncate toward zero; 32-bit integers when int32s is set, else 64-bit.
func indexLoader(dt ndarray.DType, int32s bool) func(unsafe.Pointer) int64 {
	switch dt {
	case ndarray.Float32:
		return func(p unsafe.Pointer) int64 { return truncIndex(float64(*(*float32)(p)), int32s) }
	case ndarray.Float64:
		return func(p unsafe.Pointer) int64 { return truncIndex(*(*float64)(p), int32s) }
	case ndarray.Int32:
		return func(p unsafe.Pointer) int64 { return int64(*(*int32)(p)) }
	case ndarray.Int64:
		return func(p unsafe.Pointer) int64 { return wrapIndex(*(*int64)(p), int32s) }
	}
	io := ops.IOTable[dt]
	if !ops.IsIntegral(dt) {
		return func(p unsafe.Pointer) int64 { return truncIndex(real(io.LoadC(p)), int32s) }
	}
	return func(p unsafe.Pointer) int64 { return wrapIndex(int64(io.LoadI(p)), int32s) }
}
