// Allocation and deleters of mxgo's exported tensors. Deleters may run on any thread,
// with or without the GIL; they free C memory and drop a storage reference, calling Go
// only when that was the storage's last, and never in a forked child (../proc), where Go
// cannot run: the child's exit frees that memory.
#include <stdlib.h>
#include <string.h>
#include "dlpack.h"
#include "../proc/proc.h"
#include "_cgo_export.h"

char mxgo_dl_empty[256];
static int64_t live_exports;

int64_t mxgo_dl_live_exports(void) { return __atomic_load_n(&live_exports, __ATOMIC_RELAXED); }

static void release(mxgo_store* s) {
	__atomic_fetch_sub(&live_exports, 1, __ATOMIC_RELAXED);
	if (mxgo_store_drop(s) && !mxgo_forked) mxgoDLFinalizeStore(s);
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

// An array with no elements exports the compact strides, prod(shape[i+1:]): (0, 1) for
// shape (2, 0), where mxgo's layouts (as NumPy's and PyTorch's) carry (1, 1). Any strides
// describe an empty tensor, but MXNet 1.x checks strides[i] == shape[i+1] * strides[i+1]
// and refuses every other tensor ("only support compact tensor").
static void compact_if_empty(const int64_t* shape, int64_t* strides, int n) {
	int empty = 0;
	for (int i = 0; i < n; i++) empty |= shape[i] == 0;
	if (!empty) return;
	int64_t acc = 1;
	for (int i = n - 1; i >= 0; i--) {
		strides[i] = acc;
		acc *= shape[i];
	}
}

void mxgo_dl_fill(DLTensor* t, int64_t* dims, const mxgo_dl_src* src, const int64_t* shape, const int64_t* strides) {
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
		compact_if_empty(dims, dims + n, n);
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
		mxgo_dl_fill(&b->mt.dl_tensor, b->dims, src, shape, strides);
		out = b;
	} else {
		mxgo_dl_legacy_block* b = malloc(sizeof(mxgo_dl_legacy_block) + dims);
		if (!b) return NULL;
		b->src = *src;
		b->mt.manager_ctx = b;
		b->mt.deleter = delete_legacy;
		mxgo_dl_fill(&b->mt.dl_tensor, b->dims, src, shape, strides);
		out = b;
	}
	mxgo_store_retain(src->store);
	__atomic_fetch_add(&live_exports, 1, __ATOMIC_RELAXED);
	return out;
}

void (*const mxgo_dl_legacy_deleter)(DLManagedTensor*) = delete_legacy;
void (*const mxgo_dl_versioned_deleter)(DLManagedTensorVersioned*) = delete_versioned;

int8_t mxgo_dl_dtype_of[8][129];
DLDataType mxgo_dl_type_of[32];

// Bounds that keep every product and sum below in int64 without overflow checks per step:
// |stride| * (dim - 1) < 2^62 / 64 for each of at most 64 dimensions.
#define QUICK_MAX_DIM (1LL << 31)
#define QUICK_MAX_STRIDE (1LL << 27)

int mxgo_dl_quick_check(const DLTensor* t, uint64_t flags, mxgo_dl_quick* q) {
	int n = t->ndim;
	if (t->device.device_type != MXGO_DEVICE_CPU || n < 1 || n > MXGO_MAX_DIMS || t->dtype.lanes != 1 || t->dtype.code > 7 ||
			t->dtype.bits > 128 || !t->shape || !t->data || t->byte_offset > (1ULL << 40))
		return 0;
	int dt = mxgo_dl_dtype_of[t->dtype.code][t->dtype.bits] - 1;
	if (dt < 0) return 0;
	int64_t size = t->dtype.bits == 1 ? 1 : t->dtype.bits / 8, count = 1, lo = 0, hi = 0, acc = 1;
	for (int i = n - 1; i >= 0; i--) {
		int64_t d = t->shape[i];
		if (d < 1 || d >= QUICK_MAX_DIM || __builtin_mul_overflow(count, d, &count) || count >= QUICK_MAX_DIM)
			return 0; // empty arrays, and counts past 2^31 elements, go to Go
		int64_t s = t->strides ? t->strides[i] : acc;
		if (s <= -QUICK_MAX_STRIDE || s >= QUICK_MAX_STRIDE) return 0;
		q->strides[i] = s;
		if (d > 1) {
			if (s < 0) lo += s * (d - 1);
			else hi += s * (d - 1);
			acc *= d;
		}
	}
	uintptr_t first = (uintptr_t)t->data + t->byte_offset;
	uint64_t back = (uint64_t)(-lo) * size, ahead = (uint64_t)(hi + 1) * size;
	if (first < (uintptr_t)t->data || first < back || first > UINTPTR_MAX - ahead)
		return 0;
	q->dtype = dt;
	q->writable = !(flags & MXGO_DLPACK_FLAG_READ_ONLY);
	q->first = first;
	q->lo = lo;
	q->span = hi - lo + 1;
	return 1;
}

void mxgo_dl_call_legacy_deleter(DLManagedTensor* t) {
	if (t->deleter) t->deleter(t);
}

void mxgo_dl_call_versioned_deleter(DLManagedTensorVersioned* t) {
	if (t->deleter) t->deleter(t);
}
