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
		name string
		mode autograd.Mode
	}{{"plain", autograd.Mode{}}, {"recorded", recording}} {
		b.Run(m.name, func(b *testing.B) {
			x, err := ndarray.Empty(ndarray.Float32, []int{4, 4}, device.Host)
			require.NoError(b, err)
			defer x.Release()
			require.NoError(b, ops.Fill(x, ops.Scalar{Value: 1}))
			g, err := ndarray.Empty(ndarray.Float32, []int{4, 4}, device.Host)
			require.NoError(b, err)
			defer g.Release()
			require.NoError(b, autograd.MarkVariables([]*ndarray.NDArray{x}, []*ndarray.NDArray{g}, []autograd.GradReq{autograd.ReqWrite}))
			op, err := ops.Lookup("multiply")
			require.NoError(b, err)
			in := []*ndarray.NDArray{x, x}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r, err := autograd.Invoke(op, in, nil, nil, m.mode)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
			}
		})
	}
}

// A training step of bench_autograd.py's MLP (784-512-512-10, batch 256, float32) from
// Go: forward recorded, mean squared error, backward into the weights' buffers.
func BenchmarkMLPStep(b *testing.B) {
	f32 := func(shape ...int) *ndarray.NDArray {
		a, err := ndarray.Empty(ndarray.Float32, shape, device.Host)
		require.NoError(b, err)
		require.NoError(b, ops.Fill(a, ops.Scalar{Value: 0.01}))
		return a
	}
	x, y := f32(256, 784), f32(256, 10)
	ws := []*ndarray.NDArray{f32(512, 784), f32(512), f32(512, 512), f32(512), f32(10, 512), f32(10)}
	for _, w := range ws {
		g := f32(w.Shape()...)
		require.NoError(b, autograd.MarkVariables([]*ndarray.NDArray{w}, []*ndarray.NDArray{g}, []autograd.GradReq{autograd.ReqWrite}))
	}
	call := func(name, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray {
		op, err := ops.Lookup(name)
		require.NoError(b, err)
		at, err := ops.ParseAttrs(op, attrs)
		require.NoError(b, err)
		r, err := autograd.Invoke(op, in, nil, at, recording)
		require.NoError(b, err)
		return r
	}
	b.ResetTimer()
	for range b.N {
		var made []*ndarray.NDArray
		keep := func(a *ndarray.NDArray) *ndarray.NDArray { made = append(made, a); return a }
		h := keep(call("relu", "", keep(call("FullyConnected", "num_hidden=512", x, ws[0], ws[1]))))
		h = keep(call("relu", "", keep(call("FullyConnected", "num_hidden=512", h, ws[2], ws[3]))))
		out := keep(call("FullyConnected", "num_hidden=10", h, ws[4], ws[5]))
		d := keep(call("subtract", "", out, y))
		loss := keep(call("mean", "", keep(call("square", "", d))))
		require.NoError(b, autograd.Backward([]*ndarray.NDArray{loss}, nil, false, true))
		require.NoError(b, ops.WaitAll())
		ops.ReleaseAll(made)
	}
}
