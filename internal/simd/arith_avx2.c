#include "arith_avx2.h"
#include "par.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include "cpu.h"

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

int mxgo_arith_supported(void) {
	return mxgo_cpu_avx2(0);
}

// Each element is one IEEE operation, exact in any lane, so only two things could make
// the bits differ from Go's loops: contraction or reassociation (none here; the cgo
// flags also turn gopy's -ffast-math off), and operand order. Where both operands are
// NaN, x86 returns the first source's payload, and Go's ADDSS/MULSS keep pkg/ops/elemwise/arith.go's
// order (x op y); GCC, though, takes + and * as commutative and may swap them, e.g. to
// fold a load. So each operation is its instruction in asm, with the order as written.
#define OP(NAME, V, INSN)                                                   \
	AVX2 INLINE V NAME(V a, V b) {                                      \
		V r;                                                        \
		__asm__(INSN " %2, %1, %0" : "=x"(r) : "x"(a), "xm"(b));    \
		return r;                                                   \
	}

// The forms of a row: x op y, x op c, c op x.
enum { ARRAY, SCALAR, REVERSED };

// KERNELS defines the kernels for element type T, W of them to vector V.
//
// rows does 4 vectors a step, then single ones; the last n%W elements are the last W
// again, overlapping what the loop wrote with the same values. That vector is computed
// before the loop stores anything, so o == x or o == y still reads the inputs.
// Compiled once per op and form (constants after inlining).
#define KERNELS(T, V, W, SFX, LOADU, STOREU, SET1, ADDI, SUBI, MULI, DIVI)                      \
	OP(add_##SFX, V, ADDI)                                                                  \
	OP(sub_##SFX, V, SUBI)                                                                  \
	OP(mul_##SFX, V, MULI)                                                                  \
	OP(div_##SFX, V, DIVI)                                                                  \
                                                                                                \
	AVX2 INLINE V elem_##SFX(int op, int form, const T *x, const T *y, V c, long i) {       \
		V a = LOADU(x + i), b = c;                                                      \
		if (form == ARRAY)                                                              \
			b = LOADU(y + i);                                                       \
		if (form == REVERSED)                                                           \
			b = a, a = c;                                                           \
		switch (op) {                                                                   \
		case MXGO_ARITH_ADD:                                                            \
			return add_##SFX(a, b);                                                 \
		case MXGO_ARITH_SUB:                                                            \
			return sub_##SFX(a, b);                                                 \
		case MXGO_ARITH_MUL:                                                            \
			return mul_##SFX(a, b);                                                 \
		default:                                                                        \
			return div_##SFX(a, b);                                                 \
		}                                                                               \
	}                                                                                       \
                                                                                                \
	AVX2 INLINE void rows_##SFX(int op, int form, T *o, const T *x, const T *y, V c, long n) { \
		V last = elem_##SFX(op, form, x, y, c, n - W);                                  \
		long i = 0;                                                                     \
		for (; i + 4 * W <= n; i += 4 * W) {                                            \
			V r0 = elem_##SFX(op, form, x, y, c, i);                                \
			V r1 = elem_##SFX(op, form, x, y, c, i + W);                            \
			V r2 = elem_##SFX(op, form, x, y, c, i + 2 * W);                        \
			V r3 = elem_##SFX(op, form, x, y, c, i + 3 * W);                        \
			STOREU(o + i, r0);                                                      \
			STOREU(o + i + W, r1);                                                  \
			STOREU(o + i + 2 * W, r2);                                              \
			STOREU(o + i + 3 * W, r3);                                              \
		}                                                                               \
		for (; i + W <= n; i += W)                                                      \
			STOREU(o + i, elem_##SFX(op, form, x, y, c, i));                        \
		STOREU(o + n - W, last);                                                        \
	}                                                                                       \
                                                                                                \
	AVX2 INLINE void form_##SFX(int op, int form, T *o, const T *x, const T *y, V c, long n) { \
		switch (op) {                                                                   \
		case MXGO_ARITH_ADD:                                                            \
			rows_##SFX(MXGO_ARITH_ADD, form, o, x, y, c, n);                        \
			break;                                                                  \
		case MXGO_ARITH_SUB:                                                            \
			rows_##SFX(MXGO_ARITH_SUB, form, o, x, y, c, n);                        \
			break;                                                                  \
		case MXGO_ARITH_MUL:                                                            \
			rows_##SFX(MXGO_ARITH_MUL, form, o, x, y, c, n);                        \
			break;                                                                  \
		case MXGO_ARITH_DIV:                                                            \
			rows_##SFX(MXGO_ARITH_DIV, form, o, x, y, c, n);                        \
			break;                                                                  \
		}                                                                               \
	}                                                                                       \
                                                                                                \
	AVX2 void mxgo_arith_##SFX(int op, T *o, const T *x, const T *y, long n) {              \
		form_##SFX(op, ARRAY, o, x, y, SET1(0), n);                                     \
	}                                                                                       \
                                                                                                \
	AVX2 void mxgo_arith_scalar_##SFX(int op, T *o, const T *x, T c, int reverse, long n) { \
		if (reverse)                                                                    \
			form_##SFX(op, REVERSED, o, x, x, SET1(c), n);                          \
		else                                                                            \
			form_##SFX(op, SCALAR, o, x, x, SET1(c), n);                            \
	}                                                                                       \
                                                                                                \
	AVX2 void mxgo_arith_rows_##SFX(int op, int mode, T *o, const T *x, const T *y, long rows, \
					long n, long so, long sx, long sy) {                    \
		int rev = op == MXGO_ARITH_SUB || op == MXGO_ARITH_DIV;                         \
		for (long r = 0; r < rows; r++) {                                               \
			T *orow = o + r * so;                                                   \
			const T *xr = x + r * sx, *yr = y + r * sy;                             \
			if (mode == MXGO_ROWS_ARRAYS)                                           \
				form_##SFX(op, ARRAY, orow, xr, yr, SET1(0), n);                \
			else if (mode == MXGO_ROWS_Y_SCALAR)                                    \
				form_##SFX(op, SCALAR, orow, xr, xr, SET1(*yr), n);             \
			else                                                                    \
				form_##SFX(op, rev ? REVERSED : SCALAR, orow, yr, yr, SET1(*xr), n); \
		}                                                                               \
	}

