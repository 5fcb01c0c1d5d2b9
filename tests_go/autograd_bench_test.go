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
