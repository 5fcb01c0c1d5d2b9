// Shared between the C files of pybridge's CPython fast path and the Go exports they call.
#ifndef MXGO_FASTPATH_H
#define MXGO_FASTPATH_H

#include <stdint.h>
#include "../dlpack/dlpack.h"
#include "../proc/proc.h"

// Go owns these facts (facts.go checks each copy here at compile time).
#define MXGO_PENDING_WORK (-2) // mxgoFastExport: wait (GIL released) and try again
#define MXGO_NKINDS 7          // mxerr.NumKinds: error kinds, each a Python exception class
#define MXGO_KIND_MXNET 0      // mxerr.MXNet

// An array's description, filled by Go.
typedef struct {
	int32_t dtype;
	int32_t ndim;
	int64_t shape[MXGO_MAX_DIMS];
	int64_t strides[MXGO_MAX_DIMS];
	int32_t writable;
	int32_t dev_type;
	int32_t dev_id;
	uintptr_t data;
	void* store;    // the storage's C half (mxgo_store), for exports made in C
} mxgo_desc;

// The engine's busy count (engine.MirrorBusy): 0 when no operation is running and no
// error is held, so an export cannot have anything to wait for.
extern int64_t mxgo_engine_busy;

// Releases a buffer taken by from_buffer (takes the GIL).
void mxgo_release_buffer(void* view);
// Drops the reference a materialised foreign array held to its owner (takes the GIL).
void mxgo_release_owner(void* owner);

#ifdef Py_PYTHON_H
// Raises MXNetError saying that mxgo cannot run in a forked child, and returns NULL. Every
// C path that would enter Go first does: if (mxgo_forked) return mxgo_raise_forked();
// What C does alone (imports of plain NumPy and DLPack memory, exports while the engine
// is idle, metadata) keeps working in the child.
PyObject* mxgo_raise_forked(void);
// Raises the exception class registered for an mxerr.Kind with msg (which it frees).
PyObject* mxgo_raise(int kind, char* msg);
// Makes an array object of the registered class owning handle h, described by d.
PyObject* mxgo_new_array(int64_t h, const mxgo_desc* d);
// Makes an array object viewing owner's memory, described by d (whose store and DLPack
// fields are filled later); Go is entered when the array is first used by Go.
PyObject* mxgo_new_foreign_array(const mxgo_desc* d, PyObject* owner);
// An NDArray viewing NumPy array obj as from_dlpack(obj) would, or NotImplemented (numpy.c).
PyObject* mxgo_numpy_view(PyObject* obj);
// Exports handle h as a capsule (legacy or versioned), copying first when copy is set,
// after the array's pending writes (and reads too when for_write) are done.
PyObject* mxgo_export_capsule(int64_t h, int versioned, uint64_t flags, int copy, int for_write);
// Wraps an mxgo export (from mxgo_dl_export) in a capsule that owns it.
PyObject* mxgo_capsule(void* mt, int versioned);
// The handle of NDArrayBase o into *h; TypeError naming what (an argument) otherwise.
int mxgo_array_handle(PyObject* o, const char* what, int64_t* h);
// The number of elements of NDArrayBase o.
int64_t mxgo_array_size(PyObject* o);
// The first byte and byte count of o, a C-contiguous host NDArrayBase; -1 with an
// exception (TypeError, BufferError) for anything else.
int mxgo_array_bytes(PyObject* o, void** data, Py_ssize_t* nbytes);
// fastpath.invoke (invoke.c).
PyObject* mxgo_invoke(PyObject* self, PyObject* const* args, Py_ssize_t n);
// The NDArray base type, and the Python subclass arrays are made as.
extern PyTypeObject mxgo_array_base_type;
// ByteView (byteview.c).
extern PyTypeObject mxgo_byteview_type;
extern PyTypeObject* mxgo_array_class;
#endif

#endif
