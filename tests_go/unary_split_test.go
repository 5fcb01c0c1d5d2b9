package mxgotest

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The transcendental float32 and float64 kernels split across the cores from 2^16
// elements (ParallelRowsCost); the split changes no bit: a long array's result equals the
// results of its pieces computed one at a time (each below every split threshold), for a
// contiguous array and a strided view.
func TestTranscendentalSplitKeepsBits(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(41, 42))
	const n, piece = 100_000, 1000
	vals := make([]float64, 2*n)
	for i := range vals {
		vals[i] = r.NormFloat64() * 3
		if i%2 == 0 && (i/2)%97 == 0 {
			vals[i] = -vals[i] * 40 // some far out: exp's slow lanes
		}
	}
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		whole := fromValues(t, dt, vals, 2*n)
		strided := index(t, whole, S(nil, nil, 2))
		for _, op := range []string{"exp", "log", "sin", "cos", "tanh", "sigmoid"} {
			for _, x := range []*ndarray.NDArray{whole, strided} {
				got := values(t, mustOp(t, op, "", x))
				for lo := 0; lo < x.Shape()[0]; lo += piece {
					want := values(t, mustOp(t, op, "", index(t, x, S(lo, lo+piece, nil))))
					for i := range want {
						if want[i] != want[i] && got[lo+i] != got[lo+i] {
							continue
						}
						require.Equal(t, want[i], got[lo+i], "%s %s element %d of %v", op, dt, lo+i, x.Shape())
					}
				}
			}
		}
	}
}
