// DLPack 1.3's C exchange API, both ways. As a producer, mxgo's tables (one for NDArray,
// one read-only for ReadOnlyDLPack, as PyTorch's const table for ReadOnlyTensorWrapper)
// live as long as the process; the functions that take arrays run in C, entering Go only
// where __dlpack__ would (an array made in C on its first export, an export while the
// engine is busy); the allocator makes mxgo host storage through Go, in one call. As a
// consumer, the table of another type is looked up once and cached (mxgo_exchange_api_of).
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdio.h>
#include "bridge.h"
#include "_cgo_export.h"

static const char API_NAME[] = "dlpack_exchange_api";

// Calls to mxgo's tables, and this process's uses of other tables, for tests that show
// which path a consumer took. Relaxed atomics: the allocator may run without the GIL.
enum { N_ALLOC, N_FROM, N_TO, N_VIEW, N_STREAM, N_IMPORTS, N_OPERANDS, N_COUNTS };
static const char* const count_names[N_COUNTS] = {"managed_tensor_allocator", "managed_tensor_from_py_object_no_sync",
	"managed_tensor_to_py_object_no_sync", "dltensor_from_py_object_no_sync", "current_work_stream",
	"consumer_imports", "consumer_operands"};
static int64_t counts[N_COUNTS];

static void count(int i) { __atomic_fetch_add(&counts[i], 1, __ATOMIC_RELAXED); }
// The consumer's counts are taken with the GIL held (invoke.c, from_dlpack), which orders
// the increments: a plain one, since a locked add on each operand of each call was
// measurable.
static void count_with_gil(int i) {
	__atomic_store_n(&counts[i], __atomic_load_n(&counts[i], __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}
void mxgo_exchange_count_operand(void) { count_with_gil(N_OPERANDS); }

// ---- ReadOnlyDLPack's C base: an export-only wrapper of one array ---------------------

typedef struct {
	PyObject_HEAD
	PyObject* array;
} ReadOnlyObject;

static PyObject* ro_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
	PyObject* array;
	static char* kwlist[] = {"array", NULL};
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:ReadOnlyDLPack", kwlist, &array)) return NULL;
	if (!PyObject_TypeCheck(array, &mxgo_array_base_type))
		return PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "ReadOnlyDLPack wraps an NDArray, got %.100s", Py_TYPE(array)->tp_name);
	ReadOnlyObject* r = (ReadOnlyObject*)type->tp_alloc(type, 0);
	if (!r) return NULL;
	Py_INCREF(array);
	r->array = array;
	return (PyObject*)r;
}

static int ro_traverse(ReadOnlyObject* r, visitproc visit, void* arg) {
	Py_VISIT(r->array);
	return 0;
}

static int ro_clear(ReadOnlyObject* r) {
	Py_CLEAR(r->array);
	return 0;
}

static void ro_dealloc(ReadOnlyObject* r) {
	PyObject_GC_UnTrack(r);
	ro_clear(r);
	Py_TYPE(r)->tp_free((PyObject*)r);
}

static PyMemberDef ro_members[] = {
	{"array", T_OBJECT_EX, offsetof(ReadOnlyObject, array), READONLY, "The wrapped NDArray."},
	{NULL},
};

static PyTypeObject readonly_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "mxgo._fastpath.ReadOnlyDLPackBase",
	.tp_basicsize = sizeof(ReadOnlyObject),
	.tp_dealloc = (destructor)ro_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
	.tp_doc = "ReadOnlyDLPackBase(array)\n--\n\nC base of mxgo.nd.ReadOnlyDLPack: the wrapped array, and the read-only exchange API.",
	.tp_traverse = (traverseproc)ro_traverse,
	.tp_clear = (inquiry)ro_clear,
	.tp_members = ro_members,
	.tp_new = ro_new,
};

// ---- the producer -------------------------------------------------------------------

// The NDArrayBase behind py_obj: itself, or (read-only table) the array a ReadOnlyDLPack
// wraps; NULL with TypeError for anything else. A borrowed reference: py_obj holds it.
static PyObject* array_of(void* py_obj, int read_only, const char* fn) {
	PyObject* o = py_obj;
	if (o && read_only && PyObject_TypeCheck(o, &readonly_type) && ((ReadOnlyObject*)o)->array) o = ((ReadOnlyObject*)o)->array;
	if (o && PyObject_TypeCheck(o, &mxgo_array_base_type)) return o;
	PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "%s (mxgo's DLPack exchange API) needs an mxgo NDArray%s, got %.100s", fn,
		read_only ? " or ReadOnlyDLPack" : "", o ? Py_TYPE(o)->tp_name : "NULL");
	return NULL;
}

