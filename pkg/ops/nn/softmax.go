package nn

import (
	"math"
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's softmax family: softmax (with an optional length array, by position or by name:
// softmax(data, length, use_length=True)), log_softmax, softmin,
// SoftmaxActivation, SoftmaxOutput (alias Softmax; its gradient is softmax_grad.go's) and
// softmax_cross_entropy. Inputs are floating-point, as MXNet requires; float16 and
// bfloat16 compute in float32, and in float64 when the input or the result is float64.

var smParams = []ops.Param{
	{Name: "axis", Kind: ops.ParamInt, Default: "-1", Doc: "the axis to normalize along"},
	{Name: "temperature", Kind: ops.ParamFloat, Default: "1", Doc: "divides (x - max) before the exponential"},
	{Name: "dtype", Kind: ops.ParamOptDType, Default: "None", Doc: "result dtype: float16, float32 or float64 (None: the input's)"},
	{Name: "use_length", Kind: ops.ParamBool, Default: "0", Doc: "normalize only the first length[...] elements of each lane (softmax's length array)"},
}

// smOutputParams are SoftmaxOutput's parameters (its backward's too).
var smOutputParams = []ops.Param{
	{Name: "grad_scale", Kind: ops.ParamFloat, Default: "1", Doc: "scales the gradient (backward only)"},
	{Name: "ignore_label", Kind: ops.ParamFloat, Default: "-1", Doc: "label ignored with use_ignore (backward only)"},
	{Name: "multi_output", Kind: ops.ParamBool, Default: "0", Doc: "softmax along axis 1 at each position"},
	{Name: "use_ignore", Kind: ops.ParamBool, Default: "0", Doc: "ignore ignore_label (backward only)"},
	{Name: "preserve_shape", Kind: ops.ParamBool, Default: "0", Doc: "softmax along the last axis"},
	{Name: "normalization", Kind: ops.ParamString, Default: "null", Doc: "gradient normalization (backward only)",
		Choices: []string{"null", "batch", "valid"}},
	{Name: "out_grad", Kind: ops.ParamBool, Default: "0", Doc: "apply the output gradient (backward only)"},
	{Name: "smooth_alpha", Kind: ops.ParamFloat, Default: "0", Doc: "label smoothing (backward only)"},
}

func init() {
	for _, d := range []struct {
		name, doc string
		kind      smKind
		inputs    []string
	}{
		{"softmax", "Softmax along an axis: e**((x - max)/t) / sum, t the temperature.\n\n" +
			"With use_length=True and a length array (the shape of data without axis, int32 or int64), each lane\n" +
			"is normalized over its first length elements and the rest is 0: softmax(data, length, use_length=True).",
			smSoftmax, []string{"data", "length?"}},
		{"log_softmax", "Logarithm of the softmax along an axis: (x - max)/t - log(sum(e**((x - max)/t))).",
			smLogSoftmax, []string{"data"}},
		{"softmin", "Softmax of -x along an axis: small elements get the large probabilities.",
			smSoftmin, []string{"data"}},
	} {
		name, kind := d.name, d.kind
		ops.Register(&ops.Op{
			Name: name, Doc: d.doc, Category: ops.General, Inputs: d.inputs, Params: smParams,
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				_, dt, err := softmaxSpec(name, in, at)
				return in[0].Shape(), dt, err
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				axis, _, err := softmaxSpec(name, in, at)
				if err != nil {
					return err
				}
				var lengths []int
				if len(in) == 2 {
					if lengths, err = laneLengths(in[1], in[0].Shape()[axis]); err != nil {
						return err
					}
				}
				return softmaxLanes(kind, in[0], out[0], ops.LanesOf(in[0], axis), ops.LanesOf(out[0], axis), at.Float("temperature"), lengths)
			},
			Grad: softmaxGrad(kind),
		})
	}
	ops.Register(&ops.Op{
		Name: "SoftmaxActivation",
		Doc: "Softmax of each instance (mode='instance': along the last axis) or of each position across channels\n" +
			"(mode='channel': along axis 1, for arrays of 3 or more dimensions). float32 only, as in MXNet.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: []ndarray.DType{ndarray.Float32},
		Params: []ops.Param{{Name: "mode", Kind: ops.ParamString, Default: "instance", Doc: "instance or channel",
			Choices: []string{"instance", "channel"}}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, err := activationAxis(in[0], at)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			axis, err := activationAxis(in[0], at)
			if err != nil {
				return err
			}
			return softmaxLanes(smSoftmax, in[0], out[0], ops.LanesOf(in[0], axis), ops.LanesOf(out[0], axis), 1, nil)
		},
		Grad: softmaxActivationGrad,
	})
	ops.RegisterAs(&ops.Op{
		Doc: "The forward pass of MXNet's SoftmaxOutput: the softmax of each instance (the flattened dimensions\n" +
			"after the first), of each position across channels (multi_output: along axis 1) or along the last\n" +
			"axis (preserve_shape). label (data's dtype) is checked for its shape only; the gradient parameters\n" +
			"are accepted and have no effect on the forward pass.",
		Category: ops.General, Inputs: []string{"data", "label"}, DTypes: ops.FloatDTypes,
		Params: smOutputParams,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			return in[0].Shape(), in[0].DType(), softmaxOutputCheck(in, at)
		},
		Kernel: softmaxOutputKernel,
		Grad:   softmaxOutputGrad,
	}, "SoftmaxOutput", "Softmax")
	ops.Register(&ops.Op{
		Name: "softmax_cross_entropy",
		Doc: "Cross-entropy of the softmax of data (batch, classes) against integer labels (batch,), summed over\n" +
			"the batch: sum(-log(max(p[label], 1e-8))), shape (1,). Labels are truncated toward zero; a label\n" +
			"outside [0, classes) counts as probability 0, as in MXNet.",
		Category: ops.General, Inputs: []string{"data", "label"}, DTypes: ops.FloatDTypes,
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			return []int{1}, in[0].DType(), crossEntropyCheck(in)
		},
		Kernel: crossEntropyKernel,
		Grad:   crossEntropyGrad,
	})
}

