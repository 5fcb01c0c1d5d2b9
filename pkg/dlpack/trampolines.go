package dlpack

// The C deleters in dlpack.c call back into Go through these exports. This file's
// preamble may only declare, never define (a cgo rule for files with //export).

/*
#include "dlpack.h"
*/
import "C"

//export mxgoDLReleaseExport
func mxgoDLReleaseExport(h C.uintptr_t) {
	releaseHandle(uintptr(h))
}
