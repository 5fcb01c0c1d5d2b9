package ops

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// GatherAlong writes into out (of any shape of the right size), in C order, elements of
// a along axis: for each position p of the axes before axis, each row r and each
// position q of the axes after it, a[p, rows[...], q]. take and repeat (perPosition
// false) use every row for every (p, q); pick (perPosition true) one row per (p, q),
// rows[p*Q+q].
func GatherAlong(out, a *ndarray.NDArray, axis int, rows []int, perPosition bool) error {
	return GatherSpan(out, a, axis, 1, rows, a.Strides()[axis], perPosition)
}

// GatherSpan is gatherAlong over the span axes axis, ..., axis+span-1 taken as one axis
// whose rows are element offsets (advanced indexing, index_axes.go) scaled by stride.
func GatherSpan(out, a *ndarray.NDArray, axis, span int, rows []int, stride int, perPosition bool) error {
	s, st := a.Shape(), a.Strides()
	pre := OffsetsOf(s[:axis], st[:axis], a.Offset())
	post := OffsetsOf(s[axis+span:], st[axis+span:], 0)
	return IntoContiguous(out, func(o *ndarray.NDArray) error {
		dst := unsafe.Add(o.Storage().Ptr(), o.Offset()*o.DType().Size())
		g := gatherJob{dst: dst, src: a.Storage().Ptr(), pre: pre, post: post, rows: rows, stride: stride,
			postRun: ndarray.IsContiguous(s[axis+span:], st[axis+span:]), perPosition: perPosition}
		switch a.DType().Size() {
		case 1:
			gatherPar[uint8](g)
		case 2:
			gatherPar[uint16](g)
		case 4:
			gatherPar[uint32](g)
		case 8:
			gatherPar[uint64](g)
		default:
			gatherPar[[2]uint64](g)
		}
		return nil
	})
}

type gatherJob struct {
	dst, src    unsafe.Pointer
	pre, post   []int // element offsets of the positions before and after the axis
	rows        []int
	stride      int  // of the axis
	postRun     bool // post is 0, 1, ..., len(post)-1
	perPosition bool
}

// gatherPar runs g in chunks on the cores when it is large (ndarray.ForItems): chunks of
// the positions before the axis, or of the rows when there is one such position.
func gatherPar[T any](g gatherJob) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	q := len(g.post)
	if len(g.pre) == 1 && !g.perPosition {
		ndarray.ForItems(len(g.rows), q, func(lo, hi int) {
			c := g
			c.rows, c.dst = g.rows[lo:hi], unsafe.Add(g.dst, lo*q*size)
			gatherT[T](c)
		})
		return
	}
	perPre := q
	if !g.perPosition {
		perPre *= len(g.rows)
	}
	ndarray.ForItems(len(g.pre), perPre, func(lo, hi int) {
		c := g
		c.pre, c.dst = g.pre[lo:hi], unsafe.Add(g.dst, lo*perPre*size)
		if g.perPosition {
			c.rows = g.rows[lo*q : hi*q]
		}
		gatherT[T](c)
	})
}

func gatherT[T any](g gatherJob) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	q := len(g.post)
	n := len(g.pre) * q
	if !g.perPosition {
		n *= len(g.rows)
	}
	dst := unsafe.Slice((*T)(g.dst), n)
	run := g.postRun && !g.perPosition // the positions after the axis: copied as one slice
	i := 0
	for _, p := range g.pre {
		if g.perPosition {
			for _, o := range g.post {
				dst[i] = *(*T)(unsafe.Add(g.src, (p+g.rows[i]*g.stride+o)*size))
				i++
			}
			continue
		}
		if q == 1 { // one element per row: the common take along the last axis
			at, step := unsafe.Add(g.src, (p+g.post[0])*size), g.stride*size
			for _, r := range g.rows {
				dst[i] = *(*T)(unsafe.Add(at, r*step))
				i++
			}
			continue
		}
		for _, r := range g.rows {
			row := unsafe.Add(g.src, (p+r*g.stride)*size)
			if run {
				i += copy(dst[i:i+q], unsafe.Slice((*T)(row), q))
				continue
			}
			for _, o := range g.post {
				dst[i] = *(*T)(unsafe.Add(row, o*size))
				i++
			}
		}
	}
}
