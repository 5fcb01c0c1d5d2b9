package reduce

import (
	"math"
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Typed pieces of the reductions (see reduce.go): the folds per accumulator type, and
// the loaders and storers that convert between dtypes and accumulators.

type redAccum interface {
	~int64 | ~uint64 | ~float64 | ~complex128
}

type redOrdered interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// redPairwiseSum sums v as NumPy does along a row: eight running sums over blocks of up to
// 128 elements, halves combined recursively, so rounding error grows like log(n).
func redPairwiseSum[A redAccum](v []A) A {
	n := len(v)
	if n < 8 {
		var s A
		for _, x := range v {
			s += x
		}
		return s
	}
	if n <= 128 {
		r0, r1, r2, r3, r4, r5, r6, r7 := v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
		i := 8
		for ; i+8 <= n; i += 8 {
			w := v[i : i+8 : i+8]
			r0 += w[0]
			r1 += w[1]
			r2 += w[2]
			r3 += w[3]
			r4 += w[4]
			r5 += w[5]
			r6 += w[6]
			r7 += w[7]
		}
		s := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			s += v[i]
		}
		return s
	}
	h := n / 2
	h -= h % 8
	return redPairwiseSum(v[:h]) + redPairwiseSum(v[h:])
}

// redPairwiseSumOf is redPairwiseSum of elements of type T widened to A on the fly (no
// buffer), for contiguous rows.
func redPairwiseSumOf[T redElem, A redOrdered](v []T) A {
	n := len(v)
	if n < 8 {
		var s A
		for _, x := range v {
			s += A(x)
		}
		return s
	}
	if n <= 128 {
		r0, r1, r2, r3, r4, r5, r6, r7 := A(v[0]), A(v[1]), A(v[2]), A(v[3]), A(v[4]), A(v[5]), A(v[6]), A(v[7])
		i := 8
		for ; i+8 <= n; i += 8 {
			w := v[i : i+8 : i+8]
			r0 += A(w[0])
			r1 += A(w[1])
			r2 += A(w[2])
			r3 += A(w[3])
			r4 += A(w[4])
			r5 += A(w[5])
			r6 += A(w[6])
			r7 += A(w[7])
		}
		s := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			s += A(v[i])
		}
		return s
	}
	h := n / 2
	h -= h % 8
	return redPairwiseSumOf[T, A](v[:h]) + redPairwiseSumOf[T, A](v[h:])
}

// redRowFn folds n contiguous elements at p into acc from aoff.
type redRowFn[A any] func(acc []A, aoff int, p unsafe.Pointer, n int)

// redVecSum adds the n elements to acc[aoff], acc[aoff+1], ...
func redVecSum[T redElem, A redOrdered](acc []A, aoff int, p unsafe.Pointer, n int) {
	a := acc[aoff : aoff+n]
	for i, x := range unsafe.Slice((*T)(p), n) {
		a[i] += A(x)
	}
}

func redSumFold[A redAccum](acc []A, aoff, astep int, v []A) {
	if astep == 0 {
		acc[aoff] += redPairwiseSum(v)
		return
	}
	if astep == 1 {
		a := acc[aoff : aoff+len(v)]
		for i, x := range v {
			a[i] += x
		}
		return
	}
	for i, x := range v {
		acc[aoff+i*astep] += x
	}
}

func redProdFold[A redAccum](acc []A, aoff, astep int, v []A) {
	if astep == 0 {
		p := acc[aoff]
		for _, x := range v {
			p *= x
		}
		acc[aoff] = p
		return
	}
	for i, x := range v {
		acc[aoff+i*astep] *= x
	}
}

// redMaxFold keeps the larger value. NaN propagates, as in NumPy's maximum: once the
// accumulator is NaN it stays. !(x <= m) is x > m or x NaN, one comparison per element.
func redMaxFold[A redOrdered](acc []A, aoff, astep int, v []A) {
	if astep == 0 {
		m := acc[aoff]
		if m != m {
			return
		}
		if r, ok := redMaxLanes(m, v, true); ok {
			acc[aoff] = r
			return
		}
		for _, x := range v {
			if !(x <= m) {
				m = x
				if x != x {
					break
				}
			}
		}
		acc[aoff] = m
		return
	}
	for i, x := range v {
		k := aoff + i*astep
		if m := acc[k]; !(x <= m) && m == m {
			acc[k] = x
		}
	}
}

