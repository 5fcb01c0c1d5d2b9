package mxgotest

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/nn"
)

// filledF32 is a float32 array of shape filled with 0.01.
func filledF32(b *testing.B, shape ...int) *ndarray.NDArray {
	a, err := ndarray.Empty(ndarray.Float32, shape, device.Host)
	require.NoError(b, err)
	require.NoError(b, ops.Fill(a, ops.Scalar{Value: 0.01}))
	return a
}

// The operators of BenchmarkCNNStep one by one (float32, the step's shapes), and of a
// LeNet's two convolutions (5x5, the first padded), each into a result allocated once:
// where a step's time goes.
func BenchmarkCNNOps(b *testing.B) {
	f32 := func(shape ...int) *ndarray.NDArray { return filledF32(b, shape...) }
	pool := "kernel=2,2;stride=2,2;pool_type=max"
	for _, l := range []struct {
		name               string
		n, c, f, hw, k, pd int
	}{{"conv1", 64, 1, 8, 28, 3, 1}, {"conv2", 64, 8, 16, 14, 3, 1}, {"lenet1", 64, 1, 6, 28, 5, 2}, {"lenet2", 64, 6, 16, 14, 5, 0}} {
		o := l.hw + 2*l.pd - l.k + 1
		x, w, bias, y := f32(l.n, l.c, l.hw, l.hw), f32(l.f, l.c, l.k, l.k), f32(l.f), f32(l.n, l.f, o, o)
		p := f32(l.n, l.f, o/2, o/2)
		conv := fmt.Sprintf("kernel=%d,%d;pad=%d,%d;num_filter=", l.k, l.k, l.pd, l.pd)
		cases := []struct {
			name, op, attrs string
			in              []*ndarray.NDArray
			out             *ndarray.NDArray
		}{
			{"forward", "Convolution", conv + strconv.Itoa(l.f), []*ndarray.NDArray{x, w, bias}, f32(l.n, l.f, o, o)},
			{"weight", "_backward_Convolution_weight", conv + strconv.Itoa(l.f), []*ndarray.NDArray{x, y}, f32(l.f, l.c, l.k, l.k)},
			{"data", "Deconvolution", conv + strconv.Itoa(l.c) + ";no_bias=1", []*ndarray.NDArray{y, w}, f32(l.n, l.c, l.hw, l.hw)},
			{"relu", "relu", "", []*ndarray.NDArray{y}, f32(l.n, l.f, o, o)},
			{"relu_backward", "_relu_backward", "", []*ndarray.NDArray{y, y}, f32(l.n, l.f, o, o)},
			{"pool", "Pooling", pool, []*ndarray.NDArray{y}, f32(l.n, l.f, o/2, o/2)},
			{"pool_backward", "_backward_Pooling", pool, []*ndarray.NDArray{y, p, p}, f32(l.n, l.f, o, o)},
		}
		for _, c := range cases {
			b.Run(l.name+"/"+c.name, func(b *testing.B) {
				op, err := ops.Lookup(c.op)
				require.NoError(b, err)
				at, err := ops.ParseAttrs(op, c.attrs)
				require.NoError(b, err)
				for range b.N {
					_, err := op.InvokeAll(c.in, []*ndarray.NDArray{c.out}, at)
					require.NoError(b, err)
					require.NoError(b, ops.WaitToRead(c.out))
				}
			})
		}
	}
}

// The weight gradient of a ResNet-18's deepest 3x3 layer on 32x32 images (512 channels
// of 4x4, batch 64): many taps, few columns an image.
func BenchmarkConvWeightDeep(b *testing.B) {
	x, err := ndarray.Empty(ndarray.Float32, []int{64, 512, 4, 4}, device.Host)
	require.NoError(b, err)
	gy, err := ndarray.Empty(ndarray.Float32, []int{64, 512, 4, 4}, device.Host)
	require.NoError(b, err)
	dw, err := ndarray.Empty(ndarray.Float32, []int{512, 512, 3, 3}, device.Host)
	require.NoError(b, err)
	for _, a := range []*ndarray.NDArray{x, gy} {
		require.NoError(b, ops.Fill(a, ops.Scalar{Value: 0.01}))
	}
	op, err := ops.Lookup("_backward_Convolution_weight")
	require.NoError(b, err)
	at, err := ops.ParseAttrs(op, "kernel=3,3;pad=1,1;num_filter=512")
	require.NoError(b, err)
	for range b.N {
		_, err := op.InvokeAll([]*ndarray.NDArray{x, gy}, []*ndarray.NDArray{dw}, at)
		require.NoError(b, err)
		require.NoError(b, ops.WaitToRead(dw))
	}
}

