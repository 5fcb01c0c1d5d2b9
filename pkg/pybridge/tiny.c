// Elementwise arithmetic on tiny host arrays, in C alone: the commonest small operation
// (x + y on a few elements) costs no more than NumPy's, where a trip through Go's
// registry costs three times as much. It runs only where the result cannot differ from
// Go's (the same IEEE operation per element, wrapping integers) and nothing can be
// ordered before it: the engine idle (no operation pending anywhere, no error held),
// the thread not recording, and every operand an mxgo host array, C-contiguous, of one
// shape and dtype. Anything else returns "declined" and takes the registry's path.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bridge.h"

enum { ADD, SUBTRACT, MULTIPLY, DIVIDE, NARITH };

// The registry ids of add, subtract, multiply, divide, then of their scalar forms
// (_add_scalar, ...), which tiny.go sets at init.
int32_t mxgo_tiny_op[2 * NARITH] = {-1, -1, -1, -1, -1, -1, -1, -1};

enum { DL_INT = 0, DL_FLOAT = 2 };

// The most elements computed here: 64 KiB of float32, a few microseconds with the GIL
// held (it must be: another thread's operation could otherwise write an operand).
enum { MOST = 1 << 14 };

// One operand: an array, or (a NULL) a number already converted to the dtype.
typedef struct {
	const void* a;
	union { float f32; double f64; uint32_t u32; uint64_t u64; } c;
} operand;

// The loop of expr (of a and b) in three forms, each simple enough to vectorise: both
// operands arrays, or one of them a number.
#define LOOP(T, expr)                                                                   \
	do {                                                                            \
		T* out = z;                                                             \
		const T *xa = x.a, *ya = y.a;                                           \
		if (xa && ya) {                                                         \
			for (int64_t i = 0; i < n; i++) {                               \
				T a = xa[i], b = ya[i];                                 \
				out[i] = expr;                                          \
			}                                                               \
		} else if (xa) {                                                        \
			const T b = *(const T*)&y.c;                                    \
			for (int64_t i = 0; i < n; i++) {                               \
				T a = xa[i];                                            \
				out[i] = expr;                                          \
			}                                                               \
		} else {                                                                \
			const T a = *(const T*)&x.c;                                    \
			for (int64_t i = 0; i < n; i++) {                               \
				T b = ya[i];                                            \
				out[i] = expr;                                          \
			}                                                               \
		}                                                                       \
	} while (0)

// Integers wrap as Go's do: computed unsigned, where C's signed overflow is undefined.
#define INT_OPS(T)                                                                   \
	switch (op) {                                                                \
	case ADD: LOOP(T, a + b); return 1;                                          \
	case SUBTRACT: LOOP(T, a - b); return 1;                                     \
	case MULTIPLY: LOOP(T, a * b); return 1;                                     \
	default: return 0; /* division by zero and rounding: the registry's rules */ \
	}

#define FLOAT_OPS(T)                                   \
	switch (op) {                                  \
	case ADD: LOOP(T, a + b); return 1;            \
	case SUBTRACT: LOOP(T, a - b); return 1;       \
	case MULTIPLY: LOOP(T, a * b); return 1;       \
	default: LOOP(T, a / b); return 1;             \
	}

// Computes z = x op y over n elements of type t (integers as their unsigned type, the
// same bits); 0 when it has no kernel for t and op. Elements in place (z is x's or y's
// memory) are read before they are written.
static int compute(int op, DLDataType t, operand x, operand y, void* z, int64_t n) {
	if (t.code == DL_FLOAT && t.bits == 32) FLOAT_OPS(float)
	if (t.code == DL_FLOAT && t.bits == 64) FLOAT_OPS(double)
	if (t.code == DL_INT && t.bits == 32) INT_OPS(uint32_t)
	if (t.code == DL_INT && t.bits == 64) INT_OPS(uint64_t)
	return 0;
}

