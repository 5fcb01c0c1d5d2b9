// pybridge's map: every function, type and variable its C files share with each other
// and with the Go files that export for them. Each C file has one job; where it calls
// Go, the Go file of the same name holds those exports.
//
//   module.c     the mxgo._fastpath module (its method table), set_array_class,
//                in_forked_child; the engine's busy count, which module.go mirrors
//   errors.c     exception classes by error kind, mxgo_raise, the forked-child error;
//                errors.go: how Go reports errors to C
//   arraytype.c  NDArrayBase: metadata, the DLPack methods, waits      (arraytype.go)
//   create.c     empty, fill, from_buffer                              (create.go)
//   capsule.c    DLPack capsules: exports, imports, destructors        (capsule.go)
//   invoke.c     operator calls                                        (invoke.go)
//   view.c       x[key]: basic indexing in one call to Go                (view.go)
//   tiny.c       arithmetic on tiny host arrays without Go                 (tiny.go)
//   autograd.c   the thread's autograd flags                           (autograd.go)
//   exchange.c   DLPack's C exchange API: mxgo's tables, and other types' (exchange.go)
//   numpy.c      from_numpy and NumPy views, without NumPy's headers
//   byteview.c   ByteView, the buffer that pickle hands out of band
//   callback.c   run_async's Python callables on engine threads       (callback.go)
//   tvm.c        the mxgo._tvm module: TVM-FFI bridge and global functions (tvm.go)
//
// The sections below the Py_PYTHON_H test need Python.h (the C files include it first);
// the Go files see only what is above it.
#ifndef MXGO_BRIDGE_H
#define MXGO_BRIDGE_H

#include <stdint.h>
#include "../dlpack/dlpack.h"
#include "../proc/proc.h"

// Go owns these facts (facts.go checks each copy here at compile time).
#define MXGO_PENDING_WORK (-2) // mxgoFastExport: wait (GIL released) and try again
#define MXGO_TAKE_OWNING (-3)  // mxgoFastInvoke: the result would view borrowed memory
#define MXGO_NKINDS 7          // mxerr.NumKinds: error kinds, each a Python exception class
#define MXGO_KIND_MXNET 0      // mxerr.MXNet
#define MXGO_KIND_VALUE 1      // mxerr.Value
#define MXGO_KIND_TYPE 2       // mxerr.Type
#define MXGO_KIND_BUFFER 4     // mxerr.Buffer

// An array: what its Python object and its exports share (mxgo_dl_src: the storage's C
// half, dtype, writability, first element, device, DLPack type, ndim), with its shape
// and strides. Go fills it (describe); C fills it for arrays it makes alone, with store
// NULL until Go adopts them. code and bits are always set from the dtype by C.
// C may pass it uninitialised: Go stores its pointers with cmem.StorePtr, never
// with a plain assignment, whose write barrier would read the garbage.
typedef struct {
	mxgo_dl_src src;
	int64_t shape[MXGO_MAX_DIMS];
	int64_t strides[MXGO_MAX_DIMS];
} mxgo_desc;

// What an operator call borrows from other frameworks (invoke.c fills it, Go's
// mxgoFastInvoke reads it): for each operand without a handle, its DLTensor in ts and
// what mxgo_dl_quick_check made of it (read only) in qs, where dtype is -1 when the check
// declined (Go's Borrow then judges it and says why); out likewise when it is foreign,
// NULL otherwise, with out_flags its export's READ_ONLY flag.
typedef struct {
	DLTensor* ts;
	mxgo_dl_quick* qs;
	DLTensor* out;
	mxgo_dl_quick* out_q;
	uint64_t out_flags;
} mxgo_borrowed;

