package pybridge

/*
#include "bridge.h"
*/
import "C"

// Go side of tiny.c: the registry ids of the operators it computes, in the order of its
// enum (the arithmetic operators, then their scalar forms), so that C recognises a call
// without a string.
func init() {
	names := []string{"add", "subtract", "multiply", "divide"}
	for i, name := range names {
		C.mxgo_tiny_op[i] = C.int32_t(opID(name))
		C.mxgo_tiny_op[i+len(names)] = C.int32_t(opID("_" + name + "_scalar"))
	}
}

// opID is the id of the operator named name (its index in opTable); -1 for none.
func opID(name string) int {
	for i, op := range opTable() {
		if op.Name == name {
			return i
		}
	}
	return -1
}
