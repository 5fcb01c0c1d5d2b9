// Package sorting registers sort, argsort, topk and histogram.
//
//	sort.go, sort_keys.go   sort, argsort, topk over rows along an axis (ops.Lanes); the keys
//	sort_simd.go            the values of 32-bit contiguous lanes by internal/simd's AVX-512 sort
//	sort_histogram.go       histogram
//	sort_grad.go            the gradients of sort and topk (_backward_topk); argsort's is zero
package sorting
