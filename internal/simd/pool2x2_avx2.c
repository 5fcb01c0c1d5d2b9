#include "pool2x2_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))

int mxgo_pool2x2_supported(void) {
	return mxgo_cpu_avx2(0);
}

// maxz is Go's max of two numbers: the larger, +0 of -0 and +0 (maxps alone returns its
// second operand on ties of zeros).
AVX2 static inline __m256 maxz(__m256 a, __m256 b) { return _mm256_and_ps(_mm256_max_ps(a, b), _mm256_max_ps(b, a)); }

// num is v with its NaNs replaced by low.
AVX2 static inline __m256 num(__m256 v, __m256 low) {
	return _mm256_blendv_ps(low, v, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
}

// max1 is maxNum of pkg/ops/nn for one element.
AVX2 static inline float max1(float m, float v) {
	if (v != v) return m;
	__m128 a = _mm_set_ss(m), b = _mm_set_ss(v);
	return _mm_cvtss_f32(_mm_and_ps(_mm_max_ss(a, b), _mm_max_ss(b, a)));
}

AVX2 void mxgo_max2x2_f32(const float *x, float *y, long planes, long h, long w, long o1, long o2, float lowest) {
	const __m256 low = _mm256_set1_ps(lowest);
	for (long p = 0; p < planes; p++, x += h * w, y += o1 * o2) {
		for (long a = 0; a < o1; a++) {
			const float *r0 = x + 2 * a * w, *r1 = r0 + w;
			float *out = y + a * o2;
			long b = 0;
			for (; b + 8 <= o2; b += 8) {
				__m256 m0 = maxz(num(_mm256_loadu_ps(r0 + 2 * b), low), num(_mm256_loadu_ps(r1 + 2 * b), low));
				__m256 m1 = maxz(num(_mm256_loadu_ps(r0 + 2 * b + 8), low), num(_mm256_loadu_ps(r1 + 2 * b + 8), low));
				// tiles 0 1 4 5 | 2 3 6 7 from the even and odd lanes, then in order
				__m256 m = maxz(_mm256_shuffle_ps(m0, m1, 0x88), _mm256_shuffle_ps(m0, m1, 0xdd));
				_mm256_storeu_ps(out + b, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(m), 0xd8)));
			}
			if (b + 4 <= o2) { // four tiles: 0 1 0 1 | 2 3 2 3, then the halves' first pairs
				__m256 m0 = maxz(num(_mm256_loadu_ps(r0 + 2 * b), low), num(_mm256_loadu_ps(r1 + 2 * b), low));
				__m256 m = maxz(_mm256_shuffle_ps(m0, m0, 0x88), _mm256_shuffle_ps(m0, m0, 0xdd));
				m = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(m), 0x08));
				_mm_storeu_ps(out + b, _mm256_castps256_ps128(m));
				b += 4;
			}
			for (; b < o2; b++) out[b] = max1(max1(max1(max1(lowest, r0[2 * b]), r0[2 * b + 1]), r1[2 * b]), r1[2 * b + 1]);
		}
	}
}

// pairs sets lo and hi to v's lanes each twice: v0 v0 v1 v1 ... v3 v3 and v4 v4 ... v7 v7.
AVX2 static inline void pairs(__m256 v, __m256 *lo, __m256 *hi) {
	__m256 l = _mm256_unpacklo_ps(v, v), u = _mm256_unpackhi_ps(v, v);
	*lo = _mm256_permute2f128_ps(l, u, 0x20);
	*hi = _mm256_permute2f128_ps(l, u, 0x31);
}

