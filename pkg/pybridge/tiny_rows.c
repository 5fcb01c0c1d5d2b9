// tiny.c's row copies and products: x[i] for an integer array i, and dot of small
// float32 matrices.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "bridge.h"
#include "tiny.h"

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
PyObject* mxgo_tiny_gather(PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls) {
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

// dot(x, y) of float32 matrices (m x k by k x n, m and n at least 2: Go computes a
// product with a vector by another kernel), by the kernel Go's path calls with the same
// arguments (gemm.Direct2D: one block, whose bits do not depend on the split); out=
// must be m x n, float32, and apart from both. NULL to decline.
PyObject* mxgo_tiny_dot(PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls) {
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
