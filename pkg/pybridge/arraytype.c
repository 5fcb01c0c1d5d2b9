// NDArrayBase: the C part of mxgo's Python NDArray. It owns a Go handle (freed in
// tp_dealloc) and the array's metadata, and implements the per-call DLPack methods in C.
// An array made in C (from_numpy, plain DLPack imports) starts without a handle, holding
// the object whose memory it views instead: the first use that needs Go (an operation,
// an export, reading .handle) makes the Go side then (materialize). A view view.c makes
// in C holds its base array likewise, and how it was made (replay), which Go repeats on
// the base's Go side then, so that the view shares the base's storage and the engine's
// ordering of work on it.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include "bridge.h"
#include "_cgo_export.h"

typedef struct {
	PyObject_HEAD
	int64_t handle;    // 0 until materialised, for arrays made in C
	PyObject* owner;   // without a handle: the object whose memory the array views
	PyObject* shape;   // tuple of ints
	PyObject* strides; // tuple of ints, in elements
	int64_t size;      // number of elements
	mxgo_dl_src src;   // what exports made in C describe (store NULL until materialised)
	PyObject* weakrefs;
	int64_t* dims;     // shape then strides of DLTensor views (exchange.c), made on first use
	int contiguous;    // C-contiguous (ignoring the strides of length-1 axes), set with the shape
	int64_t* replay;   // a view made in C: view.c's encoding of its key or shape (owner: the base)
} ArrayObject;

PyTypeObject* mxgo_array_class = &mxgo_array_base_type;

static PyObject* int_tuple(const int64_t* v, int n) {
	PyObject* t = PyTuple_New(n);
	if (!t) return NULL;
	for (int i = 0; i < n; i++) {
		PyObject* x = PyLong_FromLongLong(v[i]);
		if (!x) { Py_DECREF(t); return NULL; }
		PyTuple_SET_ITEM(t, i, x);
	}
	return t;
}

static int fill(ArrayObject* a, int64_t h, const mxgo_desc* d) {
	a->handle = h; // owned from here on, even if the rest fails
	a->shape = int_tuple(d->shape, d->src.ndim);
	a->strides = int_tuple(d->strides, d->src.ndim);
	if (!a->shape || !a->strides) return -1;
	a->src = d->src;
	a->src.writable = d->src.writable != 0;
	a->src.code = mxgo_dl_type_of[d->src.dtype].code;
	a->src.bits = mxgo_dl_type_of[d->src.dtype].bits;
	a->size = 1;
	for (int i = 0; i < d->src.ndim; i++) a->size *= d->shape[i];
	a->contiguous = 1;
	int64_t acc = 1;
	for (int i = d->src.ndim - 1; i >= 0 && a->size > 0; acc *= d->shape[i], i--)
		if (d->shape[i] != 1 && d->strides[i] != acc) a->contiguous = 0;
	return 0;
}

PyObject* mxgo_new_array(int64_t h, const mxgo_desc* d) {
	return mxgo_new_array_of(mxgo_array_class, h, d);
}

PyObject* mxgo_new_array_of(PyTypeObject* cls, int64_t h, const mxgo_desc* d) {
	ArrayObject* a = (ArrayObject*)cls->tp_alloc(cls, 0);
	if (!a) { mxgoFastFree(h); return NULL; }
	if (fill(a, h, d) < 0) { Py_DECREF(a); return NULL; }
	return (PyObject*)a;
}

PyObject* mxgo_new_foreign_array(const mxgo_desc* d, PyObject* owner) {
	ArrayObject* a = (ArrayObject*)mxgo_array_class->tp_alloc(mxgo_array_class, 0);
	if (!a) return NULL;
	Py_INCREF(owner);
	a->owner = owner;
	if (fill(a, 0, d) < 0) { Py_DECREF(a); return NULL; }
	return (PyObject*)a;
}

// read_dims writes a's shape then strides into dims (room for 2 * MXGO_MAX_DIMS) and
// returns ndim. The tuples hold ints mxgo made: the conversions cannot fail.
static int read_dims(ArrayObject* a, int64_t* dims) {
	int n = (int)PyTuple_GET_SIZE(a->shape);
	for (int i = 0; i < n; i++) {
		dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(a->shape, i));
		dims[n + i] = PyLong_AsLongLong(PyTuple_GET_ITEM(a->strides, i));
	}
	return n;
}

