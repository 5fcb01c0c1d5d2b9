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
// takes the registry's path.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bridge.h"

mxgo_tiny_entry mxgo_tiny_ops[MXGO_TINY_MOST];
int32_t mxgo_tiny_count;
int32_t mxgo_tiny_bool;
mxgo_sum_f32_fn mxgo_tiny_sum_f32;
mxgo_unary_f32_fn mxgo_tiny_unary_f32;
mxgo_sum_f64_fn mxgo_tiny_sum_f64;
mxgo_sgemm_fn mxgo_tiny_sgemm;
mxgo_sgemm_work_fn mxgo_tiny_sgemm_work;

enum { DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2 };

// The most elements computed here: 64 KiB of float32, a few microseconds with the GIL
// held (it must be: another thread's operation could otherwise write an operand).
enum { MOST = 1 << 14 };

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

// The first maximum (better: <=) or minimum (>=) of v in order, a NaN ending the search
// (its bits are the result), as pkg/ops/reduce's serial fold; its lanes give the same.
#define EXTREMUM(T, better, start)                  \
	do {                                         \
		const T* v = x;                      \
		T m = start;                         \
		for (int64_t i = 0; i < n; i++) {    \
			if (!(v[i] better m)) {      \
				m = v[i];            \
				if (m != m) break;   \
			}                            \
		}                                    \
		*(T*)z = m;                          \
	} while (0)

// Sets *z to the whole reduction op of the n float elements (bits: 32 or 64) at x, as
// pkg/ops/reduce computes it: a sum is the pairwise sum in double added to a zero
// accumulator (-0.0 sums to 0.0 there), a mean that divided by n, stored in the dtype;
// 0 where the CPU lacks the sum kernels.
static int reduce_whole(int op, int bits, const void* x, int64_t n, void* z) {
	if (op == MXGO_TINY_MAX) {
		if (bits == 32) EXTREMUM(float, <=, -INFINITY);
		else EXTREMUM(double, <=, -INFINITY);
		return 1;
	}
	if (op == MXGO_TINY_MIN) {
		if (bits == 32) EXTREMUM(float, >=, INFINITY);
		else EXTREMUM(double, >=, INFINITY);
		return 1;
	}
	if (!mxgo_tiny_sum_f32) return 0; // tiny.go sets both or neither
	double s = 0.0;
	s += bits == 32 ? mxgo_tiny_sum_f32(x, n) : mxgo_tiny_sum_f64(x, n);
	if (op == MXGO_TINY_MEAN) s /= (double)n;
	if (bits == 32) *(float*)z = (float)s;
	else *(double*)z = s;
	return 1;
}

// tiny_reduce_axis's accumulators and widened block (used with the GIL held, so one
// caller at a time).
static double reduce_acc[MOST], reduce_block[1024];

// Parses a reduction's attrs as op.py writes them for one axis: "axis=<int>", then
// optionally ";keepdims=0" or ";keepdims=1"; 0 for anything else (several axes, exclude).
static int parse_axis(const char* s, Py_ssize_t len, long* axis, int* keepdims) {
	char buf[48];
	if (len <= 5 || len >= (Py_ssize_t)sizeof buf || strncmp(s, "axis=", 5) != 0) return 0;
	memcpy(buf, s, len);
	buf[len] = 0;
	char* end;
	errno = 0;
	*axis = strtol(buf + 5, &end, 10);
	if (errno || end == buf + 5) return 0;
	*keepdims = 0;
	if (*end == 0) return 1;
	if (strcmp(end, ";keepdims=0") == 0) return 1;
	if (strcmp(end, ";keepdims=1") != 0) return 0;
	*keepdims = 1;
	return 1;
}

// The element at x[k] as a double (bits: 32 or 64).
static inline double elem(const char* x, int bits, int64_t k) {
	return bits == 32 ? (double)((const float*)x)[k] : ((const double*)x)[k];
}

