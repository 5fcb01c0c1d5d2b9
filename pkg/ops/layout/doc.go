// Package layout registers the operators that move elements without computing on them:
// shapes, slicing, joining and splitting, gathers and scatters, indexing, creation.
//
//	shape.go, shape_dims.go     transpose, reshape, concat, stack; expand_dims, squeeze, swapaxes, slice_axis
//	shape_repeat.go             tile, repeat, broadcast_to and broadcast_like
//	shape_gather.go             take, pick, one_hot
//	creation_like.go            zeros_like, ones_like, linspace, eye, diag
//	layout_slice.go             slice, slice_like, reshape_like, shape_array, split.s parts
//	layout_gather.go            gather_nd, scatter_nd
//	layout_pad.go, layout_crop.go, layout_space.go, layout_sequence.go  pad, Crop,
//	                            depth_to_space / space_to_depth, Sequence*
//	index_axes.go               advanced indexing's gather and scatter
//	layout_grad.go              gradients: transpose, concat/stack, the slices' regions, tile, repeat
//	layout_grad_index.go        gradients of the gathers: _backward_take/pick/gather_nd/gather_axes
//	layout_grad_more.go         gradients of pad (_backward_Pad), Crop, diag, depth_to_space,
//	                            space_to_depth, the Sequence operators (_backward_sequence_last)
package layout