static int materialize(ArrayObject* a);

// The Go side of a view made in C: Go's view of the base by the same key or shape, which
// must be the one C described (the same memory, shape, strides and writability).
static int materialize_view(ArrayObject* a) {
	ArrayObject* b = (ArrayObject*)a->owner;
	if (materialize(b) < 0) return -1;
	int64_t h = 0, dims[2 * MXGO_MAX_DIMS];
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoMaterializeView(b->handle, a->replay, &h, &d, &msg);
	if (kind >= 0) { mxgo_raise(kind, msg); return -1; }
	int n = read_dims(a, dims), same = d.src.ndim == n && d.src.data == a->src.data && (d.src.writable != 0) == a->src.writable;
	for (int i = 0; same && i < n; i++) same = d.shape[i] == dims[i] && d.strides[i] == dims[n + i];
	if (!same) {
		mxgoFastFree(h);
		PyErr_SetString(PyExc_SystemError, "mxgo: a view made in C is not the view Go makes of the same key");
		return -1;
	}
	a->handle = h;
	a->src.store = d.src.store;
	PyMem_Free(a->replay);
	a->replay = NULL;
	Py_CLEAR(a->owner); // Go's view holds the base's storage now
	return 0;
}

// Makes the Go side of an array made in C: a storage over its memory whose release drops
// the reference to the owner, which passes to Go.
static int materialize(ArrayObject* a) {
	if (a->handle) return 0;
	if (mxgo_forked) { mxgo_raise_forked(); return -1; }
	if (a->replay) return materialize_view(a);
	int64_t dims[2 * MXGO_MAX_DIMS];
	int n = read_dims(a, dims);
	int64_t h = 0;
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoFastAdopt(a->src.data, a->src.dtype, n, dims, dims + n, a->src.writable, a->src.dev_id, a->owner,
		&h, &d, &msg);
	if (kind >= 0) { mxgo_raise(kind, msg); return -1; }
	a->owner = NULL; // Go's storage holds the reference now
	a->handle = h;
	a->src.store = d.src.store;
	return 0;
}

int64_t mxgo_array_size(PyObject* o) { return ((ArrayObject*)o)->size; }

int mxgo_array_flat(PyObject* o, mxgo_flat* f) {
	if (!PyObject_TypeCheck(o, &mxgo_array_base_type)) return 0;
	ArrayObject* a = (ArrayObject*)o;
	if (!a->contiguous || a->src.dev_type != MXGO_DEVICE_CPU) return 0;
	*f = (mxgo_flat){.obj = o, .data = a->src.data, .size = a->size, .dtype = a->src.dtype, .writable = a->src.writable};
	return f->data != NULL;
}

int mxgo_same_shape(PyObject* x, PyObject* y) {
	PyObject *s = ((ArrayObject*)x)->shape, *t = ((ArrayObject*)y)->shape;
	if (s == t) return 1;
	Py_ssize_t n = PyTuple_GET_SIZE(s);
	if (PyTuple_GET_SIZE(t) != n) return 0;
	for (Py_ssize_t i = 0; i < n; i++) // ints mxgo made: the conversions cannot fail
		if (PyLong_AsLongLong(PyTuple_GET_ITEM(s, i)) != PyLong_AsLongLong(PyTuple_GET_ITEM(t, i))) return 0;
	return 1;
}

// c_strides is the C-contiguous strides of shape (a tuple of ints mxgo made), in elements,
// and sets *size. Those of () and (1,), the whole reductions' shapes, are the shape itself.
static PyObject* c_strides(PyObject* shape, int64_t* size) {
	Py_ssize_t n = PyTuple_GET_SIZE(shape);
	if (n == 0 || (n == 1 && PyLong_AsLongLong(PyTuple_GET_ITEM(shape, 0)) == 1)) {
		*size = 1;
		return Py_NewRef(shape);
	}
	PyObject* st = PyTuple_New(n);
	*size = 1;
	for (Py_ssize_t i = n - 1; st && i >= 0; i--) {
		PyObject* v = PyLong_FromLongLong(*size);
		if (!v) Py_CLEAR(st);
		else PyTuple_SET_ITEM(st, i, v);
		*size *= PyLong_AsLongLong(PyTuple_GET_ITEM(shape, i));
	}
	return st;
}

