// Package proc knows one fact about mxgo's process that C code must check before it
// enters Go: whether the process is a fork of the one that started Go's runtime.
//
// After fork() only the forking thread exists in the child. Go's runtime (its threads,
// locks, scheduler and garbage collector) did not come along, and Go does not support
// running in such a child: a call into Go there may hang forever. fork.c registers a
// pthread_atfork handler when the shared object is loaded; it sets mxgo_forked in every
// child (proc.h). mxgo's C code reads that flag before each call into Go and refuses
// instead (pybridge), or leaves to the child's exit what only Go could free (dlpack's
// deleters). Reading it costs one load on paths that then make a cgo call anyway.
package proc

/*
#cgo CFLAGS: -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion
#include "proc.h"
*/
import "C"
