package reduce

import (
	"math"
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Reductions: sum, mean, prod, max, min, argmax and argmin over axes, with MXNet 1.x's
// result dtypes and shapes: the result keeps the input's dtype (argmax's indices too, as
// in MXNet), and a reduction to no dimensions gives shape (1,).
//
// The kernels compute in NumPy's dtypes (accDType: int64 or uint64 sums and means of
// integers, float64 means of bools, int64 indices), and the result is cast into the
// input's dtype (viaTemp), which wraps integer sums as MXNet does.
//
// Every reduction is one loop nest over the input (its dimensions reordered so the
// innermost loop walks memory with the smallest stride) folding elements into an
// accumulator array laid out in C order over the kept dimensions; a reduced dimension
// has accumulator stride 0. Elements are widened into one of four accumulator types
// (int64, uint64, float64, complex128) a block at a time, so every kernel is written once
// per accumulator type. Large inputs are split across cores along a kept dimension
// (disjoint accumulators) or, when the output is too small for that, along a reduced one
// (one private accumulator per task, combined in task order); a sum's long contiguous
// rows are instead split by the row kernel, where its pairwise recursion halves them
// (reduce_sum.go, internal/simd), so the result does not depend on the number of cores.

type reduceKind int

const (
	redSum reduceKind = iota
	redMean
	redProd
	redMax
	redMin
	redArgmax
	redArgmin
)

func (k reduceKind) isArg() bool { return k == redArgmax || k == redArgmin }

var reduceOps = []struct {
	name, doc string
	kind      reduceKind
}{
	{"sum", "Sum of array elements over the given axes.\n\n" +
		"As in MXNet, the result keeps the input's dtype (integer sums wrap around on overflow; a\n" +
		"bool sum is whether any element is true); float32 and float16 accumulate in float64, with\n" +
		"pairwise summation along rows. The sum of no elements is 0.", redSum},
	{"mean", "Arithmetic mean of array elements over the given axes.\n\n" +
		"As in MXNet, the result keeps the input's dtype: an integer mean is the sum (wrapped around\n" +
		"in the dtype, as sum's) divided by the count, truncated toward zero; a bool mean is whether\n" +
		"any element is true. Floating-point means accumulate in float64 or complex128. The mean of\n" +
		"no elements is NaN (0 for integers).", redMean},
	{"prod", "Product of array elements over the given axes.\n\n" +
		"As in MXNet, the result keeps the input's dtype; integer products wrap around on overflow.\n" +
		"The product of no elements is 1.", redProd},
	{"max", "Maximum of array elements over the given axes.\n\n" +
		"The result keeps the input's dtype; NaN propagates (as NumPy's max); complex numbers\n" +
		"compare lexicographically. Reducing a zero-size axis is a ValueError.", redMax},
	{"min", "Minimum of array elements over the given axes.\n\n" +
		"The result keeps the input's dtype; NaN propagates (as NumPy's min); complex numbers\n" +
		"compare lexicographically. Reducing a zero-size axis is a ValueError.", redMin},
	{"argmax", "Indices of the maximum values along an axis, in the input's dtype (as MXNet).\n\n" +
		"axis is None (an index into the flattened array, as NumPy) or a single axis. Ties give\n" +
		"the first occurrence, and a NaN counts as the maximum (the first NaN wins).", redArgmax},
	{"argmin", "Indices of the minimum values along an axis, in the input's dtype (as MXNet).\n\n" +
		"axis is None (an index into the flattened array, as NumPy) or a single axis. Ties give\n" +
		"the first occurrence, and a NaN counts as the minimum (the first NaN wins).", redArgmin},
}

// redUfuncNames are NumPy's names in its empty-reduction messages.
var redUfuncNames = map[reduceKind]string{redMax: "maximum", redMin: "minimum"}

func init() {
	for _, r := range reduceOps {
		kind := r.kind
		axisDoc := "None (the index into the flattened array) or a single axis"
		if !kind.isArg() { // sum, mean, prod, max and min take MXNet's exclude (as sum_axis, ...)
			registerExclude(r.name, r.doc, kind, false, false)
			registerExclude("_np_"+r.name, r.doc+"\n\nmx.np's form: a whole-array reduction is 0-d (NumPy's shape).", kind, false, true)
			continue
		}
		ops.Register(&ops.Op{
			Name: r.name, Doc: r.doc, Category: ops.Reduction, Inputs: []string{"data"},
			Params: []ops.Param{
				{Name: "axis", Kind: ops.ParamAxes, Default: "None", Doc: axisDoc},
				{Name: "keepdims", Kind: ops.ParamBool, Default: "0", Doc: "keep reduced axes as dimensions of length 1"},
			},
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				s, err := newReduceSpec(kind, in[0], at)
				if err != nil {
					return nil, 0, err
				}
				return s.outShape, s.outDType, nil
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				s, err := newReduceSpec(kind, in[0], at)
				if err != nil {
					return err
				}
				return ops.ViaTemp(out[0], s.accDType, func(o *ndarray.NDArray) error { return runReduce(kind, in[0], o, s) })
			},
			Grad: ops.ZeroGrad, // argmax, argmin
		})
	}
}

