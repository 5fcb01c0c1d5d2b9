// The mxgo._fastpath module: the C functions CPython calls directly for the per-call work
// of exchange (no ctypes per call). Python creates it once at import through
// mxgo_fastpath_module. bridge.h maps where each function lives.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include "bridge.h"

int64_t mxgo_engine_busy;

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

// in_forked_child() -> whether Go is out of reach: this process is a fork (see pkg/proc).
static PyObject* in_forked_child(PyObject* self, PyObject* unused) { return PyBool_FromLong(mxgo_forked); }

static PyMethodDef methods[] = {
	{"import_capsule", mxgo_import_capsule, METH_O, "import_capsule(capsule) -> NDArray (consumes the capsule)"},
	{"import_object", mxgo_import_object, METH_O, "import_object(obj) -> NDArray, or NotImplemented (see capsule.c)"},
	{"import_stream", mxgo_import_stream_py, METH_O, "import_stream(device_id) -> int: the CUDA stream a producer orders "
		"for an import onto gpu(device_id), mxgo's stream there"},
	{"from_buffer", (PyCFunction)(void (*)(void))mxgo_from_buffer, METH_FASTCALL, "from_buffer(obj, dtype, itemsize, writable) -> NDArray"},
	{"empty", (PyCFunction)(void (*)(void))mxgo_empty, METH_FASTCALL, "empty(dtype_code, shape: str, dev_type, dev_id) -> NDArray"},
	{"fill", (PyCFunction)(void (*)(void))mxgo_fill, METH_FASTCALL, "fill(array, is_int, int_value, real, imag)"},
	{"from_numpy", mxgo_from_numpy, METH_O, "from_numpy(arr) -> NDArray, or NotImplemented (see numpy.c)"},
	{"numpy_lock", mxgo_numpy_lock, METH_O, "numpy_lock(arr): make arr read-only, remembering mxgo did"},
	{"numpy_locked", mxgo_numpy_locked, METH_O, "numpy_locked(arr) -> whether mxgo locked arr or an array it views"},
	{"numpy_locks", mxgo_numpy_locks, METH_NOARGS, "numpy_locks() -> size of the lock registry (for tests)"},
	{"set_numpy", (PyCFunction)(void (*)(void))mxgo_set_numpy, METH_FASTCALL, "set_numpy(...): see numpy.c"},
	{"invoke", (PyCFunction)(void (*)(void))mxgo_invoke, METH_FASTCALL,
	 "invoke(op_id, arrays, out, attrs[, cls[, same]]) -> NDArray (of class cls), or None when out is given (see invoke.c)"},
	{"invoke_all", (PyCFunction)(void (*)(void))mxgo_invoke_all, METH_FASTCALL,
	 "invoke_all(op_id, arrays, outs, attrs) -> None, or NotImplemented (see invoke.c)"},
	{"autograd_set", (PyCFunction)(void (*)(void))mxgo_autograd_set, METH_FASTCALL,
	 "autograd_set(flag, on) -> whether flag was set (the calling thread's recording or training flag)"},
	{"autograd_mode", mxgo_autograd_mode, METH_NOARGS, "autograd_mode() -> the calling thread's autograd flags"},
	{"exchange_counts", mxgo_exchange_counts, METH_NOARGS, "exchange_counts() -> calls to the DLPack exchange API tables (exchange.c)"},
	{"in_forked_child", in_forked_child, METH_NOARGS, "in_forked_child() -> whether this process is a fork (pkg/proc)"},
	{"set_array_class", set_array_class, METH_O, "set_array_class(cls): the class of arrays made in C"},
	{"set_np_class", mxgo_set_np_class, METH_O, "set_np_class(cls): the class indexed with NumPy's rules (view.c)"},
	{"set_error_classes", (PyCFunction)(void (*)(void))mxgo_set_error_classes, METH_FASTCALL, "set the exception classes"},
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
	if (mxgo_exchange_init(m) < 0 || mxgo_view_init() < 0 || PyModule_AddStringConstant(m, "FORKED_MESSAGE", mxgo_forked_message) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