// softmaxSpec checks a softmax-family call and returns its axis and result dtype.
func softmaxSpec(name string, in []*ndarray.NDArray, at ops.Attrs) (int, ndarray.DType, error) {
	x := in[0]
	if !slices.Contains(ops.FloatDTypes, x.DType()) {
		return 0, 0, mxerr.TypeErr("%s supports floating-point arrays only, not %s", name, x.DType())
	}
	dt, ok := at.OptDType("dtype")
	if !ok {
		dt = x.DType()
	} else if dt != ndarray.Float16 && dt != ndarray.Float32 && dt != ndarray.Float64 {
		return 0, 0, mxerr.TypeErr("%s: dtype must be float16, float32 or float64, not %s", name, dt)
	}
	if x.NDim() == 0 {
		return 0, 0, mxerr.ValueErr("%s: a 0-d array has no axis to normalize along", name)
	}
	axis, err := ops.LaneAxis(name, at.Int("axis"), x.NDim())
	if err != nil {
		return 0, 0, err
	}
	useLength := at.Bool("use_length")
	if name != "softmax" && useLength {
		return 0, 0, mxerr.ValueErr("%s does not take use_length=True (only softmax has a length array)", name)
	}
	if want := map[bool]int{false: 1, true: 2}[useLength]; len(in) != want {
		return 0, 0, mxerr.ValueErr("operator %s expects %d inputs, but got %d instead (a length array goes with use_length=True)", name, want, len(in))
	}
	if len(in) == 2 {
		l := in[1]
		if l.DType() != ndarray.Int32 && l.DType() != ndarray.Int64 {
			return 0, 0, mxerr.TypeErr("softmax: length must be int32 or int64, not %s", l.DType())
		}
		want := slices.Delete(slices.Clone(x.Shape()), axis, axis+1)
		if !slices.Equal(l.Shape(), want) {
			return 0, 0, mxerr.ValueErr("softmax: length has shape %v, data without axis %d has shape %v", l.Shape(), axis, want)
		}
	}
	return axis, dt, nil
}

// laneLengths reads softmax's length array (C order, as lanesOf orders lanes) and
// checks each is in [0, n].
func laneLengths(l *ndarray.NDArray, n int) ([]int, error) {
	load := ops.IOTable[l.DType()].LoadI
	offs := ops.OffsetsOf(l.Shape(), l.Strides(), l.Offset())
	out := make([]int, len(offs))
	base, sz := l.Storage().Ptr(), l.DType().Size()
	for i, o := range offs {
		v := int64(load(unsafe.Add(base, o*sz))) // sign-extended from int32
		if v < 0 || v > int64(n) {
			return nil, mxerr.ValueErr("softmax: length %d is outside [0, %d] (the axis length)", v, n)
		}
		out[i] = int(v)
	}
	return out, nil
}