// unmax8 sets the 8 elements of r0 and r1 under 4 tiles of maxima yd and gradients gd
// (each lane twice): the first hit of a tile takes gd, in the order r0's pair, r1's pair.
AVX2 static inline void unmax8(const float *r0, const float *r1, float *d0, float *d1, __m256 yd, __m256 gd, int ties) {
	const __m256 one = _mm256_set1_ps(1), zero = _mm256_setzero_ps();
	const __m256 odd = _mm256_castsi256_ps(_mm256_setr_epi32(0, -1, 0, -1, 0, -1, 0, -1));
	__m256 h0 = _mm256_cmp_ps(_mm256_loadu_ps(r0), yd, _CMP_EQ_OQ), h1 = _mm256_cmp_ps(_mm256_loadu_ps(r1), yd, _CMP_EQ_OQ);
	if (!ties) {
		__m256 e0 = _mm256_shuffle_ps(h0, h0, 0xa0), e1 = _mm256_shuffle_ps(h1, h1, 0xa0); // each pair's first
		__m256 any0 = _mm256_or_ps(e0, _mm256_shuffle_ps(h0, h0, 0xf5));
		h0 = _mm256_andnot_ps(_mm256_and_ps(e0, odd), h0);
		h1 = _mm256_andnot_ps(_mm256_or_ps(any0, _mm256_and_ps(e1, odd)), h1);
	}
	_mm256_storeu_ps(d0, _mm256_add_ps(zero, _mm256_mul_ps(gd, _mm256_and_ps(h0, one))));
	_mm256_storeu_ps(d1, _mm256_add_ps(zero, _mm256_mul_ps(gd, _mm256_and_ps(h1, one))));
}

AVX2 void mxgo_unmax2x2_f32(const float *x, const float *y, const float *gy, float *dx, long planes, long h, long w,
                            long o1, long o2, int ties) {
	for (long p = 0; p < planes; p++, x += h * w, dx += h * w, y += o1 * o2, gy += o1 * o2) {
		for (long i = 2 * o1 * w; i < h * w; i++) dx[i] = 0;
		for (long a = 0; a < o1; a++) {
			const float *r0 = x + 2 * a * w, *r1 = r0 + w, *ya = y + a * o2, *ga = gy + a * o2;
			float *d0 = dx + 2 * a * w, *d1 = d0 + w;
			long b = 0;
			for (; b + 8 <= o2; b += 8) {
				__m256 ylo, yhi, glo, ghi;
				pairs(_mm256_loadu_ps(ya + b), &ylo, &yhi);
				pairs(_mm256_loadu_ps(ga + b), &glo, &ghi);
				unmax8(r0 + 2 * b, r1 + 2 * b, d0 + 2 * b, d1 + 2 * b, ylo, glo, ties);
				unmax8(r0 + 2 * b + 8, r1 + 2 * b + 8, d0 + 2 * b + 8, d1 + 2 * b + 8, yhi, ghi, ties);
			}
			if (b + 4 <= o2) { // four tiles: pairs' low half only
				__m256 ylo, yhi, glo, ghi;
				pairs(_mm256_castps128_ps256(_mm_loadu_ps(ya + b)), &ylo, &yhi);
				pairs(_mm256_castps128_ps256(_mm_loadu_ps(ga + b)), &glo, &ghi);
				unmax8(r0 + 2 * b, r1 + 2 * b, d0 + 2 * b, d1 + 2 * b, ylo, glo, ties);
				b += 4;
			}
			for (; b < o2; b++) {
				const float *v[4] = {r0 + 2 * b, r0 + 2 * b + 1, r1 + 2 * b, r1 + 2 * b + 1};
				float *d[4] = {d0 + 2 * b, d0 + 2 * b + 1, d1 + 2 * b, d1 + 2 * b + 1};
				int taken = 0;
				for (int j = 0; j < 4; j++) {
					int hit = *v[j] == ya[b];
					*d[j] = 0.0f + ga[b] * (float)(hit & ~(taken & ~ties));
					taken |= hit;
				}
			}
			for (long c = 2 * o2; c < w; c++) d0[c] = d1[c] = 0;
		}
	}
}

#else

int mxgo_pool2x2_supported(void) { return 0; }
void mxgo_max2x2_f32(const float *x, float *y, long planes, long h, long w, long o1, long o2, float lowest) {
	(void)x, (void)y, (void)planes, (void)h, (void)w, (void)o1, (void)o2, (void)lowest;
}
void mxgo_unmax2x2_f32(const float *x, const float *y, const float *gy, float *dx, long planes, long h, long w,
                       long o1, long o2, int ties) {
	(void)x, (void)y, (void)gy, (void)dx, (void)planes, (void)h, (void)w, (void)o1, (void)o2, (void)ties;
}

#endif