// view.c's encoding of an index key for mxgoFastIndex: four int64 per component, the
// first its kind (ndarray.KeyKind) with the bits of the slice bounds given.
#define MXGO_KEY_INT 0
#define MXGO_KEY_SLICE 1
#define MXGO_KEY_NEWAXIS 2
#define MXGO_KEY_ELLIPSIS 3
#define MXGO_KEY_HAS_START 0x100
#define MXGO_KEY_HAS_STOP 0x200
#define MXGO_KEY_HAS_STEP 0x400
// view.c's replay of a view it made, for mxgoMaterializeView: {kind, mxnet, n, then the
// key's 4n int64 (MXGO_REPLAY_INDEX) or the shape's n (MXGO_REPLAY_RESHAPE)}.
#define MXGO_REPLAY_INDEX 0
#define MXGO_REPLAY_RESHAPE 1

// autograd.c: the calling thread's autograd flags (autograd.Mode), read by Go.
#define MXGO_AG_RECORDING 1
#define MXGO_AG_TRAINING 2
int mxgo_ag_mode(void);

// view.c: x[i] with i an integer array gathers with this operator (_gather_leading;
// view.go sets it) where i's dtype code has its bit in mxgo_gather_codes.
extern int32_t mxgo_gather_op;
extern uint64_t mxgo_gather_codes;

// The operators tiny.c computes (tiny.go fills the table): each its registry id, its
// operation, whether it is the scalar form (x op number), and whether its result is
// bool (mx.np's comparisons; mx.nd's give 1 or 0 in the operands' dtype). The
// operations from MXGO_TINY_SQRT on take one array (floats only: IEEE's exactly
// rounded operations, the bits of Go's kernels; from MXGO_TINY_EXP, float32 only,
// internal/simd's kernels, which give the Go kernels' bits); from MXGO_TINY_SUM on, they reduce it
// whole; MXGO_TINY_GATHER is x[i] (_gather_leading) of an integer array i, and
// MXGO_TINY_DOT the product of two float32 matrices.
#define MXGO_TINY_ADD 0
#define MXGO_TINY_SUBTRACT 1
#define MXGO_TINY_MULTIPLY 2
#define MXGO_TINY_DIVIDE 3
#define MXGO_TINY_EQUAL 4
#define MXGO_TINY_NOT_EQUAL 5
#define MXGO_TINY_GREATER 6
#define MXGO_TINY_GREATER_EQUAL 7
#define MXGO_TINY_LESS 8
#define MXGO_TINY_LESS_EQUAL 9
#define MXGO_TINY_SQRT 10
#define MXGO_TINY_ABS 11
#define MXGO_TINY_NEGATIVE 12
#define MXGO_TINY_SQUARE 13
#define MXGO_TINY_EXP 14
#define MXGO_TINY_SIGMOID 15
#define MXGO_TINY_TANH 16
#define MXGO_TINY_SUM 17
#define MXGO_TINY_MEAN 18
#define MXGO_TINY_MAX 19
#define MXGO_TINY_MIN 20
#define MXGO_TINY_GATHER 21
#define MXGO_TINY_DOT 22
#define MXGO_TINY_MOST 64
typedef struct {
	int32_t id;
	int8_t op, scalar, bool_out;
	int8_t ndim; // the reductions: their result's dimensions (mx.nd's (1,), mx.np's ())
} mxgo_tiny_entry;
// internal/simd's pairwise sums of float and double rows (double f(const T*, long)), the
// Go kernels' bits, which tiny.c's whole sums call; NULL where the CPU lacks AVX2.
typedef double (*mxgo_sum_f32_fn)(const float*, long);
typedef double (*mxgo_sum_f64_fn)(const double*, long);
extern mxgo_sum_f32_fn mxgo_tiny_sum_f32;
extern mxgo_sum_f64_fn mxgo_tiny_sum_f64;
// internal/simd's float32 exp, sigmoid and tanh (void f(int fn, float* dst, const float*
// src, long n), fn 0, 1, 2 in that order, any n and alignment), or NULL without AVX2.
typedef void (*mxgo_unary_f32_fn)(int, float*, const float*, long);
extern mxgo_unary_f32_fn mxgo_tiny_unary_f32;
// internal/simd's float32 product (gemm_f32.h's mxgo_sgemm, the Go path's bits) and the
// size of its work buffer in floats, or NULL without the kernels.
typedef void (*mxgo_sgemm_fn)(long, long, long, const float*, long, long, const float*, long, long, float*, long,
			      float*);