func redMinFold[A redOrdered](acc []A, aoff, astep int, v []A) {
	if astep == 0 {
		m := acc[aoff]
		if m != m {
			return
		}
		if r, ok := redMaxLanes(m, v, false); ok {
			acc[aoff] = r
			return
		}
		for _, x := range v {
			if !(x >= m) {
				m = x
				if x != x {
					break
				}
			}
		}
		acc[aoff] = m
		return
	}
	for i, x := range v {
		k := aoff + i*astep
		if m := acc[k]; !(x >= m) && m == m {
			acc[k] = x
		}
	}
}

// redArgMaxBetter reports whether x at index i replaces the best m so far, at index mi.
// The answer does not depend on the order elements are seen in, so tasks and rows may
// run in any order: NaN beats everything, and equal values (or two NaNs) go to the
// smaller index, NumPy's first occurrence.
func redArgMaxBetter[A redOrdered](x A, i int64, m A, mi int64) bool {
	switch {
	case x > m:
		return true
	case x < m:
		return false
	case x == m:
		return i < mi
	case m != m:
		return x != x && i < mi
	}
	return true // x is NaN, m is not
}

func redArgMinBetter[A redOrdered](x A, i int64, m A, mi int64) bool {
	switch {
	case x < m:
		return true
	case x > m:
		return false
	case x == m:
		return i < mi
	case m != m:
		return x != x && i < mi
	}
	return true
}

// redArgMaxFold folds values with logical indices ioff+i*istep. Along a reduced row
// (astep 0) the indices grow, so the row's own best is the first value strictly
// larger than all before it (or the first NaN), merged into the accumulator once; C
// finds it in lanes where the row has no NaN (redArgLanes).
func redArgMaxFold[A redOrdered](acc []A, ai []int64, aoff, astep int, v []A, ioff, istep int) {
	if astep == 0 {
		m, mi, ok := redArgLanes(v, true)
		if !ok { // serially, up to the first NaN
			m, mi = v[0], 0
			for i := 1; m == m && i < len(v); i++ {
				if x := v[i]; !(x <= m) {
					m, mi = x, i
				}
			}
		}
		if j := int64(ioff + mi*istep); redArgMaxBetter(m, j, acc[aoff], ai[aoff]) {
			acc[aoff], ai[aoff] = m, j
		}
		return
	}
	for i, x := range v {
		k := aoff + i*astep
		if j := int64(ioff + i*istep); redArgMaxBetter(x, j, acc[k], ai[k]) {
			acc[k], ai[k] = x, j
		}
	}
}

func redArgMinFold[A redOrdered](acc []A, ai []int64, aoff, astep int, v []A, ioff, istep int) {
	if astep == 0 {
		m, mi, ok := redArgLanes(v, false)
		if !ok { // serially, up to the first NaN
			m, mi = v[0], 0
			for i := 1; m == m && i < len(v); i++ {
				if x := v[i]; !(x >= m) {
					m, mi = x, i
				}
			}
		}
		if j := int64(ioff + mi*istep); redArgMinBetter(m, j, acc[aoff], ai[aoff]) {
			acc[aoff], ai[aoff] = m, j
		}
		return
	}
	for i, x := range v {
		k := aoff + i*astep
		if j := int64(ioff + i*istep); redArgMinBetter(x, j, acc[k], ai[k]) {
			acc[k], ai[k] = x, j
		}
	}
}

func redArgMerge[A redOrdered](better func(x A, i int64, m A, mi int64) bool) func(acc []A, ai []int64, p []A, pi []int64) {
	return func(acc []A, ai []int64, p []A, pi []int64) {
		for k, x := range p {
			if better(x, pi[k], acc[k], ai[k]) {
				acc[k], ai[k] = x, pi[k]
			}
		}
	}
}

