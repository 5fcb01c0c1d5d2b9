package nn

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Pooling's gradient, as MXNet 1.9.1's CPU kernel (unpool_*_cpu) computes it (checked
// against it): max sends each window's gradient to the first element, in scan order, equal
// to the window's result (one element even with ties; none for a window wholly in the
// padding; Pooling_v1's, mshadow's unpool, sends it to every element equal to the
// result); avg divides by the window's count as the forward does; sum passes it on; lp
// multiplies by (x/y)^(p-1) (1, x/y, x²/y² for MXNet's p 1 to 3). Its kernel reads the
// data, the result and the head gradient: _backward_Pooling, without a gradient of its own
// (as MXNet's backward nodes).

func init() {
	pool, _ := ops.Lookup("Pooling") // nn_pool.go, initialised before this file
	back := &ops.Op{
		Name: "_backward_Pooling",
		Doc: "The gradient of Pooling's data from its data, result and the gradient of its result, with " +
			"Pooling's parameters. Internal: Pooling's Grad calls it.",
		Category: ops.General, Inputs: []string{"data", "out", "out_grad"}, DTypes: nnFloatDTypes, Params: pool.Params,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := newPoolGeom(in[0], at)
			if err != nil {
				return nil, 0, err
			}
			want := nnFromChannelsFirst(g.outShape(), g.last)
			for i, name := range []string{"out", "out_grad"} {
				if err := nnCheckShape("_backward_Pooling", name, in[1+i].Shape(), want); err != nil {
					return nil, 0, err
				}
			}
			return in[0].Shape(), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error { return poolBackwardKernel(in, out, at, false) },
	}
	ops.Register(back)
	v1 := *back
	v1.Name = "_backward_Pooling_v1"
	v1.Doc = "The gradient of Pooling_v1's data (every element equal to a window's maximum gets its gradient), with " +
		"Pooling's parameters. Internal: Pooling_v1's Grad calls it."
	v1.Kernel = func(in, out []*ndarray.NDArray, at ops.Attrs) error { return poolBackwardKernel(in, out, at, true) }
	ops.Register(&v1)
}

// poolGrad is the Gradient of Pooling (full nil), and of Pooling_v1 with full adding the
// parameters that Pooling_v1 lacks.
func poolGrad(full func([]*ndarray.NDArray, ops.Attrs) (ops.Attrs, error)) *ops.Gradient {
	name := "_backward_Pooling"
	if full != nil {
		name += "_v1"
	}
	return &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		at := c.Attrs
		if full != nil {
			var err error
			if at, err = full(c.In, at); err != nil {
				return nil, err
			}
		}
		dx, err := runBackward(c, name, at, c.In[0], c.Out[0], c.OutGrad[0])
		return []*ndarray.NDArray{dx}, err
	}}
}

func poolBackwardKernel(in, out []*ndarray.NDArray, at ops.Attrs, allTies bool) error {
	g, err := newPoolGeom(in[0], at)
	if err != nil {
		return err
	}
	g.allTies = allTies
	views := make([]*ndarray.NDArray, 4) // data, out, out_grad, and the gradient, channels first
	for i, a := range append(in[:3:3], out[0]) {
		if views[i], err = nnToChannelsFirst(a, g.last); err != nil {
			ops.ReleaseAll(views)
			return err
		}
	}
	defer ops.ReleaseAll(views)
	return nnCompute(views[:3], views[3],
		func(x [][]float32, dx []float32) { poolBackward(g, x, dx) },
		func(x [][]float64, dx []float64) { poolBackward(g, x, dx) })
}

// poolBackward sets dx from x = data, out, out_grad, plane by plane.
func poolBackward[T nnFloat](g *poolGeom, x [][]T, dx []T) {
	in, out := g.inVol(), g.outVol()
	nnParallel(g.n*g.c, in*g.kernelVol(), func(lo, hi int) {
		if unmaxPlanesC(g, x, dx, lo, hi) {
			return
		}
		for pl := lo; pl < hi; pl++ {
			d := dx[pl*in : (pl+1)*in]
			if g.tiles2x2() {
				unmaxTiles2x2(g, x[0][pl*in:(pl+1)*in], x[1][pl*out:(pl+1)*out], x[2][pl*out:(pl+1)*out], d)
				continue
			}
			clear(d)
			unpoolPlane(g, x[0][pl*in:(pl+1)*in], x[1][pl*out:(pl+1)*out], x[2][pl*out:(pl+1)*out], d)
		}
	})
}

func unpoolPlane[T nnFloat](g *poolGeom, x, y, gy, dx []T) {
	if g.max2D() {
		unmaxPlane2D(g, x, y, gy, dx)
		return
	}
	forWindows(&g.convGeom, func(i int, lo, hi, padded [3]int) { unpoolWindow(g, x, y[i], gy[i], dx, lo, hi, padded) })
}

// unpoolWindow adds one window's share of its result's gradient gy to dx.
func unpoolWindow[T nnFloat](g *poolGeom, x []T, y, gy T, dx []T, lo, hi, padded [3]int) {
	n1, n2 := g.in[1], g.in[2]
	if g.kind == "max" {
		for a := lo[0]; a < hi[0]; a++ {
			for b := lo[1]; b < hi[1]; b++ {
				for j := (a*n1+b)*n2 + lo[2]; j < (a*n1+b)*n2+hi[2]; j++ {
					if x[j] == y {
						dx[j] += gy
						if !g.allTies {
							return
						}
					}
				}
			}
		}
		return
	}
	share := gy
	if g.kind == "avg" {
		size := padded[0] * padded[1] * padded[2]
		if !g.includePad {
			size = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
		}
		if size <= 0 {
			return
		}
		share = gy / T(size)
	}
	for a := lo[0]; a < hi[0]; a++ {
		for b := lo[1]; b < hi[1]; b++ {
			for j := (a*n1+b)*n2 + lo[2]; j < (a*n1+b)*n2+hi[2]; j++ {
				if g.kind == "lp" {
					dx[j] += lpGrad(gy, x[j], y, g.p)
				} else {
					dx[j] += share
				}
			}
		}
	}
}

// lpGrad is MXNet's lp_grad: g * (x/y)^(p-1), written as its kernel writes it for p 1 to
// 3 (so that a zero result gives what MXNet's gives).
func lpGrad[T nnFloat](g, x, y T, p int) T {
	switch p {
	case 1:
		return g
	case 2:
		return g * x / y
	case 3:
		return g * x * x / (y * y)
	}
	return g * T(math.Pow(float64(x), float64(p-1))/math.Pow(float64(y), float64(p-1)))
}
