package nn

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// ROIPooling, forward (Fast R-CNN's): each region of interest, scaled onto the feature map
// and rounded to whole pixels, is split into pooled_size bins, and each bin gives its
// maximum per channel; an empty bin gives 0, and so does a region whose batch index is
// out of range (MXNet's conventions).

func init() {
	ops.Register(&ops.Op{
		Name: "ROIPooling",
		Doc: "Max-pools data (N, C, H, W) over regions of interest rois (R, 5): (batch index, x1, y1, x2, y2) in " +
			"image coordinates, scaled by spatial_scale. The result has shape (R, C, pooled_height, pooled_width).",
		Category: ops.General, Inputs: []string{"data", "rois"}, DTypes: ops.FloatDTypes,
		Params: []ops.Param{
			{Name: "pooled_size", Kind: ops.ParamShape, Doc: "(height, width) of each region's output"},
			{Name: "spatial_scale", Kind: ops.ParamFloat, Doc: "the feature map's size over the image's"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			d, r, ps := in[0].Shape(), in[1].Shape(), at.Ints("pooled_size")
			if len(d) != 4 || len(r) != 2 || r[1] != 5 || in[1].DType() != in[0].DType() {
				return nil, 0, mxerr.ValueErr("ROIPooling: needs data (N, C, H, W) and rois (R, 5) of its dtype, got %s and %s",
					ops.FmtShape(d), ops.FmtShape(r))
			}
			if len(ps) != 2 || ps[0] < 1 || ps[1] < 1 || !(at.Float("spatial_scale") > 0) {
				return nil, 0, mxerr.ValueErr("ROIPooling: pooled_size must be two positive ints and spatial_scale positive")
			}
			return []int{r[0], d[1], ps[0], ps[1]}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			img := ops.IndexValues(in[0])
			res := make([]float64, 0, out[0].Size())
			forROIBins(in, at, func(_ int, base int, bin roiBin) {
				if i := bin.argmax(img, base, in[0].Shape()[3]); i >= 0 {
					res = append(res, img[i])
				} else {
					res = append(res, 0)
				}
			})
			i := 0
			ops.FillInOrder(out[0], func() float64 { i++; return res[i-1] })
			return nil
		},
		Grad: roiPoolGrad,
	})
}

// roiBin is one bin of a region: rows [h0, h1) and columns [w0, w1) of the feature map,
// or empty (no pixel, or a batch index out of range).
type roiBin struct {
	h0, h1, w0, w1 int
	empty          bool
}

// argmax is the offset in img of the bin's maximum over the plane starting at base (w
// wide): the first in scan order, as MXNet's strict comparison keeps; -1 when empty.
func (bin roiBin) argmax(img []float64, base, w int) int {
	if bin.empty {
		return -1
	}
	best, m := -1, math.Inf(-1)
	for y := bin.h0; y < bin.h1; y++ {
		for x := bin.w0; x < bin.w1; x++ {
			if j := base + y*w + x; best < 0 || img[j] > m {
				best, m = j, img[j]
			}
		}
	}
	return best
}

// forROIBins calls fn for every bin of every region and channel, in the result's order,
// with the offset of the bin's result and of its plane of the data.
func forROIBins(in []*ndarray.NDArray, at ops.Attrs, fn func(i, base int, bin roiBin)) {
	s := in[0].Shape()
	n, c, h, w := s[0], s[1], s[2], s[3]
	ps, scale := at.Ints("pooled_size"), at.Float("spatial_scale")
	rois := ops.IndexValues(in[1])
	i := 0
	for r := 0; r < len(rois); r += 5 {
		b := int(rois[r])
		// round half away from zero, as C's round
		x1, y1 := int(math.Round(rois[r+1]*scale)), int(math.Round(rois[r+2]*scale))
		x2, y2 := int(math.Round(rois[r+3]*scale)), int(math.Round(rois[r+4]*scale))
		binH := float64(max(y2-y1+1, 1)) / float64(ps[0])
		binW := float64(max(x2-x1+1, 1)) / float64(ps[1])
		for ch := range c {
			for py := range ps[0] {
				h0 := clampInt(int(math.Floor(float64(py)*binH))+y1, 0, h)
				h1 := clampInt(int(math.Ceil(float64(py+1)*binH))+y1, 0, h)
				for px := range ps[1] {
					w0 := clampInt(int(math.Floor(float64(px)*binW))+x1, 0, w)
					w1 := clampInt(int(math.Ceil(float64(px+1)*binW))+x1, 0, w)
					bin := roiBin{h0, h1, w0, w1, b < 0 || b >= n || h1 <= h0 || w1 <= w0}
					fn(i, ((b*c)+ch)*h*w, bin)
					i++
				}
			}
		}
	}
}

func clampInt(v, lo, hi int) int { return min(max(v, lo), hi) }
