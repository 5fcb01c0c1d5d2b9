// fastpath.invoke: an operator call in one CPython -> C -> Go crossing, the arrays passed
// as objects (their handles read here) instead of gopy's strings.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "bridge.h"
#include "_cgo_export.h"

#define STACK_ARRAYS 8

// TINY bounds the elements of an operation that keeps the GIL: it runs at once, in
// about a microsecond, so releasing and retaking the GIL would cost more than letting
// other threads wait. Nothing such an operation does in Go waits for anything.
#define TINY 4096

// Elements of a DLTensor, or more than TINY when it does not say.
static int64_t tensor_size(const DLTensor* t) {
	if (t->ndim < 0 || t->ndim > MXGO_MAX_DIMS || (t->ndim > 0 && !t->shape)) return TINY + 1;
	int64_t n = 1;
	for (int i = 0; i < t->ndim; i++) {
		if (t->shape[i] < 0 || t->shape[i] > TINY) return TINY + 1;
		n *= t->shape[i];
		if (n > TINY) return TINY + 1;
	}
	return n;
}

// Whether the call is tiny: the arrays (and out unless None) without a handle are the
// views in ts (out's in out_t). While the engine is idle nothing is pending anywhere, so
// the waits that end a call on borrowed memory return at once too.
static int tiny(PyObject* arrays, const int64_t* hs, const DLTensor* ts, PyObject* out, const DLTensor* out_t) {
	if (__atomic_load_n(&mxgo_engine_busy, __ATOMIC_ACQUIRE) != 0) return 0; // it might wait
	int64_t total = out_t ? tensor_size(out_t) : out != Py_None ? mxgo_array_size(out) : 0;
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(arrays) && total <= TINY; i++)
		total += hs[i] ? mxgo_array_size(PyTuple_GET_ITEM(arrays, i)) : tensor_size(&ts[i]);
	return total <= TINY;
}

// Whether every operand is an mxgo array of one dtype whose bit is set in mask.
static int same_dtype(PyObject* arrays, uint64_t mask) {
	int first = -1;
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(arrays); i++) {
		int code = mxgo_array_dtype(PyTuple_GET_ITEM(arrays, i));
		if (code < 0 || code > 63 || (first >= 0 && code != first) || !(mask >> code & 1)) return 0;
		first = code;
	}
	return first >= 0;
}

// Operands of other frameworks (exchange.c's consumer): each becomes a DLTensor that Go
// borrows for the call, which finishes (Go waits) before invoke returns, since their
// memory is not tracked by mxgo's engine. keep holds what must outlive the call.
typedef struct {
	mxgo_borrowed b; // an input's view and its check where its handle is 0; a foreign out's
	PyObject** keep; // owning imports (new references), nkeep of them
	int nkeep;
} foreign_args;

// Checks t for Go's quick borrow (dtype -1 where the check declines).
static void check(const DLTensor* t, uint64_t flags, mxgo_dl_quick* q) {
	if (!mxgo_dl_quick_check(t, flags, q)) q->dtype = -1;
}

// The exchange API of o's type into *api; 1 when it has none (the Python path takes o),
// -1 with an exception for a malformed one.
static int api_of(PyObject* o, const DLPackExchangeAPI** api) {
	if (mxgo_exchange_api_of(Py_TYPE(o), api) < 0) return -1;
	return *api ? 0 : 1;
}

// An NDArray owning o's memory (a new reference in f->keep) and its view in *t.
static int owning_view(foreign_args* f, const DLPackExchangeAPI* api, PyObject* o, DLTensor* t) {
	PyObject* arr = mxgo_exchange_import(api, o);
	if (!arr) return -1;
	f->keep[f->nkeep++] = arr;
	return mxgo_array_dltensor(arr, 0, t);
}

// Input i, o: its handle in *h, or (*h 0) its view and check in f->b; 1 when the Python
// path must take it.
static int input(foreign_args* f, Py_ssize_t i, PyObject* o, int64_t* h) {
	*h = 0;
	if (PyObject_TypeCheck(o, &mxgo_array_base_type)) return mxgo_array_handle(o, "arrays", h);
	const DLPackExchangeAPI* api;
	int r = api_of(o, &api);
	if (r != 0) return r;
	mxgo_exchange_count_operand();
	DLTensor* t = &f->b.ts[i];
	if (!api->dltensor_from_py_object_no_sync) r = owning_view(f, api, o, t);
	else if (api->dltensor_from_py_object_no_sync(o, t) != 0) r = -1;
	if (r == 0) check(t, MXGO_DLPACK_FLAG_READ_ONLY, &f->b.qs[i]);
	if (r == 0 || PyErr_Occurred()) return r;
	PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "%.100s's DLPack exchange API failed to describe it without saying why",
		Py_TYPE(o)->tp_name);
	return -1;
}

