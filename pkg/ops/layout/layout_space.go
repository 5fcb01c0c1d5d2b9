package layout

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's depth_to_space and space_to_depth (DCR order, NCHW). Both are a reshape and a
// transpose: the kernels split axes of the input and of the output into 6-D strided
// views (splitting an axis is always a view, whatever the strides) and copy one onto the
// other, so strided inputs and outputs cost nothing extra.

func init() {
	blockParam := []ops.Param{{Name: "block_size", Kind: ops.ParamInt, Doc: "the size of the spatial blocks (positive)"}}
	ops.Register(&ops.Op{
		Name: "depth_to_space", Grad: spaceGrad("space_to_depth"),
		Doc: "Moves blocks of channels into spatial blocks: (N, C, H, W) becomes (N, C/b^2, H*b, W*b), " +
			"b = block_size.\n\nThe input is 4-D with C a multiple of b^2; out[n, c, h*b+i, w*b+j] = " +
			"data[n, (i*b+j)*C/b^2 + c, h, w].",
		Category: ops.General, Inputs: []string{"data"}, Params: blockParam,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, b, err := spaceArgs("depth_to_space", in[0], at)
			if err != nil {
				return nil, 0, err
			}
			if b > 1<<31 || s[1]%(b*b) != 0 { // (b*b would overflow past 2**31)
				return nil, 0, mxerr.ValueErr("depth_to_space: the channel axis (%d) must be a multiple of block_size^2 = %d", s[1], b*b)
			}
			return []int{s[0], s[1] / (b * b), s[2] * b, s[3] * b}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a, o, b := in[0], out[0], at.Int("block_size")
			s, st, c := a.Shape(), a.Strides(), o.Shape()[1]
			// out as (N, C', H, b, W, b); data as (N, b, b, C', H, W) permuted to that order;
			// both then in the order (N, C', H, b, b, W), so that the long W axis is the
			// inner loop (contiguous in data) rather than the second b
			shape, dst := splitAxis(o.Shape(), o.Strides(), 3, s[3], b)
			shape, dst = splitAxis(shape, dst, 2, s[2], b)
			src := []int{st[0], st[1], st[2], b * c * st[1], st[3], c * st[1]}
			swap := func(v []int) []int { v[4], v[5] = v[5], v[4]; return v }
			return moveSplit(o, a, swap(shape), swap(dst), swap(src))
		},
	})
	ops.Register(&ops.Op{
		Name: "space_to_depth", Grad: spaceGrad("depth_to_space"),
		Doc: "Moves spatial blocks into channels: (N, C, H, W) becomes (N, C*b^2, H/b, W/b), " +
			"b = block_size (the inverse of depth_to_space).\n\nThe input is 4-D with H and W multiples of b.",
		Category: ops.General, Inputs: []string{"data"}, Params: blockParam,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, b, err := spaceArgs("space_to_depth", in[0], at)
			if err != nil {
				return nil, 0, err
			}
			if s[2]%b != 0 || s[3]%b != 0 {
				return nil, 0, mxerr.ValueErr("space_to_depth: the spatial axes (%d, %d) must be multiples of block_size %d", s[2], s[3], b)
			}
			return []int{s[0], s[1] * b * b, s[2] / b, s[3] / b}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a, o, b := in[0], out[0], at.Int("block_size")
			st := a.Strides()
			// out as (N, b, b, C, H', W'); data as (N, C, H', b, W', b) permuted to that order
			shape, dst := splitAxis(o.Shape(), o.Strides(), 1, b, b, a.Shape()[1])
			src := []int{st[0], st[2], st[3], st[1], b * st[2], b * st[3]}
			return moveSplit(o, a, shape, dst, src)
		},
	})
}

func spaceArgs(name string, a *ndarray.NDArray, at ops.Attrs) ([]int, int, error) {
	b := at.Int("block_size")
	if a.NDim() != 4 {
		return nil, 0, mxerr.ValueErr("%s: the input must be 4-D (NCHW), got %d-D", name, a.NDim())
	}
	if b <= 0 {
		return nil, 0, mxerr.ValueErr("%s: block_size must be a positive integer, got %d", name, b)
	}
	return a.Shape(), b, nil
}

// splitAxis replaces axis d of a layout by axes of lengths parts (whose product is its
// length), the last varying fastest: always possible as a view.
func splitAxis(shape, strides []int, d int, parts ...int) ([]int, []int) {
	ps := make([]int, len(parts))
	t := strides[d]
	for i := len(parts) - 1; i >= 0; i-- {
		ps[i] = t
		t *= parts[i]
	}
	return slices.Concat(shape[:d], parts, shape[d+1:]), slices.Concat(strides[:d], ps, strides[d+1:])
}

// moveSplit copies the view (shape, srcStrides) of a's storage into o seen with the
// same shape through dstStrides.
func moveSplit(o, a *ndarray.NDArray, shape, dstStrides, srcStrides []int) error {
	if o.Size() == 0 {
		return nil
	}
	dst, err := ndarray.View(o.Storage(), o.DType(), shape, dstStrides, o.Offset(), true)
	if err != nil {
		return err
	}
	defer dst.Release()
	return moveFromView(dst, a, shape, srcStrides, a.Offset())
}
