#include "exp32_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

// exp, sigmoid and tanh on AVX-512's 16 lanes: exp32_lanes.h, as exp32_avx2.c runs it on
// 8, so both give the Go kernels' bits. Only AVX-512F: the float bit operations of
// AVX512DQ (VANDPS on zmm) are done on the int32 lanes, which give the same bits.
#define AVX512 __attribute__((target("avx512f")))

int mxgo_f32_unary512_supported(void) {
	return mxgo_cpu_avx512();
}

typedef __m512 V;
typedef __mmask16 M;
typedef __m512i SI;
#define W 16
#define LANES AVX512
#define SET1 _mm512_set1_ps
#define ADD _mm512_add_ps
#define SUB _mm512_sub_ps
#define DIV _mm512_div_ps
#define MIN _mm512_min_ps
#define MAX _mm512_max_ps
#define ROUND(x) _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define VMUL _mm512_mul_ps
#define BARRIER(x) "+v"(x)
#define PS _mm512_castsi512_ps
#define SI_OF _mm512_castps_si512
#define AND(a, b) PS(_mm512_and_si512(SI_OF(a), SI_OF(b)))
#define OR(a, b) PS(_mm512_or_si512(SI_OF(a), SI_OF(b)))
#define ANDNOT(a, b) PS(_mm512_andnot_si512(SI_OF(a), SI_OF(b)))
#define CMPGT(a, b) _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)
#define CMPLT(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)
#define ANY(m) ((m) != 0)
#define SIGNS(x) _mm512_cmplt_epi32_mask(SI_OF(x), _mm512_setzero_si512())
#define BLEND(m, a, b) _mm512_mask_blend_ps(m, a, b)
#define SLLI _mm512_slli_epi32
#define SRAI _mm512_srai_epi32
#define ADDI _mm512_add_epi32
#define SUBI _mm512_sub_epi32
#define SET1I _mm512_set1_epi32
#define LOADU _mm512_loadu_ps
#define STOREU _mm512_storeu_ps
#include "exp32_lanes.h"

AVX512 void mxgo_f32_unary512(int op, float *dst, const float *src, long n) {
	unary_rows(op, dst, src, n);
}

#else

int mxgo_f32_unary512_supported(void) { return 0; }
void mxgo_f32_unary512(int op, float *dst, const float *src, long n) {
	(void)op, (void)dst, (void)src, (void)n;
}

#endif
