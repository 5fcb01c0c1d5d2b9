#include "moments_avx2.h"

// Sixteen running sums in double (four 4-lane vectors: element i goes to sum i % 16 up
// to the last multiple of 16), combined as ((s[l] + s[4+l]) + (s[8+l] + s[12+l])) per
// lane l, then (l0 + l2) + (l1 + l3), then the tail in order: the order of nn's Go
// twins (nn_norm_rows.go). Plain AVX2 without FMA, so that no multiply and add fuse.

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))

int mxgo_moments_supported(void) {
	return mxgo_cpu_avx2(0);
}

AVX2 static inline double fold16(__m256d a0, __m256d a1, __m256d a2, __m256d a3) {
	__m256d t = _mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3));
	__m128d lo = _mm256_castpd256_pd128(t), hi = _mm256_extractf128_pd(t, 1);
	__m128d h = _mm_add_pd(lo, hi); // (l0 + l2), (l1 + l3)
	return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}

AVX2 static inline double sum16(const float *x, long n) {
	__m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
	long i = 0;
	for (; i + 16 <= n; i += 16) {
		a0 = _mm256_add_pd(a0, _mm256_cvtps_pd(_mm_loadu_ps(x + i)));
		a1 = _mm256_add_pd(a1, _mm256_cvtps_pd(_mm_loadu_ps(x + i + 4)));
		a2 = _mm256_add_pd(a2, _mm256_cvtps_pd(_mm_loadu_ps(x + i + 8)));
		a3 = _mm256_add_pd(a3, _mm256_cvtps_pd(_mm_loadu_ps(x + i + 12)));
	}
	double s = fold16(a0, a1, a2, a3);
	for (; i < n; i++)
		s += (double)x[i];
	return s;
}

AVX2 double mxgo_sum16_f32(const float *x, long n) {
	return sum16(x, n);
}

AVX2 void mxgo_rowsum16_f32(const float *x, long rows, long n, double *out) {
	for (long r = 0; r < rows; r++)
		out[r] = sum16(x + r * n, n);
}

AVX2 static inline __m256d sqdev(__m256d a, const float *x, __m256d m) {
	__m256d d = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x)), m);
	return _mm256_add_pd(a, _mm256_mul_pd(d, d));
}

AVX2 double mxgo_sqdev16_f32(const float *x, long n, double m) {
	__m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0, mv = _mm256_set1_pd(m);
	long i = 0;
	for (; i + 16 <= n; i += 16) {
		a0 = sqdev(a0, x + i, mv);
		a1 = sqdev(a1, x + i + 4, mv);
		a2 = sqdev(a2, x + i + 8, mv);
		a3 = sqdev(a3, x + i + 12, mv);
	}
	double s = fold16(a0, a1, a2, a3);
	for (; i < n; i++) {
		double d = (double)x[i] - m;
		s += d * d;
	}
	return s;
}

AVX2 static inline double fold8(__m256d a0, __m256d a1) {
	__m256d t = _mm256_add_pd(a0, a1);
	__m128d h = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
	return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}

AVX2 void mxgo_bnsums_f32(const float *x, const float *g, long n, double m, double *out) {
	__m256d q0 = _mm256_setzero_pd(), q1 = q0, s0 = q0, s1 = q0, p0 = q0, p1 = q0, mv = _mm256_set1_pd(m);
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256d d0 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), mv);
		__m256d d1 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 4)), mv);
		__m256d g0 = _mm256_cvtps_pd(_mm_loadu_ps(g + i)), g1 = _mm256_cvtps_pd(_mm_loadu_ps(g + i + 4));
		q0 = _mm256_add_pd(q0, _mm256_mul_pd(d0, d0));
		q1 = _mm256_add_pd(q1, _mm256_mul_pd(d1, d1));
		s0 = _mm256_add_pd(s0, g0);
		s1 = _mm256_add_pd(s1, g1);
		p0 = _mm256_add_pd(p0, _mm256_mul_pd(g0, d0));
		p1 = _mm256_add_pd(p1, _mm256_mul_pd(g1, d1));
	}
	double q = fold8(q0, q1), sg = fold8(s0, s1), sgx = fold8(p0, p1);
	for (; i < n; i++) {
		double d = (double)x[i] - m, gv = (double)g[i];
		q += d * d;
		sg += gv;
		sgx += gv * d;
	}
	out[0] += q;
	out[1] += sg;
	out[2] += sgx;
}