// x.sum(axis=a) and x.mean(axis=a) of a float array (one axis, keepdims or not) with
// pkg/ops/reduce's bits. x is (outer, r, inner) around axis a, and each result a double
// accumulator from 0 into which reducePlan's loop nest adds (its innermost loop the
// contiguous dimension, unless that is under 16 long and the one outside it at least 4
// times longer, reduceBlock elements widened at a time): the pairwise sum of each
// contiguous row (inner 1); the pairwise sums of a column's blocks of up to 1024 (inner
// under 16, r at least 4 inner); otherwise the r elements one by one in order. A mean
// divides it by r, and it is stored in x's dtype. A new array, or NULL to decline (Go
// raises for a bad axis).
static PyObject* tiny_reduce_axis(const mxgo_tiny_entry* e, mxgo_flat x, int bits, const char* at, Py_ssize_t alen,
				  PyTypeObject* cls) {
	long a;
	int keep;
	if ((e->op != MXGO_TINY_SUM && e->op != MXGO_TINY_MEAN) || !mxgo_tiny_sum_f32 || !parse_axis(at, alen, &a, &keep))
		return NULL;
	PyObject* xs = mxgo_array_shape(x.obj);
	Py_ssize_t nd = PyTuple_GET_SIZE(xs);
	if (a < -nd || a >= nd) return NULL;
	if (a < 0) a += nd;
	int64_t outer = 1, r = PyLong_AsLongLong(PyTuple_GET_ITEM(xs, a)), inner = 1;
	for (Py_ssize_t d = 0; d < a; d++) outer *= PyLong_AsLongLong(PyTuple_GET_ITEM(xs, d));
	for (Py_ssize_t d = a + 1; d < nd; d++) inner *= PyLong_AsLongLong(PyTuple_GET_ITEM(xs, d));
	PyObject* shape = PyTuple_New(keep ? nd : nd - 1 ? nd - 1 : e->ndim); // mx.nd's (1,) for no dimensions
	if (!shape) return NULL;
	for (Py_ssize_t d = 0, k = 0; d < nd; d++)
		if (d != a || keep) PyTuple_SET_ITEM(shape, k++, d == a ? PyLong_FromLong(1) : Py_NewRef(PyTuple_GET_ITEM(xs, d)));
	if (!keep && nd == 1 && e->ndim) PyTuple_SET_ITEM(shape, 0, PyLong_FromLong(1));
	int64_t esize = bits / 8, block = x.size < 1024 ? x.size : 1024;
	PyObject* owner = PyByteArray_FromStringAndSize(NULL, outer * inner * esize);
	if (!owner) {
		Py_DECREF(shape);
		return NULL;
	}
	char* z = PyByteArray_AS_STRING(owner);
	int rows = inner == 1 && !(outer > 1 && r < 16 && outer >= 4 * r); // contiguous rows, pairwise
	int columns = inner > 1 && inner < 16 && r >= 4 * inner;             // strided columns, pairwise by blocks
	for (int64_t o = 0; o < outer; o++) {
		const char* p = (const char*)x.data + o * r * inner * esize;
		double* acc = reduce_acc; // inner <= MOST
		for (int64_t j = 0; j < inner; j++) acc[j] = 0.0;
		if (rows) {
			acc[0] += bits == 32 ? mxgo_tiny_sum_f32((const float*)p, r) : mxgo_tiny_sum_f64((const double*)p, r);
		} else if (columns) {
			for (int64_t j = 0; j < inner; j++)
				for (int64_t lo = 0; lo < r; lo += block) {
					int64_t n = r - lo < block ? r - lo : block;
					for (int64_t i = 0; i < n; i++) reduce_block[i] = elem(p, bits, (lo + i) * inner + j);
					acc[j] += mxgo_tiny_sum_f64(reduce_block, n);
				}
		} else { // row after row into the accumulators: each one's adds in order
			for (int64_t i = 0; i < r; i++)
				for (int64_t j = 0; j < inner; j++) acc[j] += elem(p, bits, i * inner + j);
		}
		for (int64_t j = 0; j < inner; j++) {
			double v = e->op == MXGO_TINY_MEAN ? acc[j] / (double)r : acc[j];
			if (bits == 32) ((float*)z)[o * inner + j] = (float)v;
			else ((double*)z)[o * inner + j] = v;
		}
	}
	PyObject* res = mxgo_new_flat_array(cls, x.obj, -1, z, owner, shape);
	Py_DECREF(shape);
	Py_DECREF(owner); // the array holds it
	return res;
}

