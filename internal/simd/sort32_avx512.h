// Sorting of 32-bit elements (float32, int32, uint32) with AVX-512F (sort32_avx512.c);
// driven from Go by sort32.go. The elements become order keys, unsigned words that
// compare as the values do (pkg/ops/sorting's encoding: every NaN is one quiet NaN above
// +inf), a quicksort on the keys partitions them with compress stores down to blocks of
// at most 256 that a bitonic network in registers sorts, and the keys become elements
// again. Equal keys are equal bits, so the result is the one any sort of the keys gives.
#ifndef MXGO_SORT32_AVX512_H
#define MXGO_SORT32_AVX512_H

#include <stdint.h>

// Element kinds: how an element maps to its key.
enum { MXGO_SORT32_F32 = 0, MXGO_SORT32_I32 = 1, MXGO_SORT32_U32 = 2 };

// mxgo_sort32_supported reports whether the CPU (and OS) run AVX-512F.
int mxgo_sort32_supported(void);

// mxgo_sort32_keys writes the keys of src[0..n) to dst (which may be src), complemented
// when desc is set so that an ascending sort of them is a descending sort of the values.
void mxgo_sort32_keys(int kind, int desc, uint32_t *dst, const uint32_t *src, long n);

// mxgo_sort32_values turns a[0..n), keys made by mxgo_sort32_keys with the same kind and
// desc, back into elements.
void mxgo_sort32_values(int kind, int desc, uint32_t *a, long n);

// mxgo_sort32_sort sorts the keys a[0..n) ascending; tmp is scratch of n words.
void mxgo_sort32_sort(uint32_t *a, uint32_t *tmp, long n);

// mxgo_sort32_sort_within is mxgo_sort32_sort with at most levels partitions on any
// path before a heapsort takes over (mxgo_sort32_sort allows 8 + 2 log2(n/256)): a
// hook for tests of that way out.
void mxgo_sort32_sort_within(uint32_t *a, uint32_t *tmp, long n, int levels);

// mxgo_sort32_rows sorts count rows of n elements, row l at src + src_starts[l], into
// dst + dst_starts[l] (the same row or one not overlapping it): keys, sort and values
// each row; tmp is scratch of n words.
void mxgo_sort32_rows(int kind, int desc, uint32_t *dst, const long *dst_starts, const uint32_t *src,
		      const long *src_starts, long count, long n, uint32_t *tmp);

// mxgo_sort32_select_rows is mxgo_sort32_rows for the first k < n of each sorted row
// only (topk's values): a quickselect of the k smallest keys, then a sort of those;
// tmp is scratch of 2n words.
void mxgo_sort32_select_rows(int kind, int desc, uint32_t *dst, const long *dst_starts, const uint32_t *src,
			     const long *src_starts, long count, long n, long k, uint32_t *tmp);

// mxgo_sort32_partition reorders the keys a[0..n), n >= 16, around a pivot it samples:
// the *lt keys below it first, the *gt keys above it last, the pivot's copies between
// them (at least one). tmp is scratch of n words.
void mxgo_sort32_partition(uint32_t *a, uint32_t *tmp, long n, long *lt, long *gt);

#endif
