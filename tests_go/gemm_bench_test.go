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
	for _, n := range []int{32, 100, 128, 160, 200, 256, 512, 1024, 2048} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchDot(b, "", []int{n, n}, []int{n, n})
		})
	}
}

// benchDot times dot(attrs) of float32 ramps of shapes sa and sb into a preallocated
// output and reports GFLOP/s.
func benchDot(b *testing.B, attrs string, sa, sb []int) {
	m, k, n := sa[0], sa[1], sb[1]
	if attrs == "transpose_a=1" {
		m, k = sa[1], sa[0]
	}
	if attrs == "transpose_b=1" {
		n = sb[0]
	}
	out := benchRamp(b, m, n)
	benchInto(b, "dot", attrs, []*ndarray.NDArray{benchRamp(b, sa...), benchRamp(b, sb...)}, out)
	b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// benchRamp returns a float32 array of shape holding a ramp from -1, released after b.
func benchRamp(b *testing.B, shape ...int) *ndarray.NDArray {
	a, err := ndarray.Empty(ndarray.Float32, shape, device.Host)
	require.NoError(b, err)
	b.Cleanup(a.Release)
	size, _ := ndarray.Size(shape)
	require.NoError(b, ops.Arange(a, -1, 1/float64(size)))
	return a
}

// benchInto times operator name(attrs) on in into out (which may be one of in), one
// call and wait per iteration of b.
func benchInto(b *testing.B, name, attrs string, in []*ndarray.NDArray, out *ndarray.NDArray) {
	op, err := ops.Lookup(name)
	require.NoError(b, err)
	at, err := ops.ParseAttrs(op, attrs)
	require.NoError(b, err)
	require.NoError(b, ops.WaitAll())
	for b.Loop() {
		r, err := op.Invoke(in, out, at)
		if err != nil {
			b.Fatal(err)
		}
		r.Release()
		if err := ops.WaitToRead(out); err != nil {
			b.Fatal(err)
		}
	}
}
