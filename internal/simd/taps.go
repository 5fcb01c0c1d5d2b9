package simd

/*
#include "taps.h"
*/
import "C"

import "unsafe"

// pkg/ops/nn's table-driven im2col and weight spread in C (taps.c), with the Go loops'
// bits: copies, and adds in the Go loops' order. Part of the im2col family (SetIm2Col).

// Taps is nn's tapsTransfer: row c*taps + k of col (at (c*taps+k)*ld) gets channel c's
// elements of img (vol apart) at the offsets t[k*cols:(k+1)*cols] (0 at -1), or with back
// adds the row back into them. It reports false (doing nothing) when the family is off or
// an operand is misaligned, and panics when an operand is too short.
func Taps[T ~float32 | ~float64](t []int32, img, col []T, ld, cols, vol, channels int, back bool) bool {
	if !im2col.enabled() || channels == 0 || cols == 0 || len(t) == 0 {
		return false
	}
	taps := len(t) / cols
	if len(img) < channels*vol || len(col) < (channels*taps-1)*ld+cols {
		panic("simd.Taps: operands too short")
	}
	pi, pc := unsafe.Pointer(&img[0]), unsafe.Pointer(&col[0])
	var z T
	if Misaligned(unsafe.Sizeof(z), pi, pc, nil) {
		return false
	}
	pt, b := (*C.int32_t)(unsafe.Pointer(&t[0])), flag(back)
	if unsafe.Sizeof(z) == 4 {
		C.mxgo_taps_f32(pt, C.long(taps), C.long(cols), (*C.float)(pi), C.long(vol), (*C.float)(pc), C.long(ld), C.long(channels), b)
	} else {
		C.mxgo_taps_f64(pt, C.long(taps), C.long(cols), (*C.double)(pi), C.long(vol), (*C.double)(pc), C.long(ld), C.long(channels), b)
	}
	return true
}

// Spread is nn's weight spread of one filter: for o < ov, i < iv, j < c, m[(o*c+j)*iv + i]
// gets w[taps[o*iv+i] + j*kv], or with back adds it to that element of w. It reports
// false as Taps does.
func Spread[T ~float32 | ~float64](w, m []T, taps []int, ov, iv, kv, c int, back bool) bool {
	if !im2col.enabled() || ov*iv*c == 0 {
		return false
	}
	if len(m) < ov*c*iv || len(taps) < ov*iv || len(w) < (c-1)*kv+kv {
		panic("simd.Spread: operands too short")
	}
	for _, t := range taps[:ov*iv] {
		if t < 0 || t >= kv {
			panic("simd.Spread: tap out of range")
		}
	}
	pw, pm := unsafe.Pointer(&w[0]), unsafe.Pointer(&m[0])
	var z T
	if Misaligned(unsafe.Sizeof(z), pw, pm, nil) {
		return false
	}
	pt, b := (*C.long)(unsafe.Pointer(&taps[0])), flag(back)
	if unsafe.Sizeof(z) == 4 {
		C.mxgo_spread_f32((*C.float)(pw), (*C.float)(pm), pt, C.long(ov), C.long(iv), C.long(kv), C.long(c), b)
	} else {
		C.mxgo_spread_f64((*C.double)(pw), (*C.double)(pm), pt, C.long(ov), C.long(iv), C.long(kv), C.long(c), b)
	}
	return true
}

func flag(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
