// Package reduce registers the reductions: sum, mean, prod, max, min, argmax, argmin,
// norm, nansum, nanprod, cumsum and moments.
//
//	reduce.go, reduce_kernels.go, reduce_sum.go  axes, keepdims, exclude; pairwise sums
//	reduce_lanes.go                              max and min of long rows in independent lanes
//	norm.go, norm_kernels.go, norm_cumsum.go     norm, nansum, nanprod, cumsum, moments
package reduce
