// x[key] and x.reshape(...) in C. x[key] is NDArrayBase's subscript (and, for
// iteration, its sequence item) slot. Basic keys, whose parts are exact ints, slices of
// exact ints or None, None and Ellipsis, are encoded here and indexed by Go in one call
// (view.go); integer mxgo arrays of one dtype and shape for the leading axes are one
// gather (mxgo_invoke); anything else (other arrays, lists, NumPy integers, bools, ints
// beyond 64 bits) goes to the class's _getitem, Python's own path. A key that C takes gives what _getitem would: the same
// view, errors and autograd record, with mx.nd's rules for NDArray and NumPy's for
// instances of the class set_np_class registers (mx.np.ndarray). reshape likewise takes
// shapes of exact ints in one call (mxgoFastReshape).
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "bridge.h"
#include "_cgo_export.h"

static PyTypeObject* np_class; // mx.np.ndarray, once registered
static PyObject* getitem_name; // "_getitem"
static PyObject* reshape_name; // "_reshape"

PyObject* mxgo_set_np_class(PyObject* self, PyObject* cls) {
	if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &mxgo_array_base_type)) {
		PyErr_SetString(PyExc_TypeError, "set_np_class needs a subclass of NDArrayBase");
		return NULL;
	}
	Py_INCREF(cls);
	Py_XSETREF(np_class, (PyTypeObject*)cls);
	Py_RETURN_NONE;
}

// *v of an exact int of 64 bits; 0 for anything else.
static int int64_of(PyObject* o, int64_t* v) {
	if (!PyLong_CheckExact(o)) return 0;
	int overflow;
	*v = PyLong_AsLongLongAndOverflow(o, &overflow);
	return !overflow;
}

// A slice bound: None (the bit stays clear) or an exact int of 64 bits; 0 for anything else.
static int bound(PyObject* b, int64_t* v, int64_t bit, int64_t* kind) {
	if (b == Py_None) return 1;
	if (!int64_of(b, v)) return 0;
	*kind |= bit;
	return 1;
}

// Encodes one key component into w (kind, start, stop, step); 0 declines it.
static int encode(PyObject* k, int64_t* w) {
	w[0] = w[1] = w[2] = w[3] = 0;
	if (PyLong_CheckExact(k)) {
		w[0] = MXGO_KEY_INT;
		return int64_of(k, &w[1]);
	}
	if (PySlice_Check(k)) {
		PySliceObject* s = (PySliceObject*)k;
		w[0] = MXGO_KEY_SLICE;
		return bound(s->start, &w[1], MXGO_KEY_HAS_START, &w[0]) && bound(s->stop, &w[2], MXGO_KEY_HAS_STOP, &w[0]) &&
		       bound(s->step, &w[3], MXGO_KEY_HAS_STEP, &w[0]);
	}
	if (k == Py_None) { w[0] = MXGO_KEY_NEWAXIS; return 1; }
	if (k == Py_Ellipsis) { w[0] = MXGO_KEY_ELLIPSIS; return 1; }
	return 0;
}

int32_t mxgo_gather_op = -1;
uint64_t mxgo_gather_codes;
static PyObject* gather_id; // mxgo_gather_op as an int, for mxgo_invoke (made on first use,
                            // after Go's init has set it)
static PyObject* no_attrs;  // ""

