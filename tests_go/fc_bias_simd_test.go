package mxgotest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// FullyConnected adds its bias row by row with internal/simd's AVX2 add: the same bits
// as the Go loop, for float32 and float64, widths around the C minimum and its 8-lane
// tail, and biases holding NaNs (with payloads), infinities and signed zeros.
func TestFCBiasSIMDMatchesGoLoop(t *testing.T) {
	checkLeaks(t)
	require.NoError(t, ops.WaitAll())
	was := simd.SetArith(true)
	defer simd.SetArith(was)
	rng := rand.New(rand.NewPCG(6, 6))
	specials := simdSpecials[float64]()
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		for _, h := range []int{simd.ArithMin - 1, simd.ArithMin, simd.ArithMin + 7, 300} {
			const m, k = 3, 5
			x, w, b := randomFloats(rng, m*k), randomFloats(rng, h*k), randomFloats(rng, h)
			for j := 0; j < h; j += 3 {
				b[j] = specials[(j/3)%len(specials)]
			}
			run := func(on bool) []byte {
				require.NoError(t, ops.WaitAll())
				simd.SetArith(on)
				in := []*ndarray.NDArray{fromValues(t, dt, x, m, k), fromValues(t, dt, w, h, k), fromValues(t, dt, b, h)}
				return elemBytes(mustOp(t, "FullyConnected", fmt.Sprintf("num_hidden=%d", h), in...))
			}
			require.Equal(t, run(false), run(true), "%s, %d outputs", dt, h)
		}
	}
}
