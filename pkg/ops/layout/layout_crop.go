package layout

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// MXNet's legacy Crop: crops the two spatial axes of a 4-D float32 NCHW array to h_w, or
// to the spatial size of a second array, at offset or centred. (mx.nd.crop, lower-case,
// is slice's alias: layout_slice.go.)

func init() {
	ops.Register(&ops.Op{
		Name: "Crop", Grad: ops.RegionGrad(cropRegion),
		Doc: "Crops the spatial axes of a 4-D float32 array (N, C, H, W) to (h, w): h_w, or the last two axes " +
			"of a second array (num_args=2).\n\nThe window starts at offset (y, x), or is centred with " +
			"center_crop (rounding down). num_args defaults to the number of arrays given.",
		Category: ops.General, Inputs: []string{"*data"}, DTypes: []ndarray.DType{ndarray.Float32},
		Params: []ops.Param{
			{Name: "num_args", Kind: ops.ParamOptInt, Default: "None", Doc: "1 (crop to h_w) or 2 (crop like the second array)"},
			{Name: "offset", Kind: ops.ParamShape, Default: "0,0", Doc: "the (y, x) corner of the window"},
			{Name: "h_w", Kind: ops.ParamShape, Default: "0,0", Doc: "the (height, width) of the window when num_args=1"},
			{Name: "center_crop", Kind: ops.ParamBool, Default: "0", Doc: "centre the window instead of using offset"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			shape, _, err := cropWindow(in, at)
			return shape, ndarray.Float32, err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			_, off, err := cropWindow(in, at)
			if err != nil || out[0].Size() == 0 {
				return err
			}
			a := in[0]
			return moveFromView(out[0], a, out[0].Shape(), a.Strides(), a.Offset()+off[0]*a.Strides()[2]+off[1]*a.Strides()[3])
		},
	})
}

// cropWindow is Crop's result shape and the (y, x) of its window, with MXNet's checks.
func cropWindow(in []*ndarray.NDArray, at ops.Attrs) (shape, off []int, err error) {
	n, given := at.OptInt("num_args")
	if !given {
		n = len(in)
	}
	if n != len(in) || n < 1 || n > 2 {
		return nil, nil, mxerr.TypeErr("Crop takes num_args=1 or 2 arrays and as many arrays, got num_args=%d and %d array(s)", n, len(in))
	}
	s := in[0].Shape()
	if len(s) != 4 {
		return nil, nil, mxerr.ValueErr("Crop: the data must be 4-D (N, C, H, W), got %d-D", len(s))
	}
	hw, offset := at.Ints("h_w"), at.Ints("offset")
	if len(hw) != 2 || len(offset) != 2 {
		return nil, nil, mxerr.ValueErr("Crop: h_w and offset have two values each, got %s and %s", ops.FmtShape(hw), ops.FmtShape(offset))
	}
	if n == 2 {
		like := in[1].Shape()
		if len(like) < 4 {
			return nil, nil, mxerr.ValueErr("Crop: the second array must be 4-D, got %d-D", len(like))
		}
		hw = like[2:4]
	} else if hw[0] < 1 || hw[1] < 1 {
		return nil, nil, mxerr.ValueErr("Crop: the crop height and width (h_w) must be at least 1, got %s", ops.FmtShape(hw))
	}
	if hw[0] > s[2] || hw[1] > s[3] {
		return nil, nil, mxerr.ValueErr("Crop: the window %s is larger than the input's %s", ops.FmtShape(hw), ops.FmtShape(s[2:]))
	}
	off = offset
	if at.Bool("center_crop") {
		off = []int{(s[2] - hw[0]) / 2, (s[3] - hw[1]) / 2}
	} else if off[0] < 0 || off[1] < 0 || off[0] > s[2]-hw[0] || off[1] > s[3]-hw[1] {
		return nil, nil, mxerr.ValueErr("Crop: offset %s leaves no room for a %s window in %s", ops.FmtShape(off), ops.FmtShape(hw), ops.FmtShape(s[2:]))
	}
	return []int{s[0], s[1], hw[0], hw[1]}, off, nil
}