typedef long (*mxgo_sgemm_work_fn)(long, long, long);
extern mxgo_sgemm_fn mxgo_tiny_sgemm;
extern mxgo_sgemm_work_fn mxgo_tiny_sgemm_work;
extern mxgo_tiny_entry mxgo_tiny_ops[MXGO_TINY_MOST];
extern int32_t mxgo_tiny_count;
extern int32_t mxgo_tiny_bool; // the dtype code of bool

// The engine's busy count (engine.MirrorBusy; module.c): 0 when no operation is running
// and no error is held, so an export cannot have anything to wait for.
extern int64_t mxgo_engine_busy;

// create.c, called by Go: release a buffer taken by from_buffer, or the reference a
// materialised foreign array held to its owner (each takes the GIL).
void mxgo_release_buffer(void* view);
void mxgo_release_owner(void* owner);

// callback.c, called by Go on an engine thread: runs (run != 0) or discards (run == 0)
// the Python callable registered under id, taking the GIL only for that. Returns -1 on
// success, otherwise an mxerr.Kind with a malloc'd message in *msg that the caller
// frees. Never runs Python once the interpreter is finalizing (or after mxgo's exit
// hook): then it returns MXNetError's kind without taking the GIL.
// which is MXGO_RUN_ASYNC (run_async's callables) or MXGO_RUN_FUNCTION (the backward of
// an autograd.Function, function.go).
#define MXGO_RUN_ASYNC 0
#define MXGO_RUN_FUNCTION 1
int mxgo_run_callback(int which, int64_t id, int run, char** msg);

#ifdef Py_PYTHON_H
// Whether the interpreter is finalizing: public (Py_IsFinalizing) from CPython 3.13, which
// removed the private name earlier versions have.
#if PY_VERSION_HEX >= 0x030D0000
#define mxgo_finalizing() Py_IsFinalizing()
#else
#define mxgo_finalizing() _Py_IsFinalizing()
#endif

// ---- errors.c
// Raises MXNetError saying that mxgo cannot run in a forked child, and returns NULL. Every
// C path that would enter Go first does: if (mxgo_forked) return mxgo_raise_forked();
// What C does alone (imports of plain NumPy and DLPack memory, exports while the engine
// is idle, metadata) keeps working in the child.
PyObject* mxgo_raise_forked(void);
// Its message, which base.py's stubs of the gopy functions raise too.
extern const char mxgo_forked_message[];
// Raises the exception class registered for an mxerr.Kind with msg (which it frees).
PyObject* mxgo_raise(int kind, char* msg);
// The exception class registered for an mxerr.Kind (MXNetValueError, ...: each also the
// built-in exception), for C's own errors; the built-in one until Python registers them.
PyObject* mxgo_error_class(int kind);
PyObject* mxgo_set_error_classes(PyObject* self, PyObject* const* args, Py_ssize_t n);