PyObject* mxgo_new_flat_array(PyTypeObject* cls, PyObject* like, int32_t dtype, void* data, PyObject* owner, PyObject* shape) {
	ArrayObject *l = (ArrayObject*)like, *a = (ArrayObject*)cls->tp_alloc(cls, 0);
	if (!a) return NULL;
	a->owner = Py_NewRef(owner);
	a->src = l->src;
	if (!shape) {
		a->shape = Py_NewRef(l->shape); // tuples: shared
		a->strides = Py_NewRef(l->strides);
		a->size = l->size;
	} else {
		a->shape = Py_NewRef(shape);
		if (!(a->strides = c_strides(shape, &a->size))) {
			Py_DECREF(a);
			return NULL;
		}
		a->src.ndim = (int32_t)PyTuple_GET_SIZE(shape);
	}
	a->contiguous = 1;
	a->src.store = NULL; // Go makes its side on first use (materialize)
	a->src.data = data;
	a->src.writable = 1;
	if (dtype >= 0) {
		a->src.dtype = dtype;
		a->src.code = mxgo_dl_type_of[dtype].code;
		a->src.bits = mxgo_dl_type_of[dtype].bits;
	}
	return (PyObject*)a;
}
int mxgo_array_layout(PyObject* o, int64_t* dims, void** data, int* contiguous) {
	ArrayObject* a = (ArrayObject*)o;
	if (a->src.dev_type != MXGO_DEVICE_CPU || !a->src.data) return -1;
	if (a->replay && materialize(a) < 0) return -2;
	*data = a->src.data;
	*contiguous = a->contiguous;
	return read_dims(a, dims);
}

PyObject* mxgo_new_view(PyTypeObject* cls, PyObject* base, int ndim, const int64_t* shape, const int64_t* strides, void* data,
		const int64_t* replay, int replay_len) {
	ArrayObject *b = (ArrayObject*)base, *a = (ArrayObject*)cls->tp_alloc(cls, 0);
	if (!a) return NULL;
	if (!(a->replay = PyMem_Malloc((size_t)replay_len * sizeof(int64_t)))) {
		Py_DECREF(a);
		return PyErr_NoMemory();
	}
	memcpy(a->replay, replay, (size_t)replay_len * sizeof(int64_t));
	a->owner = Py_NewRef(base);
	mxgo_desc d;
	d.src = b->src;
	d.src.store = NULL; // the view's own, made with its Go side
	d.src.data = data;
	d.src.ndim = ndim;
	memcpy(d.shape, shape, (size_t)ndim * sizeof(int64_t));
	memcpy(d.strides, strides, (size_t)ndim * sizeof(int64_t));
	if (fill(a, 0, &d) < 0) {
		Py_DECREF(a);
		return NULL;
	}
	return (PyObject*)a;
}

int mxgo_array_writable(PyObject* o) { return ((ArrayObject*)o)->src.writable; }

int mxgo_array_bytes(PyObject* o, void** data, Py_ssize_t* nbytes) {
	static char none[1]; // for arrays of no elements, which may have no memory
	if (!PyObject_TypeCheck(o, &mxgo_array_base_type)) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "expected an NDArray, got %.100s", Py_TYPE(o)->tp_name);
		return -1;
	}
	ArrayObject* a = (ArrayObject*)o;
	if (!a->contiguous) {
		PyErr_SetString(mxgo_error_class(MXGO_KIND_BUFFER), "the array is not C-contiguous: copy it first");
		return -1;
	}
	if (a->src.dev_type != MXGO_DEVICE_CPU) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "the array is not in host memory (DLPack device type %d)", a->src.dev_type);
		return -1;
	}
	*data = a->size > 0 ? a->src.data : none;
	*nbytes = (Py_ssize_t)(a->size * (mxgo_dl_type_of[a->src.dtype].bits / 8));
	return 0;
}

int mxgo_array_dtype(PyObject* o) {
	return PyObject_TypeCheck(o, &mxgo_array_base_type) ? ((ArrayObject*)o)->src.dtype : -1;
}

int mxgo_array_ndim(PyObject* o) { return ((ArrayObject*)o)->src.ndim; }

PyObject* mxgo_array_shape(PyObject* o) { return ((ArrayObject*)o)->shape; }

