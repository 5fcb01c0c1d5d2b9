package mxgotest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Elementwise kernels on float32 through the operator registry, into a preallocated
// output (so page faults of a fresh array do not count), at sizes around
// ndarray's parallel threshold. Run with
//
//	go test ./tests_go/ -run '^$' -bench Kernels -benchtime 200x
//
// and compare -cpu 1 with the default to see what splitting across cores buys.

var benchKernelSizes = []int{1_000, 4_000, 10_000, 30_000, 100_000, 300_000, 1_000_000, 10_000_000}

func benchKernel(b *testing.B, name string, nin int) {
	op, err := ops.Lookup(name)
	require.NoError(b, err)
	for _, n := range benchKernelSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			in := make([]*ndarray.NDArray, nin)
			for i := range in {
				a, err := ndarray.Empty(ndarray.Float32, []int{n}, device.Host)
				require.NoError(b, err)
				defer a.Release()
				require.NoError(b, ops.Arange(a, -5, 10.0/float64(n))) // exp's interesting range
				in[i] = a
			}
			out, err := ndarray.Empty(ndarray.Float32, []int{n}, device.Host)
			require.NoError(b, err)
			defer out.Release()
			require.NoError(b, ops.WaitAll())
			b.SetBytes(int64(4 * n * (nin + 1)))
			b.ResetTimer()
			for b.Loop() {
				r, err := op.Invoke(in, out, ops.Attrs{})
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
				if err := ops.WaitToRead(out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkKernelsExpF32(b *testing.B)     { benchKernel(b, "exp", 1) }
func BenchmarkKernelsSigmoidF32(b *testing.B) { benchKernel(b, "sigmoid", 1) }
func BenchmarkKernelsTanhF32(b *testing.B)    { benchKernel(b, "tanh", 1) }
func BenchmarkKernelsAddF32(b *testing.B)     { benchKernel(b, "add", 2) }

// BenchmarkKernelsF32Off runs exp, sigmoid and tanh as above with a family of kernels
// off, for comparison on a CPU that has it: "go" with the C kernels off (the Go ones of
// pkg/ops/unary/exp32.go run), "avx2" with the 16-lane AVX-512 ones off.
func BenchmarkKernelsF32Off(b *testing.B) {
	for _, off := range []struct {
		name string
		set  func(on bool) (was bool)
	}{{"go", simd.SetUnary32}, {"avx2", simd.SetUnary32AVX512}} {
		for _, op := range []string{"exp", "sigmoid", "tanh"} {
			b.Run(off.name+"/"+op, func(b *testing.B) {
				require.NoError(b, ops.WaitAll())
				defer off.set(off.set(false))
				benchKernel(b, op, 1)
			})
		}
	}
}
