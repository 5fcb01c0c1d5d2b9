#include "sgd_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

// avx2 without fma: a product and a sum stay two roundings, as in Go.
#define AVX2 __attribute__((target("avx2")))

int mxgo_sgd_supported(void) { return mxgo_cpu_avx2(0); }

AVX2 void mxgo_sgd_f32(float *out, float *mom, const float *w, const float *g, long n, float m, float lrwd,
		       float lr, float rescale) {
	__m256 vm = _mm256_set1_ps(m), vlrwd = _mm256_set1_ps(lrwd), vlr = _mm256_set1_ps(lr),
	       vres = _mm256_set1_ps(rescale), vkeep = _mm256_set1_ps(1 - lrwd);
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256 wi = _mm256_loadu_ps(w + i);
		__m256 step = _mm256_mul_ps(vlr, _mm256_mul_ps(vres, _mm256_loadu_ps(g + i)));
		if (mom) {
			__m256 mi = _mm256_sub_ps(_mm256_sub_ps(_mm256_mul_ps(vm, _mm256_loadu_ps(mom + i)),
								_mm256_mul_ps(vlrwd, wi)), step);
			_mm256_storeu_ps(mom + i, mi);
			_mm256_storeu_ps(out + i, _mm256_add_ps(wi, mi));
		} else {
			_mm256_storeu_ps(out + i, _mm256_sub_ps(_mm256_mul_ps(vkeep, wi), step));
		}
	}
	for (; i < n; i++) {
		float step = lr * (rescale * g[i]);
		if (mom) {
			mom[i] = m * mom[i] - lrwd * w[i] - step;
			out[i] = w[i] + mom[i];
		} else {
			out[i] = (1 - lrwd) * w[i] - step;
		}
	}
}

// adam_state holds mxgo_adam_f32's parameters in lanes.
typedef struct {
	__m256 lr, b1, b2, omb1, omb2, eps, wd, rescale, clip, negclip;
	int has_clip;
} adam_state;

// adam8 updates 8 weights. min and max return their second operand when either is NaN:
// gi's, so a NaN gradient stays NaN, as under Go's min and max.
AVX2 static inline void adam8(const adam_state *s, float *out, float *mean, float *var, const float *w, const float *g) {
	__m256 wi = _mm256_loadu_ps(w);
	__m256 gi = _mm256_add_ps(_mm256_mul_ps(s->rescale, _mm256_loadu_ps(g)), _mm256_mul_ps(s->wd, wi));
	if (s->has_clip)
		gi = _mm256_max_ps(s->negclip, _mm256_min_ps(s->clip, gi));
	__m256 m = _mm256_add_ps(_mm256_mul_ps(s->b1, _mm256_loadu_ps(mean)), _mm256_mul_ps(s->omb1, gi));
	__m256 v = _mm256_add_ps(_mm256_mul_ps(s->b2, _mm256_loadu_ps(var)), _mm256_mul_ps(_mm256_mul_ps(s->omb2, gi), gi));
	_mm256_storeu_ps(mean, m);
	_mm256_storeu_ps(var, v);
	__m256 step = _mm256_div_ps(_mm256_mul_ps(s->lr, m), _mm256_add_ps(_mm256_sqrt_ps(v), s->eps));
	_mm256_storeu_ps(out, _mm256_sub_ps(wi, step));
}

AVX2 void mxgo_adam_f32(float *out, float *mean, float *var, const float *w, const float *g, long n, float lr,
			float b1, float b2, float omb1, float omb2, float eps, float wd, float rescale, int has_clip,
			float clip) {
	adam_state s = {_mm256_set1_ps(lr), _mm256_set1_ps(b1), _mm256_set1_ps(b2), _mm256_set1_ps(omb1),
			_mm256_set1_ps(omb2), _mm256_set1_ps(eps), _mm256_set1_ps(wd), _mm256_set1_ps(rescale),
			_mm256_set1_ps(clip), _mm256_set1_ps(-clip), has_clip};
	long i = 0;
	for (; i + 8 <= n; i += 8)
		adam8(&s, out + i, mean + i, var + i, w + i, g + i);
	if (i == n)
		return;
	// The tail in the same lanes (the scalar code's operand order is the compiler's):
	// through zero-padded copies.
	float t[5][8] = {{0}};
	long r = n - i;
	for (long j = 0; j < r; j++)
		t[0][j] = mean[i + j], t[1][j] = var[i + j], t[2][j] = w[i + j], t[3][j] = g[i + j];
	adam8(&s, t[4], t[0], t[1], t[2], t[3]);
	for (long j = 0; j < r; j++)
		mean[i + j] = t[0][j], var[i + j] = t[1][j], out[i + j] = t[4][j];
}

#else

int mxgo_sgd_supported(void) { return 0; }

void mxgo_adam_f32(float *out, float *mean, float *var, const float *w, const float *g, long n, float lr, float b1,
		   float b2, float omb1, float omb2, float eps, float wd, float rescale, int has_clip, float clip) {}

void mxgo_sgd_f32(float *out, float *mom, const float *w, const float *g, long n, float m, float lrwd,
		  float lr, float rescale) {}

#endif