// x[i] or x[i, j, ...] with i (j, ...) non-empty integer mxgo arrays of one dtype and
// shape, no more than x has axes: one gather of x's leading axes (the operator
// indexing.py's path calls for it too), or NULL with no exception when the key is
// something else.
static PyObject* gather(PyObject* x, PyObject* key, int numpy) {
	int tuple = PyTuple_CheckExact(key);
	Py_ssize_t k = tuple ? PyTuple_GET_SIZE(key) : 1;
	PyObject* first = !tuple ? key : k ? PyTuple_GET_ITEM(key, 0) : NULL;
	int code = first ? mxgo_array_dtype(first) : -1;
	if (mxgo_gather_op < 0 || code < 0 || code > 63 || !(mxgo_gather_codes >> code & 1) || mxgo_array_ndim(first) == 0 ||
	    mxgo_array_size(first) == 0 || mxgo_array_ndim(x) < k)
		return NULL;
	PyObject* arrays = PyTuple_New(k + 1);
	if (!arrays) return NULL;
	PyTuple_SET_ITEM(arrays, 0, Py_NewRef(x));
	for (Py_ssize_t j = 0; j < k; j++) {
		PyObject* a = tuple ? PyTuple_GET_ITEM(key, j) : key;
		PyTuple_SET_ITEM(arrays, j + 1, Py_NewRef(a));
		// the others: first's dtype and shape (tuples of ints: the comparison cannot fail)
		if (j && (mxgo_array_dtype(a) != code ||
			  PyObject_RichCompareBool(mxgo_array_shape(a), mxgo_array_shape(first), Py_EQ) != 1)) {
			Py_DECREF(arrays);
			return NULL;
		}
	}
	if (!gather_id && !(gather_id = PyLong_FromLong(mxgo_gather_op))) {
		Py_DECREF(arrays);
		return NULL;
	}
	PyObject* args[5] = {gather_id, arrays, Py_None, no_attrs, (PyObject*)(numpy ? np_class : mxgo_array_class)};
	PyObject* r = mxgo_invoke(NULL, args, 5);
	Py_DECREF(arrays);
	if (r == Py_NotImplemented) Py_CLEAR(r); // the Python path takes it
	return r;
}

// ---- views made in C
// While nothing is recorded, a key of ints and slices on a host array, and a reshape of a
// C-contiguous one, make their view here without Go (mxgo_new_view): the shape, strides
// and memory Go's view of the same key has (basicIndex, mxnetReshape), which Go makes by
// the same call on the base when the view is first used there (materialize checks that
// they agree). Keys with anything else (None, Ellipsis), an int out of range, an empty
// result and mx.nd's 0-d results (made (1,) by a reshape) are left to Go, which raises or
// makes them as before. replay: {MXGO_REPLAY_INDEX, mxnet, n, items[4n]} or
// {MXGO_REPLAY_RESHAPE, 0, n, dims[n]}.

// Python's slice.indices for a slice of axis length d (step neither 0 nor INT64_MIN):
// the first index into *start, and the length.
static int64_t slice_len(const int64_t* w, int64_t d, int64_t* start) {
	int64_t step = w[0] & MXGO_KEY_HAS_STEP ? w[3] : 1, lo = step < 0 ? -1 : 0, hi = step < 0 ? d - 1 : d;
	int64_t b = w[1], e = w[2];
	if (!(w[0] & MXGO_KEY_HAS_START)) b = step < 0 ? hi : lo;
	else if (b < 0) b = b + d < lo ? lo : b + d;
	else if (b > hi) b = hi;
	if (!(w[0] & MXGO_KEY_HAS_STOP)) e = step < 0 ? lo : hi;
	else if (e < 0) e = e + d < lo ? lo : e + d;
	else if (e > hi) e = hi;
	*start = b;
	if (step < 0) return e < b ? (b - e - 1) / -step + 1 : 0;
	return b < e ? (e - b - 1) / step + 1 : 0;
}

