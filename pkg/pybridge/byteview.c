// ByteView(array): the bytes of a C-contiguous host NDArray as a read-only buffer (one
// dimension, format 'B') that keeps the array alive while any view of it exists. It is
// what NDArray.__reduce_ex__ wraps in a PickleBuffer, so pickle protocol 5 hands the
// array's memory to a buffer_callback without a copy. A separate type rather than the
// buffer protocol on NDArray itself: NumPy prefers a buffer over __array__, and
// np.asarray(x) must stay a copy made after the engine's pending writes.
// The caller waits for pending writes first (NDArray.wait_to_read).
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "bridge.h"

typedef struct {
	PyObject_HEAD
	PyObject* array;
	void* data;
	Py_ssize_t nbytes;
} ByteView;

static PyObject* byteview_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
	PyObject* array;
	static char* kwlist[] = {"array", NULL};
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:ByteView", kwlist, &array)) return NULL;
	void* data;
	Py_ssize_t nbytes;
	if (mxgo_array_bytes(array, &data, &nbytes) < 0) return NULL;
	ByteView* v = (ByteView*)type->tp_alloc(type, 0);
	if (!v) return NULL;
	Py_INCREF(array);
	v->array = array;
	v->data = data;
	v->nbytes = nbytes;
	return (PyObject*)v;
}

static void byteview_dealloc(ByteView* v) {
	Py_XDECREF(v->array);
	Py_TYPE(v)->tp_free((PyObject*)v);
}

static int byteview_getbuffer(ByteView* v, Py_buffer* view, int flags) {
	return PyBuffer_FillInfo(view, (PyObject*)v, v->data, v->nbytes, 1, flags); // refuses PyBUF_WRITABLE
}

static PyBufferProcs byteview_buffer = {.bf_getbuffer = (getbufferproc)byteview_getbuffer};

PyTypeObject mxgo_byteview_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "mxgo._fastpath.ByteView",
	.tp_basicsize = sizeof(ByteView),
	.tp_dealloc = (destructor)byteview_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "ByteView(array): the bytes of a C-contiguous host NDArray as a read-only buffer that keeps it alive.",
	.tp_as_buffer = &byteview_buffer,
	.tp_new = byteview_new,
};
