package pybridge

/*
#include "bridge.h"
*/
import "C"

import "github.com/mxgo/mxgo/pkg/ndarray"

// Go side of tiny.c: the table of the operators it computes, by registry id, so that C
// recognises a call without a string: the arithmetic operators, mx.nd's comparisons (1 or
// 0 in the operands' dtype) and mx.np's (bool), each with its scalar form.
func init() {
	ops := []struct {
		names   []string
		first   int      // the C operation of names[0]; the rest follow in order
		boolOut C.int8_t // 1: the result is bool
	}{
		{[]string{"add", "subtract", "multiply", "divide"}, C.MXGO_TINY_ADD, 0},
		{[]string{"equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal"}, C.MXGO_TINY_EQUAL, 0},
		{[]string{"_npi_equal", "_npi_not_equal", "_npi_greater", "_npi_greater_equal", "_npi_less", "_npi_less_equal"},
			C.MXGO_TINY_EQUAL, 1},
	}
	n := 0
	for _, group := range ops {
		for i, name := range group.names {
			id := opID(name)
			for scalar, op := range []int{id, opID(opTable()[id].ScalarOp)} {
				C.mxgo_tiny_ops[n] = C.mxgo_tiny_entry{id: C.int32_t(op), op: C.int8_t(group.first + i),
					scalar: C.int8_t(scalar), bool_out: group.boolOut}
				n++
			}
		}
	}
	C.mxgo_tiny_count = C.int32_t(n)
	C.mxgo_tiny_bool = C.int32_t(ndarray.Bool)
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