static PyObject* index_in_c(PyObject* x, const int64_t* items, int n, int numpy) {
	int64_t dims[2 * MXGO_MAX_DIMS], shape[MXGO_MAX_DIMS], strides[MXGO_MAX_DIMS], off = 0;
	void* data;
	int contiguous, nd = 0;
	if (mxgo_ag_mode() & MXGO_AG_RECORDING) return NULL;
	int ndim = mxgo_array_layout(x, dims, &data, &contiguous);
	if (ndim < -1) return NULL; // the exception stands
	if (ndim < 0 || n > ndim) return NULL;
	int64_t size = mxgo_dl_type_of[mxgo_array_dtype(x)].bits / 8;
	for (int i = 0; i < ndim; i++) {
		int64_t d = dims[i], st = dims[ndim + i];
		const int64_t* w = items + 4 * i;
		if (i >= n) {
			shape[nd] = d, strides[nd++] = st;
		} else if ((w[0] & 0xff) == MXGO_KEY_INT) {
			int64_t k = w[1] < 0 ? w[1] + d : w[1];
			if (k < 0 || k >= d) return NULL;
			off += k * st;
		} else if ((w[0] & 0xff) == MXGO_KEY_SLICE && !(w[0] & MXGO_KEY_HAS_STEP && (w[3] == 0 || w[3] == INT64_MIN))) {
			int64_t start, len = slice_len(w, d, &start);
			if (len == 0) return NULL;
			off += start * st;
			shape[nd] = len, strides[nd++] = len > 1 ? st * (w[0] & MXGO_KEY_HAS_STEP ? w[3] : 1) : st; // as Go's
		} else {
			return NULL;
		}
	}
	if (nd == 0 && !numpy) { // mx.nd's x[k] of a vector: the slice k:k+1
		if (ndim != 1) return NULL;
		shape[0] = 1, strides[0] = dims[1], nd = 1;
	}
	int64_t replay[3 + 4 * 2 * MXGO_MAX_DIMS]; // not zeroed: 4 KiB a call, a third of x[3]'s time
	replay[0] = MXGO_REPLAY_INDEX, replay[1] = !numpy, replay[2] = n;
	memcpy(replay + 3, items, (size_t)(4 * n) * sizeof(int64_t));
	return mxgo_new_view(numpy ? Py_TYPE(x) : mxgo_array_class, x, nd, shape, strides, (char*)data + off * size, replay, 3 + 4 * n);
}

