package dlpack

// The C deleters in dlpack.c call back into Go through these exports. This file's
// preamble may only declare, never define (a cgo rule for files with //export).

/*
#include "dlpack.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
	_ "github.com/mxgo/mxgo/pkg/proc" // dlpack.c reads mxgo_forked
)

// mxgoDLFinalizeStore runs when a deleter dropped a storage's last reference.
//
//export mxgoDLFinalizeStore
func mxgoDLFinalizeStore(s *C.mxgo_store) {
	ndarray.FinalizeHeader(unsafe.Pointer(s))
}
