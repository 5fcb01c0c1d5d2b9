// The DLPack ABI (v1.3), written from the specification for mxgo. Only the layout
// matters for compatibility: field order, types and sizes follow dlpack.h exactly.
#ifndef MXGO_DLPACK_H
#define MXGO_DLPACK_H

#include <stdint.h>

#define MXGO_DLPACK_MAJOR 1
#define MXGO_DLPACK_MINOR 3

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

// mxgo's exports: one C block holds the managed tensor, the Go handle of the exported
// view, and the shape and strides arrays.
DLManagedTensor* mxgo_dl_new_legacy(int32_t ndim, uintptr_t handle);
DLManagedTensorVersioned* mxgo_dl_new_versioned(int32_t ndim, uintptr_t handle);

// For a tensor mxgo exported (recognised by its deleter), the Go handle of the exported
// view; 0 for any other tensor.
uintptr_t mxgo_dl_own_legacy(DLManagedTensor* t);
uintptr_t mxgo_dl_own_versioned(DLManagedTensorVersioned* t);

// Calls a foreign tensor's deleter, if it has one.
void mxgo_dl_call_legacy_deleter(DLManagedTensor* t);
void mxgo_dl_call_versioned_deleter(DLManagedTensorVersioned* t);

#endif
