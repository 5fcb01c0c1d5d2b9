// Package elemwise registers the elementwise operators: arithmetic, comparisons, where
// and clip, MXNet's elementwise math, and mx.np's (_npi_) elementwise operators.
//
//	arith.go, arith_simd.go  + - * / (C rows for float32/float64 in internal/simd)
//	binary_math.go           power, maximum, minimum, mod, hypot, ...
//	compare.go               comparisons under MXNet's names
//	fast_rows.go             typed row loops of mx.nd's comparisons and maximum/minimum
//	where_clip.go            where and clip
//	unary_ops.go             the unary table of package unary (negative ... sigmoid)
//	math_unary.go, math_binary.go, math_misc.go  MXNet's other elementwise math, logical
//	                         ops, broadcast_ and elemwise_ names, add_n, Cast
//	math_rows32.go           float32 row kernels of the above
//	npi.go                   mx.np's operators (_npi_ names, NumPy 2's semantics): their declaration
//	npi_compare.go, npi_logic.go  comparisons, predicates, logical ops (bool results)
//	npi_bitwise.go           bitwise ops and shifts
//	npi_math.go, npi_divmod.go  arctan2 ... logaddexp, floor_divide and mod (NumPy's remainder)
//	npi_complex.go           real, imag, conj
package elemwise
