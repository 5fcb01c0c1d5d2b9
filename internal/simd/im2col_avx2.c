#include "im2col_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))

int mxgo_im2col_supported(void) {
	return mxgo_cpu_avx2(0);
}

// span sets [lo, hi) to the windows x < n whose tap x*st + off lies in [0, l), as
// pkg/ops/nn's tapSpan.
static inline void span(long off, long st, long l, long n, long *lo, long *hi) {
	long a = 0, b = 0, last = l - 1 - off;
	if (off < 0) a = (-off + st - 1) / st;
	if (last >= 0) b = last / st + 1 < n ? last / st + 1 : n;
	*lo = a < b ? a : b;
	*hi = b;
}

// copy32 copies n floats (or the bits of n/2 doubles): lines are 10 to 30 elements, so
// the last vector overlaps the previous one instead of a scalar tail. No masked stores:
// AMD's are slow.
AVX2 static inline void copy32(float *d, const float *s, long n) {
	if (n >= 8) {
		long i = 0;
		for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, _mm256_loadu_ps(s + i));
		if (i < n) _mm256_storeu_ps(d + n - 8, _mm256_loadu_ps(s + n - 8));
	} else if (n >= 4) {
		_mm_storeu_ps(d, _mm_loadu_ps(s));
		_mm_storeu_ps(d + n - 4, _mm_loadu_ps(s + n - 4));
	} else {
		if (n > 0) d[0] = s[0];
		if (n > 1) d[1] = s[1];
		if (n > 2) d[2] = s[2];
	}
}

// zero32 sets n floats (or n/2 doubles) to +0 as copy32 copies: glibc's memset, which GCC
// calls for a plain loop, cost 3% of a CNN step on the padding's few elements a tap.
AVX2 static inline void zero32(float *d, long n) {
	__m256 z = _mm256_setzero_ps();
	__asm__("" : "+x"(z)); // opaque: GCC would make the stores a memset call again
	if (n >= 8) {
		long i = 0;
		for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, z);
		if (i < n) _mm256_storeu_ps(d + n - 8, z);
	} else if (n >= 4) {
		_mm_storeu_ps(d, _mm256_castps256_ps128(z));
		_mm_storeu_ps(d + n - 4, _mm256_castps256_ps128(z));
	} else { // not a loop, which GCC makes a memset call
		if (n > 0) d[0] = 0;
		if (n > 1) d[1] = 0;
		if (n > 2) d[2] = 0;
	}
}

static inline void zero_f32(float *d, long n) { zero32(d, n); }
static inline void zero_f64(double *d, long n) { zero32((float *)d, 2 * n); }

static inline void copy_f32(float *d, const float *s, long n) { copy32(d, s, n); }
static inline void copy_f64(double *d, const double *s, long n) { copy32((float *)d, (const float *)s, 2 * n); }

// ADD(name, type, op) defines name(a, b) = a + b by instruction op with a as its first
// source: when both are NaN, x86 returns the first's, and Go's += (ADDSS/ADDSD into the
// destination) returns the destination's; an intrinsic or C's + lets GCC swap them.
#define ADD(name, type, op) \
	AVX2 static inline type name(type a, type b) { \
		type r; \
		__asm__(op " %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); \
		return r; \
	}
ADD(add8s, __m256, "vaddps")
ADD(add4s, __m128, "vaddps")
ADD(add1s, float, "vaddss")
ADD(add4d, __m256d, "vaddpd")
ADD(add2d, __m128d, "vaddpd")
ADD(add1d, double, "vaddsd")

typedef float f32;
typedef double f64;

// ADDROW(T, ...) defines add_<T>(d, s, n): d[i] += s[i] by vectors of w elements, then
// one of w/2, then one by one (an overlapping vector would add twice).
#define ADDROW(T, w, load, store, load2, store2, addw, addh, add1)                          \
	AVX2 static inline void add_##T(T *d, const T *s, long n) {                              \
		long i = 0;                                                                          \
		for (; i + w <= n; i += w) store(d + i, addw(load(d + i), load(s + i)));             \
		if (i + w / 2 <= n) {                                                                \
			store2(d + i, addh(load2(d + i), load2(s + i)));                                 \
			i += w / 2;                                                                      \
		}                                                                                    \
		for (; i < n; i++) d[i] = add1(d[i], s[i]);                                          \
	}
ADDROW(f32, 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm_loadu_ps, _mm_storeu_ps, add8s, add4s, add1s)
ADDROW(f64, 4, _mm256_loadu_pd, _mm256_storeu_pd, _mm_loadu_pd, _mm_storeu_pd, add4d, add2d, add1d)

// SHIFTED(T) defines shifted_<T>, pkg/ops/nn's shiftedPlane: with unit strides and output
// lines as long as the input's, a tap's row is the plane shifted by shift, copied in one
// piece [first, last), the taps in the padding (wrapped to the neighbouring lines) zeroed.
#define SHIFTED(T)                                                                                         \
	AVX2 static inline void shifted_##T(T *out, const T *img, long n, long first, long last, long shift,  \
	                                    long lo1, long hi1, long lo2, long hi2, long o2) {                  \
		copy_##T(out + first, img + first + shift, last - first);                                          \
		zero_##T(out, first);                                                                              \
		zero_##T(out + last, n - last);                                                                    \
		for (long y = lo1; y < hi1; y++) {                                                                 \
			zero_##T(out + y * o2, lo2);                                                                   \
			zero_##T(out + y * o2 + hi2, o2 - hi2);                                                        \
		}                                                                                                  \
	}