AVX2 void mxgo_lngrad_row_f32(float *out, const float *x, const float *g, const float *gamma, long n, double m, double inv) {
	const __m256d mv = _mm256_set1_pd(m);
	__m256d s0 = _mm256_setzero_pd(), s1 = s0, p0 = s0, p1 = s0;
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256d h0 = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(g + i)), _mm256_cvtps_pd(_mm_loadu_ps(gamma + i)));
		__m256d h1 = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(g + i + 4)), _mm256_cvtps_pd(_mm_loadu_ps(gamma + i + 4)));
		s0 = _mm256_add_pd(s0, h0);
		s1 = _mm256_add_pd(s1, h1);
		p0 = _mm256_add_pd(p0, _mm256_mul_pd(h0, _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), mv)));
		p1 = _mm256_add_pd(p1, _mm256_mul_pd(h1, _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 4)), mv)));
	}
	double sh = fold8(s0, s1), shx = fold8(p0, p1);
	for (long j = i; j < n; j++) {
		double h = (double)g[j] * (double)gamma[j];
		sh += h;
		shx += h * ((double)x[j] - m);
	}
	double mh = sh / (double)n, mhx = shx * inv * inv / (double)n;
	const __m256d mhv = _mm256_set1_pd(mh), mhxv = _mm256_set1_pd(mhx), invv = _mm256_set1_pd(inv);
	for (i = 0; i + 4 <= n; i += 4) {
		__m256d h = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(g + i)), _mm256_cvtps_pd(_mm_loadu_ps(gamma + i)));
		__m256d d = _mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), mv), mhxv);
		_mm_storeu_ps(out + i, _mm256_cvtpd_ps(_mm256_mul_pd(invv, _mm256_sub_pd(_mm256_sub_pd(h, mhv), d))));
	}
	for (; i < n; i++) {
		double h = (double)g[i] * (double)gamma[i];
		out[i] = (float)(inv * ((h - mh) - ((double)x[i] - m) * mhx));
	}
}

AVX2 void mxgo_lnparams_row_f32(double *dg, double *db, const float *x, const float *g, long n, double m, double inv) {
	const __m256d mv = _mm256_set1_pd(m), invv = _mm256_set1_pd(inv);
	long i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256d gv = _mm256_cvtps_pd(_mm_loadu_ps(g + i));
		__m256d xh = _mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), mv), invv);
		_mm256_storeu_pd(dg + i, _mm256_add_pd(_mm256_loadu_pd(dg + i), _mm256_mul_pd(gv, xh)));
		_mm256_storeu_pd(db + i, _mm256_add_pd(_mm256_loadu_pd(db + i), gv));
	}
	for (; i < n; i++) {
		double gv = (double)g[i];
		dg[i] += gv * (((double)x[i] - m) * inv);
		db[i] += gv;
	}
}

AVX2 void mxgo_affine_f32(float *y, const float *x, long n, float m, float s, const float *g, const float *b, int vec) {
	const __m256 mv = _mm256_set1_ps(m), sv = _mm256_set1_ps(s);
	__m256 gv = _mm256_set1_ps(g[0]), bv = _mm256_set1_ps(b[0]);
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		if (vec) {
			gv = _mm256_loadu_ps(g + i);
			bv = _mm256_loadu_ps(b + i);
		}
		__m256 v = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), mv), sv);
		_mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_mul_ps(v, gv), bv));
	}
	for (; i < n; i++) {
		float gi = vec ? g[i] : g[0], bi = vec ? b[i] : b[0];
		float v = (x[i] - m) * s;
		v = v * gi;
		y[i] = v + bi;
	}
}

#else

int mxgo_moments_supported(void) { return 0; }
double mxgo_sum16_f32(const float *x, long n) { (void)x, (void)n; return 0; }
double mxgo_sqdev16_f32(const float *x, long n, double m) { (void)x, (void)n, (void)m; return 0; }
void mxgo_rowsum16_f32(const float *x, long rows, long n, double *out) { (void)x, (void)rows, (void)n, (void)out; }
void mxgo_bnsums_f32(const float *x, const float *g, long n, double m, double *out) {
	(void)x, (void)g, (void)n, (void)m, (void)out;
}
void mxgo_lngrad_row_f32(float *out, const float *x, const float *g, const float *gamma, long n, double m, double inv) {
	(void)out, (void)x, (void)g, (void)gamma, (void)n, (void)m, (void)inv;
}
void mxgo_lnparams_row_f32(double *dg, double *db, const float *x, const float *g, long n, double m, double inv) {
	(void)dg, (void)db, (void)x, (void)g, (void)n, (void)m, (void)inv;
}
void mxgo_affine_f32(float *y, const float *x, long n, float m, float s, const float *g, const float *b, int vec) {
	(void)y, (void)x, (void)n, (void)m, (void)s, (void)g, (void)b, (void)vec;
}

#endif
