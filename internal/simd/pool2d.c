#include "pool2d.h"

// Plain loops, compiled without fast math: a window of a ResNet's pooling is 3x3, too
// short for vectors, and Go's bounds checks on every element were what cost.

static long lmax(long a, long b) { return a > b ? a : b; }
static long lmin(long a, long b) { return a < b ? a : b; }

// Go's max of two numbers: +0 beats -0.
static inline float maxz(float m, float v) { return v > m || (v == m && __builtin_signbit(m)) ? v : m; }

void mxgo_maxplane2d_f32(const float *x, float *y, const long *g, float lowest) {
	long in1 = g[0], in2 = g[1], o1 = g[2], o2 = g[3], k1 = g[4], k2 = g[5], s1 = g[6], s2 = g[7], p1 = g[10], p2 = g[11];
	for (long a = 0; a < o1; a++) {
		long r0 = lmax(a * s1 - p1, 0), r1 = lmin(a * s1 - p1 + k1, in1);
		for (long b = 0; b < o2; b++) {
			long c0 = lmax(b * s2 - p2, 0), c1 = lmin(b * s2 - p2 + k2, in2);
			float m = lowest;
			for (long r = r0; r < r1; r++)
				for (long c = c0; c < c1; c++) {
					float v = x[r * in2 + c];
					if (v == v)
						m = maxz(m, v);
				}
			*y++ = m;
		}
	}
}

void mxgo_unmaxplane2d_f32(const float *x, const float *y, const float *gy, float *dx, const long *g, int ties) {
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