// reduceSpec is a checked reduction call.
type reduceSpec struct {
	axes     []int // normalized and sorted
	outShape []int
	outDType ndarray.DType // MXNet's: the input's
	accDType ndarray.DType // what the kernel writes (NumPy's result dtype)
}

func newReduceSpec(kind reduceKind, x *ndarray.NDArray, at ops.Attrs) (*reduceSpec, error) {
	return reduceSpecOf(kind, x, at.Ints("axis"), at.Bool("keepdims"))
}

// reduceSpecOf is newReduceSpec of the attributes' values (an Attrs map made for it was
// two allocations of every small reduction).
func reduceSpecOf(kind reduceKind, x *ndarray.NDArray, axes []int, keep bool) (*reduceSpec, error) {
	name := reduceOps[kind].name
	if kind.isArg() && axes != nil && len(axes) != 1 { // MXNet refuses argmax(axis=()) too
		return nil, mxerr.TypeErr("%s: axis must be None or a single integer, got %d axes", name, len(axes))
	}
	if axes != nil && len(axes) == 0 {
		axes = nil // MXNet: () reduces every axis
	}
	norm, err := ops.NormalizeAxes(axes, x.NDim())
	if err != nil {
		return nil, err
	}
	red := redAxes(norm)
	shape := []int{}
	nRed := 1
	for d, n := range x.Shape() {
		switch {
		case !red.has(d):
			shape = append(shape, n)
		case keep:
			shape = append(shape, 1)
		}
		if red.has(d) {
			nRed *= n
		}
	}
	if nRed == 0 {
		switch kind {
		case redMax, redMin:
			return nil, mxerr.ValueErr("zero-size array to reduction operation %s which has no identity", redUfuncNames[kind])
		case redArgmax, redArgmin:
			return nil, mxerr.ValueErr("attempt to get %s of an empty sequence", name)
		}
	}
	if len(shape) == 0 {
		shape = []int{1} // MXNet has no 0-d arrays: a whole-array reduction has shape (1,)
	}
	return &reduceSpec{axes: norm, outShape: shape, outDType: x.DType(), accDType: reduceDType(kind, x.DType())}, nil
}

// reduceDType is NumPy's result dtype of a reduction of dt: the dtype its kernel writes.
func reduceDType(kind reduceKind, dt ndarray.DType) ndarray.DType {
	switch kind {
	case redArgmax, redArgmin:
		return ndarray.Int64
	case redMax, redMin:
		return dt
	case redMean:
		if dt == ndarray.Bool {
			return ndarray.Float64
		}
	}
	switch dt.Kind() {
	case ndarray.KindBool, ndarray.KindInt:
		return ndarray.Int64
	case ndarray.KindUint:
		return ndarray.Uint64
	}
	return dt
}

// redMask is a set of axes (ndarray.MaxDims is 64): a slice of bools was a small
// reduction's allocation.
type redMask uint64

func redAxes(axes []int) (m redMask) {
	for _, a := range axes {
		m |= 1 << a
	}
	return m
}

func (m redMask) has(d int) bool { return m&(1<<d) != 0 }

// redDim is one dimension of a reduction's loop nest: its length and its strides in
// the input (elements), the accumulator (0 for a reduced dimension) and the logical
// index that argmax and argmin report (C order over the reduced dimensions, 0 for a
// kept one; Rows carries it along like any operand but nothing is stored there).
type redDim struct{ n, xs, as, is int }

