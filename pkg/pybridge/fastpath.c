// The mxgo._fastpath module: C functions CPython calls directly for the per-call work of
// exchange (no ctypes per call). Python creates it once at import through
// mxgo_fastpath_module. Capsules are in capsule.c, the NDArray base type (exports,
// waits) in arraytype.c, from_numpy in numpy.c, operator calls in invoke.c. They enter
// Go (the exports in fastpath.go and invoke.go) only for what C cannot do alone.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include "fastpath.h"
#include "_cgo_export.h"

PyObject* mxgo_import_capsule(PyObject* self, PyObject* cap);
PyObject* mxgo_import_object(PyObject* self, PyObject* obj);
PyObject* mxgo_set_numpy(PyObject* self, PyObject* const* args, Py_ssize_t n);
PyObject* mxgo_from_numpy(PyObject* self, PyObject* obj);
PyObject* mxgo_numpy_lock(PyObject* self, PyObject* arr);
PyObject* mxgo_numpy_locked(PyObject* self, PyObject* arr);
PyObject* mxgo_numpy_locks(PyObject* self, PyObject* unused);

int64_t mxgo_engine_busy;

// Exception classes by mxerr.Kind, registered from Python at import.
static PyObject* error_classes[MXGO_NKINDS];

// Python stubs the gopy functions out with the same message in forked children (base.py).
static const char FORKED_MESSAGE[] =
	"mxgo cannot run in a forked child process: after fork() only the forking thread exists, and mxgo's "
	"Go runtime and engine threads are not there. Start workers with multiprocessing.get_context('spawn') "
	"or get_context('forkserver') (with no mxgo in set_forkserver_preload; PyTorch: DataLoader(..., "
	"multiprocessing_context='spawn')), or import mxgo only in the child processes. NumPy and PyTorch "
	"views of mxgo arrays made before the fork stay usable in the child.";

PyObject* mxgo_raise_forked(void) {
	PyErr_SetString(error_classes[MXGO_KIND_MXNET] ? error_classes[MXGO_KIND_MXNET] : PyExc_RuntimeError, FORKED_MESSAGE);
	return NULL;
}

PyObject* mxgo_raise(int kind, char* msg) {
	PyObject* cls = (kind >= 0 && kind < MXGO_NKINDS && error_classes[kind]) ? error_classes[kind] : PyExc_RuntimeError;
	PyErr_SetString(cls, msg ? msg : "unknown error");
	free(msg);
	return NULL;
}

static int arg_int64(PyObject* o, int64_t* out) {
	long long v = PyLong_AsLongLong(o);
	if (v == -1 && PyErr_Occurred()) return -1;
	*out = v;
	return 0;
}

// from_buffer(obj, dtype, itemsize, writable) -> NDArray viewing obj's memory through
// the buffer protocol; the buffer is released (with the GIL) when the last view dies.
// The caller decides writability: mxgo keeps write access to NumPy arrays it locked.
static PyObject* from_buffer(PyObject* self, PyObject* const* args, Py_ssize_t n) {
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
	if (_Py_IsFinalizing()) return; // the interpreter is going away; leak instead of crashing
	PyGILState_STATE st = PyGILState_Ensure();
	PyBuffer_Release(view);
	PyGILState_Release(st);
	free(view);
}

void mxgo_release_owner(void* owner) {
	if (_Py_IsFinalizing()) return; // the interpreter is going away; leak instead of crashing
	PyGILState_STATE st = PyGILState_Ensure();
	Py_DECREF((PyObject*)owner);
	PyGILState_Release(st);
}

// empty(dtype_code, shape, dev_type, dev_id) -> NDArray: mx.nd.empty, shape in the wire
// form Python's _shape_str makes ("2,3"), parsed by Go.
static PyObject* empty(PyObject* self, PyObject* const* args, Py_ssize_t n) {
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
static PyObject* fill(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	int64_t h;
	if (mxgo_forked) return mxgo_raise_forked();
	if (n != 5) { PyErr_SetString(PyExc_TypeError, "fill(array, is_int, int_value, real, imag)"); return NULL; }
	if (mxgo_array_handle(args[0], "array", &h) < 0) return NULL;
	int is_int = PyObject_IsTrue(args[1]);
	long long iv = PyLong_AsLongLong(args[2]);
	double re = PyFloat_AsDouble(args[3]), im = PyFloat_AsDouble(args[4]);
	if (is_int < 0 || PyErr_Occurred()) return NULL;
	char* msg = NULL;
	int kind = mxgoFastFill(h, is_int, iv, re, im, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	Py_RETURN_NONE;
}

// set_array_class(cls): arrays made in C are instances of cls (a subclass of NDArrayBase).
static PyObject* set_array_class(PyObject* self, PyObject* cls) {
	if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &mxgo_array_base_type)) {
		PyErr_SetString(PyExc_TypeError, "set_array_class needs a subclass of NDArrayBase");
		return NULL;
	}
	Py_INCREF(cls);
	mxgo_array_class = (PyTypeObject*)cls;
	Py_RETURN_NONE;
}

