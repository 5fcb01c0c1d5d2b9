// Package proc knows two facts about mxgo's process that Go's runtime does not. The
// first, which C code must check before it enters Go: whether the process is a fork of
// the one that started Go's runtime.
//
// After fork() only the forking thread exists in the child. Go's runtime (its threads,
// locks, scheduler and garbage collector) did not come along, and Go does not support
// running in such a child: a call into Go there may hang forever. fork.c registers a
// pthread_atfork handler when the shared object is loaded; it sets mxgo_forked in every
// child (proc.h). mxgo's C code reads that flag before each call into Go and refuses
// instead (pybridge), or leaves to the child's exit what only Go could free (dlpack's
// deleters). Reading it costs one load on paths that then make a cgo call anyway.
//
// The second: the environment as it is now (Getenv).
package proc

/*
#cgo CFLAGS: -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion
#include <stdlib.h>
#include "proc.h"
*/
import "C"

import "unsafe"

// Getenv returns the environment variable name as the process has it now, "" when unset.
// Go's os.Getenv reads a copy of the environment made when the shared object was loaded,
// so it misses what Python put there before importing mxgo (os.environ["MXGO_..."] = ...,
// which calls putenv), as MXNet users set MXNET_ENGINE_TYPE.
func Getenv(name string) string {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.GoString(C.getenv(cname))
}