// redArithReducer returns the kernel of a sum, mean or product.
func redArithReducer[A redAccum](kind reduceKind) reducer[A] {
	if kind == redProd {
		return reducer[A]{init: 1, fold: redProdFold[A]}
	}
	return reducer[A]{init: 0, fold: redSumFold[A], sums: true}
}

// redOrderReducer returns the kernel of max, min, argmax or argmin for a real type;
// lowest and highest are the identities of max and min.
func redOrderReducer[A redOrdered](kind reduceKind, lowest, highest A) reducer[A] {
	switch kind {
	case redMax:
		return reducer[A]{init: lowest, fold: redMaxFold[A]}
	case redMin:
		return reducer[A]{init: highest, fold: redMinFold[A]}
	case redArgmax:
		return reducer[A]{init: lowest, argFold: redArgMaxFold[A], argMerge: redArgMerge(redArgMaxBetter[A])}
	default: // redArgmin
		return reducer[A]{init: highest, argFold: redArgMinFold[A], argMerge: redArgMerge(redArgMinBetter[A])}
	}
}

// redOrderNative runs max, min, argmax or argmin on a real dtype in the dtype itself:
// comparisons are exact, and contiguous rows are read in place.
func redOrderNative[A redOrdered](kind reduceKind, x, out *ndarray.NDArray, dims []redDim, nOut int, lowest, highest A) {
	store := func(p unsafe.Pointer, v A) { *(*A)(p) = v }
	reduceTyped(x, out, dims, nOut, redOrderReducer(kind, lowest, highest), redIO[A]{load: redLoadSame[A]}, store)
}

// Complex numbers order lexicographically (real part first), as NumPy's maximum does,
// and a NaN in either part makes the number NaN.

func redCNaN(z complex128) bool { return real(z) != real(z) || imag(z) != imag(z) }

// redCGreater reports x > y lexicographically, for numbers that are not NaN.
func redCGreater(x, y complex128) bool {
	return real(x) > real(y) || (real(x) == real(y) && imag(x) > imag(y))
}

// redCBetter reports whether x replaces m in a max (isMax) or min fold.
func redCBetter(x, m complex128, isMax bool) bool {
	if redCNaN(m) {
		return false
	}
	if redCNaN(x) {
		return true
	}
	if isMax {
		return redCGreater(x, m)
	}
	return redCGreater(m, x)
}

func redCFold(isMax bool) func(acc []complex128, aoff, astep int, v []complex128) {
	return func(acc []complex128, aoff, astep int, v []complex128) {
		for i, x := range v {
			p := &acc[aoff+i*astep]
			if redCBetter(x, *p, isMax) {
				*p = x
			}
		}
	}
}

func redCArgBetter(x complex128, i int64, m complex128, mi int64, isMax bool) bool {
	if redCNaN(m) {
		return redCNaN(x) && i < mi
	}
	if redCNaN(x) {
		return true
	}
	if x == m {
		return i < mi
	}
	return redCGreater(x, m) == isMax
}

// redComplexOrderReducer returns the kernel of max, min, argmax or argmin for complex
// numbers.
func redComplexOrderReducer(kind reduceKind) reducer[complex128] {
	lowest, highest := complex(math.Inf(-1), math.Inf(-1)), complex(math.Inf(1), math.Inf(1))
	switch kind {
	case redMax:
		return reducer[complex128]{init: lowest, fold: redCFold(true)}
	case redMin:
		return reducer[complex128]{init: highest, fold: redCFold(false)}
	}
	isMax := kind == redArgmax
	init := highest
	if isMax {
		init = lowest
	}
	return reducer[complex128]{
		init: init,
		argFold: func(acc []complex128, ai []int64, aoff, astep int, v []complex128, ioff, istep int) {
			for i, x := range v {
				k := aoff + i*astep
				if j := int64(ioff + i*istep); redCArgBetter(x, j, acc[k], ai[k], isMax) {
					acc[k], ai[k] = x, j
				}
			}
		},
		argMerge: func(acc []complex128, ai []int64, p []complex128, pi []int64) {
			for k, x := range p {
				if redCArgBetter(x, pi[k], acc[k], ai[k], isMax) {
					acc[k], ai[k] = x, pi[k]
				}
			}
		},
	}
}

// Loaders.

