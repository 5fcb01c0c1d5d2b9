package gemm

import (
	"runtime"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/mxgo/mxgo/internal/simd"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Batched matrix products, the kernel behind dot, batch_dot and matmul.
//
// float32 goes to the packed AVX2 kernel of gemm_f32.go where the CPU has AVX2 and FMA
// (any strides; only operands not aligned to 4 bytes are copied). Otherwise float32, and
// always float64, complex64 and complex128, go through gonum's pure-Go BLAS (Sgemm,
// Dgemm, Cgemm, Zgemm) on the operands' memory: a matrix whose rows or columns are
// contiguous is passed as is (a transposed view becomes BLAS's transpose flag), any other
// layout is first copied.
// float16 and bfloat16 are widened to float32 and multiplied by the float32 kernel (so
// they accumulate in float32), integers by a blocked Go loop in their own type (wrapping
// on overflow, as NumPy does).
//
// Cores: a batch of many or small products is split across the cores, one product per
// task; a single large product is split by gonum itself (Sgemm, Dgemm) or by blocks of
// the result (the other kernels).
//
// Like the reference BLAS, gonum skips the terms of a zero element of lhs, so that
// 0 * inf and 0 * nan would count as 0 where NumPy gives nan. Products whose operands
// hold an inf or a nan (found by an O(mk + kn) scan) therefore take the loop kernel,
// which skips nothing, so that non-finite values propagate as in NumPy.

var BLAS gonum.Implementation

// gemmTaskMin is the number of multiply-adds below which another goroutine costs more
// than it saves. Measured on 2 cores (BenchmarkGemmF32, -cpu 1 against 2): a float32
// product of n = 100 (1e6) took 38 µs on one core and 47 µs split in two, waking the
// other core costing more than its half; n = 128 breaks even, n = 160 gains.
const gemmTaskMin = 1 << 20

// poolTaskMin is gemmTaskMin for the packed kernels, whose blocks run on internal/simd's
// spinning helper threads rather than on goroutines that may have to be woken:
// measured on 2 cores (simd.Sgemm in 1 and 2 blocks, square products), one of n = 48
// (1.1e5) gains from a second block (2.3 µs against 2.7), n = 32 loses (1.3 against 1.0).
const poolTaskMin = 1 << 15

// Blocking of the loop kernel: a gemmKB x gemmNB block of rhs stays in cache while
// the rows of lhs stream past it.
const (
	gemmKB = 128
	gemmNB = 512
)

// MView is one matrix in memory: element (i, j) at p + (i*rs + j*cs) elements.
type MView struct {
	P      unsafe.Pointer
	Rs, Cs int
}

// rows returns the view starting at row i.
func (v MView) rows(i, size int) MView { return MView{unsafe.Add(v.P, i*v.Rs*size), v.Rs, v.Cs} }

// cols returns the view starting at column j.
func (v MView) cols(j, size int) MView { return MView{unsafe.Add(v.P, j*v.Cs*size), v.Rs, v.Cs} }

// gemmFunc computes c = a @ b for an (m, k) a and a (k, n) b, with m, n, k > 0. c's
// rows are contiguous (see rowMajorLD); parallel allows it to use several cores.
type gemmFunc func(m, n, k int, a, b, c MView, parallel bool)

var Kernels = map[ndarray.DType]gemmFunc{
	ndarray.Float32:    sgemm,
	ndarray.Float64:    dgemm,
	ndarray.Complex64:  blasGemm(BLAS.Cgemm, false),
	ndarray.Complex128: blasGemm(BLAS.Zgemm, false),
	ndarray.Float16:    halfGemm(ops.F16ToF32, ops.F32ToF16),
	ndarray.Bfloat16:   halfGemm(ops.Bf16ToF32, ops.F32ToBF16),
	ndarray.Int8:       loopGemm[int8],
	ndarray.Int16:      loopGemm[int16],
	ndarray.Int32:      loopGemm[int32],
	ndarray.Int64:      loopGemm[int64],
	ndarray.Uint8:      loopGemm[uint8],
	ndarray.Uint16:     loopGemm[uint16],
	ndarray.Uint32:     loopGemm[uint32],
	ndarray.Uint64:     loopGemm[uint64],
}

// usesBLAS reports whether dt's kernel hands the operands' memory to BLAS, which needs
// each matrix's rows or columns to be contiguous.
func usesBLAS(dt ndarray.DType) bool {
	switch dt {
	case ndarray.Float32:
		return !simd.SgemmSupported
	case ndarray.Float64, ndarray.Complex64, ndarray.Complex128:
		return true
	}
	return false
}

// blasLayout says how BLAS can read a rows x cols matrix with strides rs, cs: as stored
// (row-major with leading dimension ld) or transposed (a row-major cols x rows matrix
// with leading dimension ld). ok is false when neither works and a copy is needed.
func blasLayout(rows, cols, rs, cs int) (trans bool, ld int, ok bool) {
	switch {
	case rows <= 1 && cols <= 1:
		return false, 1, true
	case rows <= 1: // one row: its stride does not matter
		if cs == 1 {
			return false, cols, true
		}
		return true, cs, cs >= 1
	case cols <= 1: // one column
		return false, rs, rs >= 1
	case cs == 1 && rs >= cols:
		return false, rs, true
	case rs == 1 && cs >= rows:
		return true, cs, true
	}
	return false, 0, false
}

// rowMajorLD returns the leading dimension of a rows x cols matrix whose rows are
// contiguous and do not overlap, as BLAS writes its result; ok is false otherwise.
func rowMajorLD(rows, cols, rs, cs int) (ld int, ok bool) {
	if cols > 1 && cs != 1 {
		return 0, false
	}
	if rows <= 1 {
		return max(cols, 1), true
	}
	return rs, rs >= max(cols, 1)
}

// blasGemm adapts a BLAS gemm to gemmFunc (alpha 1, beta 0: c is overwritten). selfParallel says the
// routine already spreads a large product over the cores (gonum's Sgemm and Dgemm);
// otherwise a large product is split by rows of the result.
func blasGemm[T float32 | float64 | complex64 | complex128](
	gemm func(ta, tb blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int),
	selfParallel bool,
) gemmFunc {
	size := int(unsafe.Sizeof(*new(T)))
	return func(m, n, k int, a, b, c MView, parallel bool) {
		if !allFinite[T](a, m, k) || !allFinite[T](b, k, n) {
			loopGemm[T](m, n, k, a, b, c, parallel)
			return
		}
		tb, ldb, bs := blasSlice[T](b, k, n)
		split := parallel && !selfParallel
		SplitRows(m, n*k, split, func(i0, i1 int) {
			ta, lda, as := blasSlice[T](a.rows(i0, size), i1-i0, k)
			cv := c.rows(i0, size)
			ldc, ok := rowMajorLD(i1-i0, n, cv.Rs, cv.Cs)
			if !ok {
				panic("ops: gemm result is not row-major")
			}
			gemm(ta, tb, i1-i0, n, k, 1, as, lda, bs, ldb, 0, unsafe.Slice((*T)(cv.P), (i1-i0-1)*ldc+n), ldc)
		})
	}
}

// blasSlice returns the BLAS arguments for a rows x cols matrix.
func blasSlice[T any](v MView, rows, cols int) (blas.Transpose, int, []T) {
	trans, ld, ok := blasLayout(rows, cols, v.Rs, v.Cs)
	if !ok {
		panic("ops: matrix layout not usable by BLAS")
	}
	if trans {
		return blas.Trans, ld, unsafe.Slice((*T)(v.P), (cols-1)*ld+rows)
	}
	return blas.NoTrans, ld, unsafe.Slice((*T)(v.P), (rows-1)*ld+cols)
}

// SplitRows runs fn over [0, m) in one call, or in chunks on several cores when
// parallel is set and the work (rowWork multiply-adds per row) is large enough.
func SplitRows(m, rowWork int, parallel bool, fn func(i0, i1 int)) {
	tasks := splitTasks(m, rowWork, gemmTaskMin, parallel)
	if tasks <= 1 {
		fn(0, m)
		return
	}
	ndarray.ForChunks(m, tasks, fn)
}

// splitTasks is the number of blocks to cut m rows of rowWork multiply-adds into, one per
// core and each of at least minWork multiply-adds.
func splitTasks(m, rowWork, minWork int, parallel bool) int {
	tasks := min(m, m*rowWork/minWork)
	if !parallel || tasks < 2 { // before Cores: runtime.GOMAXPROCS takes the scheduler's lock
		return 1
	}
	return min(ndarray.Cores(), tasks)
}

// halfGemm widens a 16-bit float type to float32, multiplies with sgemm and rounds the
// result back (accumulation in float32, as NumPy does for float16).
func halfGemm(toF32 func(uint16) float32, fromF32 func(float32) uint16) gemmFunc {
	load := func(v MView, rows, cols int) []float32 {
		out := make([]float32, rows*cols)
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				out[i*cols+j] = toF32(*(*uint16)(unsafe.Add(v.P, (i*v.Rs+j*v.Cs)*2)))
			}
		}
		return out
	}
	return func(m, n, k int, a, b, c MView, parallel bool) {
		af, bf, cf := load(a, m, k), load(b, k, n), make([]float32, m*n)
		sgemm(m, n, k, MView{unsafe.Pointer(&af[0]), k, 1}, MView{unsafe.Pointer(&bf[0]), n, 1},
			MView{unsafe.Pointer(&cf[0]), n, 1}, parallel)
		for i := 0; i < m; i++ {
			row := unsafe.Slice((*uint16)(unsafe.Add(c.P, i*c.Rs*2)), n)
			for j := range row {
				row[j] = fromF32(cf[i*n+j])
			}
		}
		runtime.KeepAlive(af)
		runtime.KeepAlive(bf)
	}
}

