// A C program calling mxgo's operators through TVM-FFI's global function table, as any C
// caller would: test_tvm_global.py compiles and runs it. It embeds CPython only to
// `import mxgo.tvm_bridge` (which registers "mxgo.nd.*"), releases the GIL, and from a
// pthread finds the functions with TVMFFIFunctionGetGlobal and calls them with
// TVMFFIFunctionCall on DLTensor* arguments over its own malloc'd buffers. TVM-FFI's
// symbols come from the libtvm_ffi.so that tvm_ffi loaded (RTLD_GLOBAL): the program
// neither links nor includes it; the few declarations below follow its C ABI.
// Prints "ok" and exits 0 when every check passes.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dltensor.h"
typedef struct {
	int32_t type_index;
	uint32_t pad;
	union { int64_t i; double f; void* p; };
} Any;
typedef struct { const char* data; size_t size; } Bytes;
typedef struct { uint64_t refs; int32_t type_index; uint32_t pad; void* deleter; } Header;
typedef struct { Header h; Bytes kind, message; } ErrorObj;
typedef struct { Header h; Tensor t; } TensorObj;

enum { NONE = 0, INT = 1, DLTENSOR_PTR = 7, ERROR = 67, TENSOR = 70 };

static int (*get_global)(const Bytes*, void**);
static int (*call)(void*, Any*, int32_t, Any*);
static void (*move_from_raised)(void**);
static int (*dec_ref)(void*);

#define N 1000
#define CHECK(c, ...) do { if (!(c)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

static Any tensor_arg(Tensor* t) { Any a = {DLTENSOR_PTR, 0, {.p = t}}; return a; }

static void* lookup(const char* name) {
	Bytes b = {name, strlen(name)};
	void* f = NULL;
	return get_global(&b, &f) == 0 ? f : NULL;
}

static int run(void) {
	void* add = lookup("mxgo.nd.add");
	void* sum = lookup("mxgo.nd.sum");
	CHECK(add && sum, "mxgo.nd.add or mxgo.nd.sum is not registered");
	float* a = malloc(N * sizeof(float));
	float* b = malloc(N * sizeof(float));
	float* c = malloc(N * sizeof(float));
	for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f, c[i] = -1;
	int64_t shape[1] = {N}, short_shape[1] = {N - 1};
	Tensor ta = {a, {1, 0}, 1, {2, 32, 1}, shape, NULL, 0};
	Tensor tb = ta, tc = ta, tshort = ta;
	tb.data = b;
	tc.data = c;
	tshort.shape = short_shape;

	// add(a, b, out=c): into the caller's memory.
	Any args[3] = {tensor_arg(&ta), tensor_arg(&tb), tensor_arg(&tc)};
	Any res = {NONE, 0, {0}};
	CHECK(call(add, args, 3, &res) == 0, "add(a, b, c) failed");
	CHECK(res.type_index == NONE, "add with out returned type %d", res.type_index);
	for (int i = 0; i < N; i++) CHECK(c[i] == i + 0.5f, "c[%d] = %g", i, c[i]);

	// sum(a) with out None: a new Tensor object owning mxgo's memory.
	Any sargs[2] = {tensor_arg(&ta), {NONE, 0, {0}}};
	CHECK(call(sum, sargs, 2, &res) == 0, "sum(a) failed");
	CHECK(res.type_index == TENSOR, "sum returned type %d", res.type_index);
	TensorObj* r = res.p;
	CHECK(r->t.ndim == 0 || (r->t.ndim == 1 && r->t.shape[0] == 1), "sum's result has ndim %d", r->t.ndim);
	CHECK(*(float*)r->t.data == N * (N - 1) / 2.0f, "sum = %g", *(float*)r->t.data);
	dec_ref(res.p);

	// A shape mismatch raises ValueError for the caller, and leaves c alone.
	Any bad[3] = {tensor_arg(&ta), tensor_arg(&tshort), tensor_arg(&tc)};
	res.type_index = NONE;
	CHECK(call(add, bad, 3, &res) != 0, "add of mismatched shapes succeeded");
	void* err = NULL;
	move_from_raised(&err);
	CHECK(err && ((Header*)err)->type_index == ERROR, "no error object was raised");
	ErrorObj* e = err;
	CHECK(e->kind.size == 10 && memcmp(e->kind.data, "ValueError", 10) == 0, "error kind %.*s", (int)e->kind.size,
		e->kind.data);
	dec_ref(err);
	for (int i = 0; i < N; i++) CHECK(c[i] == i + 0.5f, "c[%d] changed to %g", i, c[i]);
	free(a);
	free(b);
	free(c);
	return 0;
}

static void* thread_main(void* status) {
	*(int*)status = run();
	return NULL;
}

int main(void) {
	Py_Initialize();
	if (PyRun_SimpleString("import mxgo.tvm_bridge") != 0) return 2;
	get_global = dlsym(RTLD_DEFAULT, "TVMFFIFunctionGetGlobal");
	call = dlsym(RTLD_DEFAULT, "TVMFFIFunctionCall");
	move_from_raised = dlsym(RTLD_DEFAULT, "TVMFFIErrorMoveFromRaised");
	dec_ref = dlsym(RTLD_DEFAULT, "TVMFFIObjectDecRef");
	if (!get_global || !call || !move_from_raised || !dec_ref) {
		fprintf(stderr, "TVM-FFI's symbols are not loaded\n");
		return 3;
	}
	PyThreadState* st = PyEval_SaveThread(); // the pthread runs without the GIL
	pthread_t t;
	int status = 1;
	if (pthread_create(&t, NULL, thread_main, &status) != 0) return 4;
	pthread_join(t, NULL);
	PyEval_RestoreThread(st);
	if (Py_FinalizeEx() < 0) return 5;
	if (status == 0) printf("ok\n");
	return status;
}
