// TVM-FFI's functions, found at run time in the library Python's tvm_ffi loaded, and the
// safe call through which TVM-FFI's callers reach mxgo's operators (global.go).
#include <dlfcn.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "tvmffi.h"
#include "../proc/proc.h"
#include "_cgo_export.h"

static struct {
	int (*call)(void*, mxgo_ffi_any*, int32_t, mxgo_ffi_any*);
	int (*inc_ref)(void*);
	int (*dec_ref)(void*);
	void (*move_from_raised)(void**);
	void (*set_raised_from_cstr)(const char*, const char*);
	int (*create)(void*, mxgo_ffi_safe_call, void (*)(void*), void**);
	int (*set_global)(const mxgo_ffi_bytes*, void*, int);
	int (*from_dlpack_versioned)(void*, int32_t, int32_t, void**);
} api;
static atomic_int loaded; // set once api is complete; read without a lock

static char* dup_n(const char* s, size_t n) {
	char* p = malloc(n + 1);
	if (p) {
		if (n) memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

static char* dup_s(const char* s) { return dup_n(s, strlen(s)); }

int mxgo_ffi_load(const char* path, char** err) {
	*err = NULL;
	if (atomic_load(&loaded)) return 0;
	void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (!lib) {
		const char* e = dlerror();
		*err = dup_s(e ? e : "dlopen failed: the library is not loaded in this process");
		return -1;
	}
	static const char* const names[] = {"TVMFFIFunctionCall", "TVMFFIObjectIncRef", "TVMFFIObjectDecRef",
		"TVMFFIErrorMoveFromRaised", "TVMFFIErrorSetRaisedFromCStr", "TVMFFIFunctionCreate",
		"TVMFFIFunctionSetGlobal", "TVMFFITensorFromDLPackVersioned"};
	void* syms[sizeof(names) / sizeof(names[0])];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(syms[i] = dlsym(lib, names[i]))) {
			size_t n = strlen(names[i]) + 64;
			if ((*err = malloc(n))) snprintf(*err, n, "libtvm_ffi has no symbol %s", names[i]);
			return -1; // the handle stays open: the library is Python's and stays loaded anyway
		}
	}
	memcpy(&api.call, &syms[0], sizeof(void*));
	memcpy(&api.inc_ref, &syms[1], sizeof(void*));
	memcpy(&api.dec_ref, &syms[2], sizeof(void*));
	memcpy(&api.move_from_raised, &syms[3], sizeof(void*));
	memcpy(&api.set_raised_from_cstr, &syms[4], sizeof(void*));
	memcpy(&api.create, &syms[5], sizeof(void*));
	memcpy(&api.set_global, &syms[6], sizeof(void*));
	memcpy(&api.from_dlpack_versioned, &syms[7], sizeof(void*));
	atomic_store(&loaded, 1);
	return 0;
}

int mxgo_ffi_loaded(void) { return atomic_load(&loaded); }

// The raised error as malloc'd kind and message; releases it.
static void take_raised(char** kind, char** msg) {
	void* e = NULL;
	api.move_from_raised(&e);
	mxgo_ffi_object* obj = e;
	if (obj && obj->type_index == MXGO_FFI_ERROR) {
		const mxgo_ffi_error_cell* cell = (const mxgo_ffi_error_cell*)(obj + 1);
		*kind = dup_n(cell->kind.data, cell->kind.size);
		*msg = dup_n(cell->message.data, cell->message.size);
	} else {
		*kind = dup_s("RuntimeError");
		*msg = dup_s("the function failed without raising an error");
	}
	if (e) api.dec_ref(e);
}

static void release_any(mxgo_ffi_any* a) {
	if (a->type_index >= MXGO_FFI_STATIC_OBJECT_BEGIN && a->v_ptr) api.dec_ref(a->v_ptr);
	a->type_index = MXGO_FFI_NONE;
}

int mxgo_ffi_call(void* f, mxgo_ffi_any* args, int32_t n, char** kind, char** msg) {
	mxgo_ffi_any result = {0};
	if (api.call(f, args, n, &result) != 0) {
		take_raised(kind, msg);
		return -1;
	}
	release_any(&result);
	return 0;
}

void mxgo_ffi_inc_ref(void* obj) { api.inc_ref(obj); }
void mxgo_ffi_dec_ref(void* obj) { api.dec_ref(obj); }

void mxgo_ffi_set_raised(const char* kind, const char* msg) { api.set_raised_from_cstr(kind, msg); }

static void* (*_Atomic gil_release)(void);
static void (*_Atomic gil_reacquire)(void*);

void mxgo_ffi_set_gil_hooks(void* (*release)(void), void (*reacquire)(void*)) {
	gil_reacquire = reacquire;
	gil_release = release;
}

static int safe_call(void* self, const mxgo_ffi_any* args, int32_t n, mxgo_ffi_any* result) {
	if (mxgo_forked) { // Go's runtime did not come along (pkg/proc): entering it could hang
		api.set_raised_from_cstr("RuntimeError", "mxgo cannot run in a forked child process");
		return -1;
	}
	void* (*release)(void) = gil_release;
	void* st = release ? release() : NULL;
	int r = mxgoFFIGlobalCall((uintptr_t)self, (mxgo_ffi_any*)args, n, result);
	if (st) gil_reacquire(st);
	return r; // the error, if any, is in this thread's TVM-FFI state, which the GIL does not touch
}

int mxgo_ffi_register(const char* name, size_t len, uintptr_t self, char** kind, char** msg) {
	void* f = NULL;
	if (api.create((void*)self, safe_call, NULL, &f) != 0) {
		take_raised(kind, msg);
		return -1;
	}
	mxgo_ffi_bytes b = {name, len};
	int r = api.set_global(&b, f, 1);
	if (r != 0) take_raised(kind, msg);
	api.dec_ref(f); // the global table holds its own reference
	return r ? -1 : 0;
}

int mxgo_ffi_tensor_from_dlpack(void* mt, void** out, char** kind, char** msg) {
	if (api.from_dlpack_versioned(mt, 0, 0, out) != 0) {
		take_raised(kind, msg);
		return -1;
	}
	return 0;
}
