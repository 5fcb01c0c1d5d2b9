// The mxgo._tvm module: the C half of mxgo.tvm_bridge (tvm.go, pkg/tvmffi). Python
// creates it once at import with mxgo_tvm_module (through ctypes.PyDLL, with the GIL
// held), as it does the fast-path module. Nothing here runs on engine threads: the
// bridged calls themselves run in pkg/tvmffi, without Python.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>
#include "bridge.h"
#include "../tvmffi/tvmffi.h"
#include "_cgo_export.h"

#define STACK_ARGS 16
#define FFI_INT 1 // TVM-FFI's type indices (pkg/tvmffi/tvmffi.h)
#define FFI_BOOL 2
#define FFI_FLOAT 3

static PyObject* str_arg(PyObject* o, Py_ssize_t* n) {
	if (!PyUnicode_Check(o)) {
		PyErr_SetString(PyExc_TypeError, "expected a str");
		return NULL;
	}
	const char* s = PyUnicode_AsUTF8AndSize(o, n);
	if (s && *n > INT32_MAX) {
		PyErr_SetString(PyExc_ValueError, "string too long");
		return NULL;
	}
	return s ? o : NULL;
}

// load(path): use the libtvm_ffi.so at path, which Python's tvm_ffi has loaded.
static PyObject* load(PyObject* self, PyObject* path) {
	Py_ssize_t n;
	if (!str_arg(path, &n)) return NULL;
	if (mxgo_forked) return mxgo_raise_forked();
	char* msg = NULL;
	int kind = mxgoTVMLoad((char*)PyUnicode_AsUTF8(path), (int)n, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	Py_RETURN_NONE;
}

// The GIL hooks of the global functions (pkg/tvmffi): an operator called by a thread
// that holds the GIL (tvm_ffi's release_gil=False) computes without it. Never while
// finalizing, when a thread giving up the GIL might not get it back.
static void* release_gil(void) {
	if (mxgo_finalizing() || !PyGILState_Check()) return NULL;
	return PyEval_SaveThread();
}

static void reacquire_gil(void* st) { PyEval_RestoreThread(st); }

// register(prefix) -> count: every operator as the global function prefix + name.
static PyObject* register_ops(PyObject* self, PyObject* prefix) {
	Py_ssize_t n;
	if (!str_arg(prefix, &n)) return NULL;
	if (mxgo_forked) return mxgo_raise_forked();
	char* msg = NULL;
	int64_t count = 0;
	mxgo_ffi_set_gil_hooks(release_gil, reacquire_gil);
	int kind = mxgoTVMRegister((char*)PyUnicode_AsUTF8(prefix), (int)n, &count, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	return PyLong_FromLongLong(count);
}

static PyObject* close_bridge(PyObject* self, PyObject* unused) {
	if (!mxgo_forked) mxgoTVMClose();
	Py_RETURN_NONE;
}

// push(handle, args, consts): pushes a call of the TVM-FFI function at handle. args is a
// tuple of NDArrays, bools, ints and floats; consts a tuple of as many bools (an array
// read, not written). Python's wrapper (tvm_bridge.py) has checked them.
static PyObject* push(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
	if (nargs != 3 || !PyTuple_Check(args[1]) || !PyTuple_Check(args[2]) ||
		PyTuple_GET_SIZE(args[1]) != PyTuple_GET_SIZE(args[2])) {
		PyErr_SetString(PyExc_TypeError, "push(handle, args: tuple, consts: tuple of the same length)");
		return NULL;
	}
	if (mxgo_forked) return mxgo_raise_forked();
	void* f = PyLong_AsVoidPtr(args[0]);
	if (!f && PyErr_Occurred()) return NULL;
	Py_ssize_t n = PyTuple_GET_SIZE(args[1]);
	if (n > INT32_MAX / 2) return PyErr_Format(PyExc_ValueError, "too many arguments: %zd", n);
	int32_t st[STACK_ARGS];
	int64_t sv[STACK_ARGS];
	uint8_t sc[STACK_ARGS];
	int big = n > STACK_ARGS;
	int32_t* types = big ? PyMem_Malloc(n * sizeof(int32_t)) : st;
	int64_t* vals = big ? PyMem_Malloc(n * sizeof(int64_t)) : sv;
	uint8_t* consts = big ? PyMem_Malloc(n) : sc;
	int bad = !types || !vals || !consts;
	if (bad) PyErr_NoMemory();
	for (Py_ssize_t i = 0; i < n && !bad; i++) {
		PyObject* a = PyTuple_GET_ITEM(args[1], i);
		int c = PyObject_IsTrue(PyTuple_GET_ITEM(args[2], i));
		consts[i] = c > 0;
		if (c < 0) {
			bad = 1;
		} else if (PyBool_Check(a)) {
			types[i] = FFI_BOOL;
			vals[i] = a == Py_True;
		} else if (PyLong_Check(a)) {
			types[i] = FFI_INT;
			vals[i] = PyLong_AsLongLong(a);
			if (vals[i] == -1 && PyErr_Occurred()) {
				PyErr_Clear();
				PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "argument %zd: int out of the int64 range", i);
				bad = 1;
			}
		} else if (PyFloat_Check(a)) {
			double d = PyFloat_AS_DOUBLE(a);
			types[i] = FFI_FLOAT;
			memcpy(&vals[i], &d, sizeof d);
		} else {
			types[i] = -1;
			bad = mxgo_array_handle(a, "args", &vals[i]) < 0;
		}
	}
	int kind = -1;
	char* msg = NULL;
	if (!bad) {
		// The tuple holds the arrays (and their handles) through the call.
		Py_BEGIN_ALLOW_THREADS
		kind = mxgoTVMPush(f, types, vals, consts, (int)n, &msg);
		Py_END_ALLOW_THREADS
	}
	if (big) {
		PyMem_Free(types);
		PyMem_Free(vals);
		PyMem_Free(consts);
	}
	if (bad) return NULL;
	if (kind >= 0) return mxgo_raise(kind, msg);
	Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
	{"load", load, METH_O, "load(path): use the libtvm_ffi.so that tvm_ffi loaded from path"},
	{"register", register_ops, METH_O, "register(prefix) -> count: operators as TVM-FFI global functions"},
	{"close", close_bridge, METH_NOARGS, "close(): run no more bridged calls (interpreter exit)"},
	{"push", (PyCFunction)(void (*)(void))push, METH_FASTCALL,
	 "push(handle, args, consts): a TVM-FFI function call on the engine"},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "mxgo._tvm", "mxgo's TVM-FFI bridge", -1, methods};

// Called once at import, with the GIL held (through ctypes.PyDLL).
PyObject* mxgo_tvm_module(void) { return PyModule_Create(&module_def); }