int mxgo_array_handle(PyObject* o, const char* what, int64_t* h) {
	if (!PyObject_TypeCheck(o, &mxgo_array_base_type)) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "%s must be NDArrays, got %.100s", what, Py_TYPE(o)->tp_name);
		return -1;
	}
	if (materialize((ArrayObject*)o) < 0) return -1;
	*h = ((ArrayObject*)o)->handle;
	return 0;
}

static PyObject* get_handle(ArrayObject* a, void* unused) {
	if (materialize(a) < 0) return NULL;
	return PyLong_FromLongLong(a->handle);
}

// NDArray(handle): takes ownership of a handle returned by mxgo's Go functions.
static PyObject* array_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
	long long h;
	static char* kwlist[] = {"handle", NULL};
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "L:NDArray", kwlist, &h)) return NULL;
	if (mxgo_forked) return mxgo_raise_forked();
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoFastDescribe(h, &d, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	ArrayObject* a = (ArrayObject*)type->tp_alloc(type, 0);
	if (!a) return NULL;
	if (fill(a, h, &d) < 0) { Py_DECREF(a); return NULL; }
	return (PyObject*)a;
}

static void array_dealloc(ArrayObject* a) {
	if (a->weakrefs) PyObject_ClearWeakRefs((PyObject*)a);
	if (a->handle && !mxgo_forked) mxgoFastFree(a->handle); // a forked child leaks it: no Go there
	Py_XDECREF(a->owner);
	PyMem_Free(a->replay);
	Py_XDECREF(a->shape);
	Py_XDECREF(a->strides);
	PyMem_Free(a->dims);
	Py_TYPE(a)->tp_free((PyObject*)a);
}

// ---- argument parsing for the DLPack methods ---------------------------------------

// max_version: None (legacy) or a (major, minor) sequence; versioned when major >= 1.
static int parse_max_version(PyObject* mv, int* versioned) {
	*versioned = 0;
	if (!mv || mv == Py_None) return 0;
	if (PyTuple_CheckExact(mv) && PyTuple_GET_SIZE(mv) == 2 && PyLong_CheckExact(PyTuple_GET_ITEM(mv, 0))) {
		long m = PyLong_AsLong(PyTuple_GET_ITEM(mv, 0)); // what consumers pass: (1, 0), (1, 3)
		if (m >= 1 && m < 1000) { *versioned = 1; return 0; }
		if (m == 0) return 0;
		PyErr_Clear(); // anything else: the general path below decides
	}
	PyObject* major = PySequence_Check(mv) && PySequence_Size(mv) == 2 ? PySequence_GetItem(mv, 0) : NULL;
	if (!major || !PyLong_Check(major) || PyBool_Check(major)) {
		Py_XDECREF(major);
		PyErr_Clear();
		PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "max_version must be a (major, minor) tuple of ints, got %R", mv);
		return -1;
	}
	int overflow;
	long m = PyLong_AsLongAndOverflow(major, &overflow); // a huge major is still >= 1
	Py_DECREF(major);
	if (m == -1 && PyErr_Occurred()) return -1;
	*versioned = overflow > 0 || (!overflow && m >= 1);
	return 0;
}

// Matches keyword arguments of a METH_FASTCALL|METH_KEYWORDS call against names; vals
// receives borrowed references (NULL when absent). Positional arguments fill the first
// npos names. *interned caches the names as interned strings: CPython interns keyword
// names, so a match is usually a pointer comparison.
static int parse_kw(const char* fn, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
		const char* const* names, PyObject** interned, int nnames, int npos, PyObject** vals) {
	for (int i = 0; i < nnames; i++) vals[i] = NULL;
	if (nargs > npos) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "%s() takes %d positional argument%s but %zd were given", fn, npos, npos == 1 ? "" : "s", nargs);
		return -1;
	}
	for (Py_ssize_t i = 0; i < nargs; i++) vals[i] = args[i];
	Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
	if (nkw && !interned[0]) {
		for (int i = 0; i < nnames; i++)
			if (!(interned[i] = PyUnicode_InternFromString(names[i]))) return -1;
	}
	for (Py_ssize_t k = 0; k < nkw; k++) {
		PyObject* key = PyTuple_GET_ITEM(kwnames, k);
		int found = -1;
		for (int i = 0; i < nnames && found < 0; i++)
			if (key == interned[i]) found = i;
		for (int i = 0; i < nnames && found < 0; i++)
			if (PyUnicode_Compare(key, interned[i]) == 0) found = i;
		if (found < 0) { PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "%s() got an unexpected keyword argument '%U'", fn, key); return -1; }
		if (vals[found]) { PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "%s() got multiple values for '%s'", fn, names[found]); return -1; }
		vals[found] = args[nargs + k];
	}
	return 0;
}

