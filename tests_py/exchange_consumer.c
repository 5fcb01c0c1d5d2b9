// A consumer (and a fake producer) of DLPack 1.3's C exchange API for the tests, compiled
// at test time against the interpreter's headers (exchange_helpers.py) and loaded with
// ctypes.PyDLL, so every function runs with the GIL held. Its declarations are written
// from the DLPack specification, as mxgo's own are: the test checks the ABI, not a header.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { uint32_t major, minor; } Version;
#include "dltensor.h"
typedef struct Managed {
	Version version;
	void* manager_ctx;
	void (*deleter)(struct Managed*);
	uint64_t flags;
	Tensor dl_tensor;
} Managed;
typedef struct Header {
	Version version;
	struct Header* prev_api;
} Header;
typedef void (*SetErrorFn)(void*, const char*, const char*);
typedef struct {
	Header header;
	int (*alloc)(Tensor*, Managed**, void*, SetErrorFn);
	int (*from_py)(void*, Managed**);
	int (*to_py)(Managed*, void**);
	int (*view)(void*, Tensor*);
	int (*stream)(int32_t, int32_t, void**);
} API;

// ---- reading the table of an object's type ------------------------------------------

static const API* api_of(PyObject* obj) {
	PyObject* cap = PyObject_GetAttrString((PyObject*)Py_TYPE(obj), "__dlpack_c_exchange_api__");
	if (!cap) return NULL;
	const API* api = PyCapsule_GetPointer(cap, "dlpack_exchange_api");
	Py_DECREF(cap); // the table lives as long as the process
	return api;
}

// header(obj) -> (major, minor, prev_api is NULL, which functions are not NULL)
PyObject* xc_header(PyObject* obj) {
	const API* a = api_of(obj);
	if (!a) return NULL;
	return Py_BuildValue("(IIO(OOOOO))", a->header.version.major, a->header.version.minor, a->header.prev_api ? Py_False : Py_True,
		a->alloc ? Py_True : Py_False, a->from_py ? Py_True : Py_False, a->to_py ? Py_True : Py_False, a->view ? Py_True : Py_False,
		a->stream ? Py_True : Py_False);
}

static PyObject* ints(const int64_t* v, int n) {
	PyObject* t = PyTuple_New(v ? n : 0);
	for (int i = 0; t && v && i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(v[i]));
	return t;
}

// The fields of t as a dict (shape and strides () when NULL).
static PyObject* fields(const Tensor* t) {
	return Py_BuildValue("{s:K,s:(ii),s:i,s:(iii),s:N,s:N,s:K,s:O,s:O}", "data", (unsigned long long)(uintptr_t)t->data,
		"device", t->device.device_type, t->device.device_id, "ndim", t->ndim, "dtype", t->dtype.code, t->dtype.bits,
		t->dtype.lanes, "shape", ints(t->shape, t->ndim), "strides", ints(t->strides, t->ndim), "byte_offset",
		(unsigned long long)t->byte_offset, "shape_null", t->shape ? Py_False : Py_True, "strides_null",
		t->strides ? Py_False : Py_True);
}

static PyObject* managed_fields(Managed* m) {
	PyObject* d = fields(&m->dl_tensor);
	if (!d) return NULL;
	PyObject* v = Py_BuildValue("{s:(II),s:K,s:K,s:O}", "version", m->version.major, m->version.minor, "flags",
		(unsigned long long)m->flags, "ptr", (unsigned long long)(uintptr_t)m, "has_deleter", m->deleter ? Py_True : Py_False);
	if (!v || PyDict_Update(d, v) < 0) { Py_XDECREF(v); Py_DECREF(d); return NULL; }
	Py_DECREF(v);
	return d;
}

// capsule_fields(capsule) -> the fields of a versioned capsule's tensor (not consumed)
PyObject* xc_capsule_fields(PyObject* cap) {
	Managed* m = PyCapsule_GetPointer(cap, "dltensor_versioned");
	return m ? managed_fields(m) : NULL;
}

