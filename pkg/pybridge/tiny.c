// Elementwise arithmetic, comparisons, a few exactly rounded unary operations, float32
// exp, sigmoid and tanh, whole sums, means and extrema, and x[i] for an integer array i
// on tiny host arrays, in C alone: the commonest small operations (x + y, x > y,
// sqrt(x), exp(x), x.sum(), x[i] on a few elements) cost no more than NumPy's, where a
// trip through Go's registry costs three times as much. It runs only where the result
// cannot differ from Go's (the same IEEE operation per element, wrapping integers, or
// the very kernels Go calls) and nothing can be ordered before it: the engine idle (no
// operation pending anywhere, no error held), the thread not recording, and every
// operand an mxgo host array, C-contiguous, of one dtype and of one shape, or one
// repeating along the other (tiny_broadcast). Anything else returns "declined" and
// takes the registry's path. The reductions are in tiny_reduce.c, x[i] and dot in
// tiny_rows.c.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bridge.h"
#include "tiny.h"

mxgo_tiny_entry mxgo_tiny_ops[MXGO_TINY_MOST];
int32_t mxgo_tiny_count;
int32_t mxgo_tiny_bool;
mxgo_sum_f32_fn mxgo_tiny_sum_f32;
mxgo_unary_f32_fn mxgo_tiny_unary_f32;
mxgo_sum_f64_fn mxgo_tiny_sum_f64;
mxgo_sgemm_fn mxgo_tiny_sgemm;
mxgo_sgemm_work_fn mxgo_tiny_sgemm_work;

// One operand: an array, or (a NULL) a number already converted to the dtype.
typedef struct {
	const void* a;
	union { float f32; double f64; uint32_t u32; uint64_t u64; } c;
} operand;

// The loop of expr (of a and b, of type T) into R in three forms, each simple enough to
// vectorise: both operands arrays, or one of them a number.
#define LOOP(T, R, expr)                                                                \
	do {                                                                            \
		R* out = z;                                                             \
		const T *xa = x.a, *ya = y.a;                                           \
		if (xa && ya) {                                                         \
			for (int64_t i = 0; i < n; i++) {                               \
				T a = xa[i], b = ya[i];                                 \
				out[i] = (R)(expr);                                     \
			}                                                               \
		} else if (xa) {                                                        \
			const T b = *(const T*)&y.c;                                    \
			for (int64_t i = 0; i < n; i++) {                               \
				T a = xa[i];                                            \
				out[i] = (R)(expr);                                     \
			}                                                               \
		} else {                                                                \
			const T a = *(const T*)&x.c;                                    \
			for (int64_t i = 0; i < n; i++) {                               \
				T b = ya[i];                                            \
				out[i] = (R)(expr);                                     \
			}                                                               \
		}                                                                       \
	} while (0)

// Integers wrap as Go's do: computed unsigned, where C's signed overflow is undefined.
#define INT_OPS(T)                                                                   \
	switch (op) {                                                                \
	case MXGO_TINY_ADD: LOOP(T, T, a + b); return 1;                             \
	case MXGO_TINY_SUBTRACT: LOOP(T, T, a - b); return 1;                        \
	case MXGO_TINY_MULTIPLY: LOOP(T, T, a * b); return 1;                        \
	default: return 0; /* division by zero and rounding: the registry's rules */ \
	}

#define FLOAT_OPS(T)                                          \
	switch (op) {                                         \
	case MXGO_TINY_ADD: LOOP(T, T, a + b); return 1;      \
	case MXGO_TINY_SUBTRACT: LOOP(T, T, a - b); return 1; \
	case MXGO_TINY_MULTIPLY: LOOP(T, T, a * b); return 1; \
	default: LOOP(T, T, a / b); return 1;                 \
	}

