// fastpath.invoke: an operator call in one CPython -> C -> Go crossing, the arrays passed
// as objects (their handles read here) instead of gopy's strings.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "bridge.h"
#include "_cgo_export.h"

#define STACK_ARRAYS 8

// TINY bounds the elements of an operation that keeps the GIL: it runs at once, in
// about a microsecond, so releasing and retaking the GIL would cost more than letting
// other threads wait. Nothing such an operation does in Go waits for anything.
#define TINY 4096

static int tiny(PyObject* arrays, PyObject* out) {
	if (__atomic_load_n(&mxgo_engine_busy, __ATOMIC_ACQUIRE) != 0) return 0; // it might wait
	int64_t total = out != Py_None ? mxgo_array_size(out) : 0;
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(arrays); i++) total += mxgo_array_size(PyTuple_GET_ITEM(arrays, i));
	return total <= TINY;
}

// invoke(op_id, arrays, out, attrs) -> NDArray, or None when out is given. arrays is a
// tuple of NDArrayBase, out one or None, attrs the parameters' wire form. Go runs with
// the GIL released: a small ready operation computes right there, and a kernel must not
// hold up other Python threads (or an engine callback waiting for the GIL).
PyObject* mxgo_invoke(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != 4 || !PyTuple_Check(args[1]) || !PyUnicode_Check(args[3])) {
		PyErr_SetString(PyExc_TypeError, "invoke(op_id, arrays: tuple, out, attrs: str)");
		return NULL;
	}
	if (mxgo_forked) return mxgo_raise_forked();
	long op = PyLong_AsLong(args[0]);
	if (op == -1 && PyErr_Occurred()) return NULL;
	if (op < 0 || op > INT32_MAX) return PyErr_Format(PyExc_ValueError, "invoke: unknown operator id %ld", op);
	Py_ssize_t k = PyTuple_GET_SIZE(args[1]);
	int64_t stack[STACK_ARRAYS];
	int64_t* hs = k <= STACK_ARRAYS ? stack : PyMem_Malloc(k * sizeof(int64_t));
	if (!hs) return PyErr_NoMemory();
	int64_t out = 0;
	Py_ssize_t alen;
	const char* attrs = PyUnicode_AsUTF8AndSize(args[3], &alen);
	int bad = !attrs || (args[2] != Py_None && mxgo_array_handle(args[2], "out", &out) < 0);
	for (Py_ssize_t i = 0; i < k && !bad; i++) bad = mxgo_array_handle(PyTuple_GET_ITEM(args[1], i), "arrays", &hs[i]) < 0;
	if (bad || alen > INT32_MAX || k > INT32_MAX) {
		if (hs != stack) PyMem_Free(hs);
		if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "invoke: too many arrays or attributes");
		return NULL;
	}
	int64_t h = 0;
	mxgo_desc d;
	char* msg = NULL;
	int kind;
	// The tuple, its arrays and attrs stay alive through the call: the caller holds them.
	if (tiny(args[1], args[2])) {
		kind = mxgoFastInvoke((int)op, hs, (int)k, out, (char*)attrs, (int)alen, &h, &d, &msg);
	} else {
		Py_BEGIN_ALLOW_THREADS
		kind = mxgoFastInvoke((int)op, hs, (int)k, out, (char*)attrs, (int)alen, &h, &d, &msg);
		Py_END_ALLOW_THREADS
	}
	if (hs != stack) PyMem_Free(hs);
	if (kind >= 0) return mxgo_raise(kind, msg);
	if (!h) Py_RETURN_NONE;
	return mxgo_new_array(h, &d);
}
