// CPython fast paths for the per-call work of DLPack exchange: making and consuming
// capsules, wrapping a buffer, describing and freeing arrays. CPython calls these
// directly (no ctypes per call); they call Go through the exports in fastpath.go.
//
// The capsule rules follow the DLPack Python specification: a capsule named "dltensor"
// or "dltensor_versioned" owns its tensor; a consumer renames it to "used_..." and takes
// over calling the deleter; the producer's destructor calls the deleter only while the
// capsule still has its unused name.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include "fastpath.h"
#include "../dlpack/dlpack.h"
#include "_cgo_export.h"

static const char* const LEGACY = "dltensor";
static const char* const VERSIONED = "dltensor_versioned";
static const char* const USED_LEGACY = "used_dltensor";
static const char* const USED_VERSIONED = "used_dltensor_versioned";

// Exception classes by mxerr.Kind; index 0 (MXNetError) is set from Python at import.
static PyObject* error_classes[7];

static PyObject* raise_kind(int kind, char* msg) {
	PyObject* cls = (kind >= 0 && kind < 7 && error_classes[kind]) ? error_classes[kind] : PyExc_RuntimeError;
	PyErr_SetString(cls, msg ? msg : "unknown error");
	free(msg);
	return NULL;
}

// Producer-side destructor of the capsules mxgo makes.
static void capsule_destructor(PyObject* cap) {
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb); // a destructor must not clobber a pending error
	if (PyCapsule_IsValid(cap, LEGACY)) {
		DLManagedTensor* t = PyCapsule_GetPointer(cap, LEGACY);
		if (t->deleter) t->deleter(t);
	} else if (PyCapsule_IsValid(cap, VERSIONED)) {
		DLManagedTensorVersioned* t = PyCapsule_GetPointer(cap, VERSIONED);
		if (t->deleter) t->deleter(t);
	}
	PyErr_Restore(type, value, tb);
}

static int arg_int64(PyObject* o, int64_t* out) {
	long long v = PyLong_AsLongLong(o);
	if (v == -1 && PyErr_Occurred()) return -1;
	*out = v;
	return 0;
}

// export(handle, versioned, flags) -> capsule
static PyObject* fast_export(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	int64_t h, flags;
	if (n != 3) { PyErr_SetString(PyExc_TypeError, "export(handle, versioned, flags)"); return NULL; }
	if (arg_int64(args[0], &h) || arg_int64(args[2], &flags)) return NULL;
	int versioned = PyObject_IsTrue(args[1]);
	if (versioned < 0) return NULL;
	void* mt = NULL;
	char* msg = NULL;
	int kind = mxgoFastExport(h, versioned, (uint64_t)flags, &mt, &msg);
	if (kind >= 0) return raise_kind(kind, msg);
	PyObject* cap = PyCapsule_New(mt, versioned ? VERSIONED : LEGACY, capsule_destructor);
	if (!cap) {
		if (versioned) { DLManagedTensorVersioned* t = mt; t->deleter(t); }
		else { DLManagedTensor* t = mt; t->deleter(t); }
	}
	return cap;
}

// import_capsule(capsule) -> handle. Consumes the capsule, even when the tensor is
// refused (its deleter has then run).
static PyObject* fast_import_capsule(PyObject* self, PyObject* cap) {
	if (!PyCapsule_CheckExact(cap)) {
		PyErr_Format(PyExc_TypeError, "from_dlpack expects a DLPack capsule or an object with __dlpack__ and __dlpack_device__, got %.200s", Py_TYPE(cap)->tp_name);
		return NULL;
	}
	const char* name = PyCapsule_GetName(cap);
	if (!name && PyErr_Occurred()) return NULL;
	int versioned;
	if (name && strcmp(name, LEGACY) == 0) versioned = 0;
	else if (name && strcmp(name, VERSIONED) == 0) versioned = 1;
	else if (name && (strcmp(name, USED_LEGACY) == 0 || strcmp(name, USED_VERSIONED) == 0)) {
		PyErr_SetString(PyExc_ValueError, "the DLPack capsule was already consumed: a capsule can be used only once");
		return NULL;
	} else {
		PyErr_Format(PyExc_ValueError, "not a DLPack capsule: its name is %s%.100s%s, expected 'dltensor' or 'dltensor_versioned'",
			name ? "'" : "", name ? name : "NULL", name ? "'" : "");
		return NULL;
	}
	void* mt = PyCapsule_GetPointer(cap, name);
	if (!mt) return NULL;
	if (PyCapsule_SetName(cap, versioned ? USED_VERSIONED : USED_LEGACY) < 0) return NULL;
	int64_t h = 0;
	char* msg = NULL;
	int kind = mxgoFastImport(mt, versioned, &h, &msg);
	if (kind >= 0) return raise_kind(kind, msg);
	return PyLong_FromLongLong(h);
}

