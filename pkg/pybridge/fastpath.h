// Shared between fastpath.c and the Go exports it calls.
#ifndef MXGO_FASTPATH_H
#define MXGO_FASTPATH_H

#include <stdint.h>

#define MXGO_MAX_DIMS 64

// An array's description, filled by Go for describe().
typedef struct {
	int32_t dtype;
	int32_t ndim;
	int64_t shape[MXGO_MAX_DIMS];
	int64_t strides[MXGO_MAX_DIMS];
	int64_t offset;
	int32_t writable;
	int32_t dev_type;
	int32_t dev_id;
	uintptr_t data;
} mxgo_desc;

// Releases a buffer taken by from_buffer (takes the GIL).
void mxgo_release_buffer(void* view);

#endif
