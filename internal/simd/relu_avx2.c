#include "relu_avx2.h"

#include <stdint.h>

// The masks of one element, on its bits b as an int32: clear (relu: negative and not a
// NaN) and keep (the gradient: 0 < b <= +inf's bits).
static inline int32_t relu_clear(int32_t b) { return (b >> 31) & -((b & 0x7fffffff) <= 0x7f800000); }
static inline int32_t relu_keep(int32_t b) { return -(b > 0 && b <= 0x7f800000); }

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))

int mxgo_relu_supported(void) {
	return mxgo_cpu_avx2(0);
}

AVX2 void mxgo_relu_f32(float *o, const float *x, long n) {
	const __m256i abs = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256i b = _mm256_loadu_si256((const __m256i *)(x + i));
		__m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(b, abs), inf);
		__m256i clear = _mm256_andnot_si256(nan, _mm256_srai_epi32(b, 31));
		_mm256_storeu_si256((__m256i *)(o + i), _mm256_andnot_si256(clear, b));
	}
	for (; i < n; i++) {
		int32_t b;
		__builtin_memcpy(&b, x + i, 4);
		b &= ~relu_clear(b);
		__builtin_memcpy(o + i, &b, 4);
	}
}

AVX2 void mxgo_relu_backward_f32(float *o, const float *g, const float *y, long n) {
	const __m256i zero = _mm256_setzero_si256(), inf = _mm256_set1_epi32(0x7f800000);
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256i b = _mm256_loadu_si256((const __m256i *)(y + i));
		__m256i keep = _mm256_andnot_si256(_mm256_cmpgt_epi32(b, inf), _mm256_cmpgt_epi32(b, zero));
		__m256i v = _mm256_loadu_si256((const __m256i *)(g + i));
		_mm256_storeu_si256((__m256i *)(o + i), _mm256_and_si256(v, keep));
	}
	for (; i < n; i++) {
		int32_t b, v;
		__builtin_memcpy(&b, y + i, 4);
		__builtin_memcpy(&v, g + i, 4);
		v &= relu_keep(b);
		__builtin_memcpy(o + i, &v, 4);
	}
}

#else

int mxgo_relu_supported(void) { return 0; }
void mxgo_relu_f32(float *o, const float *x, long n) { (void)o, (void)x, (void)n; }
void mxgo_relu_backward_f32(float *o, const float *g, const float *y, long n) { (void)o, (void)g, (void)y, (void)n; }

#endif