// invoke(op_id, arrays, out, attrs[, cls[, same]]) -> NDArray (an instance of cls when given:
// mx.np makes its own arrays in the one call), None when out is an NDArray, or
// NotImplemented. same (a bit mask of dtype codes): unless every operand is an mxgo array
// of one dtype whose bit is set, NotImplemented at once (mx.np's one-call path, whose
// promotion then happens in Python). arrays is a tuple of operands, out one or None, attrs the parameters'
// wire form. Operands are NDArrays or objects whose type has a DLPack C exchange API;
// for anything else it returns NotImplemented, and op.py's Python path takes the call
// (as it does when a result would view another framework's memory mxgo only borrowed).
// A foreign out is exported owning (its READ_ONLY flag kept) for the length of the call;
// like an NDArray out, it is what op.py returns. Go runs with the GIL
// released: a kernel must not hold up other Python threads (or an engine callback
// waiting for the GIL), though a tiny ready operation on NDArrays computes right there.
PyObject* mxgo_invoke(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	PyTypeObject* cls = mxgo_array_class;
	uint64_t same = 0;
	int check_same = n == 6;
	if (check_same) {
		same = PyLong_AsUnsignedLongLong(args[5]);
		if (same == (uint64_t)-1 && PyErr_Occurred()) return NULL;
	}
	if ((n == 5 || n == 6) && PyType_Check(args[4]) && PyType_IsSubtype((PyTypeObject*)args[4], &mxgo_array_base_type)) {
		cls = (PyTypeObject*)args[4];
		n = 4;
	}
	if (n != 4 || !PyTuple_Check(args[1]) || !PyUnicode_Check(args[3])) {
		PyErr_SetString(PyExc_TypeError, "invoke(op_id, arrays: tuple, out, attrs: str[, cls: NDArrayBase subclass[, same: int]])");
		return NULL;
	}
	if (check_same && !same_dtype(args[1], same)) return Py_NewRef(Py_NotImplemented);
	if (mxgo_forked) return mxgo_raise_forked();
	long op = PyLong_AsLong(args[0]);
	if (op == -1 && PyErr_Occurred()) return NULL;
	if (op < 0 || op > INT32_MAX) return PyErr_Format(PyExc_ValueError, "invoke: unknown operator id %ld", op);
	Py_ssize_t k = PyTuple_GET_SIZE(args[1]);
	Py_ssize_t alen;
	const char* attrs = PyUnicode_AsUTF8AndSize(args[3], &alen);
	if (!attrs) return NULL;
	{ // before the operands' handles are read, which would materialise them
		PyObject* r = mxgo_tiny_arith(op, args[1], attrs, alen, args[2], cls);
		if (r || PyErr_Occurred()) return r;
	}
	if (alen > INT32_MAX || k > INT32_MAX) return PyErr_Format(PyExc_ValueError, "invoke: too many arrays or attributes");
	int64_t hstack[STACK_ARRAYS];
	DLTensor tstack[STACK_ARRAYS];
	mxgo_dl_quick qstack[STACK_ARRAYS];
	PyObject* kstack[STACK_ARRAYS];
	int heap = k > STACK_ARRAYS;
	int64_t* hs = heap ? PyMem_Malloc(k * sizeof(int64_t)) : hstack;
	foreign_args f = {.b = {.ts = heap ? PyMem_Malloc(k * sizeof(DLTensor)) : tstack,
		.qs = heap ? PyMem_Malloc(k * sizeof(mxgo_dl_quick)) : qstack},
		.keep = heap ? PyMem_Malloc(k * sizeof(PyObject*)) : kstack};
	PyObject* result = NULL;
	if (!hs || !f.b.ts || !f.b.qs || !f.keep) {
		PyErr_NoMemory();
		goto done;
	}
	PyObject* out = args[2];
	int64_t out_h = 0;
	DLTensor out_t;
	mxgo_dl_quick out_q;
	DLManagedTensorVersioned* out_mt = NULL; // a foreign out's export, for its READ_ONLY flag
	int r = 0;
	if (out != Py_None && PyObject_TypeCheck(out, &mxgo_array_base_type)) {
		r = mxgo_array_handle(out, "out", &out_h);
	} else if (out != Py_None) {
		const DLPackExchangeAPI* api;
		if ((r = api_of(out, &api)) == 0 && (r = mxgo_exchange_export(api, out, &out_mt)) == 0) {
			out_t = out_mt->dl_tensor;
			f.b.out = &out_t;
			f.b.out_flags = out_mt->flags & MXGO_DLPACK_FLAG_READ_ONLY;
			check(&out_t, f.b.out_flags, &out_q);
			f.b.out_q = &out_q;
		}
	}
	int foreign = f.b.out != NULL;
	for (Py_ssize_t i = 0; i < k && r == 0; i++) {
		r = input(&f, i, PyTuple_GET_ITEM(args[1], i), &hs[i]);
		foreign |= hs[i] == 0;
	}
	if (r != 0) {
		if (r > 0) result = Py_NewRef(Py_NotImplemented);
		goto done;
	}
	int64_t h = 0;
	mxgo_desc d;
	char* msg = NULL;
	int kind;
	// The tuple, its operands and attrs stay alive through the call: the caller holds them.
	mxgo_borrowed* b = foreign ? &f.b : NULL;
	int ag = mxgo_ag_mode(); // read on the caller's thread, whose flags they are
	if (tiny(args[1], hs, f.b.ts, out, f.b.out)) {
		kind = mxgoFastInvoke((int)op, hs, (int)k, out_h, b, (char*)attrs, (int)alen, ag, &h, &d, &msg);
	} else {
		Py_BEGIN_ALLOW_THREADS
		kind = mxgoFastInvoke((int)op, hs, (int)k, out_h, b, (char*)attrs, (int)alen, ag, &h, &d, &msg);
		Py_END_ALLOW_THREADS
	}
	if (kind == MXGO_TAKE_OWNING) result = Py_NewRef(Py_NotImplemented);
	else if (kind >= 0) mxgo_raise(kind, msg);
	else if (h) result = mxgo_new_array_of(cls, h, &d);
	else result = Py_NewRef(Py_None); // written into out, which op.py returns as given
done:
	if (out_mt) mxgo_dl_call_versioned_deleter(out_mt);
	for (int i = 0; i < f.nkeep; i++) Py_DECREF(f.keep[i]);
	if (heap) {
		PyMem_Free(hs);
		PyMem_Free(f.b.ts);
		PyMem_Free(f.b.qs);
		PyMem_Free(f.keep);
	}
	return result;
}

