package nn

import (
	"math"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/unary"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The softmax family's arithmetic on one lane, in float32 or float64 (softmaxFloat):
// lanes are copied into a buffer of that type, transformed there and stored in the
// output's dtype, so every dtype and layout shares one kernel.

type softmaxFloat interface{ float32 | float64 }

// smKind is the function of a lane the kernel computes.
type smKind int

const (
	smSoftmax smKind = iota
	smLogSoftmax
	smSoftmin
)

// laneLoader copies a lane into dst; laneStorer writes src into a lane.
type (
	laneLoader[F softmaxFloat] func(dst []F, base unsafe.Pointer, off, stride int)
	laneStorer[F softmaxFloat] func(base unsafe.Pointer, off, stride int, src []F)
)

func loadLaneAs[T, F softmaxFloat](dst []F, base unsafe.Pointer, off, stride int) {
	if stride == 1 {
		for i, v := range unsafe.Slice(ops.ElemAt[T](base, off), len(dst)) {
			dst[i] = F(v)
		}
		return
	}
	for i := range dst {
		dst[i] = F(*ops.ElemAt[T](base, off+i*stride))
	}
}

func storeLaneAs[T, F softmaxFloat](base unsafe.Pointer, off, stride int, src []F) {
	if stride == 1 {
		d := unsafe.Slice(ops.ElemAt[T](base, off), len(src))
		for i, v := range src {
			d[i] = T(v)
		}
		return
	}
	for i, v := range src {
		*ops.ElemAt[T](base, off+i*stride) = T(v)
	}
}

// laneIO returns the loader or storer of lanes of dt (a floating-point dtype) for
// buffers of type F.
func laneIO[F softmaxFloat](dt ndarray.DType) (laneLoader[F], laneStorer[F]) {
	switch dt {
	case ndarray.Float32:
		return loadLaneAs[float32, F], storeLaneAs[float32, F]
	case ndarray.Float64:
		return loadLaneAs[float64, F], storeLaneAs[float64, F]
	}
	toF32, fromF32 := ops.F16ToF32, ops.F32ToF16
	if dt == ndarray.Bfloat16 {
		toF32, fromF32 = ops.Bf16ToF32, ops.F32ToBF16
	}
	return func(dst []F, base unsafe.Pointer, off, stride int) {
			for i := range dst {
				dst[i] = F(toF32(*ops.ElemAt[uint16](base, off+i*stride)))
			}
		}, func(base unsafe.Pointer, off, stride int, src []F) {
			for i, v := range src {
				*ops.ElemAt[uint16](base, off+i*stride) = fromF32(float32(v))
			}
		}
}

// expRow sets dst[i] = e**src[i]: the vectorized float32 kernel, or math.Exp.
func expRow[F softmaxFloat](dst, src []F) {
	switch d := any(dst).(type) {
	case []float32:
		unary.Exp32Rows(d, any(src).([]float32))
		return
	}
	for i, x := range src {
		dst[i] = F(math.Exp(float64(x)))
	}
}

// softmaxRow applies kind to v in place, with MXNet's formula: y = e**((x - max)/t)
// normalized (softmin negates x first; log_softmax is (x - max)/t - log(sum)). A NaN
// makes the whole lane NaN.
//
// scratch (of v's length at least) holds the exponentials of log_softmax.
func softmaxRow[F softmaxFloat](kind smKind, v, scratch []F, t float64) {
	if len(v) == 0 {
		return
	}
	if kind == smSoftmin {
		for i := range v {
			v[i] = -v[i]
		}
	}
	m := v[0]
	for _, x := range v[1:] {
		if x > m || x != x {
			m = x
			if x != x {
				break
			}
		}
	}
	m += 0 // a zero max is +0 whichever zero came first, as in the C rows
	if tf := F(t); tf == 1 {
		for i, x := range v {
			v[i] = x - m
		}
	} else {
		for i, x := range v {
			v[i] = (x - m) / tf
		}
	}
	if kind == smLogSoftmax {
		l := F(math.Log(expSum(v, scratch)))
		for i := range v {
			v[i] -= l
		}
		return
	}
	expRow(v, v)
	r := F(1 / sum8(v))
	for i := range v {
		v[i] *= r
	}
}

// expSum is the sum of e**v[i], the exponentials computed into scratch by expRow.
func expSum[F softmaxFloat](v, scratch []F) float64 {
	e := scratch[:len(v)]
	expRow(e, v)
	return sum8(e)
}

// sum8 is the sum of e in float64 in eight lanes (element i in lane i%8 while a full
// eight remain), the lanes added as ((0+1)+(2+3))+((4+5)+(6+7)), then the rest in order:
// the C rows' order, in independent chains.
func sum8[F softmaxFloat](e []F) float64 {
	var l [8]float64
	i := 0
	for ; i+8 <= len(e); i += 8 {
		b := (*[8]F)(e[i : i+8])
		l[0], l[1], l[2], l[3] = l[0]+float64(b[0]), l[1]+float64(b[1]), l[2]+float64(b[2]), l[3]+float64(b[3])
		l[4], l[5], l[6], l[7] = l[4]+float64(b[4]), l[5]+float64(b[5]), l[6]+float64(b[6]), l[7]+float64(b[7])
	}
	s := ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
	for ; i < len(e); i++ {
		s += float64(e[i])
	}
	return s
}
