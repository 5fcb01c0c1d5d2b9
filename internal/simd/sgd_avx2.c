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

#else

int mxgo_sgd_supported(void) { return 0; }

void mxgo_sgd_f32(float *out, float *mom, const float *w, const float *g, long n, float m, float lrwd,
		  float lr, float rescale) {}

#endif
