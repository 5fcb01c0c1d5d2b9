// DLPack capsules, following the DLPack Python specification: a capsule named
// "dltensor" or "dltensor_versioned" owns its tensor; a consumer renames it to
// "used_..." and takes over calling the deleter; the producer's destructor calls the
// deleter only while the capsule still has its unused name.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "bridge.h"
#include "_cgo_export.h"

static const char* const LEGACY = "dltensor";
static const char* const VERSIONED = "dltensor_versioned";
static const char* const USED_LEGACY = "used_dltensor";
static const char* const USED_VERSIONED = "used_dltensor_versioned";

// Producer-side destructor of the capsules mxgo makes.
static void capsule_destructor(PyObject* cap) {
	// A consumer renamed the capsule (with its own string) and took the tensor over: the
	// name is no longer our pointer, and there is nothing to do, nor any strcmp to pay.
	const char* name = PyCapsule_GetName(cap); // cannot fail: cap is a live capsule
	if (name != LEGACY && name != VERSIONED) return;
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb); // a destructor must not clobber a pending error
	if (PyCapsule_IsValid(cap, LEGACY)) {
		DLManagedTensor* t = PyCapsule_GetPointer(cap, LEGACY);
		if (t->deleter) t->deleter(t);
	} else if (PyCapsule_IsValid(cap, VERSIONED)) {
		DLManagedTensorVersioned* t = PyCapsule_GetPointer(cap, VERSIONED);
		if (t->deleter) t->deleter(t);
	}
	PyErr_Restore(type, value, tb);
}

int mxgo_export_tensor(int64_t h, int versioned, uint64_t flags, int copy, int for_write, int64_t stream, int32_t to_type,
		int32_t to_id, void** mt) {
	if (mxgo_forked) { mxgo_raise_forked(); return -1; }
	*mt = NULL;
	char* msg = NULL;
	int kind;
	// An export must not overtake pending engine work on the array; waiting happens with
	// the GIL released, because engine work may need the GIL (foreign deleters).
	while ((kind = mxgoFastExport(h, versioned, flags, copy, for_write, stream, to_type, to_id, mt, &msg)) == MXGO_PENDING_WORK) {
		Py_BEGIN_ALLOW_THREADS
		kind = mxgoFastWait(h, for_write, &msg);
		Py_END_ALLOW_THREADS
		if (kind >= 0) break;
	}
	if (kind >= 0) { mxgo_raise(kind, msg); return -1; }
	return 0;
}

PyObject* mxgo_capsule(void* mt, int versioned) {
	PyObject* cap = PyCapsule_New(mt, versioned ? VERSIONED : LEGACY, capsule_destructor);
	if (!cap) {
		if (versioned) { DLManagedTensorVersioned* t = mt; t->deleter(t); }
		else { DLManagedTensor* t = mt; t->deleter(t); }
	}
	return cap;
}

// Owners of tensors imported in C: capsules under private names that call the deleter
// when the array (or, once it has one, its Go storage) lets go.
static const char* const OWNER_LEGACY = "mxgo.dltensor_owner";
static const char* const OWNER_VERSIONED = "mxgo.dltensor_versioned_owner";

static void owner_destructor(PyObject* cap) {
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb);
	if (PyCapsule_IsValid(cap, OWNER_LEGACY)) mxgo_dl_call_legacy_deleter(PyCapsule_GetPointer(cap, OWNER_LEGACY));
	else if (PyCapsule_IsValid(cap, OWNER_VERSIONED))
		mxgo_dl_call_versioned_deleter(PyCapsule_GetPointer(cap, OWNER_VERSIONED));
	PyErr_Restore(type, value, tb);
}