// ---- arraytype.c
// The NDArray base type, and the Python subclass arrays are made as.
extern PyTypeObject mxgo_array_base_type;
extern PyTypeObject* mxgo_array_class;
// Makes an array object of the registered class owning handle h, described by d.
PyObject* mxgo_new_array(int64_t h, const mxgo_desc* d);
// mxgo_new_array with the array an instance of cls (a subclass of NDArrayBase: mx.np's).
PyObject* mxgo_new_array_of(PyTypeObject* cls, int64_t h, const mxgo_desc* d);
// Makes an array object viewing owner's memory, described by d (store NULL); Go makes
// its side when the array is first used by Go (materialize).
PyObject* mxgo_new_foreign_array(const mxgo_desc* d, PyObject* owner);
// The handle of NDArrayBase o into *h; TypeError naming what (an argument) otherwise.
int mxgo_array_handle(PyObject* o, const char* what, int64_t* h);
// The dtype code of mxgo array o (-1 when o is something else).
int mxgo_array_dtype(PyObject* o);
// The number of elements, and of axes, of NDArrayBase o.
int64_t mxgo_array_size(PyObject* o);
int mxgo_array_ndim(PyObject* o);
// The first byte and byte count of o, a C-contiguous host NDArrayBase; -1 with an
// exception (TypeError, BufferError) for anything else.
int mxgo_array_bytes(PyObject* o, void** data, Py_ssize_t* nbytes);
// For the exchange API, on an NDArrayBase o: an owning export as __dlpack__(max_version=
// (1, 3)) gives, or to_dlpack_for_read(max_version=(1, 3)) when read_only; and a
// non-owning view (shape and strides in a buffer o keeps), after the same engine wait.
// 0, or -1 with an exception.
int mxgo_array_to_tensor(PyObject* o, int read_only, DLManagedTensorVersioned** mt);
int mxgo_array_dltensor(PyObject* o, int read_only, DLTensor* t);
// Whether NDArrayBase o is writable.
int mxgo_array_writable(PyObject* o);
// An NDArrayBase that is C-contiguous in host memory (elements at data);
// mxgo_array_flat fills f and returns 1 for one, 0 for anything else.
typedef struct {
	PyObject* obj;
	void* data;
	int64_t size;
	int32_t dtype;
	int32_t writable;
} mxgo_flat;
int mxgo_array_flat(PyObject* o, mxgo_flat* f);
// Whether NDArrayBases x and y have one shape.
int mxgo_same_shape(PyObject* x, PyObject* y);
// A new contiguous writable array of cls with like's shape and dtype (or dtype, unless it
// is -1) over data, which owner's memory holds (the array keeps a reference); Go adopts it
// on first use. shape, unless NULL, is its shape (a tuple of ints) instead of like's.
PyObject* mxgo_new_flat_array(PyTypeObject* cls, PyObject* like, int32_t dtype, void* data, PyObject* owner, PyObject* shape);
// The shape tuple of an NDArrayBase (borrowed).
PyObject* mxgo_array_shape(PyObject* o);
// The layout of host NDArrayBase o for a view of it made in C: its shape then strides in
// dims (room for 2 * MXGO_MAX_DIMS), its first element, whether it is C-contiguous, and
// its ndim; -1 for an array not in host memory or without memory, -2 with an exception.
// A view made in C gets its Go side first: views are made in C of arrays Go knows.
int mxgo_array_layout(PyObject* o, int64_t* dims, void** data, int* contiguous);
// A view of base (an NDArrayBase) made in C, an instance of cls: ndim axes of shape and
// strides (elements) from data in base's memory, writable as base. Go makes its side on
// first use by replaying replay[0..replay_len) (view.c's encoding of the key or shape
// that made it, which the view copies) on base's (mxgoMaterializeView).
PyObject* mxgo_new_view(PyTypeObject* cls, PyObject* base, int ndim, const int64_t* shape, const int64_t* strides, void* data,
		const int64_t* replay, int replay_len);

// ---- view.c
// NDArrayBase's x[key]: basic keys in one call to Go (mxgoFastIndex), an integer array
// as one operator call (mxgo_invoke), the rest through the class's _getitem. set_np_class(cls) names the class indexed with NumPy's rules.
extern PyMappingMethods mxgo_array_as_mapping;
extern PySequenceMethods mxgo_array_as_sequence;
PyObject* mxgo_set_np_class(PyObject* self, PyObject* cls);
// NDArrayBase.reshape: shapes of exact ints in one call to Go, the rest through _reshape.
PyObject* mxgo_array_reshape(PyObject* x, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);
int mxgo_view_init(void);

// ---- tiny.c
// x op y for the arithmetic operators (and x op scalar for their scalar forms, attrs
// in their wire form, alen bytes) on tiny host arrays, in C (see tiny.c): the
// result (None when written into out), or NULL when it declined (the registry's path
// takes the call) or failed (an exception is set).
PyObject* mxgo_tiny_arith(long op_id, PyObject* arrays, const char* attrs, Py_ssize_t alen, PyObject* out, PyTypeObject* cls);