// from_py(obj) -> fields of managed_tensor_from_py_object_no_sync's tensor, with "ptr" for
// delete(); raises what the producer set.
PyObject* xc_from_py(PyObject* obj) {
	const API* a = api_of(obj);
	if (!a) return NULL;
	Managed* m = NULL;
	if (a->from_py(obj, &m) != 0) {
		if (!PyErr_Occurred()) PyErr_SetString(PyExc_AssertionError, "from_py failed without an exception");
		return NULL;
	}
	if (PyErr_Occurred()) return NULL;
	return managed_fields(m);
}

// view(obj) -> the fields of dltensor_from_py_object_no_sync's view
PyObject* xc_view(PyObject* obj) {
	const API* a = api_of(obj);
	if (!a) return NULL;
	Tensor t;
	memset(&t, 0xAB, sizeof t);
	if (a->view(obj, &t) != 0) {
		if (!PyErr_Occurred()) PyErr_SetString(PyExc_AssertionError, "view failed without an exception");
		return NULL;
	}
	return fields(&t);
}

// Calls each function of obj's table with what a careless consumer may pass: NULL objects
// and outputs, an object of another type. Returns the exceptions raised, in order.
PyObject* xc_misuse(PyObject* obj, PyObject* other) {
	const API* a = api_of(obj);
	if (!a) return NULL;
	PyObject* errs = PyList_New(0);
	Managed* m = NULL;
	Tensor t;
	void* s;
	for (int i = 0; i < 8 && errs; i++) {
		int rc = 0;
		switch (i) {
		case 0: rc = a->from_py(NULL, &m); break;
		case 1: rc = a->from_py(other, &m); break;
		case 2: rc = a->from_py(obj, NULL); break;
		case 3: rc = a->view(NULL, &t); break;
		case 4: rc = a->view(other, &t); break;
		case 5: rc = a->view(obj, NULL); break;
		case 6: rc = a->to_py(NULL, &s); break;
		case 7: rc = a->stream(1, 0, NULL); break;
		}
		PyObject *type, *value, *tb;
		PyErr_Fetch(&type, &value, &tb);
		PyErr_NormalizeException(&type, &value, &tb);
		PyObject* item = Py_BuildValue("(iO)", rc, value ? value : Py_None);
		Py_XDECREF(type);
		Py_XDECREF(value);
		Py_XDECREF(tb);
		if (!item || PyList_Append(errs, item) < 0) Py_CLEAR(errs);
		Py_XDECREF(item);
	}
	return errs;
}

// delete(ptr): calls a managed tensor's deleter
PyObject* xc_delete(unsigned long long ptr) {
	Managed* m = (Managed*)(uintptr_t)ptr;
	if (m->deleter) m->deleter(m);
	Py_RETURN_NONE;
}

static void* delete_all(void* arg) {
	PyObject* list = arg; // a list of ptrs, read without the GIL: the caller keeps it unchanged
	Py_ssize_t n = PyList_GET_SIZE(list);
	for (Py_ssize_t i = 0; i < n; i++) {
		Managed* m = (Managed*)(uintptr_t)PyLong_AsUnsignedLongLong(PyList_GET_ITEM(list, i));
		m->deleter(m);
	}
	return NULL;
}

// delete_in_threads(lists): one pthread per list calls the deleters of its tensors, while
// this thread waits without the GIL.
PyObject* xc_delete_in_threads(PyObject* lists) {
	Py_ssize_t n = PyList_GET_SIZE(lists);
	pthread_t* th = calloc(n, sizeof(pthread_t));
	int ok = 1;
	Py_BEGIN_ALLOW_THREADS
	for (Py_ssize_t i = 0; i < n; i++) ok &= pthread_create(&th[i], NULL, delete_all, PyList_GET_ITEM(lists, i)) == 0;
	for (Py_ssize_t i = 0; i < n; i++) pthread_join(th[i], NULL);
	Py_END_ALLOW_THREADS
	free(th);
	return PyBool_FromLong(ok);
}

// to_py(obj, ptr) -> managed_tensor_to_py_object_no_sync of the tensor at ptr, through
// obj's table (it steals the tensor)
PyObject* xc_to_py(PyObject* obj, unsigned long long ptr) {
	const API* a = api_of(obj);
	if (!a) return NULL;
	void* out = NULL;
	if (a->to_py((Managed*)(uintptr_t)ptr, &out) != 0) return NULL;
	return out;
}