// import_plain makes an array of a foreign tensor that mxgo_dl_quick_check accepts, in C
// (Go adopts it on first use, as from_numpy's arrays); NotImplemented where Go must
// import: mxgo's own exports, newer major versions, anything the quick check declines.
static PyObject* import_plain(void* mt, int versioned) {
	DLTensor* t;
	uint64_t flags = 0;
	if (versioned) {
		DLManagedTensorVersioned* v = mt;
		if (v->deleter == mxgo_dl_versioned_deleter || v->version.major > MXGO_DLPACK_MAJOR) Py_RETURN_NOTIMPLEMENTED;
		t = &v->dl_tensor;
		flags = v->flags;
	} else {
		DLManagedTensor* l = mt;
		if (l->deleter == mxgo_dl_legacy_deleter) Py_RETURN_NOTIMPLEMENTED;
		t = &l->dl_tensor;
	}
	mxgo_dl_quick q;
	if (!mxgo_dl_quick_check(t, flags, &q)) Py_RETURN_NOTIMPLEMENTED;
	PyObject* owner = PyCapsule_New(mt, versioned ? OWNER_VERSIONED : OWNER_LEGACY, owner_destructor);
	if (!owner) {
		if (versioned) mxgo_dl_call_versioned_deleter(mt);
		else mxgo_dl_call_legacy_deleter(mt);
		return NULL;
	}
	mxgo_desc d; // shape and strides past ndim stay unset: zeroing them costs 1 KiB of stores
	d.src = (mxgo_dl_src){.dtype = q.dtype, .ndim = t->ndim, .writable = q.writable, .dev_type = MXGO_DEVICE_CPU,
		.dev_id = t->device.device_id, .data = (void*)q.first};
	for (int i = 0; i < t->ndim; i++) {
		d.shape[i] = t->shape[i];
		d.strides[i] = q.strides[i];
	}
	PyObject* out = mxgo_new_foreign_array(&d, owner);
	Py_DECREF(owner); // the array's now, or gone with the deleter when it failed
	return out;
}

// import_capsule(capsule) -> NDArray. Consumes the capsule, even when the tensor is
// refused (its deleter has then run).
PyObject* mxgo_import_capsule(PyObject* self, PyObject* cap) {
	if (!PyCapsule_CheckExact(cap)) {
		PyErr_Format(mxgo_error_class(MXGO_KIND_TYPE), "from_dlpack expects a DLPack capsule or an object with __dlpack__ and "
			"__dlpack_device__, got %.200s", Py_TYPE(cap)->tp_name);
		return NULL;
	}
	const char* name = PyCapsule_GetName(cap);
	if (!name && PyErr_Occurred()) return NULL;
	int versioned;
	if (name && strcmp(name, LEGACY) == 0) versioned = 0;
	else if (name && strcmp(name, VERSIONED) == 0) versioned = 1;
	else if (name && (strcmp(name, USED_LEGACY) == 0 || strcmp(name, USED_VERSIONED) == 0)) {
		PyErr_SetString(mxgo_error_class(MXGO_KIND_VALUE), "the DLPack capsule was already consumed: a capsule can be used only once");
		return NULL;
	} else {
		PyErr_Format(mxgo_error_class(MXGO_KIND_VALUE), "not a DLPack capsule: its name is %s%.100s%s, expected 'dltensor' or "
			"'dltensor_versioned'", name ? "'" : "", name ? name : "NULL", name ? "'" : "");
		return NULL;
	}
	void* mt = PyCapsule_GetPointer(cap, name);
	if (!mt) return NULL;
	if (PyCapsule_SetName(cap, versioned ? USED_VERSIONED : USED_LEGACY) < 0) return NULL;
	return mxgo_import_tensor(mt, versioned);
}

PyObject* mxgo_import_tensor(void* mt, int versioned) {
	PyObject* plain = import_plain(mt, versioned);
	if (plain != Py_NotImplemented) return plain;
	Py_DECREF(plain);
	if (mxgo_forked) { // consumed, as when Go refuses a tensor: its deleter runs now
		if (versioned) mxgo_dl_call_versioned_deleter(mt);
		else mxgo_dl_call_legacy_deleter(mt);
		return mxgo_raise_forked();
	}
	int64_t h = 0;
	mxgo_desc d;
	char* msg = NULL;
	int kind = mxgoFastImport(mt, versioned, &h, &d, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	return mxgo_new_array(h, &d);
}

// mxgo_import_stream returns, as a Python int, the stream a producer must order for an
// import onto gpu(id): mxgo's stream there. NULL with a BufferError saying why gpu(id)
// cannot be used.
PyObject* mxgo_import_stream(int32_t id) {
	int64_t s = 0;
	char* msg = NULL;
	int kind = mxgoCudaStream(id, &s, &msg);
	if (kind >= 0) return mxgo_raise(kind, msg);
	return PyLong_FromLongLong(s);
}

// import_stream(device_id) -> int: mxgo_import_stream for Python's from_dlpack.
PyObject* mxgo_import_stream_py(PyObject* self, PyObject* arg) {
	int overflow;
	long id = PyLong_Check(arg) ? PyLong_AsLongAndOverflow(arg, &overflow) : -1;
	if (PyErr_Occurred()) return NULL;
	if (!PyLong_Check(arg) || overflow || id < 0 || id > INT32_MAX)
		return PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "cannot import memory on GPU %R: not a device id", arg);
	return mxgo_import_stream((int32_t)id);
}