// reducePlan builds the loop nest of a reduction of x over axes (sorted). It returns
// no dimensions for a 0-d loop and nOut and nRed, the numbers of outputs and of
// elements per output.
func reducePlan(x *ndarray.NDArray, axes []int) (dims []redDim, nOut, nRed int) {
	shape, strides := x.Shape(), x.Strides()
	red := redAxes(axes)
	all := make([]redDim, len(shape))
	nOut, nRed = 1, 1
	for d := len(shape) - 1; d >= 0; d-- {
		n := shape[d]
		all[d] = redDim{n: n, xs: strides[d]}
		if red.has(d) {
			all[d].is, nRed = nRed, nRed*n
		} else {
			all[d].as, nOut = nOut, nOut*n
		}
	}
	for _, d := range all {
		if d.n != 1 {
			dims = append(dims, d)
		}
	}
	// Walk memory outward from the smallest stride (C order among equals).
	slices.SortStableFunc(dims, func(a, b redDim) int { return redAbs(b.xs) - redAbs(a.xs) })
	merged := dims[:0]
	for _, d := range dims {
		if k := len(merged) - 1; k >= 0 {
			o := &merged[k]
			if o.xs == d.xs*d.n && o.as == d.as*d.n && o.is == d.is*d.n {
				o.n *= d.n
				o.xs, o.as, o.is = d.xs, d.as, d.is
				continue
			}
		}
		merged = append(merged, d)
	}
	dims = merged
	// A short innermost row costs a call per few elements: put a much longer dimension
	// innermost instead (strided, but walked in long runs).
	if k := len(dims) - 1; k >= 1 && dims[k].n < 16 && dims[k-1].n >= 4*dims[k].n {
		dims[k], dims[k-1] = dims[k-1], dims[k]
	}
	return dims, nOut, nRed
}

func redAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// reduceGrain is the number of input elements below which a task is not worth a
// goroutine. It stays at 2^17 while elementwise loops split from 2^19: rows of at least
// redParRowMin = 2*reduceGrain take the pairwise split that keeps sums identical
// whatever the core count (TestReduceSumLongRowsExact), and the generic split in
// between would not. Max, min, argmax and argmin of float32 and float64, in C's lanes,
// split from the same size: they had 2^20, from when waking a core cost more than 1e6
// elements' lanes; with ForChunks' spinning pool, 1e6 float32 maxima took 145 us on one
// core and 71-85 us on two (BenchmarkReduceF32).
const reduceGrain = 1 << 17

// reduceSplit picks the dimension to cut into tasks (-1 for none) and the number of
// tasks: a kept dimension when one is long enough (each task then owns its outputs),
// otherwise the longest reduced dimension (tasks fold into private accumulators).
func reduceSplit(dims []redDim, total int) (dim, tasks int) {
	if total/reduceGrain < 2 { // before Cores, whose runtime.GOMAXPROCS takes the scheduler's lock
		return -1, 1
	}
	tasks = min(ndarray.Cores(), total/reduceGrain)
	if tasks < 2 {
		return -1, 1
	}
	kept, redd := -1, -1
	for i, d := range dims {
		if d.as != 0 && (kept < 0 || d.n > dims[kept].n) {
			kept = i
		}
		if d.as == 0 && (redd < 0 || d.n > dims[redd].n) {
			redd = i
		}
	}
	switch {
	case kept >= 0 && 2*dims[kept].n >= tasks:
		dim = kept
	case redd >= 0 && (kept < 0 || dims[redd].n > dims[kept].n):
		dim = redd
	case kept >= 0:
		dim = kept
	default:
		return -1, 1
	}
	tasks = min(tasks, dims[dim].n)
	if tasks < 2 {
		return -1, 1
	}
	return dim, tasks
}

// reduceBlock is how many elements are widened at a time.
const reduceBlock = 1024

// redLoadFn widens up to len(buf) of the n elements at base[off], base[off+step], ...
// into accumulator values. It returns them: buf's prefix, or (when the element type
// is the accumulator type and the row is contiguous) the whole row in place.
type redLoadFn[A any] func(base unsafe.Pointer, off, step, n int, buf []A) []A

// redStoreFn writes one result element at p.
type redStoreFn[A any] func(p unsafe.Pointer, v A)