// Comparisons (of signed integers, or IEEE's: NaN is unordered) as 1 or 0 in R.
#define CMP_OPS(T, R)                                              \
	switch (op) {                                              \
	case MXGO_TINY_EQUAL: LOOP(T, R, a == b); return 1;        \
	case MXGO_TINY_NOT_EQUAL: LOOP(T, R, a != b); return 1;    \
	case MXGO_TINY_GREATER: LOOP(T, R, a > b); return 1;       \
	case MXGO_TINY_GREATER_EQUAL: LOOP(T, R, a >= b); return 1; \
	case MXGO_TINY_LESS: LOOP(T, R, a < b); return 1;          \
	default: LOOP(T, R, a <= b); return 1;                     \
	}
#define CMP(T)                               \
	do {                                 \
		if (bool_out) CMP_OPS(T, uint8_t) \
		else CMP_OPS(T, T)           \
	} while (0)

// One array's elements through expr (of a, of type T), for the unary operations.
#define UNARY(T, expr)                                 \
	do {                                           \
		T* out = z;                            \
		const T* xa = x.a;                     \
		for (int64_t i = 0; i < n; i++) {      \
			T a = xa[i];                   \
			out[i] = (expr);               \
		}                                      \
	} while (0)

#define UNARY_OPS(T, SQRT, FABS)                                   \
	switch (op) {                                              \
	case MXGO_TINY_SQRT: UNARY(T, SQRT(a)); return 1;          \
	case MXGO_TINY_ABS: UNARY(T, FABS(a)); return 1;           \
	case MXGO_TINY_NEGATIVE: UNARY(T, -a); return 1;           \
	default: UNARY(T, a * a); return 1; /* MXGO_TINY_SQUARE */ \
	}

// Computes z = x op y (op x, for the unary operations) over n elements of type t
// (integers as their unsigned type for arithmetic, the same bits), into bool when
// bool_out; 0 when it has no kernel for t and op. Elements in place (z is x's or y's memory, of x's dtype) are read before they are
// written.
static int compute(int op, int bool_out, DLDataType t, operand x, operand y, void* z, int64_t n) {
	if (op >= MXGO_TINY_EXP) {
		if (t.code != DL_FLOAT || t.bits != 32 || !mxgo_tiny_unary_f32) return 0;
		mxgo_tiny_unary_f32(op - MXGO_TINY_EXP, z, x.a, n); // in place too: each vector is read before it is written
		return 1;
	}
	if (op >= MXGO_TINY_SQRT) {
		if (t.code == DL_FLOAT && t.bits == 32) UNARY_OPS(float, sqrtf, fabsf)
		if (t.code == DL_FLOAT && t.bits == 64) UNARY_OPS(double, sqrt, fabs)
		return 0;
	}
	if (op >= MXGO_TINY_EQUAL) {
		if (t.code == DL_FLOAT && t.bits == 32) CMP(float);
		if (t.code == DL_FLOAT && t.bits == 64) CMP(double);
		if (t.code == DL_INT && t.bits == 32) CMP(int32_t);
		if (t.code == DL_INT && t.bits == 64) CMP(int64_t);
		return 0;
	}
	if (t.code == DL_FLOAT && t.bits == 32) FLOAT_OPS(float)
	if (t.code == DL_FLOAT && t.bits == 64) FLOAT_OPS(double)
	if (t.code == DL_INT && t.bits == 32) INT_OPS(uint32_t)
	if (t.code == DL_INT && t.bits == 64) INT_OPS(uint64_t)
	return 0;
}