// Parses a scalar form's attrs as op.py's scalar_attrs writes them ("scalar=f:<repr>;
// reverse=0", "scalar=i:<int>;reverse=1") into *c, converted to t as ops.Scalar.Store
// converts; 0 for anything else (a float for an integer array, NaN, whose payload Go
// chooses: the registry takes those).
static int parse_scalar(const char* s, Py_ssize_t len, DLDataType t, operand* c, int* reverse) {
	static const char head[] = "scalar=?:", tail[] = ";reverse=?";
	Py_ssize_t hl = sizeof head - 1, tl = sizeof tail - 1, nl = len - hl - tl;
	char num[64], *end;
	if (nl <= 0 || nl >= (Py_ssize_t)sizeof num || memcmp(s, head, 7) != 0 || s[8] != ':' ||
			memcmp(s + len - tl, tail, tl - 1) != 0 || (s[len - 1] != '0' && s[len - 1] != '1'))
		return 0;
	*reverse = s[len - 1] == '1';
	memcpy(num, s + hl, nl);
	num[nl] = 0;
	int is_int = s[7] == 'i';
	if (!is_int && s[7] != 'f') return 0;
	errno = 0;
	int64_t i = is_int ? strtoll(num, &end, 10) : 0;
	double f = is_int ? (double)i : strtod(num, &end); // an int reaches a float dtype through float64, as in Go
	if (*end != 0 || errno != 0 || isnan(f)) return 0;
	if (t.code == DL_FLOAT && t.bits == 32) c->c.f32 = (float)f;
	else if (t.code == DL_FLOAT && t.bits == 64) c->c.f64 = f;
	else if (!is_int) return 0;
	else if (t.bits == 32) c->c.u32 = (uint32_t)(uint64_t)i;
	else c->c.u64 = (uint64_t)i;
	return 1;
}

static int op_index(long op) {
	for (int k = 0; k < 2 * NARITH; k++)
		if (mxgo_tiny_op[k] == op) return k;
	return -1;
}

// Whether [p, p+n) and [q, q+n) overlap other than exactly (same start: elementwise in
// place, which is safe).
static int partly_overlap(const char* p, const char* q, int64_t n) {
	return p != q && p < q + n && q < p + n;
}

PyObject* mxgo_tiny_arith(long op_id, PyObject* arrays, const char* at, Py_ssize_t alen, PyObject* out, PyTypeObject* cls) {
	int op = op_index(op_id), scalar = op >= NARITH;
	if (op < 0 || PyTuple_GET_SIZE(arrays) != 2 - scalar) return NULL;
	if (__atomic_load_n(&mxgo_engine_busy, __ATOMIC_ACQUIRE) != 0 || (mxgo_ag_mode() & MXGO_AG_RECORDING)) return NULL;
	mxgo_flat x, y, z;
	if (!mxgo_array_flat(PyTuple_GET_ITEM(arrays, 0), &x) || x.size == 0 || x.size > MOST) return NULL;
	DLDataType t = mxgo_dl_type_of[x.dtype];
	operand a = {.a = x.data}, b = {0};
	if (scalar) {
		int reverse;
		if (!parse_scalar(at, alen, t, &b, &reverse)) return NULL;
		if (reverse) {
			operand swap = a;
			a = b, b = swap;
		}
		y = x;
	} else if (alen != 0 || !mxgo_array_flat(PyTuple_GET_ITEM(arrays, 1), &y) || y.dtype != x.dtype || y.size != x.size ||
			!mxgo_same_shape(x.obj, y.obj)) {
		return NULL;
	} else {
		b.a = y.data;
	}
	op %= NARITH;
	int64_t nbytes = x.size * (t.bits / 8);
	if (out != Py_None) {
		if (!mxgo_array_flat(out, &z) || z.dtype != x.dtype || z.size != x.size || !z.writable || !mxgo_same_shape(out, x.obj) ||
				partly_overlap(z.data, x.data, nbytes) || partly_overlap(z.data, y.data, nbytes))
			return NULL;
		if (!compute(op, t, a, b, z.data, x.size)) return NULL;
		Py_RETURN_NONE;
	}
	PyObject* owner = PyByteArray_FromStringAndSize(NULL, nbytes);
	if (!owner) return NULL;
	if (!compute(op, t, a, b, PyByteArray_AS_STRING(owner), x.size)) {
		Py_DECREF(owner);
		return NULL;
	}
	PyObject* r = mxgo_new_flat_array(cls, x.obj, PyByteArray_AS_STRING(owner), owner);
	Py_DECREF(owner); // the array holds it
	return r;
}
