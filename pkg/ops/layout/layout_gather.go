package layout

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's multi-dimensional gathers and scatters: gather_nd, scatter_nd,
// ravel_multi_index, unravel_index, batch_take, fill_element_0index and _onehot_encode
// (onehot_encode's kernel; choose_element_0index is pick's alias, in shape_gather.go).
// Indices may have any real dtype; floating-point indices truncate toward zero, as
// MXNet's casts do. Where MXNet reads or writes out of bounds (scatter_nd,
// fill_element_0index with bad indices) mxgo skips the element instead.

func init() {
	ops.Register(&ops.Op{
		Name: "gather_nd", Grad: gatherNDGrad,
		Doc: "Gathers slices of data at the index tuples in the columns of indices: indices has shape " +
			"(M, Y...), M <= data.ndim, and the result shape Y... + data.shape[M:].\n\n" +
			"out[y..., x...] = data[indices[0, y...], ..., indices[M-1, y...], x...]. Negative indices " +
			"count from the end; an index outside [-n, n-1] raises IndexError.",
		Category: ops.General, Inputs: []string{"data", "indices"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			ds, is := in[0].Shape(), in[1].Shape()
			if err := checkIndexDType("gather_nd", in[1].DType()); err != nil {
				return nil, 0, err
			}
			if len(is) < 2 {
				return nil, 0, mxerr.ValueErr("gather_nd: indices must have at least 2 dimensions, got shape %s", ops.FmtShape(is))
			}
			if is[0] > len(ds) {
				return nil, 0, mxerr.ValueErr("gather_nd: indices has %d rows, more than the %d dimensions of data", is[0], len(ds))
			}
			return append(append([]int(nil), is[1:]...), ds[is[0]:]...), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			a, idx := in[0], in[1]
			m := idx.Shape()[0]
			if m > 0 && ops.IsIntegral(idx.DType()) && idx.DType() != ndarray.Uint64 {
				ints, k := int64Indices(idx), idx.Size()/m
				cols := make([][]int64, m)
				for j := range cols {
					cols[j] = ints[j*k : (j+1)*k]
				}
				return gatherNDInts(out[0], a, cols)
			}
			rows, err := ndOffsets(a.Shape(), a.Strides(), idx)
			if err != nil {
				return err
			}
			if len(rows) == 0 || out[0].Size() == 0 {
				return nil
			}
			return ops.GatherSpan(out[0], a, 0, m, rows, 1, false)
		},
	})
	ops.Register(&ops.Op{
		Name: "scatter_nd", Grad: scatterNDGrad,
		Doc: "Scatters data into a new zero array of the given shape at the index tuples in the columns of " +
			"indices (the inverse of gather_nd): out[indices[0, y...], ..., indices[M-1, y...], x...] = data[y..., x...].\n\n" +
			"data has shape indices.shape[1:] + shape[M:]. Where an index tuple repeats, the last one wins; " +
			"a tuple whose flat position falls outside the result is skipped.",
		Category: ops.General, Inputs: []string{"data", "indices"},
		Params: []ops.Param{{Name: "shape", Kind: ops.ParamShape, Doc: "the shape of the result"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			ds, is, shape := in[0].Shape(), in[1].Shape(), at.Ints("shape")
			if err := checkIndexDType("scatter_nd", in[1].DType()); err != nil {
				return nil, 0, err
			}
			ok := len(is) >= 1 && is[0] <= len(shape) && len(ds) == len(is)-1+len(shape)-is[0]
			for i := 0; ok && i < len(ds); i++ {
				if i < len(is)-1 {
					ok = ds[i] == is[i+1]
				} else {
					ok = ds[i] == shape[is[0]+i-(len(is)-1)]
				}
			}
			if !ok {
				return nil, 0, mxerr.ValueErr("scatter_nd: data of shape %s, indices of shape %s and shape %s do not fit "+
					"(data needs the shape indices.shape[1:] + shape[M:])", ops.FmtShape(ds), ops.FmtShape(is), ops.FmtShape(shape))
			}
			if _, err := ndarray.Size(shape); err != nil || slicesAnyNegative(shape) {
				return nil, 0, mxerr.ValueErr("scatter_nd: invalid shape %s", ops.FmtShape(shape))
			}
			return append([]int(nil), shape...), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error { return scatterND(out[0], in[0], in[1]) },
	})
	ops.Register(&ops.Op{
		Name: "ravel_multi_index", Grad: ops.ZeroGrad, // as MXNet: integer-valued
		Doc: "Converts index tuples (the columns of data, shape (len(shape), N)) into flat indices into an array " +
			"of the given shape: a 1-D result of data's dtype.\n\nAs in MXNet, indices are not checked against the shape.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "shape", Kind: ops.ParamShape, Doc: "the shape the flat indices refer to"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, shape := in[0].Shape(), at.Ints("shape")
			if err := checkIndexDType("ravel_multi_index", in[0].DType()); err != nil {
				return nil, 0, err
			}
			if len(shape) == 0 {
				return nil, 0, mxerr.ValueErr("ravel_multi_index: shape must not be empty")
			}
			if len(s) != 2 || s[0] != len(shape) {
				return nil, 0, mxerr.ValueErr("ravel_multi_index: data must have shape (%d, N) for a shape of %d dimensions, got %s",
					len(shape), len(shape), ops.FmtShape(s))
			}
			return []int{s[1]}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			shape := at.Ints("shape")
			idx := readIndices(in[0], false)
			n := in[0].Shape()[1]
			flat := make([]int64, n)
			for i := range flat {
				for j, d := range shape {
					flat[i] = flat[i]*int64(d) + idx[j*n+i]
				}
			}
			return writeInts(out[0], flat)
		},
	})
	ops.Register(&ops.Op{
		Name: "unravel_index", Grad: ops.ZeroGrad,
		Doc: "Converts flat indices into index tuples for an array of the given shape: the result has shape " +
			"(len(shape),) + data.shape and data's dtype.\n\nAs in MXNet, the first coordinate is not " +
			"reduced (an index past the end gives a first coordinate past the first axis).",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "shape", Kind: ops.ParamShape, Doc: "the shape the flat indices refer to"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			shape := at.Ints("shape")
			if err := checkIndexDType("unravel_index", in[0].DType()); err != nil {
				return nil, 0, err
			}
			if len(shape) == 0 {
				return nil, 0, mxerr.ValueErr("unravel_index: shape must not be empty")
			}
			for _, d := range shape[1:] {
				if d == 0 {
					return nil, 0, mxerr.ValueErr("unravel_index: shape %s has a 0 (a division by zero)", ops.FmtShape(shape))
				}
			}
			res := append([]int{len(shape)}, in[0].Shape()...)
			if len(res) > ndarray.MaxDims {
				return nil, 0, mxerr.ValueErr("unravel_index: the result has %d dimensions, more than %d", len(res), ndarray.MaxDims)
			}
			return res, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			shape := at.Ints("shape")
			idx := readIndices(in[0], false)
			n := len(idx)
			coords := make([]int64, len(shape)*n)
			for i, v := range idx {
				for j := len(shape) - 1; j > 0; j-- { // C's truncating division, as MXNet's kernel
					q := v / int64(shape[j])
					coords[j*n+i] = v - q*int64(shape[j])
					v = q
				}
				coords[i] = v
			}
			return writeInts(out[0], coords)
		},
	})
	ops.Register(&ops.Op{
		Name: "batch_take",
		Doc: "Takes one element per row: out[i] = a[i, indices[i]] with a seen as (a.shape[0], rest), " +
			"indices int32 and clipped to the row.\n\nThe result has indices' shape; as in MXNet, " +
			"indices.size must equal a.size / a.shape[-1] (and here, at most a.shape[0]).",
		Category: ops.General, Inputs: []string{"a", "indices"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			if in[1].DType() != ndarray.Int32 {
				return nil, 0, mxerr.TypeErr("batch_take: indices must be int32, got %s", in[1].DType())
			}
			if len(s) == 0 || s[len(s)-1] == 0 || in[0].Size()/s[len(s)-1] != in[1].Size() || in[1].Size() > s[0] {
				return nil, 0, mxerr.ValueErr("batch_take: indices has %d elements; a of shape %s needs %s",
					in[1].Size(), ops.FmtShape(s), "a.size / a.shape[-1] of them")
			}
			return in[1].Shape(), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			a := in[0]
			if out[0].Size() == 0 {
				return nil
			}
			row := a.Size() / a.Shape()[0]
			var flat []int // the element offset of each C-order position, when a is strided
			if !a.Contiguous() {
				flat = ops.OffsetsOf(a.Shape(), a.Strides(), 0)
			}
			rows := make([]int, in[1].Size())
			for i, j := range readIndices(in[1], true) {
				if rows[i] = i*row + int(min(max(j, 0), int64(row-1))); flat != nil {
					rows[i] = flat[rows[i]]
				}
			}
			return ops.GatherSpan(out[0], a, 0, a.NDim(), rows, 1, false)
		},
	})
	ops.Register(&ops.Op{
		Name: "fill_element_0index",
		Doc: "Returns a copy of the 2-D lhs with one element per row replaced: out[i, rhs[i]] = mhs[i].\n\n" +
			"mhs and rhs are 1-D with lhs.shape[0] elements; all three are float32 (MXNet's only dtype here; " +
			"rhs truncates toward zero). An index outside the row leaves the row unchanged.",
		Category: ops.General, Inputs: []string{"lhs", "mhs", "rhs"}, DTypes: []ndarray.DType{ndarray.Float32},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			l, m, r := in[0].Shape(), in[1].Shape(), in[2].Shape()
			if len(l) != 2 || len(m) != 1 || len(r) != 1 {
				return nil, 0, mxerr.ValueErr("fill_element_0index: lhs must be 2-D, mhs and rhs 1-D, got shapes %s, %s, %s",
					ops.FmtShape(l), ops.FmtShape(m), ops.FmtShape(r))
			}
			if l[0] != m[0] || m[0] != r[0] {
				return nil, 0, mxerr.ValueErr("fill_element_0index: lhs, mhs and rhs need the same first dimension, got %s, %s, %s",
					ops.FmtShape(l), ops.FmtShape(m), ops.FmtShape(r))
			}
			return l, ndarray.Float32, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			o, vals := out[0], in[1]
			ndarray.MoveElems(o, in[0])
			size := o.DType().Size()
			move := ops.Transfer(o.DType(), o.DType())
			for i, j := range readIndices(in[2], false) {
				if j < 0 || j >= int64(o.Shape()[1]) {
					continue
				}
				dst := unsafe.Add(o.Storage().Ptr(), (o.Offset()+i*o.Strides()[0]+int(j)*o.Strides()[1])*size)
				move(dst, unsafe.Add(vals.Storage().Ptr(), (vals.Offset()+i*vals.Strides()[0])*size))
			}
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name:     "_onehot_encode",
		Doc:      "onehot_encode's kernel: float32 rows of depth zeros with a one at each (truncated) index in range.",
		Category: ops.General, Inputs: []string{"indices"}, DTypes: []ndarray.DType{ndarray.Float32},
		Params: []ops.Param{{Name: "depth", Kind: ops.ParamInt, Doc: "the length of each row"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if in[0].NDim() != 1 || at.Int("depth") < 0 {
				return nil, 0, mxerr.ValueErr("onehot_encode: indices must be 1-D and out 2-D, got indices of shape %s", ops.FmtShape(in[0].Shape()))
			}
			return []int{in[0].Shape()[0], at.Int("depth")}, ndarray.Float32, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			op, err := ops.Lookup("one_hot")
			if err != nil {
				return err
			}
			return op.Kernel(in, out, ops.Attrs{"depth": at.Int("depth"), "on_value": 1.0, "off_value": 0.0, "dtype": ndarray.Float32})
		},
	})
}

func slicesAnyNegative(s []int) bool {
	for _, d := range s {
		if d < 0 {
			return true
		}
	}
	return false
}

// ndOffsets is gather_nd's element offset of each index tuple into an array of the given
// shape and strides (without its own offset), checking each index as MXNet does: in
// [-n, n-1], on its value before truncation (and adding n to a negative one before
// truncating: -1.5 on an axis of 2 is 0).
func ndOffsets(shape, strides []int, idx *ndarray.NDArray) ([]int, error) {
	m := idx.Shape()[0]
	k := idx.Size() / max(m, 1)
	rows := make([]int, k)
	var ints []int64
	var floats []float64
	if ops.IsIntegral(idx.DType()) && idx.DType() != ndarray.Uint64 { // no float conversion needed
		ints = int64Indices(idx)
	} else {
		floats = ops.IndexValues(idx)
	}
	for j := 0; j < m; j++ {
		n, st := shape[j], strides[j]
		for i := range rows {
			if ints != nil {
				v := ints[j*k+i]
				if v < -int64(n) || v >= int64(n) {
					return nil, mxerr.IndexErr("gather_nd: index %d is out of bounds for axis %d with size %d", v, j, n)
				}
				if v < 0 {
					v += int64(n)
				}
				rows[i] += int(v) * st
				continue
			}
			v := floats[j*k+i]
			if !(v >= -float64(n) && v <= float64(n-1)) {
				return nil, mxerr.IndexErr("gather_nd: index %v is out of bounds for axis %d with size %d", v, j, n)
			}
			if v < 0 {
				v += float64(n)
			}
			rows[i] += int(v) * st
		}
	}
	return rows, nil
}

// int64Indices is readIndices(idx, false), without a copy for a contiguous int64 idx
// (the caller only reads it, on the engine, while idx is held).
func int64Indices(idx *ndarray.NDArray) []int64 {
	if idx.Contiguous() && idx.DType() == ndarray.Int64 {
		return unsafe.Slice((*int64)(idx.Data()), idx.Size())
	}
	return readIndices(idx, false)
}

// writeInts stores vals, in C order, into out, converting as C casts from integers do.
func writeInts(out *ndarray.NDArray, vals []int64) error {
	return ops.IntoContiguous(out, func(o *ndarray.NDArray) error {
		io, size := ops.IOTable[o.DType()], o.DType().Size()
		base := unsafe.Add(o.Storage().Ptr(), o.Offset()*size)
		integral := ops.IsIntegral(o.DType())
		for i, v := range vals {
			if p := unsafe.Add(base, i*size); integral {
				io.StoreI(p, uint64(v))
			} else {
				io.StoreC(p, complex(float64(v), 0))
			}
		}
		return nil
	})
}

// scatterND zero-fills out, then copies each block of data (data.shape[M:] elements, in
// C order) to the flat position its index tuple names, as MXNet's kernel computes it.
func scatterND(out, data, idx *ndarray.NDArray) error {
	m := idx.Shape()[0]
	lead, _ := ndarray.Size(out.Shape()[:m])
	block, _ := ndarray.Size(out.Shape()[m:])
	strides := ndarray.ContiguousStrides(out.Shape()[:m])
	src, err := ops.ContiguousOf(data)
	if err != nil {
		return err
	}
	defer src.Release()
	vals := int64Indices(idx)
	k := len(vals) / max(m, 1)
	size := out.DType().Size()
	return ops.IntoContiguous(out, func(o *ndarray.NDArray) error {
		ops.FillKernel(o, ops.Scalar{})
		if block == 0 {
			return nil
		}
		g := ndScatterJob{dst: unsafe.Add(o.Storage().Ptr(), o.Offset()*size),
			src: unsafe.Add(src.Storage().Ptr(), src.Offset()*size), idx: vals, strides: strides, k: k, lead: lead, block: block}
		switch size { // typed copies by element size: one store per element for the common block of 1
		case 1:
			ndScatterT[uint8](g)
		case 2:
			ndScatterT[uint16](g)
		case 4:
			ndScatterT[uint32](g)
		case 8:
			ndScatterT[uint64](g)
		default:
			ndScatterT[[2]uint64](g)
		}
		return nil
	})
}

// ndScatterJob is scatter_nd's copy: block elements from src, for each of the k index
// tuples (column i of idx, with the strides of the leading axes of dst), to the block at
// the tuple's flat position in dst when that lies in [0, lead).
type ndScatterJob struct {
	dst, src       unsafe.Pointer
	idx            []int64
	strides        []int
	k, lead, block int
}

func ndScatterT[T any](g ndScatterJob) {
	dst := unsafe.Slice((*T)(g.dst), g.lead*g.block)
	src := unsafe.Slice((*T)(g.src), g.k*g.block)
	for i := 0; i < g.k; i++ {
		f := int64(0)
		for j, st := range g.strides {
			f += int64(st) * g.idx[j*g.k+i]
		}
		if f < 0 || f >= int64(g.lead) { // MXNet writes out of bounds here
			continue
		}
		if g.block == 1 {
			dst[f] = src[i]
			continue
		}
		copy(dst[int(f)*g.block:(int(f)+1)*g.block], src[i*g.block:(i+1)*g.block])
	}
}
