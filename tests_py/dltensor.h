// DLPack's DLTensor for the tests' C programs (exchange_consumer.c, tvm_global_prog.c),
// written from the DLPack specification: the tests check mxgo against the ABI, not against
// a header mxgo shares.
#ifndef TESTS_DLTENSOR_H
#define TESTS_DLTENSOR_H
#include <stdint.h>

typedef struct { int32_t device_type, device_id; } Device;
typedef struct { uint8_t code, bits; uint16_t lanes; } DType;
typedef struct {
	void* data;
	Device device;
	int32_t ndim;
	DType dtype;
	int64_t* shape;
	int64_t* strides;
	uint64_t byte_offset;
} Tensor;

#endif
