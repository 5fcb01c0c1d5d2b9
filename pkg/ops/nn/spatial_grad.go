package nn

import (
	"math"
	"strconv"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The spatial transformers' gradients, MXNet 1.9.1's. GridGenerator's is linear, so it
// calls operators: an affine grid's (N, 2, H, W) gradient g gives the 2x3 matrix's rows
// as sums of g times the target's normalised coordinates (nx, ny, 1); a warp's scales the
// flow's x and y by 2/(W-1) and 2/(H-1), the pixel-to-normalised step. BilinearSampler's
// reads the image at each point's four neighbours, which no operator does: its data's
// gradient scatters each point's gradient to them by their bilinear weights, and its
// grid's is the derivative of the weights (neighbours outside the image read 0), as
// MXNet's kernel computes it; _backward_BilinearSampler_data and _grid, without
// gradients of their own. SpatialTransformer's chains the two.

func init() {
	fwd, _ := ops.Lookup("BilinearSampler") // spatial.go, initialised before this file
	for part, name := range []string{"data", "grid"} {
		registerBackward(fwd, "_backward_BilinearSampler_"+name, part, func(in []*ndarray.NDArray, _ ops.Attrs) ([]float64, error) {
			dData, dGrid := bilinearBackward(in[0], in[1], ops.IndexValues(in[2]), part == 0)
			if part == 0 {
				return dData, nil
			}
			return dGrid, nil
		})
	}
}

var gridGeneratorGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	g := c.OutGrad[0]
	if c.Attrs.Str("transform_type") == "warp" {
		sh := c.Shapes[0]
		gx := s.Call("_multiply_scalar", nnScalar(2/float64(sh[3]-1)), s.Call("slice_axis", "axis=1;begin=0;end=1", g))
		gy := s.Call("_multiply_scalar", nnScalar(2/float64(sh[2]-1)), s.Call("slice_axis", "axis=1;begin=1;end=2", g))
		return s.Done(s.Call("concat", "dim=1", gx, gy))
	}
	return s.Done(affineThetaGrad(s, g))
}}

// affineThetaGrad is the gradient (N, 6) of an affine grid's matrices from the grid's
// gradient g (N, 2, H, W): per row of the matrix, g's sums weighted by nx, ny and 1.
func affineThetaGrad(s *ops.GradCalls, g *ndarray.NDArray) *ndarray.NDArray {
	sh := g.Shape()
	n, h, w := sh[0], sh[2], sh[3]
	coords := func(num int, shape []int) *ndarray.NDArray {
		at := "start=-1;stop=1;num=" + strconv.Itoa(num) + ";dtype=" + g.DType().String()
		return s.Reshape(s.Call("_linspace", at), shape)
	}
	nx, ny := coords(w, []int{1, 1, 1, w}), coords(h, []int{1, 1, h, 1})
	const plane = "axis=2,3"
	sx := s.Call("sum", plane, s.Call("broadcast_mul", "", g, nx))
	sy := s.Call("sum", plane, s.Call("broadcast_mul", "", g, ny))
	s1 := s.Call("sum", plane, g)
	return s.Reshape(s.Call("stack", "axis=2", sx, sy, s1), []int{n, 6}) // (N, 2, 3): the matrix's layout
}

var bilinearSamplerGrad = backwardGrad("_backward_BilinearSampler_data", "_backward_BilinearSampler_grid")

var spatialTransformerGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	t := c.Attrs.Ints("target_shape")
	grid := s.Call("GridGenerator", "transform_type=affine;target_shape="+ops.WireInts(t), c.In[1])
	var dData, dLoc *ndarray.NDArray
	if c.Need[0] {
		dData = s.Call("_backward_BilinearSampler_data", "", c.In[0], grid, c.OutGrad[0])
	}
	if c.Need[1] {
		dLoc = affineThetaGrad(s, s.Call("_backward_BilinearSampler_grid", "", c.In[0], grid, c.OutGrad[0]))
	}
	return s.Done(dData, dLoc)
}}

// bilinearBackward computes BilinearSampler's gradients from data (N, C, H, W), grid
// (N, 2, Ho, Wo) and the result's gradient g: the data's when wantData (else nil), and
// always the grid's (the cheaper part).
func bilinearBackward(data, gridArr *ndarray.NDArray, g []float64, wantData bool) (dData, dGrid []float64) {
	s, gs := data.Shape(), gridArr.Shape()
	n, c, h, w := s[0], s[1], s[2], s[3]
	pts := gs[2] * gs[3]
	img, grid := ops.IndexValues(data), ops.IndexValues(gridArr)
	if wantData {
		dData = make([]float64, len(img))
	}
	dGrid = make([]float64, len(grid))
	inside := func(y, x int) bool { return y >= 0 && y < h && x >= 0 && x < w }
	for b := range n {
		for i := range pts {
			ix, iy := (b*2)*pts+i, (b*2+1)*pts+i
			px, py := (grid[ix]+1)*float64(w-1)/2, (grid[iy]+1)*float64(h-1)/2
			if math.IsNaN(px) || math.IsNaN(py) || math.Abs(px) > 1<<30 || math.Abs(py) > 1<<30 {
				continue // the forward's 0
			}
			x0, y0 := math.Floor(px), math.Floor(py)
			wx, wy := 1-(px-x0), 1-(py-y0) // the top-left neighbour's weights
			xi, yi := int(x0), int(y0)
			corners := [4][2]int{{yi, xi}, {yi, xi + 1}, {yi + 1, xi}, {yi + 1, xi + 1}}
			weights := [4]float64{wy * wx, wy * (1 - wx), (1 - wy) * wx, (1 - wy) * (1 - wx)}
			var gx, gy float64
			for ch := range c {
				gi := g[((b*c+ch)*pts)+i]
				var v [4]float64 // top-left, top-right, bottom-left, bottom-right; 0 outside
				for k, yx := range corners {
					if inside(yx[0], yx[1]) {
						j := ((b*c+ch)*h+yx[0])*w + yx[1]
						v[k] = img[j]
						if wantData {
							dData[j] += gi * weights[k]
						}
					}
				}
				cross := v[0] - v[1] - v[2] + v[3]
				gy -= gi * (v[1] - v[3] + cross*wx)
				gx -= gi * (v[2] - v[3] + cross*wy)
			}
			dGrid[ix] += gx * float64(w-1) / 2
			dGrid[iy] += gy * float64(h-1) / 2
		}
	}
	return dData, dGrid
}
