// from_numpy in C: an NDArray over a NumPy array's memory without entering Go. The array
// object holds a reference to the NumPy array and its metadata; Go makes its side (a
// storage over the memory, released by dropping that reference) only when an operation
// or an export first needs it (materialize in arraytype.c).
//
// NumPy's headers are not a build dependency, so the fields read here mirror NumPy's
// PyArrayObject_fields and PyArray_Descr, whose leading fields are ABI that every
// compiled NumPy extension relies on (unchanged from 1.7 through 2.x). set_numpy checks
// them against a probe array whose values Python read through NumPy's own API, and the
// fast path stays off if anything differs.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "bridge.h"

typedef struct {
	PyObject_HEAD
	char* data;
	int nd;
	Py_ssize_t* dimensions;
	Py_ssize_t* strides;
	PyObject* base;
	PyObject* descr;
	int flags;
} np_array;

typedef struct {
	PyObject_HEAD
	PyTypeObject* typeobj;
	char kind;
	char type;
	char byteorder;
	char _flags;
	int type_num;
} np_descr;

#define NP_C_CONTIGUOUS 0x0001
#define NP_WRITEABLE 0x0400
#define NP_TYPES 32

static PyTypeObject* ndarray_type; // NULL: the fast path is off
static int8_t code_of_type[NP_TYPES]; // mxgo dtype code + 1 by NumPy type_num; 0: none
static PyObject* locked;              // id -> weakref of the arrays from_numpy locked

// set_numpy(ndarray, probe, data, shape, strides, type_num, flags, codes): turns the fast
// path on when probe's fields read as Python saw them (codes maps type_num to mxgo code).
PyObject* mxgo_set_numpy(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != 8 || !PyType_Check(args[0]) || !PyDict_Check(args[7])) {
		PyErr_SetString(PyExc_TypeError, "set_numpy(ndarray, probe, data, shape, strides, type_num, flags, codes)");
		return NULL;
	}
	if (!locked && !(locked = PyDict_New())) return NULL;
	np_array* p = (np_array*)args[1];
	int ok = Py_TYPE(p) == (PyTypeObject*)args[0] && (uintptr_t)p->data == PyLong_AsUnsignedLongLong(args[2]) &&
		PyTuple_Check(args[3]) && PyTuple_Check(args[4]) && p->nd == PyTuple_GET_SIZE(args[3]) &&
		p->nd == PyTuple_GET_SIZE(args[4]) && ((np_descr*)p->descr)->type_num == PyLong_AsLong(args[5]) &&
		p->flags == PyLong_AsLong(args[6]);
	for (int i = 0; ok && i < p->nd; i++)
		ok = p->dimensions[i] == PyLong_AsSsize_t(PyTuple_GET_ITEM(args[3], i)) &&
			p->strides[i] == PyLong_AsSsize_t(PyTuple_GET_ITEM(args[4], i));
	if (PyErr_Occurred()) return NULL;
	PyObject *k, *v;
	Py_ssize_t pos = 0;
	memset(code_of_type, 0, sizeof code_of_type);
	while (ok && PyDict_Next(args[7], &pos, &k, &v)) {
		long t = PyLong_AsLong(k), c = PyLong_AsLong(v);
		if (PyErr_Occurred()) return NULL;
		if (t >= 0 && t < NP_TYPES && c >= 0 && c < 127) code_of_type[t] = (int8_t)(c + 1);
	}
	ndarray_type = ok ? (PyTypeObject*)args[0] : NULL;
	return PyBool_FromLong(ok);
}

// Whether arr, or an array it is a view of, was locked by from_numpy: such memory stays
// writable through mxgo, as in MXNet.
static int is_locked(PyObject* arr) {
	while (arr && PyObject_TypeCheck(arr, ndarray_type)) {
		PyObject* key = PyLong_FromVoidPtr(arr);
		if (!key) return -1;
		PyObject* ref = PyDict_GetItemWithError(locked, key);
		Py_DECREF(key);
		if (ref && PyWeakref_GET_OBJECT(ref) == arr) return 1;
		if (PyErr_Occurred()) return -1;
		arr = ((np_array*)arr)->base;
	}
	return 0;
}

