// tiny.c's reductions: whole sums, means and extrema of small float arrays, and sums and
// means over one axis, with pkg/ops/reduce's bits.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bridge.h"
#include "tiny.h"

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

// The pairwise sum of the n float elements (bits: 32 or 64) at x, internal/simd's.
static inline double pairwise(int bits, const void* x, int64_t n) {
	return bits == 32 ? mxgo_tiny_sum_f32(x, n) : mxgo_tiny_sum_f64(x, n);
}

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
	s += pairwise(bits, x, n);
	if (op == MXGO_TINY_MEAN) s /= (double)n;
	if (bits == 32) *(float*)z = (float)s;
	else *(double*)z = s;
	return 1;
}

// reduce_axis's accumulators and widened block (used with the GIL held, so one
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
static PyObject* reduce_axis(const mxgo_tiny_entry* e, mxgo_flat x, int bits, const char* at, Py_ssize_t alen,
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
			acc[0] += pairwise(bits, p, r);
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
// one element (e's ndim dimensions); sum and mean over one axis (reduce_axis); or
// NULL to decline.
PyObject* mxgo_tiny_reduce(const mxgo_tiny_entry* e, PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls,
			     const char* at) {
	static PyObject* shapes[2]; // () and (1,), made once
	if (!shapes[e->ndim] && !(shapes[e->ndim] = e->ndim ? Py_BuildValue("(i)", 1) : PyTuple_New(0))) return NULL;
	mxgo_flat x;
	if (PyTuple_GET_SIZE(arrays) != 1 || out != Py_None) return NULL;
	if (!mxgo_array_flat(PyTuple_GET_ITEM(arrays, 0), &x) || x.size == 0 || x.size > MOST) return NULL;
	DLDataType t = mxgo_dl_type_of[x.dtype];
	if (t.code != DL_FLOAT || (t.bits != 32 && t.bits != 64)) return NULL;
	if (alen != 0) return reduce_axis(e, x, t.bits, at, alen, cls);
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
