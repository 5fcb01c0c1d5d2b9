// The exceptions pybridge raises: a class per mxerr.Kind (registered from Python at
// import), errors reported by Go (errors.go), and the forked-child refusal.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include "bridge.h"

// Exception classes by mxerr.Kind, registered from Python at import.
static PyObject* error_classes[MXGO_NKINDS];

// Python stubs the gopy functions out with the same message in forked children (base.py).
const char mxgo_forked_message[] =
	"mxgo cannot run in a forked child process: after fork() only the forking thread exists, and mxgo's "
	"Go runtime and engine threads are not there. Start workers with multiprocessing.get_context('spawn') "
	"or get_context('forkserver') (with no mxgo in set_forkserver_preload; PyTorch: DataLoader(..., "
	"multiprocessing_context='spawn')), or import mxgo only in the child processes. NumPy and PyTorch "
	"views of mxgo arrays made before the fork stay usable in the child.";

PyObject* mxgo_raise_forked(void) {
	PyErr_SetString(error_classes[MXGO_KIND_MXNET] ? error_classes[MXGO_KIND_MXNET] : PyExc_RuntimeError, mxgo_forked_message);
	return NULL;
}

PyObject* mxgo_error_class(int kind) {
	if (kind >= 0 && kind < MXGO_NKINDS && error_classes[kind]) return error_classes[kind];
	switch (kind) {
	case MXGO_KIND_VALUE: return PyExc_ValueError;
	case MXGO_KIND_TYPE: return PyExc_TypeError;
	case MXGO_KIND_BUFFER: return PyExc_BufferError;
	}
	return PyExc_RuntimeError;
}

PyObject* mxgo_raise(int kind, char* msg) {
	PyObject* cls = (kind >= 0 && kind < MXGO_NKINDS && error_classes[kind]) ? error_classes[kind] : PyExc_RuntimeError;
	PyErr_SetString(cls, msg ? msg : "unknown error");
	free(msg);
	return NULL;
}


// set_error_classes(*classes): the class raised for each error kind, in kind order
// (base.py reads the order from Go's Facts).
PyObject* mxgo_set_error_classes(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != MXGO_NKINDS) { PyErr_Format(PyExc_TypeError, "set_error_classes needs %d classes", MXGO_NKINDS); return NULL; }
	for (int i = 0; i < MXGO_NKINDS; i++) {
		Py_INCREF(args[i]);
		Py_XSETREF(error_classes[i], args[i]);
	}
	Py_RETURN_NONE;
}