// softmaxLanes runs kind on every lane of x (ls) into out's lanes (ol); lengths, when
// not nil, limits each lane (the rest is 0).
func softmaxLanes(kind smKind, x, out *ndarray.NDArray, ls, ol ops.Lanes, t float64, lengths []int) error {
	if x.DType() == ndarray.Float64 || out.DType() == ndarray.Float64 {
		softmaxLanesAs[float64](kind, x, out, ls, ol, t, lengths)
	} else {
		softmaxLanesAs[float32](kind, x, out, ls, ol, t, lengths)
	}
	return nil
}

func softmaxLanesAs[F softmaxFloat](kind smKind, x, out *ndarray.NDArray, ls, ol ops.Lanes, t float64, lengths []int) {
	if _, f32 := any(F(0)).(float32); f32 && x.DType() == ndarray.Float32 && out.DType() == ndarray.Float32 &&
		ls.Stride == 1 && ol.Stride == 1 && lengths == nil && ls.N > 0 && softmaxRowsC(kind, x, out, ls, ol, t) {
		return
	}
	load, _ := laneIO[F](x.DType())
	_, store := laneIO[F](out.DType())
	xb, ob := ops.LaneBase(x), ops.LaneBase(out)
	ops.ForLanes(len(ls.Starts), ls.N, func() []F { return make([]F, 2*ls.N) }, func(bufs []F, lo, hi int) {
		buf, scratch := bufs[:ls.N], bufs[ls.N:]
		for l := lo; l < hi; l++ {
			n := ls.N
			if lengths != nil {
				n = lengths[l]
				clear(buf[n:])
			}
			load(buf[:n], xb, ls.Starts[l], ls.Stride)
			softmaxRow(kind, buf[:n], scratch, t)
			store(ob, ol.Starts[l], ol.Stride, buf)
		}
	})
}

// softmaxRowsC runs kind on float32 lanes that are rows (contiguous) in C, in batches of
// about 32 KiB so that log_softmax's second pass finds its rows in cache, and reports
// false where the C kernels are off (softmaxRow's bits either way).
func softmaxRowsC(kind smKind, x, out *ndarray.NDArray, ls, ol ops.Lanes, t float64) bool {
	xb, ob := ops.LaneBase(x), ops.LaneBase(out)
	if !simd.SoftmaxRowsRun(xb, ob) {
		return false
	}
	ck := [...]int{smSoftmax: simd.Softmax, smLogSoftmax: simd.LogSoftmax, smSoftmin: simd.Softmin}[kind]
	batch := max(1, 8192/ls.N)
	ops.ForLanes(len(ls.Starts), ls.N, func() []float64 { return make([]float64, batch) }, func(sums []float64, lo, hi int) {
		logs := make([]float32, batch)
		for b := lo; b < hi; b += batch {
			e := min(b+batch, hi)
			xo, yo := ls.Starts[b:e], ol.Starts[b:e]
			simd.SoftmaxRowsF32(ck, xb, xo, ob, yo, ls.N, float32(t), sums)
			if kind == smLogSoftmax {
				for r := range yo {
					logs[r] = float32(math.Log(sums[r]))
				}
				simd.SubRowsF32(ob, yo, ls.N, logs)
			}
		}
	})
	return true
}

func activationAxis(x *ndarray.NDArray, at ops.Attrs) (int, error) {
	if at.Str("mode") == "channel" {
		if x.NDim() < 3 {
			return 0, mxerr.ValueErr("SoftmaxActivation: mode='channel' needs at least 3 dimensions, got %d", x.NDim())
		}
		return 1, nil
	}
	if x.NDim() == 0 {
		return 0, mxerr.ValueErr("SoftmaxActivation: a 0-d array has no instances")
	}
	return x.NDim() - 1, nil
}