type gemmNumber interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// allFinite reports whether a rows x cols matrix holds no inf or nan (x - x is 0
// exactly for finite x, real or complex).
func allFinite[T float32 | float64 | complex64 | complex128](v MView, rows, cols int) bool {
	size := int(unsafe.Sizeof(*new(T)))
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if x := *(*T)(unsafe.Add(v.P, (i*v.Rs+j*v.Cs)*size)); x-x != 0 {
				return false
			}
		}
	}
	return true
}

// loopGemm is a blocked product in T itself, for integers (which wrap on overflow, as
// in NumPy) and for floating-point operands holding inf or nan (every term counts). b is
// packed when its rows are not contiguous; a is read in place with any strides.
func loopGemm[T gemmNumber](m, n, k int, a, b, c MView, parallel bool) {
	size := int(unsafe.Sizeof(T(0)))
	bp, ldb := b.P, b.Rs
	if n > 1 && b.Cs != 1 {
		packed := make([]T, k*n)
		for p := 0; p < k; p++ {
			for j := 0; j < n; j++ {
				packed[p*n+j] = *(*T)(unsafe.Add(b.P, (p*b.Rs+j*b.Cs)*size))
			}
		}
		bp, ldb = unsafe.Pointer(&packed[0]), n
		defer runtime.KeepAlive(packed)
	}
	SplitRows(m, n*k, parallel, func(i0, i1 int) {
		for jb := 0; jb < n; jb += gemmNB {
			nb := min(gemmNB, n-jb)
			for i := i0; i < i1; i++ {
				clear(unsafe.Slice((*T)(unsafe.Add(c.P, (i*c.Rs+jb)*size)), nb))
			}
			for pb := 0; pb < k; pb += gemmKB {
				pe := min(pb+gemmKB, k)
				for i := i0; i < i1; i++ {
					crow := unsafe.Slice((*T)(unsafe.Add(c.P, (i*c.Rs+jb)*size)), nb)
					for p := pb; p < pe; p++ {
						av := *(*T)(unsafe.Add(a.P, (i*a.Rs+p*a.Cs)*size))
						brow := unsafe.Slice((*T)(unsafe.Add(bp, (p*ldb+jb)*size)), nb)
						for j, bv := range brow {
							crow[j] += av * bv
						}
					}
				}
			}
		}
	})
}