// from_buffer(obj, dtype, itemsize, writable) -> handle. Views obj's memory through the
// buffer protocol; the buffer is released (with the GIL) when the last view dies. The
// caller decides writability: mxgo keeps write access to NumPy arrays it locked itself.
static PyObject* fast_from_buffer(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	int64_t dtype, itemsize;
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
	char* msg = NULL;
	int kind = mxgoFastFromBuffer(view->buf, (int32_t)dtype, (int32_t)view->ndim, (int64_t*)view->shape,
		(int64_t*)view->strides, (int64_t)itemsize, writable, view, &h, &msg);
	if (kind >= 0) return raise_kind(kind, msg); // Go released the buffer
	return PyLong_FromLongLong(h);
}

void mxgo_release_buffer(void* p) {
	Py_buffer* view = p;
	if (_Py_IsFinalizing()) return; // the interpreter is going away; leak instead of crashing
	PyGILState_STATE st = PyGILState_Ensure();
	PyBuffer_Release(view);
	PyGILState_Release(st);
	free(view);
}

// describe(handle) -> (dtype, shape, strides, writable, (dev_type, dev_id), data_address)
static PyObject* fast_describe(PyObject* self, PyObject* arg) {
	int64_t h;
	if (arg_int64(arg, &h)) return NULL;
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoFastDescribe(h, &d, &msg);
	if (kind >= 0) return raise_kind(kind, msg);
	PyObject* shape = PyTuple_New(d.ndim);
	PyObject* strides = PyTuple_New(d.ndim);
	if (!shape || !strides) { Py_XDECREF(shape); Py_XDECREF(strides); return NULL; }
	for (int i = 0; i < d.ndim; i++) {
		PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(d.shape[i]));
		PyTuple_SET_ITEM(strides, i, PyLong_FromLongLong(d.strides[i]));
	}
	return Py_BuildValue("(iNNO(ii)K)", d.dtype, shape, strides, d.writable ? Py_True : Py_False,
		d.dev_type, d.dev_id, (unsigned long long)d.data);
}

// free(handle): drops the array behind handle; idempotent.
static PyObject* fast_free(PyObject* self, PyObject* arg) {
	int64_t h;
	if (arg_int64(arg, &h)) return NULL;
	mxgoFastFree(h);
	Py_RETURN_NONE;
}

// set_error_classes(MXNetError, ValueError, TypeError, IndexError, BufferError,
// MemoryError, NotImplementedError): the classes raised for each error kind.
static PyObject* fast_set_error_classes(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != 7) { PyErr_SetString(PyExc_TypeError, "set_error_classes needs 7 classes"); return NULL; }
	for (int i = 0; i < 7; i++) {
		Py_INCREF(args[i]);
		Py_XSETREF(error_classes[i], args[i]);
	}
	Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
	{"export", (PyCFunction)(void (*)(void))fast_export, METH_FASTCALL, "export(handle, versioned, flags) -> capsule"},
	{"import_capsule", fast_import_capsule, METH_O, "import_capsule(capsule) -> handle"},
	{"from_buffer", (PyCFunction)(void (*)(void))fast_from_buffer, METH_FASTCALL, "from_buffer(obj, dtype, itemsize, writable) -> handle"},
	{"describe", fast_describe, METH_O, "describe(handle) -> (dtype, shape, strides, writable, device, data)"},
	{"free", fast_free, METH_O, "free(handle)"},
	{"set_error_classes", (PyCFunction)(void (*)(void))fast_set_error_classes, METH_FASTCALL, "set the exception classes"},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "mxgo._fastpath", "mxgo's C fast paths", -1, methods};

// Called once at import, with the GIL held (through ctypes.PyDLL).
PyObject* mxgo_fastpath_module(void) {
	return PyModule_Create(&module_def);
}