// Parses a scalar form's attrs as op.py's scalar_attrs writes them ("scalar=f:<repr>;
// reverse=0", "scalar=i:<int>;reverse=1") into *c, converted to t as ops.Scalar.Store
// converts (wrapped to the dtype's width, as MXNet's arithmetic does, unless exact); 0 for anything
// else (a float for an integer array, NaN, whose payload Go chooses: the registry takes
// those).
static int parse_scalar(const char* s, Py_ssize_t len, DLDataType t, int exact, operand* c, int* reverse) {
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
	// exact (the comparisons): only ints that the dtype and a double hold exactly, where
	// MXNet's cast (through a double) and NumPy's exact comparison agree with C's
	int64_t most = t.code == DL_INT && t.bits == 32 ? INT32_MAX : t.code == DL_FLOAT && t.bits == 32 ? 1LL << 24 : 1LL << 53;
	if (exact && is_int && (i < -most || i > most)) return 0;
	if (t.code == DL_FLOAT && t.bits == 32) c->c.f32 = (float)f;
	else if (t.code == DL_FLOAT && t.bits == 64) c->c.f64 = f;
	else if (!is_int) return 0;
	else if (t.bits == 32) c->c.u32 = (uint32_t)(uint64_t)i;
	else c->c.u64 = (uint64_t)i;
	return 1;
}

static const mxgo_tiny_entry* entry_of(long id) {
	for (int k = 0; k < mxgo_tiny_count; k++)
		if (mxgo_tiny_ops[k].id == id) return &mxgo_tiny_ops[k];
	return NULL;
}

// Whether [p, p+n) and [q, q+n) overlap other than exactly (same start: elementwise in
// place, which is safe).
static int partly_overlap(const char* p, const char* q, int64_t n) {
	return p != q && p < q + n && q < p + n;
}

// Whether small's shape, less its leading 1s, is the end of big's, small having no more
// dimensions than big: then small broadcasts against big by repeating, and the result
// has big's shape (NumPy's rule, and MXNet's broadcast_* operators').
static int suffix_of(PyObject* big, PyObject* small) {
	PyObject *b = mxgo_array_shape(big), *s = mxgo_array_shape(small);
	Py_ssize_t nb = PyTuple_GET_SIZE(b), ns = PyTuple_GET_SIZE(s), lead = 0;
	if (ns > nb) return 0;
	while (lead < ns && PyLong_AsLongLong(PyTuple_GET_ITEM(s, lead)) == 1) lead++;
	for (Py_ssize_t i = lead; i < ns; i++)
		if (PyLong_AsLongLong(PyTuple_GET_ITEM(s, i)) != PyLong_AsLongLong(PyTuple_GET_ITEM(b, nb - ns + i))) return 0;
	return 1;
}

// x op y where one operand repeats along the other (suffix_of: a bias row against a
// batch, (1, n) against (n,)), computed a repeat at a time; NULL to decline. With out=, out
// must be the larger operand's shape, in place on it or apart from both.
static PyObject* tiny_broadcast(const mxgo_tiny_entry* e, DLDataType t, mxgo_flat x, mxgo_flat y, PyObject* out,
				PyTypeObject* cls) {
	int x_big = x.size > y.size || (x.size == y.size && mxgo_array_ndim(x.obj) >= mxgo_array_ndim(y.obj));
	mxgo_flat big = x_big ? x : y, small = x_big ? y : x;
	// m = 1 is a number against an array, where Go's walk computes x + y as y + x (the
	// same value; the NaN payload of NaN + NaN is the first operand's): left to Go.
	if (small.size == 1 || !suffix_of(big.obj, small.obj)) return NULL;
	int64_t m = small.size, esize = t.bits / 8, zsize = e->bool_out ? 1 : esize; // bool_out declines out=
	PyObject* owner = NULL;
	char* z;
	if (out != Py_None) {
		mxgo_flat o;
		if (e->bool_out || !mxgo_array_flat(out, &o) || o.dtype != big.dtype || o.size != big.size || !o.writable ||
				!mxgo_same_shape(out, big.obj) || partly_overlap(o.data, big.data, big.size * esize) ||
				overlap(&o, &small, esize))
			return NULL;
		z = o.data;
	} else {
		owner = PyByteArray_FromStringAndSize(NULL, big.size * zsize);
		if (!owner) return NULL;
		z = PyByteArray_AS_STRING(owner);
	}
	for (int64_t r = 0; r < big.size / m; r++) { // compute declines for the first or none (by op and dtype)
		operand a = {.a = (const char*)x.data + (x_big ? r * m * esize : 0)};
		operand b = {.a = (const char*)y.data + (x_big ? 0 : r * m * esize)};
		if (!compute(e->op, e->bool_out, t, a, b, z + r * m * zsize, m)) {
			Py_XDECREF(owner);
			return NULL;
		}
	}
	if (!owner) Py_RETURN_NONE;
	PyObject* res = mxgo_new_flat_array(cls, big.obj, e->bool_out ? mxgo_tiny_bool : -1, z, owner, NULL);
	Py_DECREF(owner); // the array holds it
	return res;
}

