#include "sort32_avx512.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>
#include "cpu.h"

#define AVX512 __attribute__((target("avx512f,popcnt")))
#define INLINE static inline __attribute__((always_inline, target("avx512f,popcnt")))

// The largest block the register network sorts: 16 vectors of 16 keys.
#define BLOCK 256

int mxgo_sort32_supported(void) {
	return mxgo_cpu_avx512();
}

INLINE __mmask16 head_mask(long left) {
	return left >= 16 ? 0xffff : (__mmask16)((1u << left) - 1);
}

// Floats flip every bit when negative and the sign bit otherwise; a NaN becomes the
// quiet NaN's key with the sign set (0xffc00000), above +inf's (0xff800000).
AVX512 void mxgo_sort32_keys(int kind, int desc, uint32_t *dst, const uint32_t *src, long n) {
	const __m512i sign = _mm512_set1_epi32((int)0x80000000), flip = _mm512_set1_epi32(desc ? -1 : 0);
	const __m512i absm = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000);
	const __m512i nan = _mm512_set1_epi32((int)0xffc00000);
	for (long i = 0; i < n; i += 16) {
		__mmask16 m = head_mask(n - i);
		__m512i v = _mm512_maskz_loadu_epi32(m, src + i), k = v;
		if (kind == MXGO_SORT32_F32) {
			k = _mm512_xor_si512(v, _mm512_or_si512(_mm512_srai_epi32(v, 31), sign));
			k = _mm512_mask_mov_epi32(k, _mm512_cmpgt_epu32_mask(_mm512_and_si512(v, absm), inf), nan);
		} else if (kind == MXGO_SORT32_I32) {
			k = _mm512_xor_si512(v, sign);
		}
		_mm512_mask_storeu_epi32(dst + i, m, _mm512_xor_si512(k, flip));
	}
}

// A key with its sign bit set was a float without one: clear it; else flip every bit.
AVX512 void mxgo_sort32_values(int kind, int desc, uint32_t *a, long n) {
	const __m512i sign = _mm512_set1_epi32((int)0x80000000), ones = _mm512_set1_epi32(-1);
	const __m512i flip = _mm512_set1_epi32(desc ? -1 : 0);
	for (long i = 0; i < n; i += 16) {
		__mmask16 m = head_mask(n - i);
		__m512i k = _mm512_xor_si512(_mm512_maskz_loadu_epi32(m, a + i), flip), v = k;
		if (kind == MXGO_SORT32_F32)
			v = _mm512_xor_si512(k, _mm512_or_si512(_mm512_srai_epi32(_mm512_xor_si512(k, ones), 31), sign));
		else if (kind == MXGO_SORT32_I32)
			v = _mm512_xor_si512(k, sign);
		_mm512_mask_storeu_epi32(a + i, m, v);
	}
}

// One compare-exchange step of a bitonic network inside a vector: each lane meets the
// lane its index xor j names (idx), and the lanes in takemin keep the smaller key.
INLINE __m512i exchange(__m512i v, __m512i idx, __mmask16 takemin) {
	__m512i p = _mm512_permutexvar_epi32(idx, v);
	return _mm512_mask_blend_epi32(takemin, _mm512_max_epu32(v, p), _mm512_min_epu32(v, p));
}