// gemmReads reports whether the kernel for dt reads a rows x cols matrix with strides
// rs, cs as it is (otherwise it needs a contiguous copy).
func gemmReads(dt ndarray.DType, rows, cols, rs, cs int) bool {
	_, _, ok := blasLayout(rows, cols, rs, cs)
	return ok || !usesBLAS(dt)
}

// gemmReady returns x, or a contiguous copy of it when its matrices (last two axes)
// have a layout the kernel for its dtype cannot read.
func gemmReady(x *ndarray.NDArray) (*ndarray.NDArray, error) {
	nd := x.NDim()
	s, st := x.Shape(), x.Strides()
	if gemmReads(x.DType(), s[nd-2], s[nd-1], st[nd-2], st[nd-1]) {
		return x.Share(), nil
	}
	c, err := ndarray.Empty(x.DType(), s, x.Device())
	if err != nil {
		return nil, err
	}
	ndarray.MoveElems(c, x)
	return c, nil
}

// Batch computes c[..., :, :] = a[..., :, :] @ b[..., :, :]. a is (..., m, k), b is
// (..., k, n) and c (..., m, n); the batch axes of a and b broadcast to c's (a and b
// may have fewer). c must not overlap a or b.
func Batch(a, b, c *ndarray.NDArray) error {
	nd := c.NDim()
	shape := c.Shape()
	batch := shape[:nd-2]
	m, n, k := shape[nd-2], shape[nd-1], a.Shape()[a.NDim()-1]
	if c.Size() == 0 {
		return nil
	}
	kernel := Kernels[c.DType()]
	if kernel == nil {
		return mxerr.TypeErr("matrix products are not supported for %s", c.DType())
	}
	cst := c.Strides()
	_, ok := rowMajorLD(m, n, cst[nd-2], cst[nd-1])
	for i, d := range batch {
		ok = ok && (d == 1 || cst[i] != 0)
	}
	if !ok { // compute into a fresh array, then copy
		tmp, err := ndarray.Empty(c.DType(), shape, c.Device())
		if err != nil {
			return err
		}
		defer tmp.Release()
		if err := Batch(a, b, tmp); err != nil {
			return err
		}
		ndarray.MoveElems(c, tmp)
		return nil
	}
	if k == 0 {
		ops.FillKernel(c, ops.Scalar{})
		return nil
	}
	var err error
	if a, err = gemmOperand(a, batch, m, k); err != nil {
		return err
	}
	defer a.Release()
	if b, err = gemmOperand(b, batch, k, n); err != nil {
		return err
	}
	defer b.Release()

	size := c.DType().Size()
	ast, bst := a.Strides(), b.Strides()
	pa, pb, pc := a.Storage().Ptr(), b.Storage().Ptr(), c.Storage().Ptr()
	nb := 1
	for _, d := range batch {
		nb *= d
	}
	run := func(bi int, parallel bool) {
		oa, ob, oc := a.Offset(), b.Offset(), c.Offset()
		for d := len(batch) - 1; d >= 0; d-- {
			i := bi % batch[d]
			bi /= batch[d]
			oa += i * ast[d]
			ob += i * bst[d]
			oc += i * cst[d]
		}
		kernel(m, n, k,
			MView{unsafe.Add(pa, oa*size), ast[nd-2], ast[nd-1]},
			MView{unsafe.Add(pb, ob*size), bst[nd-2], bst[nd-1]},
			MView{unsafe.Add(pc, oc*size), cst[nd-2], cst[nd-1]}, parallel)
	}
	work := m * n * k
	workers := ndarray.Cores()
	if nb == 1 || (nb < workers && work >= 8*gemmTaskMin) {
		for bi := 0; bi < nb; bi++ { // few large products: each uses the cores
			run(bi, true)
		}
		return nil
	}
	tasks := min(workers, nb, max(1, nb/max(1, gemmTaskMin/work)))
	ndarray.ForChunks(nb, tasks, func(lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			run(bi, false)
		}
	})
	return nil
}

