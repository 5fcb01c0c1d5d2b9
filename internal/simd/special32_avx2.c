#include "special32_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>
#include "cpu.h"

#define KERNEL __attribute__((target("avx2,fma")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_special32_supported(void) {
	return mxgo_cpu_avx2(1);
}

typedef __m256d D;
typedef __m256d M; // a lane's bits all ones where the mask holds
#define SET1 _mm256_set1_pd
#define ADD _mm256_add_pd
#define SUB _mm256_sub_pd
#define MUL _mm256_mul_pd
#define FMA _mm256_fmadd_pd
#define SQRT _mm256_sqrt_pd
#define MAX _mm256_max_pd
#define MIN _mm256_min_pd
#define ZERO _mm256_setzero_pd
#define ROUND _mm256_round_pd
#define CMP _mm256_cmp_pd
#define BLEND(a, b, m) _mm256_blendv_pd(a, b, m)
#define ANY(m) (_mm256_movemask_pd(m) != 0)
#define MOR _mm256_or_pd
#define MAND _mm256_and_pd
#define ZERO_WHERE(m, x) _mm256_andnot_pd(m, x)
#define BITOR _mm256_or_pd
#define ABS(x) _mm256_andnot_pd(SET1(-0.0), x)
#define SIGN_OF(x) _mm256_and_pd(x, SET1(-0.0))
#define FLIP _mm256_xor_pd
#define RECIP(x) _mm256_div_pd(SET1(1), x)

// POW2 is 2**k for integer k in double's exponent range: k + 1023 in the exponent field,
// read off k + 2**52 + 1023's low bits. PARITY is the sign bit where n is odd (n + 2**52's
// lowest bit is n's parity), for FLIP.
KERNEL INLINE D POW2(D k) {
	return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(ADD(k, SET1(0x1p52 + 1023))), 52));
}

KERNEL INLINE D PARITY(D n) {
	return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(ADD(ABS(n), SET1(0x1p52))), 63));
}

// vlog is log(x) for normal x > 0: x = m * 2**e with m in [sqrt(1/2), sqrt(2)), and
// log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172, by its series to s**21 (the next
// term is below 1e-17). Adding BIAS moves the exponent boundary from m = 1 to
// m = sqrt(1/2), so that the integer exponent and mantissa split there.
static const double ATANH[] = {2.0 / 21, 2.0 / 19, 2.0 / 17, 2.0 / 15, 2.0 / 13, 2.0 / 11, 2.0 / 9, 2.0 / 7, 2.0 / 5, 2.0 / 3};
KERNEL INLINE D poly(const double *c, int n, D t); // special32_body.h

KERNEL INLINE D vlog(D x) {
	const long long sqrt_half = 0x3fe6a09e667f3bcdLL, one = 0x3ff0000000000000LL;
	__m256i u = _mm256_add_epi64(_mm256_castpd_si256(x), _mm256_set1_epi64x(one - sqrt_half));
	__m256i eb = _mm256_srli_epi64(u, 52); // the biased exponent of x (of 2x below sqrt(1/2))
	__m256i mb = _mm256_add_epi64(_mm256_and_si256(u, _mm256_set1_epi64x((1LL << 52) - 1)), _mm256_set1_epi64x(sqrt_half));
	// eb as a double: its bits in the mantissa of 2**52, less 2**52 and the bias
	D e = SUB(_mm256_castsi256_pd(_mm256_or_si256(eb, _mm256_set1_epi64x(0x4330000000000000LL))), SET1(0x1p52 + 1023));
	D f = SUB(_mm256_castsi256_pd(mb), SET1(1));
	D s = _mm256_div_pd(f, ADD(SET1(2), f)), z = MUL(s, s);
	D r = FMA(MUL(s, z), poly(ATANH, 10, z), MUL(SET1(2), s));
	return FMA(e, SET1(0x1.62e42fefa39efp-1), r);
}

#include "special32_body.h"

// rows converts 4 floats at a time to double, applies op, and rounds back; the last
// 1-3 go through a buffer padded with 1s.
#define ROWS(name, OP)                                                                     \
	KERNEL static void name(float *dst, const float *src, long n) {                     \
		long i = 0;                                                                  \
		for (; i + 4 <= n; i += 4)                                                   \
			_mm_storeu_ps(dst + i, _mm256_cvtpd_ps(OP(_mm256_cvtps_pd(_mm_loadu_ps(src + i))))); \
		if (i < n) {                                                                 \
			float buf[4] = {1, 1, 1, 1};                                         \
			memcpy(buf, src + i, (size_t)(n - i) * sizeof(float));              \
			_mm_storeu_ps(buf, _mm256_cvtpd_ps(OP(_mm256_cvtps_pd(_mm_loadu_ps(buf))))); \
			memcpy(dst + i, buf, (size_t)(n - i) * sizeof(float));               \
		}                                                                            \
	}

ROWS(erfinv_rows, erfinv_lanes)
ROWS(lgamma_rows, lgamma_lanes)
ROWS(gamma_rows, gamma_lanes)

SPECIAL_ENTRY(mxgo_special32)

#else

int mxgo_special32_supported(void) {
	return 0;
}

void mxgo_special32(int op, float *dst, const float *src, long n) {
	(void)op, (void)dst, (void)src, (void)n;
}

#endif