// COLS2D defines mxgo_cols2d_<T>: per tap, the windows whose tap lies in the plane are a
// box [lo1, hi1) x [lo2, hi2); each of its lines is one copy (or add) at unit stride.
#define COLS2D(T)                                                                                          \
	AVX2 void mxgo_cols2d_##T(T *img, T *col, long ld, long channels, const long *g, int back) {            \
		long in1 = g[0], in2 = g[1], o1 = g[2], o2 = g[3], k1 = g[4], k2 = g[5];                            \
		long s1 = g[6], s2 = g[7], d1 = g[8], d2 = g[9], p1 = g[10], p2 = g[11], row = 0;                   \
		for (long c = 0; c < channels; c++) {                                                               \
			T *plane = img + c * in1 * in2;                                                                 \
			for (long a = 0; a < k1; a++) {                                                                 \
				for (long b = 0; b < k2; b++, row++) {                                                      \
					T *dst = col + row * ld;                                                                \
					long off1 = a * d1 - p1, off2 = b * d2 - p2, lo1, hi1, lo2, hi2;                         \
					span(off1, s1, in1, o1, &lo1, &hi1);                                                    \
					span(off2, s2, in2, o2, &lo2, &hi2);                                                    \
					if (!back && s1 == 1 && s2 == 1 && o2 == in2 && lo1 < hi1 && lo2 < hi2) {               \
						shifted_##T(dst, plane, o1 * o2, lo1 * o2 + lo2, (hi1 - 1) * o2 + hi2,                 \
						            off1 * in2 + off2, lo1, hi1, lo2, hi2, o2);                                 \
						continue;                                                                           \
					}                                                                                       \
					if (!back) {                                                                            \
						zero_##T(dst, lo1 * o2);                                                                \
						zero_##T(dst + hi1 * o2, (o1 - hi1) * o2);                                             \
					}                                                                                       \
					for (long y = lo1; y < hi1; y++) {                                                      \
						T *line = plane + (y * s1 + off1) * in2, *out = dst + y * o2;                        \
						if (back && s2 == 1) {                                                              \
							add_##T(line + lo2 + off2, out + lo2, hi2 - lo2);                               \
						} else if (back) {                                                                  \
							for (long x = lo2; x < hi2; x++) line[x * s2 + off2] = add1_##T(line[x * s2 + off2], out[x]); \
						} else {                                                                            \
							zero_##T(out, lo2);                                                             \
							if (s2 == 1) {                                                                  \
								copy_##T(out + lo2, line + lo2 + off2, hi2 - lo2);                          \
							} else {                                                                        \
								for (long x = lo2; x < hi2; x++) out[x] = line[x * s2 + off2];              \
							}                                                                               \
							zero_##T(out + hi2, o2 - hi2);                                                  \
						}                                                                                   \
					}                                                                                       \
				}                                                                                           \
			}                                                                                               \
		}                                                                                                   \
	}

#define add1_f32 add1s
#define add1_f64 add1d
SHIFTED(f32)
SHIFTED(f64)
COLS2D(f32)
COLS2D(f64)

#else

int mxgo_im2col_supported(void) { return 0; }
void mxgo_cols2d_f32(float *img, float *col, long ld, long channels, const long *g, int back) {
	(void)img, (void)col, (void)ld, (void)channels, (void)g, (void)back;
}
void mxgo_cols2d_f64(double *img, double *col, long ld, long channels, const long *g, int back) {
	(void)img, (void)col, (void)ld, (void)channels, (void)g, (void)back;
}

#endif