// Makes arr read-only and remembers that mxgo did it. Dead entries (their ids may be
// reused) are swept whenever the registry has doubled since the last sweep.
static int lock(PyObject* arr) {
	static Py_ssize_t sweep_at = 64;
	if (PyDict_GET_SIZE(locked) >= sweep_at) {
		PyObject* live = PyDict_New();
		PyObject *k, *v;
		Py_ssize_t pos = 0;
		if (!live) return -1;
		while (PyDict_Next(locked, &pos, &k, &v))
			if (PyWeakref_GET_OBJECT(v) != Py_None && PyDict_SetItem(live, k, v) < 0) { Py_DECREF(live); return -1; }
		Py_SETREF(locked, live);
		sweep_at = 2 * PyDict_GET_SIZE(locked) + 64;
	}
	PyObject* key = PyLong_FromVoidPtr(arr);
	PyObject* ref = key ? PyWeakref_NewRef(arr, NULL) : NULL;
	int rc = ref ? PyDict_SetItem(locked, key, ref) : -1;
	Py_XDECREF(key);
	Py_XDECREF(ref);
	if (rc == 0) ((np_array*)arr)->flags &= ~NP_WRITEABLE;
	return rc;
}

// numpy_locked(arr) -> bool, and numpy_lock(arr): the registry for Python's slow path.
PyObject* mxgo_numpy_locked(PyObject* self, PyObject* arr) {
	if (!ndarray_type) Py_RETURN_FALSE;
	int r = is_locked(arr);
	return r < 0 ? NULL : PyBool_FromLong(r);
}

PyObject* mxgo_numpy_lock(PyObject* self, PyObject* arr) {
	if (!ndarray_type || !PyObject_TypeCheck(arr, ndarray_type)) {
		PyErr_SetString(PyExc_TypeError, "numpy_lock needs a numpy.ndarray");
		return NULL;
	}
	if (lock(arr) < 0) return NULL;
	Py_RETURN_NONE;
}

// numpy_locks() -> the registry's size, dead entries included (for tests).
PyObject* mxgo_numpy_locks(PyObject* self, PyObject* unused) {
	return PyLong_FromSsize_t(locked ? PyDict_GET_SIZE(locked) : 0);
}

// view makes an NDArray sharing a NumPy array's memory, or returns NotImplemented for
// what Python (or DLPack) must handle: other types, dtypes without a code here,
// byte-swapped or non-C-contiguous arrays (any alignment is fine). With lock it is
// from_numpy: the NumPy array becomes read-only, and memory mxgo locked stays writable
// through mxgo.
static PyObject* view(PyObject* obj, int lock_it) {
	if (!ndarray_type || Py_TYPE(obj) != ndarray_type) Py_RETURN_NOTIMPLEMENTED;
	np_array* a = (np_array*)obj;
	np_descr* d = (np_descr*)a->descr;
	int t = d->type_num;
	if (t < 0 || t >= NP_TYPES || !code_of_type[t] || (d->byteorder != '=' && d->byteorder != '|') ||
			!(a->flags & NP_C_CONTIGUOUS) || a->nd > MXGO_MAX_DIMS)
		Py_RETURN_NOTIMPLEMENTED;
	int own_writable = (a->flags & NP_WRITEABLE) != 0;
	if (!lock_it && !own_writable) Py_RETURN_NOTIMPLEMENTED; // NumPy < 2.1 refuses these: let it say so
	int writable = own_writable;
	if (lock_it && !writable && (writable = is_locked(obj)) < 0) return NULL;
	mxgo_desc desc; // shape and strides past nd stay unset, as in capsule.c
	desc.src = (mxgo_dl_src){.dtype = code_of_type[t] - 1, .ndim = a->nd, .writable = writable,
		.dev_type = MXGO_DEVICE_CPU, .data = a->data};
	int64_t acc = 1;
	for (int i = a->nd - 1; i >= 0; i--) { // contiguous element strides, as Go's ContiguousStrides
		desc.shape[i] = a->dimensions[i];
		desc.strides[i] = acc;
		if (desc.shape[i] > 1) acc *= desc.shape[i];
	}
	PyObject* out = mxgo_new_foreign_array(&desc, obj);
	if (out && lock_it && own_writable && lock(obj) < 0) Py_CLEAR(out);
	return out;
}

// from_numpy(arr) -> NDArray or NotImplemented: mx.nd.from_numpy(arr) (see view).
PyObject* mxgo_from_numpy(PyObject* self, PyObject* obj) { return view(obj, 1); }

// What from_dlpack(arr) of a writable NumPy array gives, without the capsule: the same
// memory, the NumPy array kept alive by the result (see view). Read-only arrays go
// through __dlpack__, which NumPy before 2.1 refuses for them.
PyObject* mxgo_numpy_view(PyObject* obj) { return view(obj, 0); }
