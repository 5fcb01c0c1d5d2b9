package simd

/*
#include "par.h"
*/
import "C"

import "unsafe"

// The helper threads of par.c also run loops of Go code: the loop's owner claims the pool,
// offers runner calls to helpers and releases the pool when its loop is done (par.h).

// SetPoolRunner sets the function (a cgo export taking no arguments) that a helper calls
// to join the current Go loop. Set once, before any offer.
func SetPoolRunner(runner unsafe.Pointer) { C.mxgo_par_set_runner((*[0]byte)(runner)) }

// ClaimPool takes the pool and reports true, or reports false when another loop or C
// kernel holds it.
func ClaimPool() bool { return C.mxgo_par_claim() != 0 }

// OfferPool has up to helpers helper threads (started as needed) call the runner once.
func OfferPool(helpers int) { C.mxgo_par_offer(C.long(helpers)) }

// ReleasePool frees the pool that ClaimPool took.
func ReleasePool() { C.mxgo_par_release() }
