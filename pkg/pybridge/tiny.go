package pybridge

/*
#include "bridge.h"
*/
import "C"

import (
	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Go side of tiny.c: the table of the operators it computes, by registry id, so that C
// recognises a call without a string: the arithmetic operators, mx.nd's comparisons (1 or
// 0 in the operands' dtype) and mx.np's (bool), each with its scalar form, and the unary
// sqrt, abs, negative and square (mx.nd's and mx.np's: the same operators), float32's
// exp, sigmoid and tanh, and the whole
// sum, mean, max and min (mx.nd's and mx.np's _np_ forms), x[i]'s gather, and dot of
// float32 matrices.
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
	add := func(id, op, scalar int, boolOut, ndim C.int8_t) {
		C.mxgo_tiny_ops[n] = C.mxgo_tiny_entry{id: C.int32_t(id), op: C.int8_t(op), scalar: C.int8_t(scalar), bool_out: boolOut, ndim: ndim}
		n++
	}
	for i, name := range []string{"sum", "mean", "max", "min"} {
		add(opID("_np_"+name), C.MXGO_TINY_SUM+i, 0, 0, 0) // mx.np's 0-d result
		add(opID(name), C.MXGO_TINY_SUM+i, 0, 0, 1)        // mx.nd's (1,)
	}
	add(opID("_gather_leading"), C.MXGO_TINY_GATHER, 0, 0, 0)
	if gemm, work := simd.SgemmCFuncs(); gemm != nil {
		C.mxgo_tiny_sgemm, C.mxgo_tiny_sgemm_work = C.mxgo_sgemm_fn(gemm), C.mxgo_sgemm_work_fn(work)
		add(opID("dot"), C.MXGO_TINY_DOT, 0, 0, 0)
	}
	if f32, f64 := simd.SumCFuncs(); f32 != nil {
		C.mxgo_tiny_sum_f32, C.mxgo_tiny_sum_f64 = C.mxgo_sum_f32_fn(f32), C.mxgo_sum_f64_fn(f64)
	}
	for _, group := range ops {
		for i, name := range group.names {
			id := opID(name)
			add(id, group.first+i, 0, group.boolOut, 0)
			add(opID(opTable()[id].ScalarOp), group.first+i, 1, group.boolOut, 0)
		}
	}
	for i, name := range []string{"sqrt", "abs", "negative", "square"} {
		add(opID(name), C.MXGO_TINY_SQRT+i, 0, 0, 0)
	}
	if f := simd.Unary32CFunc(); f != nil {
		C.mxgo_tiny_unary_f32 = C.mxgo_unary_f32_fn(f)
		for i, name := range []string{"exp", "sigmoid", "tanh"} {
			add(opID(name), C.MXGO_TINY_EXP+i, 0, 0, 0)
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
