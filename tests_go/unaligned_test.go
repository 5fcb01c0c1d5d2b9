package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/dlpack/dlpacktest"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Memory whose elements are not aligned to their size (Dask's and pickle's buffers,
// np.frombuffer(buf, offset=1)) imports zero-copy like any other, and every operator
// family with a C kernel (+ - * / rows and scalars, exp/sigmoid/tanh, sum, the float32
// product) gives on it exactly the bits it gives on an aligned copy: the C kernels take
// aligned operands only, the Go ones any.

// misaligned imports an n-element 1-d tensor of dt whose data is offset bytes past a
// 64-byte boundary, holding vals[i % len(vals)].
func misaligned(t *testing.T, dt ndarray.DType, n int, offset uintptr, vals []float64) *ndarray.NDArray {
	t.Helper()
	code, bits := dlpack.TypeOf(dt)
	ft := foreign(t, producers[0], dlpacktest.Spec{NBytes: n*dt.Size() + 64, DataOffset: offset, NDim: 1,
		Code: code, Bits: bits, Shape: []int64{int64(n)}})
	p := unsafe.Add(ft.Buffer(), offset)
	for i := range n {
		v := vals[i%len(vals)]
		switch dt {
		case ndarray.Float32:
			*(*float32)(unsafe.Add(p, 4*i)) = float32(v)
		case ndarray.Float64:
			*(*float64)(unsafe.Add(p, 8*i)) = v
		}
	}
	a, err := dlpack.ImportLegacy(ft.Ptr())
	require.NoError(t, err)
	t.Cleanup(a.Release)
	require.Equal(t, p, a.Data(), "zero copy")
	return a
}

// aligned is a fresh (64-byte aligned) copy of a.
func aligned(t *testing.T, a *ndarray.NDArray) *ndarray.NDArray {
	t.Helper()
	c := empty(t, a.DType(), a.Shape()...)
	require.NoError(t, ops.Copy(c, a))
	require.NoError(t, ops.WaitToRead(c))
	return c
}

// bitsOf reads a's elements as raw bits (NaN payloads and -0 compare exactly).
func bitsOf(a *ndarray.NDArray) []uint64 {
	out := []uint64{}
	switch a.DType() {
	case ndarray.Float32:
		for _, v := range rawValues[float32](a) {
			out = append(out, uint64(math.Float32bits(v)))
		}
	case ndarray.Float64:
		for _, v := range rawValues[float64](a) {
			out = append(out, math.Float64bits(v))
		}
	}
	return out
}

func invokeOp(t *testing.T, name string, in []*ndarray.NDArray, attrs string) *ndarray.NDArray {
	t.Helper()
	op, err := ops.Lookup(name)
	require.NoError(t, err)
	at, err := ops.ParseAttrs(op, attrs)
	require.NoError(t, err)
	r, err := op.Invoke(in, nil, at)
	require.NoError(t, err)
	t.Cleanup(r.Release)
	require.NoError(t, ops.WaitToRead(r))
	return r
}

var unalignedValues = []float64{1.5, -2.25, 0.1, 3e10, math.Copysign(0, -1), math.Inf(1), 7, math.NaN(), 1e-30, -4.75, 0.5}

func TestUnalignedImport(t *testing.T) {
	checkLeaks(t)
	for _, off := range []uintptr{1, 2, 3, 5} {
		a := misaligned(t, ndarray.Float64, 7, off, seq(7))
		require.Equal(t, seq(7), values(t, a))
		q, ok := dlpack.QuickCheck(dlpack.Desc{Data: uintptr(a.Data()), Device: a.Device(), NDim: 1,
			Code: dlpack.CodeFloat, Bits: 64, Lanes: 1, Shape: []int64{7}})
		require.True(t, ok, "the C quick check takes unaligned tensors too")
		require.Equal(t, uintptr(a.Data()), q.First)
	}
}