// A tensor this library owns, with a counting deleter, for to_py: n float64s 0, 1, ...
static int64_t foreign_deleted;
static void foreign_deleter(Managed* m) {
	free(m->dl_tensor.data);
	free(m);
	__atomic_fetch_add(&foreign_deleted, 1, __ATOMIC_SEQ_CST);
}

PyObject* xc_foreign(int n, int read_only) {
	Managed* m = calloc(1, sizeof(Managed) + 2 * sizeof(int64_t));
	double* d = malloc(n * sizeof(double));
	for (int i = 0; i < n; i++) d[i] = i;
	int64_t* dims = (int64_t*)(m + 1);
	dims[0] = n;
	dims[1] = 1;
	m->version = (Version){1, 3};
	m->deleter = foreign_deleter;
	m->flags = read_only ? 1 : 0;
	m->dl_tensor = (Tensor){d, {1, 0}, 1, {2, 64, 1}, dims, dims + 1, 0};
	return PyLong_FromUnsignedLongLong((uintptr_t)m);
}

PyObject* xc_foreign_deleted(void) { return PyLong_FromLongLong(__atomic_load_n(&foreign_deleted, __ATOMIC_SEQ_CST)); }

// ---- the allocator --------------------------------------------------------------------

static int set_error_calls;
static char set_error_kind[64], set_error_msg[512];

static void set_error(void* ctx, const char* kind, const char* msg) {
	set_error_calls++;
	*(int*)ctx += 1;
	snprintf(set_error_kind, sizeof set_error_kind, "%s", kind);
	snprintf(set_error_msg, sizeof set_error_msg, "%s", msg);
}

// alloc(obj, code, bits, lanes, device_type, shape or None) -> fields of the new tensor
// (with "ptr"), or ("error", rc, kind, message, SetError calls): SetError must be called
// exactly when it fails, and out must then be NULL. shape None passes a NULL prototype.
PyObject* xc_alloc(PyObject* obj, int code, int bits, int lanes, int device_type, PyObject* shape) {
	const API* a = api_of(obj);
	if (!a) return NULL;
	int64_t dims[80];
	Tensor p = {NULL, {device_type, 0}, 0, {code, bits, lanes}, dims, NULL, 0};
	if (shape != Py_None) {
		p.ndim = (int32_t)PyTuple_GET_SIZE(shape);
		for (int i = 0; i < p.ndim && i < 80; i++) dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, i));
		if (p.ndim < 0) p.shape = NULL;
	}
	Managed* m = (Managed*)0x1;
	int calls = 0;
	set_error_calls = 0;
	int rc = a->alloc(shape == Py_None ? NULL : &p, &m, &calls, set_error);
	if (rc != 0 || calls) return Py_BuildValue("(sisssi)", "error", rc, set_error_kind, set_error_msg, m ? "out set" : "out NULL", calls);
	return managed_fields(m);
}

// alloc_ndim(obj, ndim, null_shape) -> as alloc for float32 with a hostile ndim or shape
PyObject* xc_alloc_ndim(PyObject* obj, int ndim, int null_shape) {
	const API* a = api_of(obj);
	if (!a) return NULL;
	int64_t dims[4] = {1, 1, 1, 1};
	Tensor p = {NULL, {1, 0}, ndim, {2, 32, 1}, null_shape ? NULL : dims, NULL, 0};
	Managed* m = NULL;
	int calls = 0;
	int rc = a->alloc(&p, &m, &calls, set_error);
	return Py_BuildValue("(iissi)", rc, calls, set_error_kind, set_error_msg, m != NULL);
}

// stream(obj, device_type, device_id) -> the stream as an int; raises what the producer set
PyObject* xc_stream(PyObject* obj, int device_type, int device_id) {
	const API* a = api_of(obj);
	if (!a) return NULL;
	void* s = (void*)0x1;
	if (a->stream(device_type, device_id, &s) != 0) return NULL;
	return PyLong_FromVoidPtr(s);
}