type redElem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// redLoadConv widens elements of type T into A by Go conversion.
func redLoadConv[T redElem, A redOrdered](base unsafe.Pointer, off, step, n int, buf []A) []A {
	var z T
	sz := int(unsafe.Sizeof(z))
	b := buf[:min(n, len(buf))]
	p := unsafe.Add(base, off*sz)
	if step == 1 {
		for i, x := range unsafe.Slice((*T)(p), len(b)) {
			b[i] = A(x)
		}
		return b
	}
	for i := range b {
		b[i] = A(*(*T)(unsafe.Add(p, i*step*sz)))
	}
	return b
}

// redLoadSame reads elements that already have the accumulator type: a contiguous row in
// place, a strided one copied.
func redLoadSame[A any](base unsafe.Pointer, off, step, n int, buf []A) []A {
	var z A
	sz := int(unsafe.Sizeof(z))
	p := unsafe.Add(base, off*sz)
	if step == 1 {
		return unsafe.Slice((*A)(p), n)
	}
	b := buf[:min(n, len(buf))]
	for i := range b {
		b[i] = *(*A)(unsafe.Add(p, i*step*sz))
	}
	return b
}

func redLoadBool[A redOrdered](base unsafe.Pointer, off, step, n int, buf []A) []A {
	b := buf[:min(n, len(buf))]
	p := unsafe.Add(base, off)
	for i := range b {
		if *(*uint8)(unsafe.Add(p, i*step)) != 0 {
			b[i] = 1
		} else {
			b[i] = 0
		}
	}
	return b
}

func redLoadComplex64(base unsafe.Pointer, off, step, n int, buf []complex128) []complex128 {
	b := buf[:min(n, len(buf))]
	p := unsafe.Add(base, off*8)
	for i := range b {
		b[i] = complex128(*(*complex64)(unsafe.Add(p, i*step*8)))
	}
	return b
}

var (
	redF16Once  sync.Once
	redF16Table []float32
)

// redLoadFloat16 widens IEEE half floats through a 65536-entry table.
func redLoadFloat16(base unsafe.Pointer, off, step, n int, buf []float64) []float64 {
	redF16Once.Do(func() {
		redF16Table = make([]float32, 1<<16)
		for i := range redF16Table {
			redF16Table[i] = ops.F16ToF32(uint16(i))
		}
	})
	tab := redF16Table
	b := buf[:min(n, len(buf))]
	p := unsafe.Add(base, off*2)
	for i := range b {
		b[i] = float64(tab[*(*uint16)(unsafe.Add(p, i*step*2))])
	}
	return b
}

func redLoadBfloat16(base unsafe.Pointer, off, step, n int, buf []float64) []float64 {
	b := buf[:min(n, len(buf))]
	p := unsafe.Add(base, off*2)
	for i := range b {
		b[i] = float64(ops.Bf16ToF32(*(*uint16)(unsafe.Add(p, i*step*2))))
	}
	return b
}

// redIO is how the elements of one dtype reach accumulators of type A: the loader, and
// for sums the fused kernels that read contiguous runs straight from memory (nil where
// there are none: the loader then serves).
type redIO[A any] struct {
	load           redLoadFn[A]
	rowSum, vecSum redRowFn[A]
	rowsSum        redRowsFn[A] // nil: rowSum row by row
}

// setRows replaces the row kernels of a sum by those of another (nansum's, norm's): its
// row and vector sums, and rowSum row by row for many short rows (rowsSum is the plain
// sum's).
func (io *redIO[A]) setRows(row, vec redRowFn[A]) {
	io.rowSum, io.vecSum, io.rowsSum = row, vec, nil
}

// redConvIO and redSameIO add rows by redPairwiseSumOf (see redRowSumBy in
// internal/simd for long rows).
func redConvIO[T redElem, A redOrdered]() redIO[A] {
	return redIO[A]{load: redLoadConv[T, A], rowSum: redRowSumBy(redPairwiseSumOf[T, A]), vecSum: redVecSum[T, A]}
}

func redSameIO[A redOrdered]() redIO[A] {
	return redIO[A]{load: redLoadSame[A], rowSum: redRowSumBy(redPairwiseSumOf[A, A]), vecSum: redVecSum[A, A]}
}

