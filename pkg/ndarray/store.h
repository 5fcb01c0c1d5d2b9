// The C half of an mxgo storage: its reference count, in C memory so that C code (DLPack
// exports and their deleters) can take and drop references without calling Go. Go
// enters only when the last reference goes (mxgo_store_drop returns 1).
#ifndef MXGO_STORE_H
#define MXGO_STORE_H

#include <stdint.h>

typedef struct {
	int64_t refs;  // arrays and exports holding the storage (atomic)
	uint32_t slot; // the storage's index in Go's storage table
	uint32_t _pad;
} mxgo_store;

static inline void mxgo_store_retain(mxgo_store* s) {
	__atomic_fetch_add(&s->refs, 1, __ATOMIC_RELAXED);
}

// Drops a reference; 1 when it was the last, and Go must finalise slot s->slot.
static inline int mxgo_store_drop(mxgo_store* s) {
	return __atomic_fetch_sub(&s->refs, 1, __ATOMIC_ACQ_REL) == 1;
}

#endif
