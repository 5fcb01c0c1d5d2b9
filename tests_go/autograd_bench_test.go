package mxgotest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// What recording adds to a small operator: x * y on 4x4 float32, a variable x, plain
// (Mode{}) and recorded.
func BenchmarkRecording(b *testing.B) {
	for _, m := range []struct {
		name, op, attrs string
		mode            autograd.Mode
	}{
		{"plain", "multiply", "", autograd.Mode{}}, {"recorded", "multiply", "", recording},
		// a gradient that keeps nothing (x * 2): bench_autograd.py's recording row
		{"scalar-plain", "_multiply_scalar", "scalar=f:2", autograd.Mode{}},
		{"scalar-recorded", "_multiply_scalar", "scalar=f:2", recording},
	} {
		b.Run(m.name, func(b *testing.B) {
			x, err := ndarray.Empty(ndarray.Float32, []int{4, 4}, device.Host)
			require.NoError(b, err)
			defer x.Release()
			require.NoError(b, ops.Fill(x, ops.Scalar{Value: 1}))
			g, err := ndarray.Empty(ndarray.Float32, []int{4, 4}, device.Host)
			require.NoError(b, err)
			defer g.Release()
			require.NoError(b, autograd.MarkVariables([]*ndarray.NDArray{x}, []*ndarray.NDArray{g}, []autograd.GradReq{autograd.ReqWrite}))
			op, err := ops.Lookup(m.op)
			require.NoError(b, err)
			in := []*ndarray.NDArray{x, x}[:len(op.Inputs)]
			at, err := ops.ParseAttrs(op, m.attrs)
			require.NoError(b, err)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r, err := autograd.Invoke(op, in, nil, at, m.mode)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
			}
		})
	}
}

// Training steps of bench_autograd.py's models (float32) from Go: forward recorded, mean
// squared error against y, backward into the weights' buffers.

type stepCall func(name, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray

func benchStep(b *testing.B, xShape []int, wShapes [][]int, forward func(call stepCall, x *ndarray.NDArray, ws []*ndarray.NDArray) *ndarray.NDArray) {
	f32 := func(shape ...int) *ndarray.NDArray {
		a, err := ndarray.Empty(ndarray.Float32, shape, device.Host)
		require.NoError(b, err)
		require.NoError(b, ops.Fill(a, ops.Scalar{Value: 0.01}))
		return a
	}
	x, y := f32(xShape...), f32(xShape[0], 10)
	ws := make([]*ndarray.NDArray, len(wShapes))
	for i, s := range wShapes {
		ws[i] = f32(s...)
		g := f32(s...)
		require.NoError(b, autograd.MarkVariables(ws[i:i+1], []*ndarray.NDArray{g}, []autograd.GradReq{autograd.ReqWrite}))
	}
	b.ResetTimer()
	for range b.N {
		var made []*ndarray.NDArray
		call := func(name, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray {
			op, err := ops.Lookup(name)
			require.NoError(b, err)
			at, err := ops.ParseAttrs(op, attrs)
			require.NoError(b, err)
			r, err := autograd.Invoke(op, in, nil, at, recording)
			require.NoError(b, err)
			made = append(made, r)
			return r
		}
		out := forward(call, x, ws)
		loss := call("mean", "", call("square", "", call("subtract", "", out, y)))
		require.NoError(b, autograd.Backward([]*ndarray.NDArray{loss}, nil, false, true))
		require.NoError(b, ops.WaitAll())
		ops.ReleaseAll(made)
	}
}

func BenchmarkMLPStep(b *testing.B) {
	benchStep(b, []int{256, 784}, [][]int{{512, 784}, {512}, {512, 512}, {512}, {10, 512}, {10}},
		func(call stepCall, x *ndarray.NDArray, ws []*ndarray.NDArray) *ndarray.NDArray {
			h := call("relu", "", call("FullyConnected", "num_hidden=512", x, ws[0], ws[1]))
			h = call("relu", "", call("FullyConnected", "num_hidden=512", h, ws[2], ws[3]))
			return call("FullyConnected", "num_hidden=10", h, ws[4], ws[5])
		})
}

func BenchmarkCNNStep(b *testing.B) {
	benchStep(b, []int{64, 1, 28, 28}, [][]int{{8, 1, 3, 3}, {8}, {16, 8, 3, 3}, {16}, {10, 16 * 7 * 7}, {10}},
		func(call stepCall, x *ndarray.NDArray, ws []*ndarray.NDArray) *ndarray.NDArray {
			pool := "kernel=2,2;stride=2,2;pool_type=max"
			h := call("Pooling", pool, call("relu", "", call("Convolution", "kernel=3,3;pad=1,1;num_filter=8", x, ws[0], ws[1])))
			h = call("Pooling", pool, call("relu", "", call("Convolution", "kernel=3,3;pad=1,1;num_filter=16", h, ws[2], ws[3])))
			return call("FullyConnected", "num_hidden=10", h, ws[4], ws[5])
		})
}