// ---- DLPack methods ----------------------------------------------------------------

// export_to exports a into *mt on DLPack device (to_type, to_id) (0: the array's own; a
// copy unless the array's memory is addressable there): in C alone when nothing could
// make the export wait or fail (the engine idle, host memory, no copy), which is the
// common case; through Go (mxgo_export_tensor) otherwise; stream is the consumer's (0
// unless the tensor is in device memory). 0, or -1 with an exception.
static int export_to(ArrayObject* a, int versioned, uint64_t flags, int copy, int for_write, int64_t stream, int32_t to_type,
		int32_t to_id, void** mt) {
	if (materialize(a) < 0) return -1;
	if (copy || to_type || a->src.dev_type != MXGO_DEVICE_CPU || __atomic_load_n(&mxgo_engine_busy, __ATOMIC_ACQUIRE) != 0)
		return mxgo_export_tensor(a->handle, versioned, flags, copy, for_write, stream, to_type, to_id, mt);
	int64_t dims[2 * MXGO_MAX_DIMS];
	int n = read_dims(a, dims);
	if (!(*mt = mxgo_dl_export(&a->src, dims, dims + n, versioned, flags))) { PyErr_NoMemory(); return -1; }
	return 0;
}

// mxnet_device is the device MXNet's exports (to_dlpack_for_read/write) and the C exchange
// API give a: its own, except that page-locked memory (cpu_pinned) is exported as the
// CPU's, as MXNet 1.x does (and PyTorch for its own; PyTorch refuses kDLCUDAHost). The
// Array API's __dlpack__ says kDLCUDAHost unless asked for the CPU.
static int32_t mxnet_device(ArrayObject* a) { return a->src.dev_type == MXGO_DEVICE_CUDA_HOST ? MXGO_DEVICE_CPU : 0; }

// export makes a capsule for a (export_to's tensor, on MXNet's device for it).
static PyObject* export(ArrayObject* a, int versioned, uint64_t flags, int for_write) {
	void* mt;
	if (export_to(a, versioned, flags, 0, for_write, 0, mxnet_device(a), 0, &mt) < 0) return NULL;
	return mxgo_capsule(mt, versioned);
}

// The exchange API's exports (exchange.c): __dlpack__(max_version=(1, 3), stream=-1) (its
// exports do not synchronise: the consumer orders itself after current_work_stream), or
// to_dlpack_for_read(max_version=(1, 3)) when read_only, on mxnet_device.
int mxgo_array_to_tensor(PyObject* o, int read_only, DLManagedTensorVersioned** mt) {
	ArrayObject* a = (ArrayObject*)o;
	return export_to(a, 1, read_only ? MXGO_DLPACK_FLAG_READ_ONLY : 0, 0, !read_only && a->src.writable, -1, mxnet_device(a), 0,
		(void**)mt);
}

static PyObject* to_dlpack_for_read(ArrayObject* a, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
	static const char* const names[] = {"max_version"};
	static PyObject* interned[1];
	PyObject* v[1];
	int versioned;
	if (parse_kw("to_dlpack_for_read", args, nargs, kwnames, names, interned, 1, 1, v) < 0) return NULL;
	if (parse_max_version(v[0], &versioned) < 0) return NULL;
	return export(a, versioned, versioned ? MXGO_DLPACK_FLAG_READ_ONLY : 0, 0);
}

static PyObject* to_dlpack_for_write(ArrayObject* a, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
	static const char* const names[] = {"max_version"};
	static PyObject* interned[1];
	PyObject* v[1];
	int versioned;
	if (parse_kw("to_dlpack_for_write", args, nargs, kwnames, names, interned, 1, 1, v) < 0) return NULL;
	if (parse_max_version(v[0], &versioned) < 0) return NULL;
	if (!a->src.writable) {
		PyErr_SetString(mxgo_error_class(MXGO_KIND_BUFFER), "to_dlpack_for_write: the array is read-only");
		return NULL;
	}
	return export(a, versioned, 0, 1);
}

