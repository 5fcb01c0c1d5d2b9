package mxgotest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Square float32 dot into a preallocated output, reported in GFLOP/s. Run with
//
//	go test ./tests_go/ -run '^$' -bench GemmF32
//
// (-cpu 1 for one core).
func BenchmarkGemmF32(b *testing.B) {
	op, err := ops.Lookup("dot")
	require.NoError(b, err)
	at, err := ops.ParseAttrs(op, "")
	require.NoError(b, err)
	for _, n := range []int{32, 100, 128, 160, 200, 256, 512, 1024, 2048} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var in [2]*ndarray.NDArray
			for i := range in {
				a, err := ndarray.Empty(ndarray.Float32, []int{n, n}, device.Host)
				require.NoError(b, err)
				defer a.Release()
				require.NoError(b, ops.Arange(a, -1, 1/float64(n*n)))
				in[i] = a
			}
			out, err := ndarray.Empty(ndarray.Float32, []int{n, n}, device.Host)
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
			b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