// read(ptr, n) -> n bytes at address ptr
PyObject* xc_read(unsigned long long ptr, Py_ssize_t n) { return PyBytes_FromStringAndSize((const char*)(uintptr_t)ptr, n); }

// ---- a fake producer: tables that delegate to the object's __dlpack__ -----------------

static int64_t fake_calls[2]; // from_py, view

// Steals the tensor of obj.__dlpack__(max_version=(1, 3)).
static int fake_from_py(void* obj, Managed** out) {
	__atomic_fetch_add(&fake_calls[0], 1, __ATOMIC_SEQ_CST);
	PyObject* cap = PyObject_CallMethod(obj, "__dlpack__", "");
	if (!cap) return -1;
	*out = PyCapsule_GetPointer(cap, "dltensor_versioned");
	int rc = *out && PyCapsule_SetName(cap, "used_dltensor_versioned") == 0 ? 0 : -1;
	Py_DECREF(cap);
	return rc;
}

// A view of the tensor of obj.__dlpack__(), whose capsule obj keeps (as _view_capsule).
static int fake_view(void* obj, Tensor* out) {
	__atomic_fetch_add(&fake_calls[1], 1, __ATOMIC_SEQ_CST);
	PyObject* cap = PyObject_CallMethod(obj, "__dlpack__", "");
	if (!cap) return -1;
	Managed* m = PyCapsule_GetPointer(cap, "dltensor_versioned");
	int rc = m && PyObject_SetAttrString(obj, "_view_capsule", cap) == 0 ? 0 : -1;
	if (rc == 0) *out = m->dl_tensor;
	Py_DECREF(cap);
	return rc;
}

static int fake_fail(void* obj, Managed** out) { return -1; } // and no exception: a careless producer
static int fake_raise(void* obj, Managed** out) {
	PyErr_SetString(PyExc_BufferError, "fake producer refuses");
	return -1;
}
static int fake_null(void* obj, Managed** out) { *out = NULL; return 0; }

static API fake_v1 = {{{1, 1}, NULL}, NULL, fake_from_py, NULL, NULL, NULL};
static API fake_v1_view = {{{1, 3}, NULL}, NULL, fake_from_py, NULL, fake_view, NULL};
static API fake_v2 = {{{2, 0}, NULL}, NULL, fake_from_py, NULL, NULL, NULL};
static API fake_v2_chain = {{{2, 0}, &fake_v1.header}, NULL, fake_from_py, NULL, NULL, NULL};
static API fake_v0 = {{{0, 9}, NULL}, NULL, fake_from_py, NULL, NULL, NULL};
static API fake_no_from = {{{1, 3}, NULL}, NULL, NULL, NULL, NULL, NULL};
static API fake_failing = {{{1, 3}, NULL}, NULL, fake_fail, NULL, NULL, NULL};
static API fake_raising = {{{1, 3}, NULL}, NULL, fake_raise, NULL, NULL, NULL};
static API fake_nothing = {{{1, 3}, NULL}, NULL, fake_null, NULL, NULL, NULL};
static Header fake_cycle_a, fake_cycle_b = {{3, 0}, &fake_cycle_a};
static Header fake_cycle_a = {{2, 0}, &fake_cycle_b};

// fake_api(kind, name) -> a capsule named name pointing to the fake table kind
PyObject* xc_fake_api(const char* kind, const char* name) {
	static const struct { const char* kind; void* api; } tables[] = {{"v1", &fake_v1}, {"v1_view", &fake_v1_view},
		{"v2", &fake_v2}, {"v2_chain", &fake_v2_chain}, {"v0", &fake_v0}, {"no_from", &fake_no_from},
		{"failing", &fake_failing}, {"raising", &fake_raising}, {"nothing", &fake_nothing}, {"cycle", &fake_cycle_a}};
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
		if (strcmp(tables[i].kind, kind) == 0)
			return PyCapsule_New(tables[i].api, strdup(name), NULL); // a name must outlive its capsule: leaked
	PyErr_Format(PyExc_ValueError, "no fake table %s", kind);
	return NULL;
}

PyObject* xc_fake_calls(void) { return Py_BuildValue("(LL)", (long long)fake_calls[0], (long long)fake_calls[1]); }