static int null_out(const char* fn) {
	PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "%s: the output pointer is NULL", fn);
	return -1;
}

static int from_py_object(void* py_obj, DLManagedTensorVersioned** out, int read_only) {
	static const char fn[] = "managed_tensor_from_py_object_no_sync";
	count(N_FROM);
	PyObject* o = array_of(py_obj, read_only, fn);
	if (!o) return -1;
	if (!out) return null_out(fn);
	return mxgo_array_to_tensor(o, read_only, out);
}

static int dltensor_from_py_object(void* py_obj, DLTensor* out, int read_only) {
	static const char fn[] = "dltensor_from_py_object_no_sync";
	count(N_VIEW);
	PyObject* o = array_of(py_obj, read_only, fn);
	if (!o) return -1;
	if (!out) return null_out(fn);
	return mxgo_array_dltensor(o, read_only, out);
}

static int from_py_rw(void* o, DLManagedTensorVersioned** out) { return from_py_object(o, out, 0); }
static int from_py_ro(void* o, DLManagedTensorVersioned** out) { return from_py_object(o, out, 1); }
static int view_rw(void* o, DLTensor* out) { return dltensor_from_py_object(o, out, 0); }
static int view_ro(void* o, DLTensor* out) { return dltensor_from_py_object(o, out, 1); }

// Steals t: an NDArray over it, as import_capsule makes (its deleter runs if that fails).
static int to_py_object(DLManagedTensorVersioned* t, void** out) {
	static const char fn[] = "managed_tensor_to_py_object_no_sync";
	count(N_TO);
	if (!t) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "%s: the tensor is NULL", fn);
		return -1;
	}
	if (!out) {
		mxgo_dl_call_versioned_deleter(t);
		return null_out(fn);
	}
	PyObject* r = mxgo_import_tensor(t, 1);
	*out = r;
	return r ? 0 : -1;
}

// Python's exception names by mxerr.Kind, for SetError (MXNetError is mxgo's own).
static const char* const kind_names[MXGO_NKINDS] = {"RuntimeError", "ValueError", "TypeError", "IndexError", "BufferError",
	"MemoryError", "NotImplementedError"};

// A new host array like prototype, exported (versioned, writable). It may run without
// the GIL: it touches no Python object, and reports errors only through SetError.
static int allocator(DLTensor* p, DLManagedTensorVersioned** out, void* ctx, void (*set_error)(void*, const char*, const char*)) {
	count(N_ALLOC);
	char buf[256];
	const char* kind = NULL;
	char* gomsg = NULL;
	if (out) *out = NULL;
	if (!p || !out) {
		kind = "ValueError";
		snprintf(buf, sizeof buf, "managed_tensor_allocator: NULL %s", p ? "output pointer" : "prototype");
	} else if (p->device.device_type != MXGO_DEVICE_CPU) {
		kind = "BufferError";
		snprintf(buf, sizeof buf, "mxgo allocates host memory only (DLPack device type 1), not on device (%d, %d)",
			(int)p->device.device_type, (int)p->device.device_id);
	} else if (p->dtype.lanes != 1 || p->dtype.code > 7 || p->dtype.bits > 128 || !mxgo_dl_dtype_of[p->dtype.code][p->dtype.bits]) {
		kind = "TypeError";
		snprintf(buf, sizeof buf, "mxgo has no dtype for DLPack (code %d, bits %d, lanes %d)", p->dtype.code, p->dtype.bits,
			p->dtype.lanes);
	} else if (p->ndim < 0 || p->ndim > MXGO_MAX_DIMS) {
		kind = "ValueError";
		snprintf(buf, sizeof buf, "managed_tensor_allocator: %d dimensions (mxgo allows 0 to %d)", (int)p->ndim, MXGO_MAX_DIMS);
	} else if (p->ndim > 0 && !p->shape) {
		kind = "ValueError";
		snprintf(buf, sizeof buf, "managed_tensor_allocator: NULL shape for %d dimensions", (int)p->ndim);
	} else if (mxgo_forked) {
		kind = "RuntimeError";
		snprintf(buf, sizeof buf, "%s", mxgo_forked_message);
	} else {
		int k = mxgoExchangeAlloc(mxgo_dl_dtype_of[p->dtype.code][p->dtype.bits] - 1, p->ndim, p->shape, (void**)out, &gomsg);
		if (k >= 0) {
			kind = k < MXGO_NKINDS ? kind_names[k] : "RuntimeError";
			snprintf(buf, sizeof buf, "%s", gomsg ? gomsg : "allocation failed");
			free(gomsg);
		}
	}
	if (!kind) return 0;
	if (set_error) set_error(ctx, kind, buf);
	return -1;
}