// ---- create.c (module functions)
PyObject* mxgo_from_buffer(PyObject* self, PyObject* const* args, Py_ssize_t n);
PyObject* mxgo_empty(PyObject* self, PyObject* const* args, Py_ssize_t n);
PyObject* mxgo_fill(PyObject* self, PyObject* const* args, Py_ssize_t n);

// ---- capsule.c
// Exports handle h as a tensor (legacy or versioned) into *mt, copying first when copy is
// set, after the array's pending writes (and reads too when for_write) are done: 0, or -1
// with an exception. stream: the consumer's CUDA stream for arrays in device memory (0:
// None, the legacy default stream; -1: no synchronisation; otherwise a CUstream); 0 for
// host arrays.
int mxgo_export_tensor(int64_t h, int versioned, uint64_t flags, int copy, int for_write, int64_t stream, int32_t to_type,
	int32_t to_id, void** mt);
// Imports a foreign (or mxgo's own) managed tensor as import_capsule does, consuming it:
// its deleter has run when this fails.
PyObject* mxgo_import_tensor(void* mt, int versioned);
// Wraps an mxgo export (from mxgo_dl_export or Go) in a capsule that owns it.
PyObject* mxgo_capsule(void* mt, int versioned);
// Module functions: import_capsule(capsule), import_object(obj).
PyObject* mxgo_import_capsule(PyObject* self, PyObject* cap);
PyObject* mxgo_import_object(PyObject* self, PyObject* obj);

// ---- exchange.c: DLPack's C exchange API
// The exchange API of type: *api NULL when it has none usable (no attribute, or no table
// of a major version mxgo speaks: then __dlpack__ serves); -1 with TypeError/ValueError
// for a malformed attribute. Cached per type.
int mxgo_exchange_api_of(PyTypeObject* type, const DLPackExchangeAPI** api);
// obj's owning export through api into *mt (with the GIL); -1 with an exception when the
// producer fails.
int mxgo_exchange_export(const DLPackExchangeAPI* api, PyObject* obj, DLManagedTensorVersioned** mt);
// The stream a producer must order for an import onto gpu(id) (capsule.c), as an int.
PyObject* mxgo_import_stream(int32_t id);
PyObject* mxgo_import_stream_py(PyObject* self, PyObject* arg);
// from_dlpack(obj) through api: an owning export imported as import_capsule does.
PyObject* mxgo_exchange_import(const DLPackExchangeAPI* api, PyObject* obj);
// Adds mxgo's tables to module m (EXCHANGE_API, READ_ONLY_EXCHANGE_API) and to NDArrayBase.
int mxgo_exchange_init(PyObject* m);
// Counts an operand invoke.c took through another type's table.
void mxgo_exchange_count_operand(void);
// Module function: exchange_counts() -> dict of calls to mxgo's tables, for tests.
PyObject* mxgo_exchange_counts(PyObject* self, PyObject* unused);

// ---- invoke.c (module function)
PyObject* mxgo_invoke(PyObject* self, PyObject* const* args, Py_ssize_t n);
PyObject* mxgo_invoke_all(PyObject* self, PyObject* const* args, Py_ssize_t n);

// autograd.c
PyObject* mxgo_autograd_set(PyObject* self, PyObject* const* args, Py_ssize_t n);
PyObject* mxgo_autograd_mode(PyObject* self, PyObject* unused);

// ---- numpy.c
// An NDArray viewing NumPy array obj as from_dlpack(obj) would, or NotImplemented.
PyObject* mxgo_numpy_view(PyObject* obj);
// Module functions.
PyObject* mxgo_set_numpy(PyObject* self, PyObject* const* args, Py_ssize_t n);
PyObject* mxgo_from_numpy(PyObject* self, PyObject* obj);
PyObject* mxgo_numpy_lock(PyObject* self, PyObject* arr);
PyObject* mxgo_numpy_locked(PyObject* self, PyObject* arr);
PyObject* mxgo_numpy_locks(PyObject* self, PyObject* unused);

// ---- byteview.c
extern PyTypeObject mxgo_byteview_type;
#endif

#endif