KERNELS(float, __m256, 8, f32, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, "vaddps", "vsubps",
	"vmulps", "vdivps")
KERNELS(double, __m256d, 4, f64, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd, "vaddpd", "vsubpd",
	"vmulpd", "vdivpd")

// One part of mxgo_arith_rows_par: a range of rows, or of columns of a single row (the
// number of a scalar mode stays where it is).
typedef struct {
	int op, mode;
	long esize, rows, n, so, sx, sy, parts;
	char *o;
	const char *x, *y;
} arith_split;

static void arith_part(void *ctx, long t) {
	const arith_split *s = ctx;
	long e = s->esize, rows = s->rows, n = s->n;
	char *o = s->o;
	const char *x = s->x, *y = s->y;
	long lo, hi;
	if (rows == 1) {
		mxgo_part(t, s->parts, n, &lo, &hi);
		o += lo * e, n = hi - lo;
		if (s->mode != MXGO_ROWS_X_SCALAR)
			x += lo * e;
		if (s->mode != MXGO_ROWS_Y_SCALAR)
			y += lo * e;
	} else {
		mxgo_part(t, s->parts, rows, &lo, &hi);
		o += lo * s->so * e, x += lo * s->sx * e, y += lo * s->sy * e, rows = hi - lo;
	}
	if (e == 4)
		mxgo_arith_rows_f32(s->op, s->mode, (float *)o, (const float *)x, (const float *)y, rows, n, s->so,
				    s->sx, s->sy);
	else
		mxgo_arith_rows_f64(s->op, s->mode, (double *)o, (const double *)x, (const double *)y, rows, n,
				    s->so, s->sx, s->sy);
}

void mxgo_arith_rows_par(int op, int mode, long esize, void *o, const void *x, const void *y, long rows, long n,
			 long so, long sx, long sy, long parts) {
	arith_split s = {op, mode, esize, rows, n, so, sx, sy, parts, o, x, y};
	mxgo_par(parts, parts, arith_part, &s);
}

#else

void mxgo_arith_rows_par(int op, int mode, long esize, void *o, const void *x, const void *y, long rows, long n,
			 long so, long sx, long sy, long parts) {}
int mxgo_arith_supported(void) { return 0; }
void mxgo_arith_f32(int op, float *o, const float *x, const float *y, long n) {}
void mxgo_arith_f64(int op, double *o, const double *x, const double *y, long n) {}
void mxgo_arith_scalar_f32(int op, float *o, const float *x, float c, int reverse, long n) {}
void mxgo_arith_scalar_f64(int op, double *o, const double *x, double c, int reverse, long n) {}
void mxgo_arith_rows_f32(int op, int mode, float *o, const float *x, const float *y, long rows, long n, long so,
			 long sx, long sy) {}
void mxgo_arith_rows_f64(int op, int mode, double *o, const double *x, const double *y, long rows, long n,
			 long so, long sx, long sy) {}

#endif
