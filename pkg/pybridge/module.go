package pybridge

// Go side of module.c: state the C files share with Go.

/*
// Warnings that hide ABI bugs are errors for every C file of the package (an
// undeclared function compiled against Python 3.13 once built and failed at import).
// gopy builds with -ffast-math, under which tiny.c's division could be a reciprocal
// times the dividend: IEEE arithmetic, as Go's kernels compute, for every C file.
#cgo CFLAGS: -fno-fast-math -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion
#include "bridge.h"
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"
	_ "github.com/mxgo/mxgo/pkg/proc" // the C files read mxgo_forked before entering Go
)

func init() {
	ops.Engine().MirrorBusy((*atomic.Int64)(unsafe.Pointer(&C.mxgo_engine_busy)))
}
