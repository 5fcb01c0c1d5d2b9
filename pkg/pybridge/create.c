// New arrays made through Go (create.go): mx.nd.empty, fills with a scalar, and views of
// Python buffers; and the releases Go calls back when such memory is let go.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include "bridge.h"
#include "_cgo_export.h"

static int arg_int64(PyObject* o, int64_t* out) {
	long long v = PyLong_AsLongLong(o);
	if (v == -1 && PyErr_Occurred()) return -1;
	*out = v;
	return 0;
}

// from_buffer(obj, dtype, itemsize, writable) -> NDArray viewing obj's memory through
// the buffer protocol; the buffer is released (with the GIL) when the last view dies.
// The caller decides writability: mxgo keeps write access to NumPy arrays it locked.
PyObject* mxgo_from_buffer(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	int64_t dtype, itemsize;
	if (mxgo_forked) return mxgo_raise_forked();
	if (n != 4) { PyErr_SetString(PyExc_TypeError, "from_buffer(obj, dtype, itemsize, writable)"); return NULL; }
	if (arg_int64(args[1], &dtype) || arg_int64(args[2], &itemsize)) return NULL;
	int writable = PyObject_IsTrue(args[3]);
	if (writable < 0) return NULL;
	Py_buffer* view = malloc(sizeof(Py_buffer));
	if (!view) return PyErr_NoMemory();
	if (PyObject_GetBuffer(args[0], view, PyBUF_RECORDS_RO) < 0) { free(view); return NULL; }
	if (view->itemsize != itemsize) {
		PyErr_Format(PyExc_ValueError, "buffer item size %zd does not match the dtype's %lld", view->itemsize, (long long)itemsize);
		PyBuffer_Release(view);
		free(view);
		return NULL;
	}
	int64_t h = 0;
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoFastFromBuffer(view->buf, (int32_t)dtype, (int32_t)view->ndim, (int64_t*)view->shape,
		(int64_t*)view->strides, (int64_t)itemsize, writable, view, &h, &d, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg); // Go released the buffer
	return mxgo_new_array(h, &d);
}

void mxgo_release_buffer(void* p) {
	Py_buffer* view = p;
	if (mxgo_finalizing()) return; // the interpreter is going away; leak instead of crashing
	PyGILState_STATE st = PyGILState_Ensure();
	PyBuffer_Release(view);
	PyGILState_Release(st);
	free(view);
}

void mxgo_release_owner(void* owner) {
	if (mxgo_finalizing()) return; // the interpreter is going away; leak instead of crashing
	PyGILState_STATE st = PyGILState_Ensure();
	Py_DECREF((PyObject*)owner);
	PyGILState_Release(st);
}

// empty(dtype_code, shape, dev_type, dev_id) -> NDArray: mx.nd.empty, shape in the wire
// form Python's _shape_str makes ("2,3"), parsed by Go.
PyObject* mxgo_empty(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	long dt, devtype, devid;
	Py_ssize_t len;
	if (mxgo_forked) return mxgo_raise_forked();
	if (n != 4 || !PyUnicode_Check(args[1])) {
		PyErr_SetString(PyExc_TypeError, "empty(dtype_code, shape: str, dev_type, dev_id)");
		return NULL;
	}
	const char* shape = PyUnicode_AsUTF8AndSize(args[1], &len);
	if (!shape || (dt = PyLong_AsLong(args[0])) == -1 || (devtype = PyLong_AsLong(args[2])) == -1 ||
			(devid = PyLong_AsLong(args[3])) == -1) {
		if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "empty: negative dtype code or device");
		return NULL;
	}
	if (dt > INT32_MAX || devtype > INT32_MAX || devid > INT32_MAX || len > INT32_MAX)
		return PyErr_Format(PyExc_ValueError, "empty: argument out of range");
	int64_t h = 0;
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoFastEmpty((int32_t)dt, (char*)shape, (int)len, (int32_t)devtype, (int32_t)devid, &h, &d, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	return mxgo_new_array(h, &d);
}

// fill(array, is_int, int_value, real, imag): array[...] = the scalar (see _scalar_args).
PyObject* mxgo_fill(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	int64_t h;
	if (mxgo_forked) return mxgo_raise_forked();
	if (n != 5) { PyErr_SetString(PyExc_TypeError, "fill(array, is_int, int_value, real, imag)"); return NULL; }
	if (mxgo_array_handle(args[0], "array", &h) < 0) return NULL;
	int is_int = PyObject_IsTrue(args[1]);
	long long iv = PyLong_AsLongLong(args[2]);
	double re = PyFloat_AsDouble(args[3]), im = PyFloat_AsDouble(args[4]);
	if (is_int < 0 || PyErr_Occurred()) return NULL;
	char* msg = NULL;
	int kind = mxgoFastFill(h, is_int, iv, re, im, mxgo_ag_mode(), &msg); // the caller's autograd flags
	if (kind >= 0) return mxgo_raise(kind, msg);
	Py_RETURN_NONE;
}
