// Helpers of the AVX-512 kernels that work in double lanes on float32 rows
// (powf_avx512.c, special32_avx512.c): a row's 16 floats go through two ZMM registers of
// 8 doubles. Include it only in code for x86-64; its functions are AVX-512F.
#ifndef MXGO_LANES_AVX512_H
#define MXGO_LANES_AVX512_H

#include <immintrin.h>

#define MXGO_AVX512 __attribute__((target("avx512f")))
#define MXGO_INLINE static inline __attribute__((always_inline))

// mxgo_join is the 16 floats of lo then hi; mxgo_upper the high 8 of v (these take no
// AVX-512DQ, which mxgo_cpu_avx512 does not check).
MXGO_AVX512 MXGO_INLINE __m512 mxgo_join(__m256 lo, __m256 hi) {
	__m512d v = _mm512_castpd256_pd512(_mm256_castps_pd(lo));
	return _mm512_castpd_ps(_mm512_insertf64x4(v, _mm256_castps_pd(hi), 1));
}

MXGO_AVX512 MXGO_INLINE __m256 mxgo_upper(__m512 v) {
	return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

MXGO_AVX512 MXGO_INLINE __m256i mxgo_upper_i(__m512i v) { return _mm512_extracti64x4_epi64(v, 1); }

// mxgo_row_mask selects the lanes of the 16 from i that a row of n has.
MXGO_INLINE __mmask16 mxgo_row_mask(long i, long n) {
	return n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1);
}

// mxgo_series is r (c[0] + r (c[1] + ... + r c[n-1])).
MXGO_AVX512 MXGO_INLINE __m512d mxgo_series(__m512d r, const double *c, int n) {
	__m512d p = _mm512_set1_pd(c[n - 1]);
	for (int j = n - 2; j >= 0; j--) p = _mm512_fmadd_pd(r, p, _mm512_set1_pd(c[j]));
	return _mm512_mul_pd(r, p);
}

// mxgo_horner is c[0] t^(n-1) + ... + c[n-1] (coefficients highest first).
MXGO_AVX512 MXGO_INLINE __m512d mxgo_horner(const double *c, int n, __m512d t) {
	__m512d p = _mm512_set1_pd(c[0]);
	for (int j = 1; j < n; j++) p = _mm512_fmadd_pd(p, t, _mm512_set1_pd(c[j]));
	return p;
}

#endif