// x.sum(), x.mean(), x.max(), x.min() of a float array, no parameters: a new array of
// one element (e's ndim dimensions); sum and mean over one axis (tiny_reduce_axis); or
// NULL to decline.
static PyObject* tiny_reduce(const mxgo_tiny_entry* e, PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls,
			     const char* at) {
	static PyObject* shapes[2]; // () and (1,), made once
	if (!shapes[e->ndim] && !(shapes[e->ndim] = e->ndim ? Py_BuildValue("(i)", 1) : PyTuple_New(0))) return NULL;
	mxgo_flat x;
	if (PyTuple_GET_SIZE(arrays) != 1 || out != Py_None) return NULL;
	if (!mxgo_array_flat(PyTuple_GET_ITEM(arrays, 0), &x) || x.size == 0 || x.size > MOST) return NULL;
	DLDataType t = mxgo_dl_type_of[x.dtype];
	if (t.code != DL_FLOAT || (t.bits != 32 && t.bits != 64)) return NULL;
	if (alen != 0) return tiny_reduce_axis(e, x, t.bits, at, alen, cls);
	PyObject* owner = PyByteArray_FromStringAndSize(NULL, t.bits / 8);
	if (!owner) return NULL;
	if (!reduce_whole(e->op, t.bits, x.data, x.size, PyByteArray_AS_STRING(owner))) {
		Py_DECREF(owner);
		return NULL;
	}
	PyObject* r = mxgo_new_flat_array(cls, x.obj, -1, PyByteArray_AS_STRING(owner), owner, shapes[e->ndim]);
	Py_DECREF(owner); // the array holds it
	return r;
}

// index reads element k of an integer index array of type t (the gather codes: signed,
// or unsigned of at most 32 bits).
static int64_t index_at(const void* i, DLDataType t, int64_t k) {
	if (t.code == DL_UINT) return t.bits == 8 ? ((const uint8_t*)i)[k] : t.bits == 16 ? ((const uint16_t*)i)[k] : ((const uint32_t*)i)[k];
	switch (t.bits) {
	case 8: return ((const int8_t*)i)[k];
	case 16: return ((const int16_t*)i)[k];
	case 32: return ((const int32_t*)i)[k];
	default: return ((const int64_t*)i)[k];
	}
}

// x[i] for an integer array i (_gather_leading of one index array): the rows of x's first
// axis that i names (negative ones from the end), copied into a new array of shape
// i.shape + x.shape[1:]; NULL to decline, an index out of range included (Go raises).
static PyObject* tiny_gather(PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls) {
	mxgo_flat x, i;
	if (PyTuple_GET_SIZE(arrays) != 2 || alen != 0 || out != Py_None) return NULL;
	if (!mxgo_array_flat(PyTuple_GET_ITEM(arrays, 0), &x) || !mxgo_array_flat(PyTuple_GET_ITEM(arrays, 1), &i)) return NULL;
	int xd = mxgo_array_ndim(x.obj), id = mxgo_array_ndim(i.obj);
	if (xd == 0 || id == 0 || xd - 1 + id > MXGO_MAX_DIMS || i.size == 0 || i.dtype > 63 || !(mxgo_gather_codes >> i.dtype & 1)) return NULL;
	PyObject* xs = mxgo_array_shape(x.obj);
	int64_t n = PyLong_AsLongLong(PyTuple_GET_ITEM(xs, 0)), row = n ? x.size / n : 0;
	if (n == 0 || i.size * row > MOST) return NULL;
	DLDataType t = mxgo_dl_type_of[x.dtype], it = mxgo_dl_type_of[i.dtype];
	size_t bytes = (size_t)row * (t.bits * t.lanes / 8);
	PyObject* owner = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(i.size * bytes));
	if (!owner) return NULL;
	char* dst = PyByteArray_AS_STRING(owner);
	for (int64_t k = 0; k < i.size; k++) {
		int64_t j = index_at(i.data, it, k);
		if (j < -n || j >= n) {
			Py_DECREF(owner);
			return NULL;
		}
		memcpy(dst + k * bytes, (const char*)x.data + (j < 0 ? j + n : j) * bytes, bytes);
	}
	PyObject* is = mxgo_array_shape(i.obj); // x[i] of a vector has i's shape: no new tuple
	PyObject* tail = xd == 1 ? NULL : PyTuple_GetSlice(xs, 1, xd);
	PyObject* shape = xd == 1 ? Py_NewRef(is) : tail ? PySequence_Concat(is, tail) : NULL;
	Py_XDECREF(tail);
	PyObject* r = shape ? mxgo_new_flat_array(cls, x.obj, -1, dst, owner, shape) : NULL;
	Py_XDECREF(shape);
	Py_DECREF(owner); // the array holds it
	return r;
}