// reducer is the typed kernel of one reduction kind for accumulator type A.
type reducer[A any] struct {
	init A
	// fold folds values into acc[aoff], acc[aoff+astep], ... (astep 0: all into one).
	fold func(acc []A, aoff, astep int, v []A)
	// argFold does the same for argmax and argmin, with the logical index of v[i]
	// ioff+i*istep; argMerge merges another task's accumulators into acc and ai.
	argFold  func(acc []A, ai []int64, aoff, astep int, v []A, ioff, istep int)
	argMerge func(acc []A, ai []int64, p []A, pi []int64)
	// sums marks a sum or mean, which may use the fused kernels of its redIO.
	sums bool
}

// reduceTyped runs a reduction whose accumulators have type A.
func reduceTyped[A any](x, out *ndarray.NDArray, dims []redDim, nOut int, r reducer[A], io redIO[A], store redStoreFn[A]) {
	load := io.load
	rowSum, rowsSum, vecSum := io.rowSum, io.rowsSum, io.vecSum
	if !r.sums {
		rowSum, rowsSum, vecSum = nil, nil, nil
	}
	isArg := r.argFold != nil
	newAcc := func() ([]A, []int64) {
		acc := make([]A, nOut)
		for i := range acc {
			acc[i] = r.init
		}
		var idx []int64
		if isArg {
			idx = make([]int64, nOut)
			for i := range idx {
				idx[i] = math.MaxInt64
			}
		}
		return acc, idx
	}
	acc, idx := newAcc()
	total := 1
	for _, d := range dims {
		total *= d.n
	}
	base, esize := x.Storage().Ptr(), x.DType().Size()
	walk := func(dims []redDim, xoff, ioff int, acc []A, idx []int64) {
		// load's buffer, made on first use: a contiguous sum never needs it, and making
		// it (up to 8 KB, zeroed) was most of a small sum's cost.
		var buf []A
		row := func(offs []int, n int, st []int) {
			if st[0] == 1 && st[1] == 0 && rowSum != nil {
				rowSum(acc, offs[1], unsafe.Add(base, offs[0]*esize), n)
				return
			}
			if st[0] == 1 && st[1] == 1 && vecSum != nil {
				vecSum(acc, offs[1], unsafe.Add(base, offs[0]*esize), n)
				return
			}
			if buf == nil {
				buf = make([]A, min(reduceBlock, max(total, 1)))
			}
			for lo := 0; lo < n; {
				v := load(base, offs[0]+lo*st[0], st[0], n-lo, buf)
				if isArg {
					r.argFold(acc, idx, offs[1]+lo*st[1], st[1], v, offs[2]+lo*st[2], st[2])
				} else {
					r.fold(acc, offs[1]+lo*st[1], st[1], v)
				}
				lo += len(v)
			}
		}
		k := len(dims) - 1
		// Short contiguous rows summed one per output (mean over the last axes): the rows
		// of each run of the outer dimensions in one call, not a call per row.
		byRows := k >= 1 && rowsSum != nil && dims[k].xs == 1 && dims[k].as == 0 && dims[k].n < redParRowMin
		if k == 0 || k == 1 && !byRows { // x.sum(), m.sum(axis=0): Rows' loop, without its allocations (reducePlan left nothing to merge)
			d, o := dims[k], redDim{n: 1}
			if k == 1 {
				o = dims[0]
			}
			offs, st := []int{xoff, 0, ioff}, []int{d.xs, d.as, d.is}
			for range o.n {
				row(offs, d.n, st)
				offs[0], offs[1], offs[2] = offs[0]+o.xs, offs[1]+o.as, offs[2]+o.is
			}
			return
		}
		shape := make([]int, len(dims))
		xs, as, is := make([]int, len(dims)), make([]int, len(dims)), make([]int, len(dims))
		for i, d := range dims {
			shape[i], xs[i], as[i], is[i] = d.n, d.xs, d.as, d.is
		}
		if byRows {
			outer := []ndarray.Operand{{Strides: xs[:k], Offset: xoff}, {Strides: as[:k]}}
			ndarray.Rows(shape[:k], outer, func(offs []int, m int, st []int) {
				rowsSum(acc, offs[1], st[1], unsafe.Add(base, offs[0]*esize), m, st[0], shape[k])
			})
			return
		}
		ndarray.Rows(shape, []ndarray.Operand{{Strides: xs, Offset: xoff}, {Strides: as}, {Strides: is, Offset: ioff}}, row)
	}
	if total > 0 {
		sd, tasks := reduceSplit(dims, total)
		if k := len(dims) - 1; sd >= 0 && sd == k && rowSum != nil &&
			dims[k].xs == 1 && dims[k].as == 0 && dims[k].n >= redParRowMin {
			// Cutting the contiguous rows of a sum into chunks would change its
			// pairwise structure with the number of cores: rowSum splits each long
			// row across the cores itself, exactly.
			tasks = 1
		}
		if tasks < 2 {
			walk(dims, x.Offset(), 0, acc, idx)
		} else {
			// Cut dimension sd into chunks. On a kept dimension each task owns the
			// accumulators of its chunk (the slices from its first one on); on a
			// reduced one, every task but the first folds into private accumulators,
			// merged afterwards in task order.
			d := dims[sd]
			chunk := (d.n + tasks - 1) / tasks
			type part struct {
				acc []A
				idx []int64
			}
			var parts []part
			var runs []func()
			for lo := 0; lo < d.n; lo += chunk {
				sub := append([]redDim(nil), dims...)
				sub[sd].n = min(chunk, d.n-lo)
				pa, pi := acc, idx
				switch {
				case d.as != 0:
					pa = acc[lo*d.as:]
					if idx != nil {
						pi = idx[lo*d.as:]
					}
				case lo > 0:
					pa, pi = newAcc()
					parts = append(parts, part{pa, pi})
				}
				xoff, ioff := x.Offset()+lo*d.xs, lo*d.is
				runs = append(runs, func() { walk(sub, xoff, ioff, pa, pi) })
			}
			// the caller runs the chunks other cores' goroutines have not taken yet
			ndarray.ForChunks(len(runs), len(runs), func(lo, hi int) {
				for _, run := range runs[lo:hi] {
					run()
				}
			})
			for _, p := range parts {
				if isArg {
					r.argMerge(acc, idx, p.acc, p.idx)
				} else {
					r.fold(acc, 0, 1, p.acc)
				}
			}
		}
	}
	// Write the accumulators (C order over the kept dimensions, which is out's C order)
	// into out, whatever its layout.
	size := out.DType().Size()
	obase := out.Storage().Ptr()
	if nOut == 1 {
		p := unsafe.Add(obase, out.Offset()*size)
		if isArg {
			*(*int64)(p) = idx[0]
		} else {
			store(p, acc[0])
		}
		return
	}
	cs := redCStrides(out.Shape())
	ndarray.ParallelRows(out.Shape(), []ndarray.Operand{{Strides: out.Strides(), Offset: out.Offset()}, {Strides: cs}},
		func(offs []int, n int, st []int) {
			for i := 0; i < n; i++ {
				p := unsafe.Add(obase, (offs[0]+i*st[0])*size)
				if isArg {
					*(*int64)(p) = idx[offs[1]+i*st[1]]
				} else {
					store(p, acc[offs[1]+i*st[1]])
				}
			}
		})
}