func redIntIO(dt ndarray.DType) redIO[int64] {
	switch dt {
	case ndarray.Bool:
		return redIO[int64]{load: redLoadBool[int64]}
	case ndarray.Int8:
		return redConvIO[int8, int64]()
	case ndarray.Int16:
		return redConvIO[int16, int64]()
	case ndarray.Int32:
		return redConvIO[int32, int64]()
	}
	return redSameIO[int64]()
}

func redUintIO(dt ndarray.DType) redIO[uint64] {
	switch dt {
	case ndarray.Uint8:
		return redConvIO[uint8, uint64]()
	case ndarray.Uint16:
		return redConvIO[uint16, uint64]()
	case ndarray.Uint32:
		return redConvIO[uint32, uint64]()
	}
	return redSameIO[uint64]()
}

func redFloatIO(dt ndarray.DType) redIO[float64] {
	switch dt {
	case ndarray.Bool:
		return redIO[float64]{load: redLoadBool[float64]}
	case ndarray.Int8:
		return redConvIO[int8, float64]()
	case ndarray.Int16:
		return redConvIO[int16, float64]()
	case ndarray.Int32:
		return redConvIO[int32, float64]()
	case ndarray.Int64:
		return redConvIO[int64, float64]()
	case ndarray.Uint8:
		return redConvIO[uint8, float64]()
	case ndarray.Uint16:
		return redConvIO[uint16, float64]()
	case ndarray.Uint32:
		return redConvIO[uint32, float64]()
	case ndarray.Uint64:
		return redConvIO[uint64, float64]()
	case ndarray.Float16:
		return redIO[float64]{load: redLoadFloat16}
	case ndarray.Bfloat16:
		return redIO[float64]{load: redLoadBfloat16}
	case ndarray.Float32:
		return redF32IO
	}
	return redF64IO
}

// redF32IO and redF64IO are the same sums with the AVX2 kernels of internal/simd
// (reduce_sum.go), made once: redRowSumBy's closure was an allocation a call.
var (
	redF32IO = redIO[float64]{redLoadConv[float32, float64], redRowSumC(redSumF32), redVecSum[float32, float64], redRowsSum[float32]}
	redF64IO = redIO[float64]{redLoadSame[float64], redRowSumC(redSumF64), redVecSum[float64, float64], redRowsSum[float64]}
)

func redComplexIO(dt ndarray.DType) redIO[complex128] {
	if dt == ndarray.Complex64 {
		return redIO[complex128]{load: redLoadComplex64}
	}
	return redIO[complex128]{load: redLoadSame[complex128]}
}

// Storers: from the accumulator to the result dtype (int64 or bool, uint64, a float
// dtype, a complex dtype).

func redStoreConv[T redElem, A redOrdered](p unsafe.Pointer, v A) { *(*T)(p) = T(v) }

func redIntStorer(dt ndarray.DType) redStoreFn[int64] {
	if dt == ndarray.Bool {
		return func(p unsafe.Pointer, v int64) { *(*uint8)(p) = ops.B2u(v != 0) }
	}
	return redStoreConv[int64, int64]
}

func redUintStorer(ndarray.DType) redStoreFn[uint64] { return redStoreConv[uint64, uint64] }

func redFloatStorer(dt ndarray.DType) redStoreFn[float64] {
	switch dt {
	case ndarray.Float16:
		return func(p unsafe.Pointer, v float64) { *(*uint16)(p) = ops.F32ToF16(float32(v)) }
	case ndarray.Bfloat16:
		return func(p unsafe.Pointer, v float64) { *(*uint16)(p) = ops.F32ToBF16(float32(v)) }
	case ndarray.Float32:
		return redStoreConv[float32, float64]
	}
	return redStoreConv[float64, float64]
}

func redComplexStorer(dt ndarray.DType) redStoreFn[complex128] {
	if dt == ndarray.Complex64 {
		return func(p unsafe.Pointer, v complex128) { *(*complex64)(p) = complex64(v) }
	}
	return func(p unsafe.Pointer, v complex128) { *(*complex128)(p) = v }
}
