#include "reduce_simd.h"
#include "par.h"

// NumPy's pairwise summation (see redPairwiseSum in reduce_kernels.go) with its eight
// running sums r0..r7 held as two 4-lane double vectors: lane i of lo/hi is r_i /
// r_{4+i}, each vector add is the same eight scalar additions in the same order, so the
// result is identical bit for bit. This needs IEEE arithmetic as written: the cgo flags
// turn gopy's -ffast-math off (it would let the compiler reassociate the sums).

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))

int mxgo_redsum_supported(void) {
	return mxgo_cpu_avx2(0);
}

// Loads of elements v[0..8) widened to double, as lanes 0-3 (lo) and 4-7 (hi).
AVX2 static inline __m256d lo_f32(const float *v) { return _mm256_cvtps_pd(_mm_loadu_ps(v)); }
AVX2 static inline __m256d hi_f32(const float *v) { return _mm256_cvtps_pd(_mm_loadu_ps(v + 4)); }
AVX2 static inline __m256d lo_f64(const double *v) { return _mm256_loadu_pd(v); }
AVX2 static inline __m256d hi_f64(const double *v) { return _mm256_loadu_pd(v + 4); }

// PAIRWISE defines the sum for element type T (the two differ only in their loads):
// fewer than 8 elements in order from 0, up to 128 with the running sums, more split in
// two halves (the first a multiple of 8 long) summed recursively.
#define PAIRWISE(NAME, T, LO, HI)                                                        \
	AVX2 double NAME(const T *v, long n) {                                           \
		if (n < 8) {                                                             \
			double s = 0;                                                    \
			for (long i = 0; i < n; i++)                                     \
				s += (double)v[i];                                       \
			return s;                                                        \
		}                                                                        \
		if (n <= 128) {                                                          \
			__m256d lo = LO(v), hi = HI(v);                                  \
			long i = 8;                                                      \
			for (; i + 8 <= n; i += 8) {                                     \
				lo = _mm256_add_pd(lo, LO(v + i));                       \
				hi = _mm256_add_pd(hi, HI(v + i));                       \
			}                                                                \
			double r[8];                                                     \
			_mm256_storeu_pd(r, lo);                                         \
			_mm256_storeu_pd(r + 4, hi);                                     \
			double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])); \
			for (; i < n; i++)                                               \
				s += (double)v[i];                                       \
			return s;                                                        \
		}                                                                        \
		long h = n / 2;                                                          \
		h -= h % 8;                                                              \
		return NAME(v, h) + NAME(v + h, n - h);                                  \
	}

PAIRWISE(mxgo_redsum_f32, float, lo_f32, hi_f32)
PAIRWISE(mxgo_redsum_f64, double, lo_f64, hi_f64)

AVX2 void mxgo_redsum_rows_f32(const float *v, long rows, long step, long n, double *out) {
	for (long r = 0; r < rows; r++)
		out[r] = mxgo_redsum_f32(v + r * step, n);
}

AVX2 void mxgo_redsum_rows_f64(const double *v, long rows, long step, long n, double *out) {
	for (long r = 0; r < rows; r++)
		out[r] = mxgo_redsum_f64(v + r * step, n);
}

// mxgo_redsum_par's pieces: v cut where the pairwise recursion halves it (min > 128, so
// at cuts the recursion makes), down to one piece a part, each summed on the pool's
// threads and added as the recursion adds: the bits of one mxgo_redsum.
enum { PAR_MOST = 64 };
typedef struct {
	const char *v;
	long esize, pieces, min;
	long off[PAR_MOST], len[PAR_MOST];
	double sum[PAR_MOST];
} redsum_split;

static void cut(redsum_split *s, long off, long n, long parts) {
	if (parts < 2 || n < 2 * s->min) {
		s->off[s->pieces] = off, s->len[s->pieces] = n, s->pieces++;
		return;
	}
	long h = n / 2;
	h -= h % 8;
	cut(s, off, h, parts / 2);
	cut(s, off + h, n - h, parts - parts / 2);
}

static double join(const redsum_split *s, long n, long parts, long *next) {
	if (parts < 2 || n < 2 * s->min) // cut's test
		return s->sum[(*next)++];
	long h = n / 2;
	h -= h % 8;
	double l = join(s, h, parts / 2, next);
	return l + join(s, n - h, parts - parts / 2, next);
}

static void piece(void *ctx, long i) {
	redsum_split *s = ctx;
	const char *p = s->v + s->off[i] * s->esize;
	s->sum[i] = s->esize == 4 ? mxgo_redsum_f32((const float *)p, s->len[i]) : mxgo_redsum_f64((const double *)p, s->len[i]);
}

double mxgo_redsum_par(const void *v, long esize, long n, long parts, long min) {
	redsum_split s = {.v = v, .esize = esize, .min = min};
	parts = parts < PAR_MOST ? parts : PAR_MOST; // at most parts pieces
	cut(&s, 0, n, parts);
	mxgo_par(s.pieces, s.pieces, piece, &s);
	long next = 0;
	return join(&s, n, parts, &next);
}

#else

double mxgo_redsum_par(const void *v, long esize, long n, long parts, long min) { return 0; }
int mxgo_redsum_supported(void) { return 0; }
double mxgo_redsum_f32(const float *v, long n) { return 0; }
double mxgo_redsum_f64(const double *v, long n) { return 0; }
void mxgo_redsum_rows_f32(const float *v, long rows, long step, long n, double *out) {}
void mxgo_redsum_rows_f64(const double *v, long rows, long step, long n, double *out) {}

#endif
