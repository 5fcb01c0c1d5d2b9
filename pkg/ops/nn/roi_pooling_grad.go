package nn

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// ROIPooling's gradient, MXNet 1.9.1's: each bin's gradient goes to the element its
// forward picked (the first maximum in scan order; none for an empty bin), summed over
// the regions and bins that picked it. The rois get none (MXNet gives them zeros). The
// bins are no operator: _backward_ROIPooling, without a gradient of its own.

func init() {
	fwd, _ := ops.Lookup("ROIPooling") // roi_pooling.go, initialised before this file
	registerBackward(fwd, "_backward_ROIPooling", 0, func(in []*ndarray.NDArray, at ops.Attrs) ([]float64, error) {
		img, g := ops.IndexValues(in[0]), ops.IndexValues(in[2])
		dx := make([]float64, len(img))
		forROIBins(in, at, func(i, base int, bin roiBin) {
			if j := bin.argmax(img, base, in[0].Shape()[3]); j >= 0 {
				dx[j] += g[i]
			}
		})
		return dx, nil
	})
}

var roiPoolGrad = backwardGrad("_backward_ROIPooling")