// Reads the handles of the NDArrays in tuple t into hs (and adds their sizes to *total);
// 1 when an item is something else (the Python path takes the call), -1 with an exception.
static int handles_of(PyObject* t, int64_t* hs, int64_t* total) {
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
		PyObject* o = PyTuple_GET_ITEM(t, i);
		if (!PyObject_TypeCheck(o, &mxgo_array_base_type)) return 1;
		if (mxgo_array_handle(o, "arrays", &hs[i]) < 0) return -1;
		*total += mxgo_array_size(o);
	}
	return 0;
}

// invoke_all(op_id, arrays, outs, attrs) -> None, or NotImplemented: an operator of
// several results (the multi-weight optimizer updates, topk with ret_typ='both', ...)
// written into outs, one NDArray per result, in one CPython -> C -> Go crossing, where
// registry.py's path joins and parses the handles as strings. Every operand and out must
// be an NDArray, and there must be both (anything else: NotImplemented, and the Python
// path takes it). Go runs
// with the GIL released unless the call is tiny and the engine idle, as for invoke.
PyObject* mxgo_invoke_all(PyObject* self, PyObject* const* args, Py_ssize_t n) {
	if (n != 4 || !PyTuple_Check(args[1]) || !PyTuple_Check(args[2]) || !PyUnicode_Check(args[3])) {
		PyErr_SetString(PyExc_TypeError, "invoke_all(op_id, arrays: tuple, outs: tuple, attrs: str)");
		return NULL;
	}
	if (mxgo_forked) return mxgo_raise_forked();
	long op = PyLong_AsLong(args[0]);
	if (op == -1 && PyErr_Occurred()) return NULL;
	if (op < 0 || op > INT32_MAX) return PyErr_Format(PyExc_ValueError, "invoke_all: unknown operator id %ld", op);
	Py_ssize_t k = PyTuple_GET_SIZE(args[1]), m = PyTuple_GET_SIZE(args[2]), alen;
	const char* attrs = PyUnicode_AsUTF8AndSize(args[3], &alen);
	if (!attrs) return NULL;
	if (k == 0 || m == 0) return Py_NewRef(Py_NotImplemented); // the Python path's errors and new results
	if (alen > INT32_MAX || k > INT32_MAX || m > INT32_MAX)
		return PyErr_Format(PyExc_ValueError, "invoke_all: too many arrays or attributes");
	int64_t stack[2 * STACK_ARRAYS];
	int64_t* hs = k + m > 2 * STACK_ARRAYS ? PyMem_Malloc((k + m) * sizeof(int64_t)) : stack;
	if (!hs) return PyErr_NoMemory();
	PyObject* result = NULL;
	int64_t total = 0;
	int r = handles_of(args[1], hs, &total);
	if (r == 0) r = handles_of(args[2], hs + k, &total);
	if (r > 0) result = Py_NewRef(Py_NotImplemented);
	if (r != 0) goto done;
	char* msg = NULL;
	int kind, ag = mxgo_ag_mode();
	if (total <= TINY && __atomic_load_n(&mxgo_engine_busy, __ATOMIC_ACQUIRE) == 0) {
		kind = mxgoFastInvokeAll((int)op, hs, (int)k, hs + k, (int)m, (char*)attrs, (int)alen, ag, &msg);
	} else {
		Py_BEGIN_ALLOW_THREADS
		kind = mxgoFastInvokeAll((int)op, hs, (int)k, hs + k, (int)m, (char*)attrs, (int)alen, ag, &msg);
		Py_END_ALLOW_THREADS
	}
	if (kind >= 0) mxgo_raise(kind, msg);
	else result = Py_NewRef(Py_None);
done:
	if (hs != stack) PyMem_Free(hs);
	return result;
}