// redCStrides returns the C-contiguous strides (in elements) of shape.
func redCStrides(shape []int) []int {
	st := make([]int, len(shape))
	n := 1
	for d := len(shape) - 1; d >= 0; d-- {
		st[d] = n
		n *= shape[d]
	}
	return st
}

// runReduce is the kernel of every reduction: it picks the accumulator type for x's
// dtype and the kind, and the loader and storer that convert to and from it.
func runReduce(kind reduceKind, x, out *ndarray.NDArray, s *reduceSpec) error {
	dims, nOut, nRed := reducePlan(x, s.axes)
	dt, odt := x.DType(), out.DType()
	isOrder := kind >= redMax // max, min, argmax, argmin
	switch {
	case dt.Kind() == ndarray.KindComplex:
		if isOrder {
			reduceTyped(x, out, dims, nOut, redComplexOrderReducer(kind), redComplexIO(dt), redComplexStorer(odt))
			break
		}
		store := redComplexStorer(odt)
		if kind == redMean {
			d := complex(float64(nRed), 0)
			inner := store
			store = func(p unsafe.Pointer, v complex128) { inner(p, v/d) }
		}
		reduceTyped(x, out, dims, nOut, redArithReducer[complex128](kind), redComplexIO(dt), store)
	case isOrder && dt == ndarray.Bool:
		reduceTyped(x, out, dims, nOut, redOrderReducer[int64](kind, 0, 1), redIntIO(dt), redIntStorer(odt))
	case isOrder && (dt == ndarray.Float16 || dt == ndarray.Bfloat16):
		reduceTyped(x, out, dims, nOut, redOrderReducer(kind, math.Inf(-1), math.Inf(1)), redFloatIO(dt), redFloatStorer(odt))
	case isOrder:
		return redOrderByDType(kind, x, out, dims, nOut)
	case kind == redMean && (dt.Kind() == ndarray.KindInt || dt.Kind() == ndarray.KindUint):
		redIntegerMean(x, out, dims, nOut, nRed)
	case kind == redMean || dt.Kind() == ndarray.KindFloat || dt.Kind() == ndarray.KindBfloat:
		store := redFloatStorer(odt)
		if kind == redMean {
			d := float64(nRed)
			inner := store
			store = func(p unsafe.Pointer, v float64) { inner(p, v/d) }
		}
		reduceTyped(x, out, dims, nOut, redArithReducer[float64](kind), redFloatIO(dt), store)
	case dt.Kind() == ndarray.KindUint:
		reduceTyped(x, out, dims, nOut, redArithReducer[uint64](kind), redUintIO(dt), redUintStorer(odt))
	case dt.Kind() == ndarray.KindInt || dt.Kind() == ndarray.KindBool:
		reduceTyped(x, out, dims, nOut, redArithReducer[int64](kind), redIntIO(dt), redIntStorer(odt))
	default:
		return mxerr.TypeErr("%s does not support dtype %s", reduceOps[kind].name, dt)
	}
	return nil
}