// The stream a consumer on DLPack device type dev_type passed to __dlpack__, in *out:
// on a GPU the Array API's CUDA streams, -1 (no synchronisation), 1 (legacy default), 2
// (per-thread default) or a CUstream, and 0 for None (0 itself is ambiguous, refused);
// elsewhere None or -1. 0, or -1 with an exception.
static int parse_stream(PyObject* stream, int dev_type, int64_t* out) {
	*out = 0;
	if (!stream || stream == Py_None) return 0;
	if (!PyLong_Check(stream) || PyBool_Check(stream)) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "stream must be None or an int, got %.100s", Py_TYPE(stream)->tp_name);
		return -1;
	}
	int overflow;
	long long s = PyLong_AsLongLongAndOverflow(stream, &overflow);
	if (s == -1 && PyErr_Occurred()) return -1;
	if (dev_type == MXGO_DEVICE_CUDA) {
		if (overflow || s == 0 || s < -1) {
			PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "stream=%R is not valid for CUDA arrays (None, -1, 1, 2 or a CUstream; "
				"0 is ambiguous)", stream);
			return -1;
		}
	} else if (overflow || s != -1) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "stream=%R is not valid for CPU arrays (use None or -1)", stream);
		return -1;
	}
	*out = (int64_t)s;
	return 0;
}

// Whether mxgo can put an array of device type from on DLPack device (dt, id): the CPU
// (1, 0), page-locked host memory (3, 0) and a GPU (2, id) take copies from each other;
// which GPUs exist is checked when the copy is made.
static int reachable(int from, int dt, int id) {
	int known = (dt == MXGO_DEVICE_CPU || dt == MXGO_DEVICE_CUDA_HOST) ? id == 0 : dt == MXGO_DEVICE_CUDA && id >= 0;
	return known && (from == MXGO_DEVICE_CPU || from == MXGO_DEVICE_CUDA || from == MXGO_DEVICE_CUDA_HOST);
}

// __dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None)
static PyObject* dlpack(ArrayObject* a, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
	static const char* const names[] = {"stream", "max_version", "dl_device", "copy"};
	static PyObject* interned[4];
	PyObject* v[4];
	if (parse_kw("__dlpack__", args, nargs, kwnames, names, interned, 4, 0, v) < 0) return NULL;
	PyObject *stream = v[0], *dl_device = v[2], *copy = v[3];
	int versioned;
	if (parse_max_version(v[1], &versioned) < 0) return NULL;
	int do_copy = 0;
	if (copy && copy != Py_None) {
		if (!PyBool_Check(copy)) {
			PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "copy must be None, True or False, got %R", copy);
			return NULL;
		}
		do_copy = copy == Py_True;
	}
	int to_type = 0, to_id = 0, moved = 0; // 0: the array's own device; moved: by a copy
	if (dl_device && dl_device != Py_None) {
		int dt, id;
		if (!PyTuple_Check(dl_device) || !PyArg_ParseTuple(dl_device, "ii", &dt, &id)) {
			PyErr_Clear();
			PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "dl_device must be a (device_type, device_id) tuple, got %R", dl_device);
			return NULL;
		}
		if (!(dt == a->src.dev_type && id == a->src.dev_id)) {
			if (!reachable(a->src.dev_type, dt, id)) {
				PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "cannot export to DLPack device (%d, %d): the array is on (%d, %d) "
					"and mxgo has no back end to put it there", dt, id, a->src.dev_type, a->src.dev_id);
				return NULL;
			}
			// Page-locked memory is the CPU's too; anything else moves by a copy.
			int shared = a->src.dev_type == MXGO_DEVICE_CUDA_HOST && dt == MXGO_DEVICE_CPU;
			if (!shared && copy == Py_False) {
				PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "cannot export to DLPack device (%d, %d) without a copy (copy=False): "
					"the array is on (%d, %d)", dt, id, a->src.dev_type, a->src.dev_id);
				return NULL;
			}
			to_type = dt;
			to_id = id;
			moved = !shared;
		}
	}
	int64_t cuda_stream;
	if (parse_stream(stream, to_type ? to_type : a->src.dev_type, &cuda_stream) < 0) return NULL;
	if (!versioned && !a->src.writable && !do_copy && !moved) {
		PyErr_SetString(mxgo_error_class(MXGO_KIND_BUFFER), "a read-only array cannot be exported as a legacy DLPack capsule "
			"(pass max_version=(1, 0) or newer)");
		return NULL;
	}
	// A consumer may write unless it got a read-only or copied tensor: wait as for_write.
	int for_write = !do_copy && !moved && !(versioned && !a->src.writable);
	void* mt;
	if (export_to(a, versioned, do_copy && versioned ? MXGO_DLPACK_FLAG_IS_COPIED : 0, do_copy, for_write, cuda_stream, to_type,
			to_id, &mt) < 0)
		return NULL;
	return mxgo_capsule(mt, versioned);
}