// softmaxOutputCheck checks SoftmaxOutput's label: data's dtype, and (multi_output)
// shape (n, size/n/c), (n, d2, ...) or (n, 1, d2, ...), or data's shape without its
// last axis, or data's shape (probabilities).
func softmaxOutputCheck(in []*ndarray.NDArray, at ops.Attrs) error {
	x, label := in[0], in[1]
	if label.DType() != x.DType() {
		return mxerr.TypeErr("SoftmaxOutput: label has dtype %s, data %s (they must agree)", label.DType(), x.DType())
	}
	s, ls := x.Shape(), label.Shape()
	var ok []([]int)
	if at.Bool("multi_output") {
		if len(s) < 2 {
			return mxerr.ValueErr("SoftmaxOutput: multi_output needs at least 2 dimensions, got %d", len(s))
		}
		n, c := s[0], s[1]
		rest := 0
		if n*c > 0 {
			rest = x.Size() / n / c
		}
		ok = append(ok, []int{n, rest}, append([]int{n}, s[2:]...), append([]int{n, 1}, s[2:]...))
	} else {
		if len(s) == 0 {
			return mxerr.ValueErr("SoftmaxOutput: data must have at least one dimension")
		}
		ok = append(ok, s[:len(s)-1], s)
	}
	for _, want := range ok {
		if slices.Equal(ls, want) {
			return nil
		}
	}
	return mxerr.ValueErr("SoftmaxOutput: label has shape %v; data of shape %v takes %v", ls, s, ok)
}

func softmaxOutputKernel(in, out []*ndarray.NDArray, at ops.Attrs) error {
	x := in[0]
	if err := softmaxOutputCheck(in, at); err != nil {
		return err
	}
	switch axis := -1; {
	case at.Bool("multi_output"):
		axis = 1
		fallthrough
	case at.Bool("preserve_shape"):
		if axis < 0 {
			axis = x.NDim() - 1
		}
		return softmaxLanes(smSoftmax, x, out[0], ops.LanesOf(x, axis), ops.LanesOf(out[0], axis), 1, nil)
	}
	// Each instance: the elements after the first dimension, flattened (all of a 1-D array).
	src, flat, release, err := ops.FlatLanes(x)
	if err != nil {
		return err
	}
	defer release()
	rows := 1
	if x.NDim() > 1 {
		rows = x.Shape()[0]
	}
	return ops.IntoContiguous(out[0], func(o *ndarray.NDArray) error {
		ls := instanceLanes(flat.Starts[0], flat.N, rows)
		return softmaxLanes(smSoftmax, src, o, ls, instanceLanes(o.Offset(), flat.N, rows), 1, nil)
	})
}

// instanceLanes cuts n contiguous elements from start into rows lanes.
func instanceLanes(start, n, rows int) ops.Lanes {
	per := 0
	if rows > 0 {
		per = n / rows
	}
	st := make([]int, rows)
	for i := range st {
		st[i] = start + i*per
	}
	return ops.Lanes{N: per, Stride: 1, Starts: st}
}

func crossEntropyCheck(in []*ndarray.NDArray) error {
	x, label := in[0], in[1]
	if label.DType() != x.DType() {
		return mxerr.TypeErr("softmax_cross_entropy: label has dtype %s, data %s (they must agree)", label.DType(), x.DType())
	}
	if x.NDim() != 2 || label.NDim() != 1 {
		return mxerr.ValueErr("softmax_cross_entropy takes 2-D data and a 1-D label, got %d-D and %d-D", x.NDim(), label.NDim())
	}
	if x.Shape()[0] != label.Shape()[0] {
		return mxerr.ValueErr("softmax_cross_entropy: data has %d rows, label %d", x.Shape()[0], label.Shape()[0])
	}
	return nil
}

// crossEntropyKernel sums -log(max(p, 1e-8)) over the rows, p the softmax probability
// of the row's label (0 outside the row), in float64.
func crossEntropyKernel(in, out []*ndarray.NDArray, _ ops.Attrs) error {
	x, label := in[0], in[1]
	if err := crossEntropyCheck(in); err != nil {
		return err
	}
	ls := ops.LanesOf(x, 1)
	load, _ := laneIO[float64](x.DType())
	lio, lsz := ops.IOTable[label.DType()], label.DType().Size()
	buf := make([]float64, ls.N)
	total := 0.0
	for r, start := range ls.Starts {
		load(buf, ops.LaneBase(x), start, ls.Stride)
		softmaxRow(smSoftmax, buf, nil, 1)
		c := real(lio.LoadC(unsafe.Add(ops.LaneBase(label), (label.Offset()+r*label.Strides()[0])*lsz)))
		p := 0.0
		if c = math.Trunc(c); c >= 0 && c < float64(ls.N) {
			p = buf[int(c)]
		}
		total -= math.Log(max(p, 1e-8))
	}
	_, store := laneIO[float64](out[0].DType())
	store(ops.LaneBase(out[0]), out[0].Offset(), 1, []float64{total})
	return nil
}
