#include "rot_f64.h"

#include "par.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))

// Column block by column block, the row being rotated down the sequence stays in
// registers (carry): each element is loaded and stored once per sequence, not once per
// rotation. Columns past the last full vector take the scalar formula, which is the
// vector one lane by lane.
AVX2 void mxgo_drot_seq(double *z, long ld, long n, long lo, long hi, const double *c, const double *s) {
	long j = 0;
	for (; j + 8 <= n; j += 8) {
		__m256d y0 = _mm256_loadu_pd(z + hi * ld + j), y1 = _mm256_loadu_pd(z + hi * ld + j + 4);
		for (long i = hi - 1; i >= lo; i--) {
			double *r = z + i * ld + j;
			__m256d vc = _mm256_broadcast_sd(c + i), vs = _mm256_broadcast_sd(s + i);
			__m256d x0 = _mm256_loadu_pd(r), x1 = _mm256_loadu_pd(r + 4);
			_mm256_storeu_pd(r + ld, _mm256_fmadd_pd(vs, x0, _mm256_mul_pd(vc, y0)));
			_mm256_storeu_pd(r + ld + 4, _mm256_fmadd_pd(vs, x1, _mm256_mul_pd(vc, y1)));
			y0 = _mm256_fnmadd_pd(vs, y0, _mm256_mul_pd(vc, x0));
			y1 = _mm256_fnmadd_pd(vs, y1, _mm256_mul_pd(vc, x1));
		}
		_mm256_storeu_pd(z + lo * ld + j, y0);
		_mm256_storeu_pd(z + lo * ld + j + 4, y1);
	}
	for (; j < n; j++) {
		double y = z[hi * ld + j];
		for (long i = hi - 1; i >= lo; i--) {
			double x = z[i * ld + j];
			z[(i + 1) * ld + j] = __builtin_fma(s[i], x, c[i] * y);
			y = __builtin_fma(-s[i], y, c[i] * x);
		}
		z[lo * ld + j] = y;
	}
}

typedef struct {
	double *z;
	const double *c, *s;
	long ld, n, lo, hi, parts;
} rot_split;

static void rot_part(void *ctx, long t) {
	const rot_split *r = ctx;
	long b0, b1;
	mxgo_part(t, r->parts, (r->n + 7) / 8, &b0, &b1);
	long j0 = 8 * b0, j1 = 8 * b1 < r->n ? 8 * b1 : r->n;
	if (j1 > j0)
		mxgo_drot_seq(r->z + j0, r->ld, j1 - j0, r->lo, r->hi, r->c, r->s);
}

void mxgo_drot_seq_par(double *z, long ld, long n, long lo, long hi, const double *c, const double *s, long parts) {
	rot_split r = {z, c, s, ld, n, lo, hi, parts};
	mxgo_par(parts, parts, rot_part, &r);
}

#else

void mxgo_drot_seq(double *z, long ld, long n, long lo, long hi, const double *c, const double *s) {}
void mxgo_drot_seq_par(double *z, long ld, long n, long lo, long hi, const double *c, const double *s, long parts) {}

#endif
