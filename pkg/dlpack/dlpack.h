// The DLPack ABI (v1.3), written from the specification for mxgo. Only the layout
// matters for compatibility: field order, types and sizes follow dlpack.h exactly.
#ifndef MXGO_DLPACK_H
#define MXGO_DLPACK_H

#include <stdint.h>
#include "../ndarray/store.h"

// Go owns these facts (facts.go checks each copy here at compile time).
#define MXGO_DLPACK_MAJOR 1
#define MXGO_DLPACK_MINOR 3
#define MXGO_MAX_DIMS 64   // ndarray.MaxDims
#define MXGO_DEVICE_CPU 1  // device.CPU, DLPack's kDLCPU
#define MXGO_DEVICE_CUDA 2 // device.CUDA, DLPack's kDLCUDA
#define MXGO_DEVICE_CUDA_HOST 3     // device.CUDAHost, kDLCUDAHost: page-locked host memory
#define MXGO_DEVICE_CUDA_MANAGED 13 // device.CUDAManaged, kDLCUDAManaged

#define MXGO_DLPACK_FLAG_READ_ONLY (1ULL << 0)
#define MXGO_DLPACK_FLAG_IS_COPIED (1ULL << 1)
#define MXGO_DLPACK_FLAG_IS_SUBBYTE_TYPE_PADDED (1ULL << 2)

typedef struct { uint32_t major; uint32_t minor; } DLPackVersion;
typedef struct { int32_t device_type; int32_t device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;

typedef struct {
	void* data;
	DLDevice device;
	int32_t ndim;
	DLDataType dtype;
	int64_t* shape;
	int64_t* strides;
	uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
	DLTensor dl_tensor;
	void* manager_ctx;
	void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

typedef struct DLManagedTensorVersioned {
	DLPackVersion version;
	void* manager_ctx;
	void (*deleter)(struct DLManagedTensorVersioned* self);
	uint64_t flags;
	DLTensor dl_tensor;
} DLManagedTensorVersioned;

// DLPack 1.3's C exchange API: a producer's Python type carries, as the attribute
// __dlpack_c_exchange_api__, a PyCapsule named "dlpack_exchange_api" pointing to a table
// that lives as long as the process. A consumer checks header.version.major and may walk
// prev_api to an older table. Each function returns 0 on success; on failure -1 with a
// Python exception set (the allocator reports through SetError instead). py_object
// arguments are PyObject*, void* here so that this header needs no Python.h.
typedef struct DLPackExchangeAPIHeader {
	DLPackVersion version;
	struct DLPackExchangeAPIHeader* prev_api;
} DLPackExchangeAPIHeader;

typedef struct DLPackExchangeAPI {
	DLPackExchangeAPIHeader header;
	// A new owning tensor like prototype (dtype, ndim, shape, device only); SetError is
	// called exactly when it fails.
	int (*managed_tensor_allocator)(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
		void (*SetError)(void* error_ctx, const char* kind, const char* message));
	// What __dlpack__(max_version=(1, x)) gives, without stream synchronisation.
	int (*managed_tensor_from_py_object_no_sync)(void* py_object, DLManagedTensorVersioned** out);
	// The producer's Python array for an owning tensor, whose ownership it steals.
	int (*managed_tensor_to_py_object_no_sync)(DLManagedTensorVersioned* tensor, void** out_py_object);
	// A non-owning view, valid while py_object lives and is unchanged; may be NULL.
	int (*dltensor_from_py_object_no_sync)(void* py_object, DLTensor* out);
	// The stream to work on for a device (NULL on CPU).
	int (*current_work_stream)(int32_t device_type, int32_t device_id, void** out_current_stream);
} DLPackExchangeAPI;

// mxgo's exports. One C block holds the managed tensor, what a re-import needs, and the
// shape and strides arrays. The block holds a reference to the exported storage through
// its C half (mxgo_store), so exporting and deleting are C only: Go is entered when a
// deleter drops a storage's last reference.

// What is exported: the storage's C half, mxgo's dtype code and writability (for
// re-import), and the DLTensor fields. Shape and strides are passed separately (Go
// passes its own slices, which a struct given to C may not hold).
typedef struct {
	mxgo_store* store;
	int32_t dtype;
	int32_t writable;
	void* data; // the first element; NULL for an empty storage without memory
	int32_t dev_type;
	int32_t dev_id;
	uint8_t code;
	uint8_t bits;
	int32_t ndim;
} mxgo_dl_src;

// Exports src as a DLManagedTensorVersioned (versioned; READ_ONLY is added when src is not
// writable) or a DLManagedTensor, taking a reference to src->store; NULL when out of memory.
void* mxgo_dl_export(const mxgo_dl_src* src, const int64_t* shape, const int64_t* strides, int versioned, uint64_t flags);

// Fills t as an export of src does (data never NULL, byte_offset 0, compact strides for
// empty tensors), with shape then strides copied into dims (room for 2 * src->ndim).
void mxgo_dl_fill(DLTensor* t, int64_t* dims, const mxgo_dl_src* src, const int64_t* shape, const int64_t* strides);

// The blocks of mxgo's exports: the managed tensor first, so a deleter can cast its
// argument back to the block.
typedef struct {
	DLManagedTensor mt;
	mxgo_dl_src src; // what was exported; shape and strides are in dims
	int64_t dims[];  // shape then strides
} mxgo_dl_legacy_block;

typedef struct {
	DLManagedTensorVersioned mt;
	mxgo_dl_src src;
	int64_t dims[];
} mxgo_dl_versioned_block;

// The deleters of mxgo's exports, by which an import recognises its own (in Go, without
// a cgo call).
extern void (*const mxgo_dl_legacy_deleter)(DLManagedTensor*);
extern void (*const mxgo_dl_versioned_deleter)(DLManagedTensorVersioned*);

// The number of mxgo exports whose deleter has not run.
int64_t mxgo_dl_live_exports(void);

// What an export of an empty storage without memory points at: some consumers reject
// NULL data even where the standard allows it.
extern char mxgo_dl_empty[256];

// A foreign tensor that mxgo_dl_quick_check accepted: its mxgo dtype, writability, the
// address of its first element, its strides in elements (given or contiguous), and the
// elements it spans: from lo (<= 0, relative to first) for span elements.
typedef struct {
	int32_t dtype;
	int32_t writable;
	uintptr_t first;
	int64_t lo, span;
	int64_t strides[MXGO_MAX_DIMS];
} mxgo_dl_quick;

// Accepts the plain tensors most producers make (CPU; a dtype mxgo has; 1 to 64
// dimensions; elements, extents and addresses far from overflow; any alignment) and fills q;
// returns 0 for anything else, which Go's Validate then judges and explains. Whatever it
// accepts, Validate accepts with the same layout (FuzzValidate checks), so C can make
// the array now and Go can adopt it later.
int mxgo_dl_quick_check(const DLTensor* t, uint64_t flags, mxgo_dl_quick* q);

// mxgo dtype + 1 by DLPack (code, bits), 0 for none; and the DLPack type of each mxgo
// dtype (lanes 1). Filled by Go at init from TypeOf.
extern int8_t mxgo_dl_dtype_of[8][129];
extern DLDataType mxgo_dl_type_of[32];

// Calls a foreign tensor's deleter, if it has one.
void mxgo_dl_call_legacy_deleter(DLManagedTensor* t);
void mxgo_dl_call_versioned_deleter(DLManagedTensorVersioned* t);

#endif