// set_error_classes(*classes): the class raised for each error kind, in kind order
// (base.py reads the order from Go's Facts).
static PyObject* set_error_classes(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != MXGO_NKINDS) { PyErr_Format(PyExc_TypeError, "set_error_classes needs %d classes", MXGO_NKINDS); return NULL; }
	for (int i = 0; i < MXGO_NKINDS; i++) {
		Py_INCREF(args[i]);
		Py_XSETREF(error_classes[i], args[i]);
	}
	Py_RETURN_NONE;
}

// in_forked_child() -> whether Go is out of reach: this process is a fork (see pkg/proc).
static PyObject* in_forked_child(PyObject* self, PyObject* unused) { return PyBool_FromLong(mxgo_forked); }

static PyMethodDef methods[] = {
	{"import_capsule", mxgo_import_capsule, METH_O, "import_capsule(capsule) -> NDArray (consumes the capsule)"},
	{"import_object", mxgo_import_object, METH_O, "import_object(obj) -> NDArray, or NotImplemented (see capsule.c)"},
	{"from_buffer", (PyCFunction)(void (*)(void))from_buffer, METH_FASTCALL, "from_buffer(obj, dtype, itemsize, writable) -> NDArray"},
	{"empty", (PyCFunction)(void (*)(void))empty, METH_FASTCALL, "empty(dtype_code, shape: str, dev_type, dev_id) -> NDArray"},
	{"fill", (PyCFunction)(void (*)(void))fill, METH_FASTCALL, "fill(array, is_int, int_value, real, imag)"},
	{"from_numpy", mxgo_from_numpy, METH_O, "from_numpy(arr) -> NDArray, or NotImplemented (see numpy.c)"},
	{"numpy_lock", mxgo_numpy_lock, METH_O, "numpy_lock(arr): make arr read-only, remembering mxgo did"},
	{"numpy_locked", mxgo_numpy_locked, METH_O, "numpy_locked(arr) -> whether mxgo locked arr or an array it views"},
	{"numpy_locks", mxgo_numpy_locks, METH_NOARGS, "numpy_locks() -> size of the lock registry (for tests)"},
	{"set_numpy", (PyCFunction)(void (*)(void))mxgo_set_numpy, METH_FASTCALL, "set_numpy(...): see numpy.c"},
	{"invoke", (PyCFunction)(void (*)(void))mxgo_invoke, METH_FASTCALL,
	 "invoke(op_id, arrays, out, attrs) -> NDArray, or None when out is given (see op.py)"},
	{"in_forked_child", in_forked_child, METH_NOARGS, "in_forked_child() -> whether this process is a fork (pkg/proc)"},
	{"set_array_class", set_array_class, METH_O, "set_array_class(cls): the class of arrays made in C"},
	{"set_error_classes", (PyCFunction)(void (*)(void))set_error_classes, METH_FASTCALL, "set the exception classes"},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "mxgo._fastpath", "mxgo's C fast paths", -1, methods};

// Called once at import, with the GIL held (through ctypes.PyDLL).
PyObject* mxgo_fastpath_module(void) {
	if (PyType_Ready(&mxgo_array_base_type) < 0 || PyType_Ready(&mxgo_byteview_type) < 0) return NULL;
	PyObject* m = PyModule_Create(&module_def);
	if (!m) return NULL;
	Py_INCREF(&mxgo_array_base_type);
	if (PyModule_AddObject(m, "NDArrayBase", (PyObject*)&mxgo_array_base_type) < 0) {
		Py_DECREF(&mxgo_array_base_type);
		Py_DECREF(m);
		return NULL;
	}
	Py_INCREF(&mxgo_byteview_type);
	if (PyModule_AddObject(m, "ByteView", (PyObject*)&mxgo_byteview_type) < 0) {
		Py_DECREF(&mxgo_byteview_type);
		Py_DECREF(m);
		return NULL;
	}
	if (PyModule_AddStringConstant(m, "FORKED_MESSAGE", FORKED_MESSAGE) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