// network sorts the 16*R keys of v[0..R) (R a power of two up to 16) ascending, key g
// being lane g%16 of v[g/16]: Batcher's bitonic sort, whose stage k sorts runs of k keys,
// ascending where g&k is 0 and descending elsewhere, so that two neighbours make a
// bitonic run for the next stage. The masks below are the lanes that keep the minimum.
INLINE void network(__m512i *v, const int R) {
	const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
	const __m512i x1 = _mm512_xor_si512(iota, _mm512_set1_epi32(1)), x2 = _mm512_xor_si512(iota, _mm512_set1_epi32(2));
	const __m512i x4 = _mm512_xor_si512(iota, _mm512_set1_epi32(4)), x8 = _mm512_xor_si512(iota, _mm512_set1_epi32(8));
#pragma GCC unroll 16
	for (int r = 0; r < R; r++) { // stages 2, 4 and 8 run inside each vector alike
		__m512i a = v[r];
		a = exchange(a, x1, 0x9999);
		a = exchange(a, x2, 0xc3c3);
		a = exchange(a, x1, 0xa5a5);
		a = exchange(a, x4, 0xf00f);
		a = exchange(a, x2, 0xcc33);
		a = exchange(a, x1, 0xaa55);
		v[r] = a;
	}
#pragma GCC unroll 8
	for (int k = 1; k <= R; k <<= 1) { // stage 16k: a vector's keys share a direction
#pragma GCC unroll 8
		for (int j = k >> 1; j >= 1; j >>= 1) { // distances of 16j keys: across vectors
#pragma GCC unroll 16
			for (int r = 0; r < R; r++) {
				if (r & j)
					continue;
				__m512i lo = _mm512_min_epu32(v[r], v[r + j]), hi = _mm512_max_epu32(v[r], v[r + j]);
				int up = !(r & k);
				v[r] = up ? lo : hi;
				v[r + j] = up ? hi : lo;
			}
		}
#pragma GCC unroll 16
		for (int r = 0; r < R; r++) { // distances of 8, 4, 2 and 1 keys
			__mmask16 d = (r & k) ? 0xffff : 0; // a descending vector's other lanes keep the minimum
			__m512i a = v[r];
			a = exchange(a, x8, 0x00ff ^ d);
			a = exchange(a, x4, 0x0f0f ^ d);
			a = exchange(a, x2, 0x3333 ^ d);
			a = exchange(a, x1, 0x5555 ^ d);
			v[r] = a;
		}
	}
}

// sort_regs sorts a[0..n), n <= 16*R, in R vectors padded with the largest key (the
// padding sorts after every key, so the first n keys out are a's).
INLINE void sort_regs(uint32_t *a, long n, const int R) {
	__m512i v[16];
	const __m512i pad = _mm512_set1_epi32(-1);
#pragma GCC unroll 16
	for (int r = 0; r < R; r++)
		v[r] = _mm512_mask_loadu_epi32(pad, head_mask(n - 16 * r < 0 ? 0 : n - 16 * r), a + 16 * r);
	network(v, R);
#pragma GCC unroll 16
	for (int r = 0; r < R; r++)
		_mm512_mask_storeu_epi32(a + 16 * r, head_mask(n - 16 * r < 0 ? 0 : n - 16 * r), v[r]);
}

AVX512 static void sort_block(uint32_t *a, long n) {
	if (n <= 16)
		sort_regs(a, n, 1);
	else if (n <= 32)
		sort_regs(a, n, 2);
	else if (n <= 64)
		sort_regs(a, n, 4);
	else if (n <= 128)
		sort_regs(a, n, 8);
	else
		sort_regs(a, n, 16);
}

// The median of 16 keys spread over a, sorted by the network.
AVX512 static uint32_t pivot_of(const uint32_t *a, long n) {
	uint32_t s[16];
	for (int i = 0; i < 16; i++)
		s[i] = a[n / 32 + i * (n / 16)];
	sort_regs(s, 16, 1);
	return s[8];
}

// The keys below the pivot are compressed to a's front as they are read (never past
// the vector just read), those above it to tmp; the pivot's copies are written back
// between the two, being its bits.
AVX512 void mxgo_sort32_partition(uint32_t *a, uint32_t *tmp, long n, long *lt, long *gt) {
	const uint32_t p = pivot_of(a, n);
	const __m512i pv = _mm512_set1_epi32((int)p);
	long nl = 0, ng = 0;
	for (long i = 0; i < n; i += 16) {
		__mmask16 m = head_mask(n - i);
		__m512i v = _mm512_maskz_loadu_epi32(m, a + i);
		__mmask16 below = _mm512_mask_cmplt_epu32_mask(m, v, pv), above = _mm512_mask_cmpgt_epu32_mask(m, v, pv);
		int cb = __builtin_popcount(below), ca = __builtin_popcount(above);
		_mm512_mask_storeu_epi32(a + nl, head_mask(cb), _mm512_maskz_compress_epi32(below, v));
		_mm512_mask_storeu_epi32(tmp + ng, head_mask(ca), _mm512_maskz_compress_epi32(above, v));
		nl += cb;
		ng += ca;
	}
	for (long i = nl; i < n - ng; i++)
		a[i] = p;
	memcpy(a + n - ng, tmp, (size_t)ng * sizeof *a);
	*lt = nl;
	*gt = ng;
}

static void sift_down(uint32_t *a, long i, long n) {
	for (;;) {
		long c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[c] <= a[i])
			return;
		uint32_t t = a[i];
		a[i] = a[c];
		a[c] = t;
		i = c;
	}
}