// wait_to_read and wait_to_write return at once while the engine is idle (and for arrays
// Go has not seen, which have no work; a view made in C has its base's, so it gets its Go
// side first); otherwise they wait in Go with the GIL released.
static PyObject* wait_engine(ArrayObject* a, int for_write) {
	if (__atomic_load_n(&mxgo_engine_busy, __ATOMIC_ACQUIRE) == 0) Py_RETURN_NONE;
	if (a->replay && materialize(a) < 0) return NULL; // its base's pending work is its own
	if (!a->handle) Py_RETURN_NONE;
	if (mxgo_forked) return mxgo_raise_forked();
	char* msg = NULL;
	int kind;
	Py_BEGIN_ALLOW_THREADS
	kind = mxgoFastWait(a->handle, for_write, &msg);
	Py_END_ALLOW_THREADS
	if (kind >= 0) return mxgo_raise(kind, msg);
	Py_RETURN_NONE;
}

static PyObject* wait_to_read(ArrayObject* a, PyObject* unused) { return wait_engine(a, 0); }

int mxgo_array_dltensor(PyObject* o, int read_only, DLTensor* t) {
	ArrayObject* a = (ArrayObject*)o;
	// The same wait as mxgo_array_to_tensor's, without making the Go side: an array Go has
	// not seen has no engine work.
	PyObject* w = wait_engine(a, !read_only && a->src.writable);
	if (!w) return -1;
	Py_DECREF(w);
	int n = a->src.ndim;
	if (!a->dims && n > 0 && !(a->dims = PyMem_Malloc(2 * (size_t)n * sizeof(int64_t)))) { PyErr_NoMemory(); return -1; }
	int64_t dims[2 * MXGO_MAX_DIMS];
	read_dims(a, dims);
	static int64_t no_dims[1]; // 0-d: non-NULL shape and strides, as exports have
	mxgo_dl_fill(t, n > 0 ? a->dims : no_dims, &a->src, dims, dims + n);
	if (mxnet_device(a)) t->device = (DLDevice){MXGO_DEVICE_CPU, 0}; // as mxgo_array_to_tensor
	return 0;
}
static PyObject* wait_to_write(ArrayObject* a, PyObject* unused) { return wait_engine(a, 1); }

static PyObject* dlpack_device(ArrayObject* a, PyObject* unused) {
	static PyObject* cpu; // (1, 0), asked for on every import by most consumers
	if (a->src.dev_type == MXGO_DEVICE_CPU && a->src.dev_id == 0) {
		if (!cpu && !(cpu = Py_BuildValue("(ii)", MXGO_DEVICE_CPU, 0))) return NULL;
		Py_INCREF(cpu);
		return cpu;
	}
	return Py_BuildValue("(ii)", a->src.dev_type, a->src.dev_id);
}