static int work_stream(int32_t device_type, int32_t device_id, void** out) {
	count(N_STREAM);
	if (out) *out = NULL;
	if ((device_type == MXGO_DEVICE_CPU || device_type == MXGO_DEVICE_CUDA_HOST) && out) return 0;
	char* msg = NULL;
	int kind = -1;
	if (device_type == MXGO_DEVICE_CUDA && out) { // mxgo's stream on the device: its work is issued there
		int64_t s = 0;
		if ((kind = mxgoCudaStream(device_id, &s, &msg)) < 0) {
			*out = (void*)(intptr_t)s;
			return 0;
		}
	}
	PyGILState_STATE g = PyGILState_Ensure(); // the contract has the caller hold it; be safe if not
	if (!out) null_out("current_work_stream");
	else if (kind >= 0) mxgo_raise(kind, msg);
	else PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "mxgo has no work stream for DLPack device (%d, %d)", (int)device_type,
		(int)device_id);
	PyGILState_Release(g);
	return -1;
}

static DLPackExchangeAPI api_rw = {{{MXGO_DLPACK_MAJOR, MXGO_DLPACK_MINOR}, NULL}, allocator, from_py_rw, to_py_object, view_rw,
	work_stream};
static DLPackExchangeAPI api_ro = {{{MXGO_DLPACK_MAJOR, MXGO_DLPACK_MINOR}, NULL}, allocator, from_py_ro, to_py_object, view_ro,
	work_stream};

// ---- the consumer -------------------------------------------------------------------

// Types seen, with strong references (a type cannot die and its address be reused while
// here) and their usable table or NULL. Full, it replaces entries in turn.
#define CACHE_SIZE 16
static struct {
	PyTypeObject* type;
	PyObject* attr;
	const DLPackExchangeAPI* api;
} cache[CACHE_SIZE];
static unsigned cache_next;

// The table of attr that mxgo can use: 0 with *api NULL when it has no major version 1
// (then __dlpack__ serves); -1 with an exception for a malformed attribute.
static int usable(PyTypeObject* type, PyObject* attr, const DLPackExchangeAPI** api) {
	*api = NULL;
	if (!PyCapsule_CheckExact(attr)) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "%.100s.__dlpack_c_exchange_api__ must be a PyCapsule named '%s', got %.100s",
			type->tp_name, API_NAME, Py_TYPE(attr)->tp_name);
		return -1;
	}
	const char* name = PyCapsule_GetName(attr);
	if (!name || strcmp(name, API_NAME) != 0) {
		PyErr_Clear();
		PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "%.100s.__dlpack_c_exchange_api__ is a capsule named %s%.100s%s, not '%s'",
			type->tp_name, name ? "'" : "", name ? name : "NULL", name ? "'" : "", API_NAME);
		return -1;
	}
	const DLPackExchangeAPIHeader* h = PyCapsule_GetPointer(attr, API_NAME);
	if (!h) return -1; // a capsule cannot hold NULL: GetPointer has raised
	// Newer majors may chain older tables; a bounded walk survives a cyclic chain.
	for (int i = 0; i < 64 && h && h->version.major > MXGO_DLPACK_MAJOR; i++) h = h->prev_api;
	if (!h || h->version.major != MXGO_DLPACK_MAJOR) return 0;
	const DLPackExchangeAPI* a = (const DLPackExchangeAPI*)h;
	if (!a->managed_tensor_from_py_object_no_sync) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "%.100s.__dlpack_c_exchange_api__ (DLPack %u.%u) has no "
			"managed_tensor_from_py_object_no_sync", type->tp_name, h->version.major, h->version.minor);
		return -1;
	}
	*api = a;
	return 0;
}

int mxgo_exchange_api_of(PyTypeObject* type, const DLPackExchangeAPI** api) {
	static PyObject* attr_name;
	for (int i = 0; i < CACHE_SIZE; i++)
		if (cache[i].type == type) {
			*api = cache[i].api;
			return 0;
		}
	*api = NULL;
	if (!attr_name && !(attr_name = PyUnicode_InternFromString("__dlpack_c_exchange_api__"))) return -1;
	PyObject* attr = PyObject_GetAttr((PyObject*)type, attr_name);
	if (!attr) {
		if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
		PyErr_Clear();
	} else if (usable(type, attr, api) < 0) { // not cached: it raises every time
		Py_DECREF(attr);
		return -1;
	}
	unsigned i = cache_next++ % CACHE_SIZE;
	PyTypeObject* old_type = cache[i].type;
	PyObject* old_attr = cache[i].attr;
	Py_INCREF(type);
	cache[i].type = type;
	cache[i].attr = attr;
	cache[i].api = *api;
	Py_XDECREF(old_type); // last: a type's deallocation may run Python
	Py_XDECREF(old_attr);
	return 0;
}

