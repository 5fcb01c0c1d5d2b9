package optim

import (
	"maps"
	"slices"
	"strings"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// MXNet's aggregated SGD updates: one call updates num_weights weights, its arrays the
// groups of one weight's arrays in a row (weight, grad[, mom][, weight32]) and the outs
// one per weight. multi_* take the learning rates and weight decays as the tuples lrs
// and wds; preloaded_multi_* as two float32 arrays after the groups (LARS computes them
// on the device). Each weight's update is sgd_update's, sgd_mom_update's or their mp_
// forms'.

func init() {
	for _, pre := range []bool{false, true} {
		for _, mom := range []bool{false, true} {
			for _, mp := range []bool{false, true} {
				registerMulti(pre, mom, mp)
			}
		}
	}
}

func registerMulti(pre, mom, mp bool) {
	group, name := []string{"weight", "grad"}, "sgd"
	var f32 []int
	if mom {
		group, name = append(group, "mom"), name+"_mom"
	}
	if mp {
		group, name = append(group, "weight32"), "mp_"+name
		for i := 2; i < len(group); i++ {
			f32 = append(f32, i)
		}
	}
	name = "multi_" + name + "_update"
	extra, params := 0, []ops.Param{}
	if pre {
		name, extra = "preloaded_"+name, 2
	} else {
		params = append(params, ops.Param{Name: "lrs", Kind: ops.ParamFloats, Doc: "each weight's learning rate"},
			ops.Param{Name: "wds", Kind: ops.ParamFloats, Doc: "each weight's weight decay"})
	}
	if mom {
		params = append(params, pMomentum)
	}
	params = append(params, pRescale, pClip, ops.Param{Name: "num_weights", Kind: ops.ParamInt, Default: "1", Doc: "the number of weights"})
	g := len(group)
	rates := "the tuples lrs and wds"
	if pre {
		rates = "two float32 arrays of num_weights elements after the groups (learning rates, weight decays)"
	}
	ops.Register(&ops.Op{
		Name: name, Category: ops.General, Inputs: []string{"*data"}, Params: params, DTypes: floatDTypes,
		// each weight is usually its own out: no copy of it (sweep reads element i first)
		InPlace: true,
		Doc: "Aggregated " + strings.TrimSuffix(strings.TrimPrefix(name, "preloaded_multi_"), "_update") + " update, as MXNet's " +
			name + ": data holds num_weights groups (" + strings.Join(group, ", ") + "), the rates are " + rates +
			"; out is the list of the new weights (the weights themselves, usually). Non-differentiable, as MXNet's.",
		Mutates: func(n int) []int {
			var m []int
			for k := 0; k+g <= n-extra; k += g {
				for i := 2; i < g; i++ {
					m = append(m, k+i)
				}
			}
			return m
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			nw := at.Int("num_weights")
			if nw < 1 || len(in) != nw*g+extra {
				return nil, mxerr.ValueErr("%s: num_weights=%d needs %d arrays (%d per weight), got %d", name, nw, nw*g+extra, g, len(in))
			}
			if err := checkRates(in, at, nw, pre); err != nil {
				return nil, err
			}
			res := make([]ops.Result, nw)
			for k := range nw {
				w := in[k*g]
				if err := checkArrays(name, group, in[k*g:k*g+g], f32...); err != nil {
					return nil, err
				}
				res[k] = ops.Result{Shape: w.Shape(), DType: w.DType()}
			}
			return res, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			lrs, wds := multiRates(in, at, pre)
			in, release, err := detachGroups(in, out, g)
			if err != nil {
				return err
			}
			defer release()
			for k, o := range out {
				a := maps.Clone(at)
				a["lr"], a["wd"] = lrs[k], wds[k]
				written := []int{g}
				for i := 2; i < g; i++ {
					written = append(written, i)
				}
				arrs := append(append([]*ndarray.NDArray{}, in[k*g:k*g+g]...), o)
				if err := sweep(arrs, written, sgdBody[float32](a, mom, mp), sgdBody[float64](a, mom, mp)); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// checkRates checks that there are nw learning rates and weight decays (their values,
// in arrays for preloaded, are read by the kernel: they may still be being computed).
func checkRates(in []*ndarray.NDArray, at ops.Attrs, nw int, pre bool) error {
	nl, nd := 0, 0
	if pre {
		nl, nd = in[len(in)-2].Size(), in[len(in)-1].Size()
	} else {
		nl, nd = len(at.Floats("lrs")), len(at.Floats("wds"))
	}
	if nl != nw || nd != nw {
		return mxerr.ValueErr("%d weights need %d learning rates and weight decays, got %d and %d", nw, nw, nl, nd)
	}
	return nil
}

// multiRates returns the learning rates and weight decays: the tuples lrs and wds, or
// (preloaded) the values of the two arrays after the groups.
func multiRates(in []*ndarray.NDArray, at ops.Attrs, pre bool) ([]float64, []float64) {
	if pre {
		return ops.IndexValues(in[len(in)-2]), ops.IndexValues(in[len(in)-1])
	}
	return at.Floats("lrs"), at.Floats("wds")
}

// detachGroups copies the arrays of in (groups of g) that overlap the out of another
// group: InPlace lets each weight be its own out, but an update must not read what an
// earlier group's update wrote.
func detachGroups(in, out []*ndarray.NDArray, g int) ([]*ndarray.NDArray, func(), error) {
	var copies []*ndarray.NDArray
	release := func() { ops.ReleaseAll(copies) }
	for i, a := range in {
		for k, o := range out {
			if i/g == k || !ndarray.Overlaps(o, a) {
				continue
			}
			if len(copies) == 0 {
				in = slices.Clone(in)
			}
			c, err := ndarray.Empty(a.DType(), a.Shape(), a.Device())
			if err == nil {
				in[i], copies = c, append(copies, c) // released with the others, even on error
				err = ndarray.CopyInto(c, a)
			}
			if err != nil {
				release()
				return nil, nil, err
			}
			break
		}
	}
	return in, release, nil
}
