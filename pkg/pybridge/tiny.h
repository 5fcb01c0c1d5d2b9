// What tiny.c's files share: the limits and codes of its fast paths, and the entry
// points mxgo_tiny_arith dispatches to (tiny_reduce.c, tiny_rows.c). Each returns a new
// array, None (written into out=), or NULL to decline; the caller has checked that the
// engine is idle and the thread is not recording.
#ifndef MXGO_TINY_H
#define MXGO_TINY_H

#include <Python.h>
#include "bridge.h"

enum { DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2 };

// The most elements computed here: 64 KiB of float32, a few microseconds with the GIL
// held (it must be: another thread's operation could otherwise write an operand).
enum { MOST = 1 << 14 };

// Whether arrays f and g, of elements of esize bytes, share any byte.
static inline int overlap(const mxgo_flat* f, const mxgo_flat* g, int64_t esize) {
	const char *p = f->data, *q = g->data;
	return p < q + g->size * esize && q < p + f->size * esize;
}

// x.sum(), x.mean(), x.max(), x.min() of a float array, and sum and mean over one axis
// (at: the attrs, alen long).
PyObject* mxgo_tiny_reduce(const mxgo_tiny_entry* e, PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls,
			   const char* at);
// x[i] for an integer array i (_gather_leading).
PyObject* mxgo_tiny_gather(PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls);
// dot of two float32 matrices.
PyObject* mxgo_tiny_dot(PyObject* arrays, Py_ssize_t alen, PyObject* out, PyTypeObject* cls);

#endif
