package mxgotest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The float32 products of a dense layer's training step (batch 64: forward, dX = G W,
// dW = G^T X), in GFLOP/s. Run with
//
//	go test ./tests_go/ -run '^$' -bench GemmDense -cpu 1,2
func BenchmarkGemmDense(b *testing.B) {
	op, err := ops.Lookup("dot")
	require.NoError(b, err)
	for _, c := range []struct {
		m, k, n int
		attrs   string
	}{{64, 784, 512, "transpose_b=1"}, {64, 512, 512, "transpose_b=1"}, {64, 512, 784, ""}, {512, 64, 784, "transpose_a=1"}, {512, 64, 512, "transpose_a=1"}} {
		b.Run(fmt.Sprintf("%dx%dx%d_%s", c.m, c.k, c.n, c.attrs), func(b *testing.B) {
			at, err := ops.ParseAttrs(op, c.attrs)
			require.NoError(b, err)
			sa, sb := []int{c.m, c.k}, []int{c.k, c.n}
			if c.attrs == "transpose_a=1" {
				sa = []int{c.k, c.m}
			}
			if c.attrs == "transpose_b=1" {
				sb = []int{c.n, c.k}
			}
			var in [2]*ndarray.NDArray
			for i, s := range [][]int{sa, sb} {
				a, err := ndarray.Empty(ndarray.Float32, s, device.Host)
				require.NoError(b, err)
				defer a.Release()
				require.NoError(b, ops.Arange(a, -1, 1/float64(s[0]*s[1])))
				in[i] = a
			}
			out, err := ndarray.Empty(ndarray.Float32, []int{c.m, c.n}, device.Host)
			require.NoError(b, err)
			defer out.Release()
			require.NoError(b, ops.WaitAll())
			for b.Loop() {
				r, err := op.Invoke(in[:], out, at)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
				if err := ops.WaitToRead(out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(2*float64(c.m*c.n*c.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
