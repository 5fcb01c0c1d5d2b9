package layout

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// gather_nd with integer indices (x[i], x[rows], x[rows, cols] come here): each index
// tuple is checked, wrapped and read in one pass, with no table of offsets in between
// (ndOffsets + GatherSpan, the general path, allocates one int per tuple and reads the
// indices twice). Results are the general path's, bit for bit (tests_go/gather_ints_test.go).

// gatherNDInts writes into out data[ints[0*k+i], ..., ints[(m-1)*k+i], ...] for each of the
// k = len(ints)/m index tuples; IndexError (and out partly written) for an index outside
// [-n, n-1].
func gatherNDInts(out, a *ndarray.NDArray, ints []int64, m int) error {
	s, st := a.Shape(), a.Strides()
	g := ndIntsJob{src: a.Storage().Ptr(), base: a.Offset(), ints: ints, dims: s[:m], strides: st[:m],
		k: len(ints) / max(m, 1), post: ops.OffsetsOf(s[m:], st[m:], 0), run: ndarray.IsContiguous(s[m:], st[m:])}
	return ops.IntoContiguous(out, func(o *ndarray.NDArray) error {
		g.dst = unsafe.Add(o.Storage().Ptr(), o.Offset()*o.DType().Size())
		switch a.DType().Size() {
		case 1:
			return gatherNDIntsT[uint8](g)
		case 2:
			return gatherNDIntsT[uint16](g)
		case 4:
			return gatherNDIntsT[uint32](g)
		case 8:
			return gatherNDIntsT[uint64](g)
		default:
			return gatherNDIntsT[[2]uint64](g)
		}
	})
}

type ndIntsJob struct {
	dst, src      unsafe.Pointer
	base, k       int // data's element offset; the number of index tuples
	ints          []int64
	dims, strides []int // of the indexed axes
	post          []int // element offsets of the positions after them
	run           bool  // post is 0, 1, ..., len(post)-1
}

func gatherNDIntsT[T any](g ndIntsJob) error {
	var zero T
	size := int(unsafe.Sizeof(zero))
	q, k, post := len(g.post), g.k, g.post
	dst := unsafe.Slice((*T)(g.dst), k*q)
	src := unsafe.Add(g.src, g.base*size)
	var buf [512]int // a chunk's offsets: the reads of a chunk stay independent of the index checks
	for c := 0; c < k; c += len(buf) {
		offs := buf[:min(len(buf), k-c)]
		clear(offs)
		for j, n := range g.dims {
			st, col := g.strides[j], g.ints[j*k+c:j*k+c+len(offs)]
			for i, v := range col {
				if v < 0 {
					v += int64(n)
				}
				if uint64(v) >= uint64(n) { // also a negative one that stays negative
					return mxerr.IndexErr("gather_nd: index %d is out of bounds for axis %d with size %d", col[i], j, n)
				}
				offs[i] += int(v) * st
			}
		}
		switch out := dst[c*q : (c+len(offs))*q]; {
		case q == 1:
			at := unsafe.Add(src, post[0]*size)
			for i, o := range offs {
				out[i] = *(*T)(unsafe.Add(at, o*size))
			}
		case g.run:
			for i, o := range offs {
				copy(out[i*q:(i+1)*q], unsafe.Slice((*T)(unsafe.Add(src, o*size)), q))
			}
		default:
			for i, o := range offs {
				for p, po := range post {
					out[i*q+p] = *(*T)(unsafe.Add(src, (o+po)*size))
				}
			}
		}
	}
	return nil
}
