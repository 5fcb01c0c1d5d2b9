#include "pool2d.h"

// Plain loops over each window, compiled without fast math (a ResNet's windows are 3x3,
// too short for vectors).

static long lmax(long a, long b) { return a > b ? a : b; }
static long lmin(long a, long b) { return a < b ? a : b; }

#if defined(__x86_64__)
#include <immintrin.h>
#define TARGET __attribute__((target("avx2")))

// m, or Go's max(m, v) when v is a number (+0 beats -0), without a branch on the data
// (the comparisons of random data mispredict: the branchy form ran at half Go's speed).
TARGET static inline float maxnum(float m, float v) {
	__m128 mv = _mm_set_ss(m), vv = _mm_set_ss(v);
	__m128 r = _mm_blendv_ps(_mm_max_ss(vv, mv), _mm_and_ps(vv, mv), _mm_cmpeq_ss(vv, mv));
	return _mm_cvtss_f32(_mm_blendv_ps(mv, r, _mm_cmpeq_ss(vv, vv)));
}
#else
#define TARGET
static inline float maxnum(float m, float v) {
	if (v != v)
		return m;
	return v > m || (v == m && __builtin_signbit(m)) ? v : m;
}
#endif

TARGET static void maxplane(const float *x, float *y, const long *g, float lowest) {
	long in1 = g[0], in2 = g[1], o1 = g[2], o2 = g[3], k1 = g[4], k2 = g[5], s1 = g[6], s2 = g[7], p1 = g[10], p2 = g[11];
	for (long a = 0; a < o1; a++) {
		long r0 = lmax(a * s1 - p1, 0), r1 = lmin(a * s1 - p1 + k1, in1);
		for (long b = 0; b < o2; b++) {
			long c0 = lmax(b * s2 - p2, 0), c1 = lmin(b * s2 - p2 + k2, in2);
			float m = lowest;
			for (long r = r0; r < r1; r++)
				for (long c = c0; c < c1; c++)
					m = maxnum(m, x[r * in2 + c]);
			*y++ = m;
		}
	}
}

static void unmaxplane(const float *x, const float *y, const float *gy, float *dx, const long *g, int ties) {
	long in1 = g[0], in2 = g[1], o1 = g[2], o2 = g[3], k1 = g[4], k2 = g[5], s1 = g[6], s2 = g[7], p1 = g[10], p2 = g[11];
	for (long a = 0; a < o1; a++) {
		long r0 = lmax(a * s1 - p1, 0), r1 = lmin(a * s1 - p1 + k1, in1);
		for (long b = 0; b < o2; b++) {
			long c0 = lmax(b * s2 - p2, 0), c1 = lmin(b * s2 - p2 + k2, in2);
			float yi = *y++, gi = *gy++;
			int taken = 0;
			for (long r = r0; r < r1; r++)
				for (long c = c0; c < c1; c++) {
					int hit = x[r * in2 + c] == yi;
					dx[r * in2 + c] += gi * (float)(hit & ~(taken & ~ties));
					taken |= hit;
				}
		}
	}
}

TARGET void mxgo_maxplanes2d_f32(const float *x, float *y, long planes, const long *g, float lowest) {
	long in = g[0] * g[1], out = g[2] * g[3];
	for (long p = 0; p < planes; p++)
		maxplane(x + p * in, y + p * out, g, lowest);
}

void mxgo_unmaxplanes2d_f32(const float *x, const float *y, const float *gy, float *dx, long planes, const long *g,
			    int ties) {
	long in = g[0] * g[1], out = g[2] * g[3];
	for (long p = 0; p < planes; p++) {
		float *d = dx + p * in;
		for (long i = 0; i < in; i++)
			d[i] = 0;
		unmaxplane(x + p * in, y + p * out, gy + p * out, d, g, ties);
	}
}