// Direct2D computes c = op(a) @ op(b) for 2-D arrays (op: a transpose where ta, tb) straight
// from their strides, making no view: for small products the views cost more than the
// product. It reports false, having done nothing, when batchGemm has work to do first
// (a copy of an operand or of the result, an empty product).
func Direct2D(a, b, c *ndarray.NDArray, ta, tb bool) bool {
	dt := c.DType()
	kernel := Kernels[dt]
	if kernel == nil || a.NDim() != 2 || b.NDim() != 2 || c.NDim() != 2 {
		return false
	}
	av, m, k := matrixMView(a, ta)
	bv, _, n := matrixMView(b, tb)
	cv, _, _ := matrixMView(c, false)
	_, cok := rowMajorLD(m, n, cv.Rs, cv.Cs)
	if m*n*k == 0 || !cok || !gemmReads(dt, m, k, av.Rs, av.Cs) || !gemmReads(dt, k, n, bv.Rs, bv.Cs) {
		return false
	}
	kernel(m, n, k, av, bv, cv, true)
	return true
}

// matrixMView returns 2-D x (transposed if t) as an mview, with its rows and columns.
func matrixMView(x *ndarray.NDArray, t bool) (v MView, rows, cols int) {
	s, st := x.Shape(), x.Strides()
	p := unsafe.Add(x.Storage().Ptr(), x.Offset()*x.DType().Size())
	if t {
		return MView{p, st[1], st[0]}, s[1], s[0]
	}
	return MView{p, st[0], st[1]}, s[0], s[1]
}

// gemmOperand makes x ready for the kernel (gemmReady) and broadcasts it to
// batch + (rows, cols).
func gemmOperand(x *ndarray.NDArray, batch []int, rows, cols int) (*ndarray.NDArray, error) {
	r, err := gemmReady(x)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.BroadcastTo(append(append([]int{}, batch...), rows, cols))
}

// PoolTasks is the number of blocks for m rows (or columns) of rowWork multiply-adds of a
// packed product run on internal/simd's helper threads.
func PoolTasks(m, rowWork int) int { return splitTasks(m, rowWork, poolTaskMin, true) }

// packedTasks is the number of blocks of an m x n x k packed product: it is cut along the
// longer side of the result (simd.Sgemm, simd.Dgemm).
func packedTasks(m, n, k int, parallel bool) int {
	return splitTasks(max(m, n), min(m, n)*k, poolTaskMin, parallel)
}
