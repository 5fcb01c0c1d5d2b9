package pybridge

// How Go reports errors to pybridge's C (errors.c raises them in Python).

/*
#include "bridge.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/cmem"
	"github.com/mxgo/mxgo/pkg/mxerr"
)

// fastResult reports err to C: -1 for success, otherwise the error's kind with a
// malloc'd message that C frees.
func fastResult(err error, msg **C.char) C.int {
	if err == nil {
		return -1
	}
	cmem.StorePtr(unsafe.Pointer(msg), unsafe.Pointer(C.CString(err.Error())))
	return C.int(mxerr.KindOf(err))
}

// fastGuard is guard for the C entry points.
func fastGuard(ret *C.int, msg **C.char) {
	var err error
	guard(&err)
	if err != nil {
		*ret = fastResult(err, msg)
	}
}