// redIntegerMean is MXNet's mean of an integer array: the sum, wrapped around to x's dtype
// as MXNet's sum is, divided by the count with truncation toward zero (of no elements: 0).
// out is int64 or uint64 (reduceDType), so the quotient, in x's range, is stored exactly.
func redIntegerMean(x, out *ndarray.NDArray, dims []redDim, nOut, nRed int) {
	dt := x.DType()
	bits := uint(64 - 8*dt.Size()) // shifting left, then back, wraps to dt's width
	n := max(nRed, 1)
	if dt.Kind() == ndarray.KindInt {
		store := redIntStorer(out.DType())
		reduceTyped(x, out, dims, nOut, redArithReducer[int64](redSum), redIntIO(dt), func(p unsafe.Pointer, v int64) {
			store(p, (v<<bits>>bits)/int64(n)) // >> of an int64 extends the sign
		})
		return
	}
	store := redUintStorer(out.DType())
	reduceTyped(x, out, dims, nOut, redArithReducer[uint64](redSum), redUintIO(dt), func(p unsafe.Pointer, v uint64) {
		store(p, (v<<bits>>bits)/uint64(n))
	})
}

// redOrderByDType runs an order reduction of a real dtype in that dtype.
func redOrderByDType(kind reduceKind, x, out *ndarray.NDArray, dims []redDim, nOut int) error {
	switch x.DType() {
	case ndarray.Int8:
		redOrderNative[int8](kind, x, out, dims, nOut, math.MinInt8, math.MaxInt8)
	case ndarray.Int16:
		redOrderNative[int16](kind, x, out, dims, nOut, math.MinInt16, math.MaxInt16)
	case ndarray.Int32:
		redOrderNative[int32](kind, x, out, dims, nOut, math.MinInt32, math.MaxInt32)
	case ndarray.Int64:
		redOrderNative[int64](kind, x, out, dims, nOut, math.MinInt64, math.MaxInt64)
	case ndarray.Uint8:
		redOrderNative[uint8](kind, x, out, dims, nOut, 0, math.MaxUint8)
	case ndarray.Uint16:
		redOrderNative[uint16](kind, x, out, dims, nOut, 0, math.MaxUint16)
	case ndarray.Uint32:
		redOrderNative[uint32](kind, x, out, dims, nOut, 0, math.MaxUint32)
	case ndarray.Uint64:
		redOrderNative[uint64](kind, x, out, dims, nOut, 0, math.MaxUint64)
	case ndarray.Float32:
		redOrderNative(kind, x, out, dims, nOut, float32(math.Inf(-1)), float32(math.Inf(1)))
	case ndarray.Float64:
		redOrderNative(kind, x, out, dims, nOut, math.Inf(-1), math.Inf(1))
	default:
		return mxerr.TypeErr("%s does not support dtype %s", reduceOps[kind].name, x.DType())
	}
	return nil
}
