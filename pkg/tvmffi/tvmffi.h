// TVM-FFI's C ABI, the part mxgo uses, written from the specification (tvm/ffi/c_api.h,
// apache-tvm-ffi 0.1): mxgo never includes TVM-FFI's headers and never links the
// library. ffi.c finds its functions at run time, in the libtvm_ffi.so that Python's
// tvm_ffi already loaded, so both share one instance (and one global function table).
#ifndef MXGO_TVMFFI_H
#define MXGO_TVMFFI_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "../dlpack/dlpack.h"

// Type indices (TVMFFITypeIndex). Go owns the copies it uses (any.go checks them).
#define MXGO_FFI_NONE 0
#define MXGO_FFI_INT 1
#define MXGO_FFI_BOOL 2
#define MXGO_FFI_FLOAT 3
#define MXGO_FFI_OPAQUE_PTR 4
#define MXGO_FFI_DLTENSOR_PTR 7
#define MXGO_FFI_RAW_STR 8
#define MXGO_FFI_SMALL_STR 11
#define MXGO_FFI_STATIC_OBJECT_BEGIN 64
#define MXGO_FFI_STR 65
#define MXGO_FFI_ERROR 67
#define MXGO_FFI_FUNCTION 68
#define MXGO_FFI_SHAPE 69
#define MXGO_FFI_TENSOR 70
#define MXGO_FFI_ARRAY 71

// TVMFFIAny: 16 bytes, a type index, 4 bytes of padding (a small string's length), and
// an 8-byte value.
typedef struct {
	int32_t type_index;
	uint32_t small_len; // zero except for small strings
	union {
		int64_t v_int64;
		double v_float64;
		void* v_ptr;
		char v_bytes[8];
		uint64_t v_uint64;
	};
} mxgo_ffi_any;

// TVMFFIObject: the 24-byte header of every object; an object's cell follows it (a
// Tensor's DLTensor, an Error's mxgo_ffi_error_cell, a Str's mxgo_ffi_bytes, ...).
typedef struct {
	uint64_t combined_ref_count;
	int32_t type_index;
	uint32_t padding;
	void (*deleter)(void* self, int flags);
} mxgo_ffi_object;

typedef struct {
	const char* data;
	size_t size;
} mxgo_ffi_bytes; // TVMFFIByteArray, and TVMFFIShapeCell with int64_t data

typedef struct {
	void* data; // mxgo_ffi_any elements of an Array
	int64_t size;
	int64_t capacity;
	void (*data_deleter)(void*);
} mxgo_ffi_seq_cell;

typedef struct {
	mxgo_ffi_bytes kind;
	mxgo_ffi_bytes message;
} mxgo_ffi_error_cell; // the first fields of TVMFFIErrorCell

// TVMFFISafeCallType.
typedef int (*mxgo_ffi_safe_call)(void* self, const mxgo_ffi_any* args, int32_t n, mxgo_ffi_any* result);

// Finds libtvm_ffi's functions in the already loaded library at path (dlopen with
// RTLD_NOLOAD: never a second copy). 0 on success (also when already done); otherwise a
// malloc'd message in *err.
int mxgo_ffi_load(const char* path, char** err);
int mxgo_ffi_loaded(void);

// Calls function f on n arguments and releases its result. On failure returns -1 and
// the raised error's kind and message, malloc'd, in *kind and *msg.
int mxgo_ffi_call(void* f, mxgo_ffi_any* args, int32_t n, char** kind, char** msg);

void mxgo_ffi_inc_ref(void* obj);
void mxgo_ffi_dec_ref(void* obj);

// Registers global function name (len bytes) that calls Go's mxgoFFIGlobalCall with
// self; 0 on success, else -1 with the error in *kind and *msg.
int mxgo_ffi_register(const char* name, size_t len, uintptr_t self, char** kind, char** msg);

// Hooks around a global function's work, set by the Python bridge: release lets go of
// the GIL when the calling thread holds it (returning what reacquire needs), so that
// other Python threads run while an operator computes for a caller that kept the GIL
// (tvm_ffi does for a Function with release_gil False). NULL (the default) does nothing.
void mxgo_ffi_set_gil_hooks(void* (*release)(void), void (*reacquire)(void*));

// Raises an error for the caller of a safe call (TVMFFIErrorSetRaisedFromCStr).
void mxgo_ffi_set_raised(const char* kind, const char* msg);

// A Tensor object owning mt (a DLManagedTensorVersioned), into *out. TVM-FFI takes mt
// only on success: on failure (-1, the error in *kind and *msg) the caller still owns it.
int mxgo_ffi_tensor_from_dlpack(void* mt, void** out, char** kind, char** msg);

#endif
