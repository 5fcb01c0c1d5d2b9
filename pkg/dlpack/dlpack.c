// Allocation and deleters of mxgo's exported tensors. Deleters may run on any thread,
// with or without the GIL; they only free C memory and drop a Go reference.
#include <stdlib.h>
#include "dlpack.h"
#include "_cgo_export.h"

typedef struct {
	DLManagedTensor mt;
	uintptr_t handle;
	int64_t dims[]; // shape then strides
} legacy_block;

typedef struct {
	DLManagedTensorVersioned mt;
	uintptr_t handle;
	int64_t dims[];
} versioned_block;

static void legacy_deleter(DLManagedTensor* self) {
	legacy_block* b = (legacy_block*)self;
	uintptr_t h = b->handle;
	free(b);
	mxgoDLReleaseExport(h);
}

static void versioned_deleter(DLManagedTensorVersioned* self) {
	versioned_block* b = (versioned_block*)self;
	uintptr_t h = b->handle;
	free(b);
	mxgoDLReleaseExport(h);
}

DLManagedTensor* mxgo_dl_new_legacy(int32_t ndim, uintptr_t handle) {
	legacy_block* b = calloc(1, sizeof(legacy_block) + 2 * (size_t)ndim * sizeof(int64_t));
	if (!b) return NULL;
	b->handle = handle;
	b->mt.dl_tensor.ndim = ndim;
	b->mt.dl_tensor.shape = b->dims;
	b->mt.dl_tensor.strides = b->dims + ndim;
	b->mt.manager_ctx = b;
	b->mt.deleter = legacy_deleter;
	return &b->mt;
}

DLManagedTensorVersioned* mxgo_dl_new_versioned(int32_t ndim, uintptr_t handle) {
	versioned_block* b = calloc(1, sizeof(versioned_block) + 2 * (size_t)ndim * sizeof(int64_t));
	if (!b) return NULL;
	b->handle = handle;
	b->mt.version.major = MXGO_DLPACK_MAJOR;
	b->mt.version.minor = MXGO_DLPACK_MINOR;
	b->mt.dl_tensor.ndim = ndim;
	b->mt.dl_tensor.shape = b->dims;
	b->mt.dl_tensor.strides = b->dims + ndim;
	b->mt.manager_ctx = b;
	b->mt.deleter = versioned_deleter;
	return &b->mt;
}

uintptr_t mxgo_dl_own_legacy(DLManagedTensor* t) {
	return t->deleter == legacy_deleter ? ((legacy_block*)t)->handle : 0;
}

uintptr_t mxgo_dl_own_versioned(DLManagedTensorVersioned* t) {
	return t->deleter == versioned_deleter ? ((versioned_block*)t)->handle : 0;
}

void mxgo_dl_call_legacy_deleter(DLManagedTensor* t) {
	if (t->deleter) t->deleter(t);
}

void mxgo_dl_call_versioned_deleter(DLManagedTensorVersioned* t) {
	if (t->deleter) t->deleter(t);
}