// order_after_producer makes mxgo's stream on gpu(id) wait for the work the producer has
// issued on its current stream there: managed_tensor_from_py_object_no_sync does not
// synchronise, and current_work_stream names the stream to order after. 0, or -1 with an
// exception.
static int order_after_producer(const DLPackExchangeAPI* api, int32_t type, int32_t id) {
	void* stream = NULL;
	if (api->current_work_stream && api->current_work_stream(type, id, &stream) != 0) {
		if (!PyErr_Occurred())
			PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "the producer's current_work_stream failed for DLPack device (%d, %d)",
				(int)type, (int)id);
		return -1;
	}
	char* msg = NULL;
	int kind = mxgoCudaWaitFor(id, (int64_t)(intptr_t)stream, &msg);
	if (kind >= 0) {
		mxgo_raise(kind, msg);
		return -1;
	}
	return 0;
}

int mxgo_exchange_export(const DLPackExchangeAPI* api, PyObject* obj, DLManagedTensorVersioned** mt) {
	*mt = NULL;
	count_with_gil(N_IMPORTS);
	if (api->managed_tensor_from_py_object_no_sync(obj, mt) != 0) {
		if (!PyErr_Occurred())
			PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "%.100s's DLPack exchange API failed to export it without saying why",
				Py_TYPE(obj)->tp_name);
		return -1;
	}
	if (!*mt) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "%.100s's DLPack exchange API returned no tensor", Py_TYPE(obj)->tp_name);
		return -1;
	}
	return 0;
}

PyObject* mxgo_exchange_import(const DLPackExchangeAPI* api, PyObject* obj) {
	DLManagedTensorVersioned* mt;
	if (mxgo_exchange_export(api, obj, &mt) < 0) return NULL;
	int32_t type = mt->dl_tensor.device.device_type, id = mt->dl_tensor.device.device_id;
	if ((type == MXGO_DEVICE_CUDA || type == MXGO_DEVICE_CUDA_MANAGED) && order_after_producer(api, type, id) < 0) {
		if (mt->deleter) mt->deleter(mt);
		return NULL;
	}
	return mxgo_import_tensor(mt, 1);
}

// ---- module setup -------------------------------------------------------------------

PyObject* mxgo_exchange_counts(PyObject* self, PyObject* unused) {
	PyObject* d = PyDict_New();
	for (int i = 0; d && i < N_COUNTS; i++) {
		PyObject* v = PyLong_FromLongLong(__atomic_load_n(&counts[i], __ATOMIC_RELAXED));
		if (!v || PyDict_SetItemString(d, count_names[i], v) < 0) Py_CLEAR(d);
		Py_XDECREF(v);
	}
	return d;
}

// Puts capsule cap for table api into m under name and into type's dict (static types
// are immutable from Python since 3.10: C may still fill their dict after PyType_Ready,
// then PyType_Modified drops the attribute caches).
static int publish(PyObject* m, const char* name, PyTypeObject* type, DLPackExchangeAPI* api) {
	PyObject* cap = PyCapsule_New(api, API_NAME, NULL);
	if (!cap) return -1;
	int bad = PyDict_SetItemString(type->tp_dict, "__dlpack_c_exchange_api__", cap) < 0 || PyModule_AddObject(m, name, cap) < 0;
	if (bad) Py_DECREF(cap); // AddObject steals only on success
	else PyType_Modified(type);
	return bad ? -1 : 0;
}

int mxgo_exchange_init(PyObject* m) {
	if (PyType_Ready(&readonly_type) < 0) return -1;
	Py_INCREF(&readonly_type);
	if (PyModule_AddObject(m, "ReadOnlyDLPackBase", (PyObject*)&readonly_type) < 0) {
		Py_DECREF(&readonly_type);
		return -1;
	}
	if (publish(m, "EXCHANGE_API", &mxgo_array_base_type, &api_rw) < 0) return -1;
	return publish(m, "READ_ONLY_EXCHANGE_API", &readonly_type, &api_ro);
}
