#include "mvec.h"

#if defined(__x86_64__) && defined(__linux__) // (elsewhere, or without glibc 2.35+, dlopen fails: Go runs)

#include <dlfcn.h>
#include <immintrin.h>
#include <stdio.h>
#include <string.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx512f")))

// A libmvec function: 8 floats in a YMM register (AVX2, "_ZGVdN8v_"), or 16 in a ZMM
// one (AVX-512, "_ZGVeN16v_"), as many out: the x86-64 vector function ABI, which is
// the C one for __m256 and __m512 in code built for those targets.
typedef __m256 (*vec8)(__m256);
typedef __m512 (*vec16)(__m512);
typedef __m256 (*vec8x2)(__m256, __m256); // two arguments ("_ZGVdN8vv_")

static vec8 fns8[MXGO_MV_COUNT];
static vec16 fns16[MXGO_MV_COUNT];
static vec8x2 pow8; // AVX-512 CPUs have powf_avx512.c's, faster than libmvec's 16 lanes
static int use16; // the CPU runs AVX-512 and libmvec has every 16-lane function
static int have16; // use16 as loaded (mxgo_mvec_wide turns use16 off and back)

static const char *const names[MXGO_MV_COUNT] = {
	"acosf", "asinf", "atanf", "acoshf", "asinhf", "atanhf", "coshf", "sinhf",
	"tanf", "cbrtf", "expm1f", "log1pf", "log2f", "log10f", "erff", "logf", "sinf", "cosf",
};

// cpu_avx512f: the CPU has AVX-512F and the OS saves the ZMM state (XCR0 bits 1, 2, 5-7).
static int cpu_avx512f(void) {
	unsigned a, b, c, d, lo, hi;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 0xe6) != 0xe6) return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
	return (b >> 16) & 1;
}

int mxgo_mvec_load(void) {
	if (!mxgo_cpu_avx2(0)) return 0;
	void *lib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL); // kept open for the process
	if (!lib) return 0;
	char name[32];
	use16 = cpu_avx512f();
	for (int i = 0; i < MXGO_MV_COUNT; i++) {
		snprintf(name, sizeof name, "_ZGVdN8v_%s", names[i]);
		if (!(fns8[i] = (vec8)dlsym(lib, name))) return 0;
		snprintf(name, sizeof name, "_ZGVeN16v_%s", names[i]);
		if (!(fns16[i] = (vec16)dlsym(lib, name))) use16 = 0;
	}
	if (!(pow8 = (vec8x2)dlsym(lib, "_ZGVdN8vv_powf"))) return 0;
	have16 = use16;
	return 1;
}

int mxgo_mvec_wide(int on) {
	int was = use16;
	use16 = on && have16;
	return was;
}

// rows16 does the leading multiple of 16 elements with AVX-512 and returns how many.
AVX512 static long rows16(int fn, float *dst, const float *src, long n) {
	vec16 f = fns16[fn == MXGO_MV_RCBRT ? MXGO_MV_CBRT : fn];
	long i = 0;
	for (; i + 16 <= n; i += 16) {
		__m512 y = f(_mm512_loadu_ps(src + i));
		if (fn == MXGO_MV_RCBRT) y = _mm512_div_ps(_mm512_set1_ps(1.0f), y);
		_mm512_storeu_ps(dst + i, y);
	}
	return i;
}

AVX2 static __m256 apply(int fn, __m256 x) {
	if (fn == MXGO_MV_RCBRT) return _mm256_div_ps(_mm256_set1_ps(1.0f), fns8[MXGO_MV_CBRT](x));
	return fns8[fn](x);
}

AVX2 void mxgo_mvec(int fn, float *dst, const float *src, long n) {
	long i = use16 ? rows16(fn, dst, src, n) : 0;
	for (; i + 8 <= n; i += 8) {
		_mm256_storeu_ps(dst + i, apply(fn, _mm256_loadu_ps(src + i)));
	}
	if (i < n) {
		float buf[8] = {0};
		memcpy(buf, src + i, (n - i) * sizeof(float));
		_mm256_storeu_ps(buf, apply(fn, _mm256_loadu_ps(buf)));
		memcpy(dst + i, buf, (n - i) * sizeof(float));
	}
}

AVX2 void mxgo_mvec_pow(float *dst, const float *a, const float *b, long n) {
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		_mm256_storeu_ps(dst + i, pow8(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
	}
	if (i < n) {
		float ba[8] = {0}, bb[8] = {0};
		memcpy(ba, a + i, (n - i) * sizeof(float));
		memcpy(bb, b + i, (n - i) * sizeof(float));
		_mm256_storeu_ps(ba, pow8(_mm256_loadu_ps(ba), _mm256_loadu_ps(bb)));
		memcpy(dst + i, ba, (n - i) * sizeof(float));
	}
}

#else

int mxgo_mvec_load(void) { return 0; }
void mxgo_mvec(int fn, float *dst, const float *src, long n) {
	(void)fn, (void)dst, (void)src, (void)n;
}
void mxgo_mvec_pow(float *dst, const float *a, const float *b, long n) {
	(void)dst, (void)a, (void)b, (void)n;
}
int mxgo_mvec_wide(int on) { return (void)on, 0; }

#endif
