#include "taps.h"

// Plain loops: what Go pays here is a bounds check an element and no vectorised gather;
// GCC turns the copy into AVX2 gathers where the target allows.
#if defined(__x86_64__)
#define TARGET __attribute__((target("avx2")))
#else
#define TARGET
#endif

#define TAPS(T)                                                                                      \
	TARGET void mxgo_taps_##T(const int32_t *t, long taps, long cols, T *img, long vol, T *col,     \
				  long ld, long channels, int back) {                                  \
		for (long c = 0; c < channels; c++) {                                                  \
			T *src = img + c * vol;                                                        \
			for (long k = 0; k < taps; k++) {                                              \
				T *row = col + (c * taps + k) * ld;                                    \
				const int32_t *offs = t + k * cols;                                    \
				if (back) {                                                            \
					for (long p = 0; p < cols; p++)                                \
						if (offs[p] >= 0)                                      \
							src[offs[p]] += row[p];                        \
					continue;                                                      \
				}                                                                      \
				for (long p = 0; p < cols; p++)                                        \
					row[p] = offs[p] >= 0 ? src[offs[p]] : 0;                      \
			}                                                                              \
		}                                                                                      \
	}

#define SPREAD(T)                                                                                    \
	TARGET void mxgo_spread_##T(T *w, T *m, const long *taps, long ov, long iv, long kv, long c,    \
				    int back) {                                                        \
		for (long o = 0; o < ov; o++, m += c * iv)                                             \
			for (long i = 0; i < iv; i++) {                                                \
				T *a = m + i, *b = w + taps[o * iv + i];                               \
				if (back)                                                              \
					for (long j = 0; j < c; j++)                                   \
						b[j * kv] += a[j * iv];                                \
				else                                                                   \
					for (long j = 0; j < c; j++)                                   \
						a[j * iv] = b[j * kv];                                 \
			}                                                                              \
	}

typedef float f32;
typedef double f64;
TAPS(f32)
TAPS(f64)
SPREAD(f32)
SPREAD(f64)
