package mxgotest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// relu, _relu_backward and Activation's relu (the gradient's kernel on x, x) on float32
// with the AVX2 kernels (internal/simd/relu_avx2.c) give the bits of the Go loops: special
// values (NaNs of both signs, ±0, ±Inf, subnormals) and random ones, lengths around the C
// minimum and the 8-lane tail.
func TestReluSIMDMatchesGoLoops(t *testing.T) {
	checkLeaks(t)
	require.NoError(t, ops.WaitAll())
	was := simd.SetRelu(true)
	defer simd.SetRelu(was)
	require.False(t, !simd.SetRelu(true) && cpuHas("avx2"), "the CPU has AVX2, yet the relu kernels are off")
	rng := rand.New(rand.NewPCG(4, 4))
	specials := simdSpecials[float32]()
	for run, n := range []int{simd.ReluMin - 1, simd.ReluMin, simd.ReluMin + 7, simd.ReluMin + 15, simd.ReluMin + 23, 1001} {
		y, g := make([]float32, n), make([]float32, n)
		for i := range y {
			y[i], g[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			if i%3 == 0 || i >= n-7 { // the last 7, C's scalar tail, meet every special over the runs
				y[i] = specials[(run*7+i)%len(specials)]
			}
			if i%5 == 0 {
				g[i] = specials[rng.IntN(len(specials))]
			}
		}
		run := func(on bool) (relu, grad, act []uint32) {
			require.NoError(t, ops.WaitAll())
			simd.SetRelu(on)
			ya, ga := f32Array(t, y), f32Array(t, g)
			return f32Bits(t, mustOp(t, "relu", "", ya)), f32Bits(t, mustOp(t, "_relu_backward", "", ga, ya)),
				f32Bits(t, mustOp(t, "Activation", "act_type=relu", ya))
		}
		goRelu, goGrad, goAct := run(false)
		cRelu, cGrad, cAct := run(true)
		assert.Equal(t, goRelu, cRelu, "relu of %d", n)
		assert.Equal(t, goGrad, cGrad, "_relu_backward of %d", n)
		assert.Equal(t, goAct, cAct, "Activation relu (NaN gives 0) of %d", n)
	}
}

func f32Bits(t *testing.T, a *ndarray.NDArray) []uint32 {
	b := []uint32{}
	for _, v := range f32Values(t, a) {
		b = append(b, math.Float32bits(v))
	}
	return b
}
