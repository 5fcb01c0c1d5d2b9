// The autograd mode of each thread: MXNet keeps is_recording and is_training
// thread-local, so a thread recording does not record another's operations. Python
// threads are OS threads, and Go, called from C, runs on the caller's thread, so a C
// thread-local is read right where a call starts (invoke.c passes it to Go; autograd.go
// reads it for the rarer calls).
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "bridge.h"

static _Thread_local int mode; // MXGO_AG_RECORDING | MXGO_AG_TRAINING

int mxgo_ag_mode(void) { return mode; }

// autograd_set(flag, on) -> whether flag was set: set_recording and set_training.
PyObject* mxgo_autograd_set(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != 2) {
		PyErr_SetString(PyExc_TypeError, "autograd_set(flag, on)");
		return NULL;
	}
	long flag = PyLong_AsLong(args[0]);
	if (flag == -1 && PyErr_Occurred()) return NULL;
	if (flag != MXGO_AG_RECORDING && flag != MXGO_AG_TRAINING) return PyErr_Format(PyExc_ValueError, "autograd_set: unknown flag %ld", flag);
	int on = PyObject_IsTrue(args[1]);
	if (on < 0) return NULL;
	int was = (mode & flag) != 0;
	mode = on ? mode | (int)flag : mode & ~(int)flag;
	return PyBool_FromLong(was);
}

// autograd_mode() -> the thread's flags (is_recording, is_training).
PyObject* mxgo_autograd_mode(PyObject* self, PyObject* unused) { return PyLong_FromLong(mode); }