func TestUnalignedKernels(t *testing.T) {
	checkLeaks(t)
	elementwise := []struct{ op, attrs string }{
		{"add", ""}, {"subtract", ""}, {"multiply", ""}, {"divide", ""},
		{"_add_scalar", "scalar=f:1.5;reverse=0"}, {"_subtract_scalar", "scalar=f:1.5;reverse=1"},
		{"_divide_scalar", "scalar=f:3;reverse=1"}, {"exp", ""}, {"sigmoid", ""}, {"tanh", ""},
		{"sum", ""},
	}
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		for _, n := range []int{0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 300, 100_003} {
			for _, off := range []uintptr{1, 2, 3} {
				x := misaligned(t, dt, n, off, unalignedValues)
				y := misaligned(t, dt, n, off+1, unalignedValues[3:])
				xa, ya := aligned(t, x), aligned(t, y)
				for _, c := range elementwise {
					op, err := ops.Lookup(c.op)
					require.NoError(t, err)
					if len(op.Inputs) == 1 {
						t.Run(fmt.Sprintf("%s/%s/n=%d/off=%d", dt, c.op, n, off), func(t *testing.T) {
							require.Equal(t, bitsOf(invokeOp(t, c.op, []*ndarray.NDArray{xa}, c.attrs)),
								bitsOf(invokeOp(t, c.op, []*ndarray.NDArray{x}, c.attrs)))
						})
						continue
					}
					t.Run(fmt.Sprintf("%s/%s/n=%d/off=%d", dt, c.op, n, off), func(t *testing.T) {
						require.Equal(t, bitsOf(invokeOp(t, c.op, []*ndarray.NDArray{xa, ya}, c.attrs)),
							bitsOf(invokeOp(t, c.op, []*ndarray.NDArray{x, y}, c.attrs)))
					})
				}
			}
		}
	}
}

func TestUnalignedDot(t *testing.T) {
	// Every path of the float32 product (packed, matrix . vector, vector . matrix), every
	// operand layout, and a misaligned out=; values that round, so the summation order shows.
	checkLeaks(t)
	r := rand.New(rand.NewPCG(7, 8))
	dot, err := ops.Lookup("dot")
	require.NoError(t, err)
	attrs, err := ops.ParseAttrs(dot, "")
	require.NoError(t, err)
	for _, mnk := range [][3]int{{1, 50, 40}, {50, 1, 40}, {33, 47, 29}, {20, 30, 300}, {130, 70, 90}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		av, bv := gemmF32Values(r, m*k), gemmF32Values(r, k*n)
		for _, la := range gemmF32Layouts {
			for _, lb := range gemmF32Layouts {
				name := fmt.Sprintf("m=%d/n=%d/k=%d/%s.%s", m, n, k, la, lb)
				want := bitsOf(invokeOp(t, "dot", []*ndarray.NDArray{
					gemmF32Matrix(t, la, av, m, k), gemmF32Matrix(t, lb, bv, k, n)}, ""))
				a := gemmF32MatrixIn(t, la, av, m, k, misalignedMatrix(t, 1))
				b := gemmF32MatrixIn(t, lb, bv, k, n, misalignedMatrix(t, 2))
				require.Equal(t, want, bitsOf(invokeOp(t, "dot", []*ndarray.NDArray{a, b}, "")), name)
				out := misalignedMatrix(t, 3)(make([]float64, m*n), m, n)
				res, err := dot.Invoke([]*ndarray.NDArray{a, b}, out, attrs)
				require.NoError(t, err)
				res.Release()
				require.NoError(t, ops.WaitToRead(out))
				require.Equal(t, want, bitsOf(out), name+"/out")
			}
		}
	}
}

// misalignedMatrix makes C-order float32 matrices offset bytes off alignment.
func misalignedMatrix(t *testing.T, offset uintptr) func(buf []float64, r, c int) *ndarray.NDArray {
	return func(buf []float64, r, c int) *ndarray.NDArray {
		return reshape(t, misaligned(t, ndarray.Float32, r*c, offset, buf), r, c)
	}
}

func reshape(t *testing.T, a *ndarray.NDArray, shape ...int) *ndarray.NDArray {
	t.Helper()
	r, err := ops.Reshape(a, shape)
	require.NoError(t, err)
	t.Cleanup(r.Release)
	return r
}