// The product's pack buffers (used with the GIL held, so one caller at a time), and the
// most multiply-adds done here: about 2.5 µs on one core, where Go's path, splitting the
// product across two (gemm.PoolTasks), took 3.5 (48 x 48 x 48); at 64^3 the split wins.
enum { DOT_WORK = 1 << 16, DOT_MOST = 1 << 17 };
static float dot_work[DOT_WORK] __attribute__((aligned(64)));

// Whether arrays f and g share any byte.
static int overlap(const mxgo_flat* f, const mxgo_flat* g, int64_t esize) {
	const char *p = f->data, *q = g->data;
	return p < q + g->size * esize && q < p + f->size * esize;
}

// dot(x, y) of float32 matrices (m x k by k x n, m and n at least 2: Go computes a
// product with a vector by another kernel), by the kernel Go's path calls with the same
// arguments (gemm.Direct2D: one block, whose bits do not depend on the split); out=
// must be m x n, float32, and apart from both. NULL to decline.
static PyObject* tiny_dot(PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls) {
	mxgo_flat x, y, z;
	if (!mxgo_tiny_sgemm || PyTuple_GET_SIZE(arrays) != 2 || alen != 0) return NULL; // transpose_a, _b: Go's
	if (!mxgo_array_flat(PyTuple_GET_ITEM(arrays, 0), &x) || !mxgo_array_flat(PyTuple_GET_ITEM(arrays, 1), &y)) return NULL;
	DLDataType t = mxgo_dl_type_of[x.dtype];
	if (y.dtype != x.dtype || t.code != DL_FLOAT || t.bits != 32 || t.lanes != 1) return NULL;
	if (mxgo_array_ndim(x.obj) != 2 || mxgo_array_ndim(y.obj) != 2) return NULL;
	PyObject *xs = mxgo_array_shape(x.obj), *ys = mxgo_array_shape(y.obj);
	long m = PyLong_AsLong(PyTuple_GET_ITEM(xs, 0)), k = PyLong_AsLong(PyTuple_GET_ITEM(xs, 1));
	long n = PyLong_AsLong(PyTuple_GET_ITEM(ys, 1));
	if (PyLong_AsLong(PyTuple_GET_ITEM(ys, 0)) != k || m < 2 || n < 2 || k < 1 || m * n > MOST ||
			m * n * k > DOT_MOST || mxgo_tiny_sgemm_work(m, n, k) > DOT_WORK)
		return NULL;
	PyObject* owner = NULL;
	float* c;
	if (out != Py_None) {
		if (!mxgo_array_flat(out, &z) || z.dtype != x.dtype || !z.writable || mxgo_array_ndim(out) != 2 ||
				PyLong_AsLong(PyTuple_GET_ITEM(mxgo_array_shape(out), 0)) != m || z.size != m * n ||
				overlap(&z, &x, 4) || overlap(&z, &y, 4))
			return NULL;
		c = z.data;
	} else {
		if (!(owner = PyByteArray_FromStringAndSize(NULL, m * n * 4))) return NULL;
		c = (float*)PyByteArray_AS_STRING(owner);
	}
	if (((uintptr_t)x.data | (uintptr_t)y.data | (uintptr_t)c) % sizeof(float)) { // imported memory: Go copies it first
		Py_XDECREF(owner);
		return NULL;
	}
	mxgo_tiny_sgemm(m, n, k, x.data, k, 1, y.data, n, 1, c, n, dot_work);
	if (!owner) Py_RETURN_NONE;
	PyObject* shape = Py_BuildValue("(ll)", m, n);
	PyObject* r = shape ? mxgo_new_flat_array(cls, x.obj, -1, c, owner, shape) : NULL;
	Py_XDECREF(shape);
	Py_DECREF(owner); // the array holds it
	return r;
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
				((char*)o.data < (char*)small.data + m * esize && (char*)small.data < (char*)o.data + o.size * esize))
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
	if (e->op == MXGO_TINY_GATHER) return tiny_gather(arrays, alen, out, cls);
	if (e->op == MXGO_TINY_DOT) return tiny_dot(arrays, alen, out, cls);
	if (e->op >= MXGO_TINY_SUM) return tiny_reduce(e, arrays, alen, out, cls, at);
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