static PyObject* subscript(PyObject* x, PyObject* key) {
	int64_t items[4 * 2 * MXGO_MAX_DIMS];
	int n = 1;
	if (PyTuple_CheckExact(key)) {
		Py_ssize_t m = PyTuple_GET_SIZE(key);
		n = m <= 2 * MXGO_MAX_DIMS ? (int)m : -1;
		for (int i = 0; i < n; i++)
			if (!encode(PyTuple_GET_ITEM(key, i), items + 4 * i)) n = -1;
	} else if (!encode(key, items)) {
		n = -1;
	}
	int numpy = np_class && PyObject_TypeCheck(x, np_class);
	if (n < 0) {
		PyObject* r = gather(x, key, numpy);
		return r || PyErr_Occurred() ? r : PyObject_CallMethodOneArg(x, getitem_name, key);
	}
	int64_t h;
	if (mxgo_forked) return mxgo_raise_forked();
	PyObject* v = index_in_c(x, items, n, numpy);
	if (v || PyErr_Occurred()) return v;
	if (mxgo_array_handle(x, "x", &h) < 0) return NULL;
	int64_t out = 0;
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoFastIndex(h, items, n, !numpy, &out, &d, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	return mxgo_new_array_of(numpy ? Py_TYPE(x) : mxgo_array_class, out, &d);
}

static PyObject* item(PyObject* x, Py_ssize_t i) {
	PyObject* k = PyLong_FromSsize_t(i);
	if (!k) return NULL;
	PyObject* r = subscript(x, k);
	Py_DECREF(k);
	return r;
}

// A C-contiguous x reshaped to spec (positive lengths, at most one -1) of x's size, as a
// view made in C; NULL to leave it to Go (mx.nd's other codes, a size that differs).
static PyObject* reshape_in_c(PyObject* x, const int64_t* spec, int n) {
	int64_t dims[2 * MXGO_MAX_DIMS], shape[MXGO_MAX_DIMS], strides[MXGO_MAX_DIMS], known = 1;
	void* data;
	int contiguous, free_axis = -1;
	if (n == 0 || (mxgo_ag_mode() & MXGO_AG_RECORDING)) return NULL;
	int ndim = mxgo_array_layout(x, dims, &data, &contiguous);
	if (ndim < -1) return NULL;
	int64_t size = mxgo_array_size(x);
	if (ndim < 0 || !contiguous || size == 0) return NULL;
	for (int i = 0; i < n; i++) {
		if (spec[i] == -1 && free_axis < 0) free_axis = i;
		else if (spec[i] <= 0 || spec[i] > size || (known *= spec[i]) > size) return NULL;
		shape[i] = spec[i];
	}
	if (free_axis >= 0) shape[free_axis] = size / known;
	if (free_axis >= 0 ? size % known != 0 : known != size) return NULL;
	int64_t acc = 1;
	for (int i = n - 1; i >= 0; i--) {
		strides[i] = acc;
		acc *= shape[i];
	}
	int64_t replay[3 + MXGO_MAX_DIMS];
	replay[0] = MXGO_REPLAY_RESHAPE, replay[1] = 0, replay[2] = n;
	memcpy(replay + 3, spec, (size_t)n * sizeof(int64_t));
	return mxgo_new_view(Py_TYPE(x), x, n, shape, strides, data, replay, 3 + n);
}

// x.reshape(...): shapes of exact ints, given as ints or as one tuple or list, with mx.nd's
// rules (MXNet's codes, reverse=) or, for mx.np arrays, NumPy's where they agree; anything
// else (shape=, NumPy integers, bad arguments, mx.np's other cases) goes to the class's
// _reshape.
PyObject* mxgo_array_reshape(PyObject* x, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
	PyObject* const* dims = args;
	Py_ssize_t n = nargs;
	int reverse = 0, fast = nargs > 0;
	if (nargs == 1 && (PyTuple_CheckExact(args[0]) || PyList_CheckExact(args[0]))) {
		dims = PySequence_Fast_ITEMS(args[0]);
		n = PySequence_Fast_GET_SIZE(args[0]);
	}
	for (Py_ssize_t i = 0; kwnames && i < PyTuple_GET_SIZE(kwnames); i++) {
		PyObject* v = args[nargs + i];
		fast = fast && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "reverse") == 0 && PyBool_Check(v);
		reverse = v == Py_True;
	}
	// mx.np's: no keywords (order='C' too goes to _reshape), no codes but -1, and no empty
	// array, whose reshape makes a new one.
	int numpy = np_class && PyObject_TypeCheck(x, np_class);
	fast = fast && n <= MXGO_MAX_DIMS && !(numpy && (kwnames || mxgo_array_size(x) == 0));
	int64_t shape[MXGO_MAX_DIMS];
	for (Py_ssize_t i = 0; fast && i < n; i++)
		fast = int64_of(dims[i], &shape[i]) && !(numpy && shape[i] <= 0 && shape[i] != -1);
	if (!fast) {
		PyObject* slow = PyObject_GetAttr(x, reshape_name);
		if (!slow) return NULL;
		PyObject* r = PyObject_Vectorcall(slow, args, nargs, kwnames);
		Py_DECREF(slow);
		return r;
	}
	int64_t h, out = 0;
	if (mxgo_forked) return mxgo_raise_forked();
	if (!reverse) {
		PyObject* v = reshape_in_c(x, shape, (int)n);
		if (v || PyErr_Occurred()) return v;
	}
	if (mxgo_array_handle(x, "x", &h) < 0) return NULL;
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoFastReshape(h, shape, (int)n, reverse, &out, &d, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	return mxgo_new_array_of(Py_TYPE(x), out, &d);
}

int mxgo_view_init(void) {
	getitem_name = PyUnicode_InternFromString("_getitem");
	reshape_name = PyUnicode_InternFromString("_reshape");
	no_attrs = PyUnicode_InternFromString("");
	return getitem_name && reshape_name && no_attrs ? 0 : -1;
}

PyMappingMethods mxgo_array_as_mapping = {.mp_subscript = subscript};
PySequenceMethods mxgo_array_as_sequence = {.sq_item = item};