// heapsort is the quicksort's way out of inputs its pivots split badly, so that no input
// takes more than n log n steps.
static void heapsort(uint32_t *a, long n) {
	for (long i = n / 2 - 1; i >= 0; i--)
		sift_down(a, i, n);
	for (long e = n - 1; e > 0; e--) {
		uint32_t t = a[0];
		a[0] = a[e];
		a[e] = t;
		sift_down(a, 0, e);
	}
}

// The partition levels a sort or selection of n keys may take before giving up on its
// pivots: 8 + 2 log2(n/256).
static int levels_for(long n) {
	int levels = 8;
	for (long m = n; m > BLOCK; m >>= 1)
		levels += 2;
	return levels;
}

// Recurses into the smaller side, loops on the larger: the stack stays log n deep.
AVX512 static void quicksort(uint32_t *a, uint32_t *tmp, long n, int levels) {
	while (n > BLOCK) {
		if (levels-- <= 0) {
			heapsort(a, n);
			return;
		}
		long lt, gt;
		mxgo_sort32_partition(a, tmp, n, &lt, &gt);
		if (lt < gt) {
			quicksort(a, tmp, lt, levels);
			a += n - gt;
			n = gt;
		} else {
			quicksort(a + n - gt, tmp, gt, levels);
			n = lt;
		}
	}
	sort_block(a, n);
}

AVX512 void mxgo_sort32_sort_within(uint32_t *a, uint32_t *tmp, long n, int levels) {
	quicksort(a, tmp, n, levels);
}

AVX512 void mxgo_sort32_sort(uint32_t *a, uint32_t *tmp, long n) {
	quicksort(a, tmp, n, levels_for(n));
}

// select_front moves the k smallest keys of a[0..n) to its front, in any order: the
// quickselect of the same partitions, a whole sort past levels of them.
AVX512 static void select_front(uint32_t *a, uint32_t *tmp, long n, long k, int levels) {
	while (n > BLOCK) {
		if (levels-- <= 0) {
			mxgo_sort32_sort(a, tmp, n);
			return;
		}
		long lt, gt;
		mxgo_sort32_partition(a, tmp, n, &lt, &gt);
		if (k < lt) {
			n = lt;
		} else if (k <= n - gt) {
			return;
		} else {
			k -= n - gt;
			a += n - gt;
			n = gt;
		}
	}
	sort_block(a, n);
}

AVX512 void mxgo_sort32_select_rows(int kind, int desc, uint32_t *dst, const long *dst_starts, const uint32_t *src,
				    const long *src_starts, long count, long n, long k, uint32_t *tmp) {
	uint32_t *keys = tmp + n;
	for (long l = 0; l < count; l++) {
		mxgo_sort32_keys(kind, desc, keys, src + src_starts[l], n);
		select_front(keys, tmp, n, k, levels_for(n));
		mxgo_sort32_sort(keys, tmp, k);
		mxgo_sort32_values(kind, desc, keys, k);
		memcpy(dst + dst_starts[l], keys, (size_t)k * sizeof *keys);
	}
}

AVX512 void mxgo_sort32_rows(int kind, int desc, uint32_t *dst, const long *dst_starts, const uint32_t *src,
			     const long *src_starts, long count, long n, uint32_t *tmp) {
	for (long l = 0; l < count; l++) {
		uint32_t *row = dst + dst_starts[l];
		mxgo_sort32_keys(kind, desc, row, src + src_starts[l], n);
		mxgo_sort32_sort(row, tmp, n);
		mxgo_sort32_values(kind, desc, row, n);
	}
}

#else

int mxgo_sort32_supported(void) { return 0; }
void mxgo_sort32_keys(int kind, int desc, uint32_t *dst, const uint32_t *src, long n) {}
void mxgo_sort32_values(int kind, int desc, uint32_t *a, long n) {}
void mxgo_sort32_sort(uint32_t *a, uint32_t *tmp, long n) {}
void mxgo_sort32_sort_within(uint32_t *a, uint32_t *tmp, long n, int levels) {}
void mxgo_sort32_rows(int kind, int desc, uint32_t *dst, const long *dst_starts, const uint32_t *src,
		      const long *src_starts, long count, long n, uint32_t *tmp) {}
void mxgo_sort32_select_rows(int kind, int desc, uint32_t *dst, const long *dst_starts, const uint32_t *src,
			     const long *src_starts, long count, long n, long k, uint32_t *tmp) {}
void mxgo_sort32_partition(uint32_t *a, uint32_t *tmp, long n, long *lt, long *gt) {}

#endif
