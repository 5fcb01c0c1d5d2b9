package mxgotest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Benchmarks of the LAPACK-based operators on bench_lapack.py's shapes (one 256 x 256
// matrix, a batch of 64 64 x 64 ones), for profiling: go test ./tests_go -run XXX
// -bench BenchmarkLapack -cpuprofile /tmp/cpu.out.
func BenchmarkLapack(b *testing.B) {
	t := &testing.T{}
	r := rand.New(rand.NewPCG(1, 2))
	for _, shape := range [][]int{{256, 256}, {64, 64, 64}} {
		n := shape[len(shape)-1]
		nb := laBatchOf(shape)
		vals := make([]float64, 0, nb*n*n)
		for i := 0; i < nb; i++ {
			x := randomFloats(r, n*n)
			for p := 0; p < n; p++ { // x x^T / n + I: positive definite
				for q := 0; q < n; q++ {
					s := 0.0
					for l := 0; l < n; l++ {
						s += x[p*n+l] * x[q*n+l]
					}
					if p == q {
						s += float64(n)
					}
					vals = append(vals, s/float64(n))
				}
			}
		}
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			a := fromValues(t, dt, vals, shape...)
			for _, op := range []string{"linalg_gemm2", "linalg_potrf", "linalg_inverse", "linalg_det", "_linalg_syevd"} {
				in := []*ndarray.NDArray{a}
				if op == "linalg_gemm2" {
					in = append(in, a)
				}
				b.Run(fmt.Sprintf("%s/%v/%s", op, shape, dt), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						for _, o := range mustOps(t, op, "", in...) {
							_ = ops.WaitToRead(o)
							o.Release()
						}
					}
				})
			}
		}
	}
}

func laBatchOf(shape []int) int {
	n := 1
	for _, d := range shape[:len(shape)-2] {
		n *= d
	}
	return n
}