// dlpack_with_stream calls obj.__dlpack__(stream=stream, max_version=max_version), or
// obj.__dlpack__(stream=stream) for a producer that refuses max_version (the keyword
// arrived in 2023; stream is older).
static PyObject* dlpack_with_stream(PyObject* obj, PyObject* name, PyObject* stream, PyObject* max_version) {
	static PyObject *both, *one;
	if (!both && (!(both = Py_BuildValue("(ss)", "stream", "max_version")) || !(one = Py_BuildValue("(s)", "stream"))))
		return NULL;
	PyObject* args[3] = {obj, stream, max_version};
	PyObject* cap = PyObject_VectorcallMethod(name, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, both);
	if (!cap && PyErr_ExceptionMatches(PyExc_TypeError)) {
		PyErr_Clear();
		cap = PyObject_VectorcallMethod(name, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, one);
	}
	return cap;
}

// import_object(obj) -> NDArray, or NotImplemented: from_dlpack(obj) without keywords in
// one C call, for an object with __dlpack__. It checks __dlpack_device__, asks for a
// versioned capsule (max_version=(1, MINOR)), falls back to no keywords for producers
// that refuse them with TypeError, and consumes the capsule. When __dlpack_device__
// returns anything but a pair of Python ints it returns NotImplemented, and Python's
// from_dlpack, which checks more kinds of int, goes on from there. A plain NumPy array
// is viewed directly (numpy.c), with the result the capsule would have given.
PyObject* mxgo_import_object(PyObject* self, PyObject* obj) {
	static PyObject *device_name, *dlpack_name, *kwnames, *max_version;
	if (!max_version) {
		device_name = PyUnicode_InternFromString("__dlpack_device__");
		dlpack_name = PyUnicode_InternFromString("__dlpack__");
		kwnames = Py_BuildValue("(s)", "max_version");
		max_version = Py_BuildValue("(ii)", MXGO_DLPACK_MAJOR, MXGO_DLPACK_MINOR);
		if (!device_name || !dlpack_name || !kwnames || !max_version) return NULL;
	}
	PyObject* view = mxgo_numpy_view(obj); // NumPy's own arrays need no capsule
	if (view != Py_NotImplemented) return view;
	Py_DECREF(view);
	const DLPackExchangeAPI* api;
	if (mxgo_exchange_api_of(Py_TYPE(obj), &api) < 0) return NULL;
	if (api) return mxgo_exchange_import(api, obj);
	PyObject* dev = PyObject_CallMethodNoArgs(obj, device_name);
	if (!dev) return NULL;
	if (!PyTuple_Check(dev) || PyTuple_GET_SIZE(dev) != 2 || !PyLong_Check(PyTuple_GET_ITEM(dev, 0)) ||
			!PyLong_Check(PyTuple_GET_ITEM(dev, 1))) {
		Py_DECREF(dev);
		Py_RETURN_NOTIMPLEMENTED;
	}
	int overflow, id_overflow;
	long type = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(dev, 0), &overflow);
	long id = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(dev, 1), &id_overflow);
	int on_gpu = !overflow && !id_overflow && (type == MXGO_DEVICE_CUDA || type == MXGO_DEVICE_CUDA_MANAGED) &&
		id >= 0 && id <= INT32_MAX;
	if (!on_gpu && (overflow || (type != MXGO_DEVICE_CPU && type != MXGO_DEVICE_CUDA_HOST))) {
		if (!PyErr_Occurred())
			PyErr_Format(mxgo_error_class(MXGO_KIND_BUFFER), "mxgo cannot import memory on DLPack device %R (CPU, CUDA, "
				"CUDA host and CUDA managed memory: device types 1, 2, 3 and 13)", dev);
		Py_DECREF(dev);
		return NULL;
	}
	Py_DECREF(dev);
	PyObject* cap;
	if (on_gpu) {
		PyObject* stream = mxgo_import_stream((int32_t)id);
		if (!stream) return NULL;
		cap = dlpack_with_stream(obj, dlpack_name, stream, max_version);
		Py_DECREF(stream);
	} else {
		PyObject* args[2] = {obj, max_version};
		cap = PyObject_VectorcallMethod(dlpack_name, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
		if (!cap && PyErr_ExceptionMatches(PyExc_TypeError)) { // a producer older than the 2023 keywords
			PyErr_Clear();
			cap = PyObject_CallMethodNoArgs(obj, dlpack_name);
		}
	}
	if (!cap) return NULL;
	PyObject* out = mxgo_import_capsule(self, cap);
	Py_DECREF(cap);
	return out;
}