// ResNet-18's 3x3 convolutions on 32x32 images (batch 64: 64 channels of 8x8 down to 512
// of 1x1), forward and both gradients, by the tap tables and by colRow's lines, and at
// 2x2 and 1x1 by the whole-window product.
func BenchmarkResNetConvs(b *testing.B) {
	f32 := func(shape ...int) *ndarray.NDArray { return filledF32(b, shape...) }
	for _, l := range []struct{ c, hw int }{{64, 8}, {128, 4}, {256, 2}, {512, 1}} {
		x, w := f32(64, l.c, l.hw, l.hw), f32(l.c, l.c, 3, 3)
		conv := "kernel=3,3;pad=1,1;no_bias=1;num_filter=" + strconv.Itoa(l.c)
		for _, c := range []struct {
			name, op string
			in       []*ndarray.NDArray
			out      *ndarray.NDArray
		}{{"forward", "Convolution", []*ndarray.NDArray{x, w}, f32(64, l.c, l.hw, l.hw)},
			{"weight", "_backward_Convolution_weight", []*ndarray.NDArray{x, x}, f32(l.c, l.c, 3, 3)},
			{"data", "Deconvolution", []*ndarray.NDArray{x, w}, f32(64, l.c, l.hw, l.hw)}} {
			for _, p := range []struct{ tables, windows bool }{{true, true}, {true, false}, {false, false}} {
				if p.tables && !p.windows && l.hw > 2 { // the whole-window path takes 2x2 and 1x1 only
					continue
				}
				b.Run(fmt.Sprintf("%dx%d/%s/tables=%v/windows=%v", l.c, l.hw, c.name, p.tables, p.windows), func(b *testing.B) {
					defer nn.SetTapTables(nn.SetTapTables(p.tables))
					defer nn.SetWholeWindows(nn.SetWholeWindows(p.windows))
					op, err := ops.Lookup(c.op)
					require.NoError(b, err)
					at, err := ops.ParseAttrs(op, conv)
					require.NoError(b, err)
					for range b.N {
						_, err := op.InvokeAll(c.in, []*ndarray.NDArray{c.out}, at)
						require.NoError(b, err)
						require.NoError(b, ops.WaitToRead(c.out))
					}
				})
			}
		}
	}
}

// BenchmarkConv3x3 times the 3x3 convolutions of a ResNet's stages (batch 8, padding 1)
// by Winograd and by the direct paths, for the choice of winoMinChannels.
func BenchmarkConv3x3(b *testing.B) {
	for _, l := range []struct{ c, hw int }{{32, 56}, {64, 56}, {128, 28}, {256, 14}, {512, 7}} {
		const n = 8
		x, w, bias, y := filledF32(b, n, l.c, l.hw, l.hw), filledF32(b, l.c, l.c, 3, 3), filledF32(b, l.c), filledF32(b, n, l.c, l.hw, l.hw)
		op, err := ops.Lookup("Convolution")
		require.NoError(b, err)
		at, err := ops.ParseAttrs(op, fmt.Sprintf("kernel=3,3;pad=1,1;num_filter=%d", l.c))
		require.NoError(b, err)
		for _, wino := range []bool{true, false} {
			b.Run(fmt.Sprintf("%dx%dx%d/winograd=%v", l.c, l.hw, l.hw, wino), func(b *testing.B) {
				defer simd.SetWinograd(simd.SetWinograd(wino))
				for range b.N {
					_, err := op.InvokeAll([]*ndarray.NDArray{x, w, bias}, []*ndarray.NDArray{y}, at)
					require.NoError(b, err)
					require.NoError(b, ops.WaitToRead(y))
				}
				b.ReportMetric(float64(2*n*l.c*l.c*9*l.hw*l.hw)/b.Elapsed().Seconds()*float64(b.N)/1e9, "GFLOP/s")
			})
		}
	}
}
