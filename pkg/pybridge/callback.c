// The C half of mx.nd.run_async: Python callables run on mxgo's engine.
//
// Threads and the GIL. Python pushes a callable with pybridge.RunAsync, a gopy function,
// so the calling thread has released the GIL while Go wires the operation into the
// engine. When the operation's dependencies are done, an engine goroutine calls
// mxgo_run_callback, which takes the GIL (PyGILState_Ensure: a thread state is made for
// the engine's OS thread if it has none), calls the Python runner registered with
// set_runner, turns what it reports into (kind, message), and releases the GIL
// (PyGILState_Release) before returning to Go. The GIL is held only while Python runs;
// no Go lock is held meanwhile, so a GIL holder waiting on Go cannot deadlock with it.
// In the naive (synchronous) engine the callable runs inside RunAsync, on the caller's
// thread, which takes back the GIL that gopy released.
//
// Shutdown. mxgo's exit hook drains the engine and then calls close(); from then on, and
// whenever the interpreter is finalizing, callbacks are not run (their written arrays get
// an MXNetError) and the GIL is not touched: a thread taking the GIL during finalization
// would be ended by CPython, and an engine thread must never be.
//
// Python creates the module once at import with mxgo_callback_module (through
// ctypes.PyDLL, with the GIL held), as it does the fast-path module.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "bridge.h"
#include "_cgo_export.h"

// runners[which](id, run) -> None or (kind, message); set under the GIL. MXGO_RUN_ASYNC's
// runs run_async's callables; MXGO_RUN_FUNCTION's runs autograd.Function backwards.
static PyObject* runners[2];
static const char* const runner_names[2] = {"run_async", "autograd.Function"};
static atomic_int closed; // set under the GIL by close(); read before taking it

static char* dup_msg(const char* s) {
	size_t n = strlen(s) + 1;
	char* p = malloc(n);
	if (p) memcpy(p, s, n);
	return p;
}

// The pending exception as an MXNetError message (the runner itself failed, which it
// should not: it catches what the callable raises). Clears the exception.
static int from_exception(const char* what, char** msg) {
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	PyObject* s = value ? PyObject_Str(value) : NULL;
	const char* text = s ? PyUnicode_AsUTF8(s) : NULL;
	if (!text) PyErr_Clear();
	const char* tname = type ? ((PyTypeObject*)type)->tp_name : "exception";
	size_t n = strlen(what) + strlen(tname) + (text ? strlen(text) : 0) + 8;
	*msg = malloc(n);
	if (*msg) snprintf(*msg, n, "%s: %s: %s", what, tname, text ? text : "");
	Py_XDECREF(s);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
	return MXGO_KIND_MXNET;
}

// shutting_down is the message of a callback not run at exit.
static char* shutting_down(int which) {
	char buf[128];
	snprintf(buf, sizeof buf, "%s: the callback was not run: the Python interpreter is shutting down", runner_names[which]);
	return dup_msg(buf);
}

// failed is from_exception with the runner's name in front.
static int failed(int which, const char* what, char** msg) {
	char buf[128];
	snprintf(buf, sizeof buf, "%s: the callback runner %s", runner_names[which], what);
	return from_exception(buf, msg);
}

int mxgo_run_callback(int which, int64_t id, int run, char** msg) {
	*msg = NULL;
	if (atomic_load(&closed) || mxgo_finalizing()) {
		*msg = shutting_down(which);
		return MXGO_KIND_MXNET;
	}
	PyGILState_STATE st = PyGILState_Ensure();
	int kind = -1;
	if (atomic_load(&closed) || mxgo_finalizing()) { // close() ran while we waited for the GIL
		*msg = shutting_down(which);
		kind = MXGO_KIND_MXNET;
	} else if (!runners[which]) {
		*msg = dup_msg("no callback runner is registered");
		kind = MXGO_KIND_MXNET;
	} else {
		PyObject* fn = runners[which];
		Py_INCREF(fn);
		PyObject* r = PyObject_CallFunction(fn, "Li", (long long)id, run);
		Py_DECREF(fn);
		if (!r) {
			kind = failed(which, "failed", msg);
		} else if (r != Py_None) {
			int k;
			const char* text;
			if (PyArg_ParseTuple(r, "is", &k, &text)) {
				kind = k < 0 ? MXGO_KIND_MXNET : k;
				*msg = dup_msg(text);
			} else {
				kind = failed(which, "returned a bad result", msg);
			}
		}
		Py_XDECREF(r);
	}
	PyErr_Clear(); // nothing may stay pending on this thread state
	PyGILState_Release(st);
	return kind;
}

// ---- the mxgo._callback module -----------------------------------------------------

// set_runner(which, fn): fn(id, run) becomes runner which.
static PyObject* set_runner(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != 2 || !PyCallable_Check(args[1])) {
		PyErr_SetString(PyExc_TypeError, "set_runner(which, fn) needs a callable");
		return NULL;
	}
	long which = PyLong_AsLong(args[0]);
	if (which == -1 && PyErr_Occurred()) return NULL;
	if (which != MXGO_RUN_ASYNC && which != MXGO_RUN_FUNCTION) return PyErr_Format(PyExc_ValueError, "set_runner: no runner %ld", which);
	Py_INCREF(args[1]);
	Py_XSETREF(runners[which], args[1]);
	Py_RETURN_NONE;
}

static PyObject* close_runner(PyObject* self, PyObject* unused) {
	atomic_store(&closed, 1);
	Py_RETURN_NONE;
}

static PyObject* is_closed(PyObject* self, PyObject* unused) {
	return PyBool_FromLong(atomic_load(&closed));
}

// export(handle, versioned, flags, copy) -> capsule, without waiting on the engine: for
// the views a callback receives, whose operation is the engine work an ordinary export
// would wait for (and so wait forever).
static PyObject* export_nowait(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != 4) {
		PyErr_SetString(PyExc_TypeError, "export(handle, versioned, flags, copy)");
		return NULL;
	}
	if (mxgo_forked) return mxgo_raise_forked();
	long long h = PyLong_AsLongLong(args[0]);
	if (h == -1 && PyErr_Occurred()) return NULL;
	int versioned = PyObject_IsTrue(args[1]);
	if (versioned < 0) return NULL;
	unsigned long long flags = PyLong_AsUnsignedLongLong(args[2]);
	if (flags == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
	int copy = PyObject_IsTrue(args[3]);
	if (copy < 0) return NULL;
	void* mt = NULL;
	char* msg = NULL;
	int kind = mxgoCallbackExport(h, versioned, flags, copy, &mt, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	return mxgo_capsule(mt, versioned);
}

static PyMethodDef methods[] = {
	{"set_runner", (PyCFunction)(void (*)(void))set_runner, METH_FASTCALL,
	 "set_runner(which, fn): fn(id, run) runs (or, run false, drops) callback id of kind which (0 run_async, 1 Function)"},
	{"close", close_runner, METH_NOARGS, "close(): run no more callbacks (interpreter exit)"},
	{"closed", is_closed, METH_NOARGS, "closed() -> whether close() was called"},
	{"export", (PyCFunction)(void (*)(void))export_nowait, METH_FASTCALL,
	 "export(handle, versioned, flags, copy) -> DLPack capsule, without waiting on the engine"},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "mxgo._callback",
	"mxgo's engine callbacks (mx.nd.run_async)", -1, methods};

// Called once at import, with the GIL held (through ctypes.PyDLL).
PyObject* mxgo_callback_module(void) { return PyModule_Create(&module_def); }
