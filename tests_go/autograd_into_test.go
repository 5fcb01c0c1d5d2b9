package mxgotest

import (
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Backward writes a variable's gradient straight into its buffer (GradCtx.Into) exactly
// where nothing else can see the difference: grad_req write, one gradient flowing in, a
// buffer no recorded call reads, outside Grad and create_graph. A test operator, 3x, whose
// gradient reports whether it was offered the buffer, checks each case; FullyConnected's
// and Convolution's gradients are checked for their values in tests_py/test_autograd.py.

var intoOffered atomic.Int32 // how many of _test_triple's gradient calls were offered a buffer

var registerTriple = sync.OnceFunc(func() {
	ops.Register(&ops.Op{Name: "_test_triple", Doc: "3x of a contiguous float64 array (tests_go)", Inputs: []string{"data"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			return in[0].Shape(), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			x, y := unsafe.Slice((*float64)(in[0].Data()), in[0].Size()), unsafe.Slice((*float64)(out[0].Data()), out[0].Size())
			for i, v := range x {
				y[i] = 3 * v
			}
			return nil
		},
		Grad: &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
			if len(c.Into) > 0 && c.Into[0] != nil {
				intoOffered.Add(1)
			}
			g, err := c.CallInto(0, "_multiply_scalar", "scalar=f:3", c.OutGrad[0])
			return []*ndarray.NDArray{g}, err
		}},
	})
})

func TestGradientWrittenIntoTheBufferOnlyWhereNothingCanTell(t *testing.T) {
	registerTriple()
	checkGraphLeaks(t)
	type build func(t *testing.T, x *ndarray.NDArray) *ndarray.NDArray
	type diff func(t *testing.T, y, x *ndarray.NDArray)
	run := func(name string, req autograd.GradReq, wantOffered int32, wantGrad float64, build build, diff diff) {
		t.Run(name, func(t *testing.T) {
			x := fromValues(t, ndarray.Float64, []float64{1, 2}, 2)
			g := variable(t, x, req)
			require.NoError(t, ops.Fill(g, ops.Scalar{Value: 10}))
			before := g.Data()
			intoOffered.Store(0)
			diff(t, build(t, x), x)
			require.NoError(t, ops.WaitAll())
			assert.Equal(t, wantOffered, intoOffered.Load())
			assert.Equal(t, before, g.Data(), "the buffer stays where it was")
			assert.Equal(t, []float64{wantGrad, wantGrad}, values(t, g))
		})
	}
	triple := func(t *testing.T, x *ndarray.NDArray) *ndarray.NDArray {
		return call(t, recording, "_test_triple", "", x)
	}
	backward := func(t *testing.T, y, _ *ndarray.NDArray) {
		require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
	}
	run("write, one use", autograd.ReqWrite, 1, 3, triple, backward)
	run("add", autograd.ReqAdd, 0, 13, triple, backward)
	run("two uses", autograd.ReqWrite, 0, 6, func(t *testing.T, x *ndarray.NDArray) *ndarray.NDArray {
		return call(t, recording, "add", "", triple(t, x), triple(t, x))
	}, backward)
	run("grad", autograd.ReqWrite, 0, 10, triple, func(t *testing.T, y, x *ndarray.NDArray) {
		gs, err := autograd.Grad([]*ndarray.NDArray{y}, []*ndarray.NDArray{x}, nil, false, false, true)
		require.NoError(t, err)
		assert.Equal(t, []float64{3, 3}, values(t, gs[0]))
		ops.ReleaseAll(gs)
	})
	run("grad with create_graph", autograd.ReqWrite, 0, 10, triple, func(t *testing.T, y, x *ndarray.NDArray) {
		gs, err := autograd.Grad([]*ndarray.NDArray{y}, []*ndarray.NDArray{x}, nil, false, true, true)
		require.NoError(t, err)
		ops.ReleaseAll(gs)
	})
	// the buffer itself is an operand of the graph: its old values must stay readable
	t.Run("buffer read by the graph", func(t *testing.T) {
		x := fromValues(t, ndarray.Float64, []float64{1, 2}, 2)
		buf := variable(t, x, autograd.ReqWrite)
		require.NoError(t, ops.Fill(buf, ops.Scalar{Value: 10}))
		intoOffered.Store(0)
		z := fromValues(t, ndarray.Float64, []float64{1, 1}, 2)
		zg := variable(t, z, autograd.ReqWrite)
		w := call(t, recording, "multiply", "", z, buf) // recorded first: its gradient reads buf last
		y := call(t, recording, "add", "", triple(t, x), w)
		require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
		assert.Equal(t, int32(0), intoOffered.Load())
		assert.Equal(t, []float64{3, 3}, values(t, buf))
		assert.Equal(t, []float64{10, 10}, values(t, zg), "z's gradient read buf before x's was stored")
	})
}