// Each docstring starts with Argument Clinic's signature line ($self, /): inspect.signature, and
// mypy's stubtest comparing pysrc/mxgo/ndarray/ndarray.pyi with them, read it.
static PyMethodDef array_methods[] = {
	{"reshape", (PyCFunction)(void (*)(void))mxgo_array_reshape, METH_FASTCALL | METH_KEYWORDS,
	 "reshape($self, /, *shape, **kwargs)\n--\n\nReturns an array of a new shape: a view of contiguous arrays, a "
	 "copy otherwise.\nAccepts reshape((2, 3)), reshape(2, 3) or reshape(shape=...), with MXNet's codes: 0 copies\n"
	 "the source dimension, -1 is inferred, -2 copies the remaining ones, -3 merges the next two,\n-4 splits the next "
	 "one into the two that follow it; reverse=True matches the codes from the right.\nmx.np arrays take NumPy's shapes "
	 "(ints, one of them may be -1) and order='C'."},
	{"to_dlpack_for_read", (PyCFunction)(void (*)(void))to_dlpack_for_read, METH_FASTCALL | METH_KEYWORDS,
	 "to_dlpack_for_read($self, /, max_version=None)\n--\n\nReturns a DLPack capsule sharing memory, for a consumer that only "
	 "reads (waits for pending writes).\nLegacy ('dltensor') by default, as MXNet and torch.utils.dlpack.from_dlpack "
	 "expect;\nwith max_version=(1, x) a versioned capsule with the READ_ONLY flag."},
	{"to_dlpack_for_write", (PyCFunction)(void (*)(void))to_dlpack_for_write, METH_FASTCALL | METH_KEYWORDS,
	 "to_dlpack_for_write($self, /, max_version=None)\n--\n\nReturns a DLPack capsule sharing memory, for a consumer that "
	 "writes (waits for pending reads and writes).\nBufferError if the array is read-only."},
	{"__dlpack__", (PyCFunction)(void (*)(void))dlpack, METH_FASTCALL | METH_KEYWORDS,
	 "__dlpack__($self, /, *, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\nExports the array as a DLPack "
	 "capsule (the Array API standard's contract): legacy\nunless max_version asks for 1.x; READ_ONLY for read-only "
	 "arrays;\ncopy=True exports a copy (IS_COPIED)."},
	{"wait_to_read", (PyCFunction)wait_to_read, METH_NOARGS,
	 "wait_to_read($self, /)\n--\n\nWaits until pending writes to this array are done, and raises their error, if any."},
	{"wait_to_write", (PyCFunction)wait_to_write, METH_NOARGS,
	 "wait_to_write($self, /)\n--\n\nWaits until pending reads and writes of this array are done, and raises the "
	 "error of the writes, if any."},
	{"__dlpack_device__", (PyCFunction)dlpack_device, METH_NOARGS,
	 "__dlpack_device__($self, /)\n--\n\nReturns (device_type, device_id) in DLPack's numbering."},
	{NULL, NULL, 0, NULL},
};

#define RO READONLY
static PyMemberDef array_members[] = {
	{"shape", T_OBJECT_EX, offsetof(ArrayObject, shape), RO, "Tuple of dimensions."},
	{"_shape", T_OBJECT_EX, offsetof(ArrayObject, shape), RO, NULL},
	{"strides", T_OBJECT_EX, offsetof(ArrayObject, strides), RO, "Strides in elements (not bytes, unlike NumPy)."},
	{"_strides", T_OBJECT_EX, offsetof(ArrayObject, strides), RO, NULL},
	{"_code", T_INT, offsetof(ArrayObject, src.dtype), RO, NULL},
	{"_devtype", T_INT, offsetof(ArrayObject, src.dev_type), RO, NULL},
	{"_devid", T_INT, offsetof(ArrayObject, src.dev_id), RO, NULL},
	{NULL},
};

static PyObject* get_writable(ArrayObject* a, void* unused) { return PyBool_FromLong(a->src.writable); }
static PyObject* get_data(ArrayObject* a, void* unused) { return PyLong_FromVoidPtr(a->src.data); }

static PyGetSetDef array_getset[] = {
	{"writable", (getter)get_writable, NULL,
	 "False for arrays imported read-only (read-only NumPy sources, READ_ONLY DLPack).", NULL},
	{"_writable", (getter)get_writable, NULL, NULL, NULL},
	{"_data", (getter)get_data, NULL, "Address of the first element.", NULL},
	{"handle", (getter)get_handle, NULL, "The Go handle of this array.", NULL},
	{"_h", (getter)get_handle, NULL, NULL, NULL},
	{NULL},
};

PyTypeObject mxgo_array_base_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "mxgo._fastpath.NDArrayBase",
	.tp_basicsize = sizeof(ArrayObject),
	.tp_dealloc = (destructor)array_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "C base of mxgo.nd.NDArray: a Go handle and the array's metadata.",
	.tp_weaklistoffset = offsetof(ArrayObject, weakrefs),
	.tp_methods = array_methods,
	.tp_members = array_members,
	.tp_getset = array_getset,
	.tp_as_mapping = &mxgo_array_as_mapping,
	.tp_as_sequence = &mxgo_array_as_sequence,
	.tp_new = array_new,
};
