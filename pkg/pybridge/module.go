package pybridge

// Go side of module.c: state the C files share with Go.

/*
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
