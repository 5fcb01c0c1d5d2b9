// Allocation and deleters of mxgo's exported tensors. Deleters may run on any thread,
// with or without the GIL; they free C memory and drop a storage reference, calling Go
// only when that was the storage's last.
#include <stdlib.h>
#include <string.h>
#include "dlpack.h"
#include "_cgo_export.h"

char mxgo_dl_empty[256];
static int64_t live_exports;

int64_t mxgo_dl_live_exports(void) { return __atomic_load_n(&live_exports, __ATOMIC_RELAXED); }

static void release(mxgo_store* s) {
	__atomic_fetch_sub(&live_exports, 1, __ATOMIC_RELAXED);
	if (mxgo_store_drop(s)) mxgoDLFinalizeStore(s);
}

static void delete_legacy(DLManagedTensor* self) {
	mxgo_store* s = ((mxgo_dl_legacy_block*)self)->src.store;
	free(self);
	release(s);
}

static void delete_versioned(DLManagedTensorVersioned* self) {
	mxgo_store* s = ((mxgo_dl_versioned_block*)self)->src.store;
	free(self);
	release(s);
}

static void fill(DLTensor* t, int64_t* dims, const mxgo_dl_src* src, const int64_t* shape, const int64_t* strides) {
	int n = src->ndim;
	t->data = src->data ? src->data : mxgo_dl_empty;
	t->device.device_type = src->dev_type;
	t->device.device_id = src->dev_id;
	t->ndim = n;
	t->dtype.code = src->code;
	t->dtype.bits = src->bits;
	t->dtype.lanes = 1;
	t->shape = dims;
	t->strides = dims + n;
	t->byte_offset = 0; // folded into data: PyTorch ignores byte_offset
	if (n > 0) {
		memcpy(dims, shape, (size_t)n * sizeof(int64_t));
		memcpy(dims + n, strides, (size_t)n * sizeof(int64_t));
	}
}

void* mxgo_dl_export(const mxgo_dl_src* src, const int64_t* shape, const int64_t* strides, int versioned, uint64_t flags) {
	size_t dims = 2 * (size_t)src->ndim * sizeof(int64_t);
	void* out;
	if (versioned) {
		mxgo_dl_versioned_block* b = malloc(sizeof(mxgo_dl_versioned_block) + dims);
		if (!b) return NULL;
		b->src = *src;
		b->mt.version.major = MXGO_DLPACK_MAJOR;
		b->mt.version.minor = MXGO_DLPACK_MINOR;
		b->mt.manager_ctx = b;
		b->mt.deleter = delete_versioned;
		b->mt.flags = flags | (src->writable ? 0 : MXGO_DLPACK_FLAG_READ_ONLY);
		fill(&b->mt.dl_tensor, b->dims, src, shape, strides);
		out = b;
	} else {
		mxgo_dl_legacy_block* b = malloc(sizeof(mxgo_dl_legacy_block) + dims);
		if (!b) return NULL;
		b->src = *src;
		b->mt.manager_ctx = b;
		b->mt.deleter = delete_legacy;
		fill(&b->mt.dl_tensor, b->dims, src, shape, strides);
		out = b;
	}
	mxgo_store_retain(src->store);
	__atomic_fetch_add(&live_exports, 1, __ATOMIC_RELAXED);
	return out;
}

void (*const mxgo_dl_legacy_deleter)(DLManagedTensor*) = delete_legacy;
void (*const mxgo_dl_versioned_deleter)(DLManagedTensorVersioned*) = delete_versioned;

void mxgo_dl_call_legacy_deleter(DLManagedTensor* t) {
	if (t->deleter) t->deleter(t);
}

void mxgo_dl_call_versioned_deleter(DLManagedTensorVersioned* t) {
	if (t->deleter) t->deleter(t);
}