PyObject* mxgo_tiny_arith(long op_id, PyObject* arrays, const char* at, Py_ssize_t alen, PyObject* out, PyTypeObject* cls) {
	const mxgo_tiny_entry* e = entry_of(op_id);
	if (!e || __atomic_load_n(&mxgo_engine_busy, __ATOMIC_ACQUIRE) != 0 || (mxgo_ag_mode() & MXGO_AG_RECORDING)) return NULL;
	if (e->op == MXGO_TINY_GATHER) return mxgo_tiny_gather(arrays, alen, out, cls);
	if (e->op == MXGO_TINY_DOT) return mxgo_tiny_dot(arrays, alen, out, cls);
	if (e->op >= MXGO_TINY_SUM) return mxgo_tiny_reduce(e, arrays, alen, out, cls, at);
	if (PyTuple_GET_SIZE(arrays) != (e->op >= MXGO_TINY_SQRT ? 1 : 2 - e->scalar)) return NULL;
	mxgo_flat x, y, z;
	if (!mxgo_array_flat(PyTuple_GET_ITEM(arrays, 0), &x) || x.size == 0 || x.size > MOST) return NULL;
	DLDataType t = mxgo_dl_type_of[x.dtype];
	operand a = {.a = x.data}, b = {0};
	if (e->op >= MXGO_TINY_SQRT) {
		if (alen != 0) return NULL;
		y = x;
	} else if (e->scalar) {
		int reverse;
		if (!parse_scalar(at, alen, t, e->op >= MXGO_TINY_EQUAL, &b, &reverse)) return NULL;
		if (reverse) {
			operand swap = a;
			a = b, b = swap;
		}
		y = x;
	} else if (alen != 0 || !mxgo_array_flat(PyTuple_GET_ITEM(arrays, 1), &y) || y.dtype != x.dtype || y.size == 0 ||
			y.size > MOST) {
		return NULL;
	} else if (!mxgo_same_shape(x.obj, y.obj)) {
		return tiny_broadcast(e, t, x, y, out, cls);
	} else {
		b.a = y.data;
	}
	int64_t nbytes = x.size * (t.bits / 8);
	if (out != Py_None) { // a bool result is never written in place (its elements are narrower)
		if (e->bool_out || !mxgo_array_flat(out, &z) || z.dtype != x.dtype || z.size != x.size || !z.writable ||
				!mxgo_same_shape(out, x.obj) || partly_overlap(z.data, x.data, nbytes) || partly_overlap(z.data, y.data, nbytes))
			return NULL;
		if (!compute(e->op, 0, t, a, b, z.data, x.size)) return NULL;
		Py_RETURN_NONE;
	}
	PyObject* owner = PyByteArray_FromStringAndSize(NULL, e->bool_out ? x.size : nbytes);
	if (!owner) return NULL;
	if (!compute(e->op, e->bool_out, t, a, b, PyByteArray_AS_STRING(owner), x.size)) {
		Py_DECREF(owner);
		return NULL;
	}
	PyObject* r = mxgo_new_flat_array(cls, x.obj, e->bool_out ? mxgo_tiny_bool : -1, PyByteArray_AS_STRING(owner), owner, NULL);
	Py_DECREF(owner); // the array holds it
	return r;
}
