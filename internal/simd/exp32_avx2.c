#include "exp32_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

int mxgo_f32_unary_supported(void) {
	return mxgo_cpu_avx2(0);
}

// exp32_lanes.h's vocabulary on AVX2's 8 lanes; masks are vectors of all-ones lanes.
typedef __m256 V;
typedef __m256 M;
typedef __m256i SI;
#define W 8
#define LANES AVX2
#define SET1 _mm256_set1_ps
#define ADD _mm256_add_ps
#define SUB _mm256_sub_ps
#define DIV _mm256_div_ps
#define MIN _mm256_min_ps
#define MAX _mm256_max_ps
#define ROUND(x) _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define VMUL _mm256_mul_ps
#define BARRIER(x) "+x"(x)
#define AND _mm256_and_ps
#define OR _mm256_or_ps
#define ANDNOT _mm256_andnot_ps
#define CMPGT(a, b) _mm256_cmp_ps(a, b, _CMP_GT_OQ)
#define CMPLT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define ANY(m) (_mm256_movemask_ps(m) != 0)
#define SIGNS(x) (x) // BLENDVPS picks by the sign bit
#define BLEND(m, a, b) _mm256_blendv_ps(a, b, m)
#define PS _mm256_castsi256_ps
#define SI_OF _mm256_castps_si256
#define SLLI _mm256_slli_epi32
#define SRAI _mm256_srai_epi32
#define ADDI _mm256_add_epi32
#define SUBI _mm256_sub_epi32
#define SET1I _mm256_set1_epi32
#define LOADU _mm256_loadu_ps
#define STOREU _mm256_storeu_ps
#include "exp32_lanes.h"

// The softmax family's lanes (pkg/ops/nn/softmax_lane.go's softmaxRow, step for step):
// max (any NaN makes it NaN; a zero max is +0), d = (v - max) / t (no division when t is
// 1), e = exp(d), the sum of e in double in eight lanes (element i in lane i % 8 while a
// full eight remain, the lanes added ((0+1)+(2+3))+((4+5)+(6+7)), the rest in order).
// The last n % 8 elements go through the vector code in a zero-padded buffer.

AVX2 INLINE V load_row(const float *r, long i, long n, V sign) {
	if (i + 8 <= n)
		return _mm256_xor_ps(_mm256_loadu_ps(r + i), sign);
	float buf[8] = {0};
	memcpy(buf, r + i, (n - i) * sizeof(float));
	return _mm256_xor_ps(_mm256_loadu_ps(buf), sign);
}

AVX2 INLINE void store_row(float *r, long i, long n, V v) {
	if (i + 8 <= n) {
		_mm256_storeu_ps(r + i, v);
		return;
	}
	float buf[8];
	_mm256_storeu_ps(buf, v);
	memcpy(r + i, buf, (n - i) * sizeof(float));
}

AVX2 INLINE float row_max(const float *r, long n, int neg) {
	V sign = neg ? SET1(-0.0f) : _mm256_setzero_ps();
	V m = SET1(-__builtin_inff()), nan = _mm256_setzero_ps();
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		V v = load_row(r, i, n, sign);
		nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
		m = _mm256_max_ps(m, v);
	}
	float l[8], mx;
	_mm256_storeu_ps(l, m);
	mx = l[0];
	for (int j = 1; j < 8; j++)
		mx = l[j] > mx ? l[j] : mx;
	int any_nan = _mm256_movemask_ps(nan) != 0;
	for (; i < n; i++) {
		float v = neg ? -r[i] : r[i];
		any_nan |= v != v;
		mx = v > mx ? v : mx;
	}
	return any_nan ? __builtin_nanf("") : mx + 0.0f;
}

// shifted is (v - max) / t of the 8 elements from i (v: the row, negated by sign for
// softmin), without the division when t is 1.
AVX2 INLINE V shifted(const float *r, long i, long n, V sign, V m, float t, V tt) {
	V d = SUB(load_row(r, i, n, sign), m);
	return t != 1 ? DIV(d, tt) : d;
}

AVX2 void mxgo_softmax_rows_f32(int kind, const float *x, const long *xo, float *y, const long *yo, long rows,
				 long n, float t, double *sums) {
	V sign = kind == MXGO_SOFTMIN ? SET1(-0.0f) : _mm256_setzero_ps(), tt = SET1(t);
	for (long r = 0; r < rows; r++) {
		const float *xr = x + xo[r];
		float *yr = y + yo[r];
		V m = SET1(row_max(xr, n, kind == MXGO_SOFTMIN));
		__m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
		long i = 0;
		for (; i + 8 <= n; i += 8) {
			V d = shifted(xr, i, n, sign, m, t, tt), e = exp_2(exp_1(d));
			_mm256_storeu_ps(yr + i, kind == MXGO_LOG_SOFTMAX ? d : e);
			lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(e)));
			hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(e, 1)));
		}
		double l[8];
		_mm256_storeu_pd(l, lo);
		_mm256_storeu_pd(l + 4, hi);
		double sum = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
		if (i < n) {
			V d = shifted(xr, i, n, sign, m, t, tt), e = exp_2(exp_1(d));
			float tail[8];
			_mm256_storeu_ps(tail, e);
			for (long j = 0; j < n - i; j++)
				sum += (double)tail[j];
			store_row(yr, i, n, kind == MXGO_LOG_SOFTMAX ? d : e);
		}
		if (kind == MXGO_LOG_SOFTMAX) {
			sums[r] = sum;
			continue;
		}
		V scale = SET1((float)(1 / sum));
		for (i = 0; i < n; i += 8)
			store_row(yr, i, n, _mm256_mul_ps(load_row(yr, i, n, _mm256_setzero_ps()), scale));
	}
}

AVX2 void mxgo_rows_sub_f32(float *y, const long *yo, long rows, long n, const float *c) {
	for (long r = 0; r < rows; r++) {
		float *yr = y + yo[r];
		V cr = SET1(c[r]);
		for (long i = 0; i < n; i += 8)
			store_row(yr, i, n, SUB(load_row(yr, i, n, _mm256_setzero_ps()), cr));
	}
}

AVX2 void mxgo_f32_unary(int op, float *dst, const float *src, long n) {
	unary_rows(op, dst, src, n);
}

#else

void mxgo_softmax_rows_f32(int kind, const float *x, const long *xo, float *y, const long *yo, long rows,
			   long n, float t, double *sums) {
	(void)kind, (void)x, (void)xo, (void)y, (void)yo, (void)rows, (void)n, (void)t, (void)sums;
}
void mxgo_rows_sub_f32(float *y, const long *yo, long rows, long n, const float *c) {
	(void)y, (void)yo, (void)rows, (void)n, (void)c;
}
int mxgo_f32_unary_supported(void) { return 0; }
void mxgo_f32_unary(int op, float *dst, const float *src, long n) {
	(void)op, (void)dst, (void)src, (void)n;
}

#endif
