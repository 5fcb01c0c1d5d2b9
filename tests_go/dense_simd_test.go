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

// sgd_update, sgd_mom_update and adam_update on float32 with the AVX2 kernels
// (internal/simd/sgd_avx2.c) give the bits of the Go loop: weights, gradients and states
// with special values (NaNs, ±0, ±Inf, subnormals, extremes), lengths around the C
// minimum and the 8-lane tail, a fresh out and the weight as its own out (how Trainer
// calls them), weight decay and Adam's clipping; SGD's clipping and master copies stay on
// the Go loop.
func TestSGDSIMDMatchesGoLoop(t *testing.T) {
	checkLeaks(t)
	simdFamilyOn(t, simd.SetSGD)
	rng := rand.New(rand.NewPCG(5, 5))
	specials := simdSpecials[float32]()
	for run, n := range []int{simd.ReluMin - 1, simd.ReluMin, simd.ReluMin + 7, simd.ReluMin + 9, 1003} {
		vals := [4][]float32{}
		for a := range vals {
			vals[a] = make([]float32, n)
			for i := range vals[a] {
				vals[a][i] = float32(rng.NormFloat64())
				if (i+a)%4 == 0 || i >= n-7 { // C's scalar tail meets the specials too
					vals[a][i] = specials[(run*7+i+3*a)%len(specials)]
				}
			}
		}
		for _, c := range []struct {
			op, attrs string
			states    int
		}{
			{"sgd_mom_update", "lr=0.01;momentum=0.9;wd=0.0005;rescale_grad=0.3", 1},
			{"sgd_mom_update", "lr=0.1;momentum=0", 1},
			{"sgd_update", "lr=0.01;wd=0.001;rescale_grad=0.7", 0},
			{"adam_update", "lr=0.001;wd=0.0005;rescale_grad=0.3", 2},
			{"adam_update", "lr=0.01;beta1=0.5;beta2=0.75;epsilon=0.001;clip_gradient=0.5", 2},
		} {
			for _, inPlace := range []bool{false, true} {
				// the new weight and momentum, computed by the Go loop (on) or C
				run := func(on bool) (out []uint32, states [][]uint32) {
					require.NoError(t, ops.WaitAll())
					simd.SetSGD(on)
					w, g := f32Array(t, vals[0]), f32Array(t, vals[1])
					in := []*ndarray.NDArray{w, g}
					for k := range c.states {
						in = append(in, f32Array(t, vals[2+k]))
					}
					o := w
					if !inPlace {
						o = nil
					}
					r, err := runOp(t, c.op, in, o, c.attrs)
					require.NoError(t, err)
					out = f32Bits(t, r)
					for _, st := range in[2:] {
						states = append(states, f32Bits(t, st))
					}
					return out, states
				}
				goOut, goStates := run(false)
				cOut, cStates := run(true)
				require.Equal(t, goOut, cOut, "%s(%s) weight, n %d, in place %v", c.op, c.attrs, n, inPlace)
				require.Equal(t, goStates, cStates, "%s(%s) states, n %d, in place %v", c.op, c.attrs, n, inPlace)
			}
		}
	}
}

// FullyConnected adds its bias row by row with internal/simd's AVX2 add: the same bits
// as the Go loop, for float32 and float64, widths around the C minimum and its 8-lane
// tail, and biases holding NaNs (with payloads), infinities and signed zeros.
func TestFCBiasSIMDMatchesGoLoop(t *testing.T) {
	checkLeaks(t)
	simdFamilyOn(t, simd.SetArith)
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

// simdFamilyOn turns a family of internal/simd kernels on for t (as they were after it)
// and fails if the CPU has AVX2 yet they stay off.
func simdFamilyOn(t *testing.T, set func(on bool) (was bool)) {
	require.NoError(t, ops.WaitAll())
	was := set(true)
	t.Cleanup(func() { set(was) })
	require.False(t, !set(true) && cpuHas("avx2"), "the CPU has AVX2, yet the kernels are off")
}
