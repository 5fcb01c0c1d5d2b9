package random

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The random operators with integer results or inputs: randint, shuffle and multinomial.

// drawInts fills v with low + draws below span (two's complement), from ops.SeededBlocks'
// generators.
func drawInts[T int32 | int64](v []T, seed [2]uint64, low, span uint64) {
	ops.SeededBlocks(len(v), seed, func(g *rand.PCG, lo, hi int) {
		for i := lo; i < hi; i++ {
			v[i] = T(low + Uint64N(g, span))
		}
	})
}

// Uint64N is math/rand/v2's Rand.Uint64N(n) on g (n > 0), the same draws (Lemire's
// multiply and reject) without a Rand's interface call and a closure's per draw: randint
// of 4M int32 10.3 -> 6.0-6.4 ms. tests_go/random_dist_test.go checks that it stays the
// standard library's.
func Uint64N(g *rand.PCG, n uint64) uint64 {
	if n&(n-1) == 0 { // a power of two: the low bits
		return g.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(g.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(g.Uint64(), n)
		}
	}
	return hi
}

func init() {
	ops.Register(&ops.Op{
		Name: "random_randint", Doc: "Samples integers uniformly from [low, high). The generator is seeded with mx.random.seed.",
		Category: ops.General, Inputs: []string{},
		Params: []ops.Param{
			{Name: "low", Kind: ops.ParamInt, Doc: "the smallest value"},
			{Name: "high", Kind: ops.ParamInt, Doc: "one past the largest value"},
			randomShapeParam,
			{Name: "dtype", Kind: ops.ParamDType, Default: "int32", Doc: "int32 or int64"},
		},
		Infer: func(_ []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			dt := at.DType("dtype")
			if dt != ndarray.Int32 && dt != ndarray.Int64 {
				return nil, 0, mxerr.TypeErr("randint: dtype must be int32 or int64, got %s", dt)
			}
			low, high := at.Int("low"), at.Int("high")
			if high <= low { // MXNet 1.9.1 dies on low == high
				return nil, 0, mxerr.ValueErr("randint: high (%d) must be greater than low (%d)", high, low)
			}
			if dt == ndarray.Int32 && (low < -1<<31 || high > 1<<31) {
				return nil, 0, mxerr.ValueErr("randint: [%d, %d) does not fit int32", low, high)
			}
			return at.Ints("shape"), dt, checkRandomShape(at.Ints("shape"))
		},
		Prepare: func(at ops.Attrs) { at["seed"] = ops.DrawSeed() },
		Kernel: func(_, out []*ndarray.NDArray, at ops.Attrs) error {
			low := uint64(at.Int("low"))
			span := uint64(at.Int("high")) - low // exact even for the widest int64 range
			a := out[0]
			switch n := a.Size(); {
			case a.Contiguous() && a.DType() == ndarray.Int32:
				drawInts(unsafe.Slice((*int32)(a.Data()), n), at["seed"].([2]uint64), low, span)
			case a.Contiguous():
				drawInts(unsafe.Slice((*int64)(a.Data()), n), at["seed"].([2]uint64), low, span)
			default: // a strided out=: drawn in order, then stored
				v := make([]int64, n)
				drawInts(v, at["seed"].([2]uint64), low, span)
				store, size, base := ops.IOTable[a.DType()].StoreI, a.DType().Size(), a.Storage().Ptr()
				i := 0
				ndarray.Rows(a.Shape(), ops.Operands(a), func(offs []int, n int, steps []int) {
					for k := 0; k < n; k++ {
						store(unsafe.Add(base, (offs[0]+k*steps[0])*size), uint64(v[i]))
						i++
					}
				})
			}
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name: "shuffle", Doc: "A copy of data with its first axis randomly permuted. The generator is seeded with mx.random.seed.",
		Category: ops.General, Inputs: []string{"data"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			return in[0].Shape(), in[0].DType(), nil
		},
		Prepare: func(at ops.Attrs) { at["seed"] = ops.DrawSeed() },
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a := in[0]
			if a.NDim() == 0 {
				ndarray.MoveElems(out[0], a)
				return nil
			}
			seed := at["seed"].([2]uint64)
			rows := rand.New(rand.NewPCG(seed[0], seed[1])).Perm(a.Shape()[0])
			return ops.GatherAlong(out[0], a, 0, rows, false)
		},
	})
	ops.Register(&ops.Op{
		Name: "sample_multinomial",
		Doc: "Draws category indices from the distributions in data's last axis (probabilities, not normalised: " +
			"an index is picked where a uniform draw falls in the running sum, the last one past its end). " +
			"The result has data's shape without the last axis, followed by shape.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "shape", Kind: ops.ParamShape, Default: "()", Doc: "the draws per distribution (() for one)"},
			{Name: "dtype", Kind: ops.ParamDType, Default: "int32", Doc: "the dtype of the indices"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			if len(s) == 0 || s[len(s)-1] == 0 {
				return nil, 0, mxerr.ValueErr("multinomial: data needs a last axis of probabilities, got shape %s", ops.FmtShape(s))
			}
			if err := checkSampleDType(in[0].DType()); err != nil {
				return nil, 0, err
			}
			dt := at.DType("dtype")
			if dt == ndarray.Bool || dt.Kind() == ndarray.KindComplex {
				return nil, 0, mxerr.TypeErr("multinomial: indices cannot be %s", dt)
			}
			shape := slices.Concat(s[:len(s)-1], at.Ints("shape"))
			if len(shape) == 0 { // one draw from one distribution: (1,), as MXNet has no 0-d arrays
				shape = []int{1}
			}
			if _, err := ndarray.Size(shape); err != nil || len(shape) > ndarray.MaxDims {
				return nil, 0, mxerr.ValueErr("multinomial: a result of shape %v cannot be made", shape)
			}
			return shape, dt, nil
		},
		Prepare: func(at ops.Attrs) { at["seed"] = ops.DrawSeed() },
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			probs := ops.IndexValues(in[0])
			k := in[0].Shape()[in[0].NDim()-1]
			per, _ := ndarray.Size(at.Ints("shape"))
			for _, p := range probs {
				if !(p >= 0) {
					return mxerr.ValueErr("multinomial: probabilities must be non-negative, got %g", p)
				}
			}
			seed := at["seed"].([2]uint64)
			j := 0
			ops.FillSampled(out[0], rand.New(rand.NewPCG(seed[0], seed[1])), func(r *rand.Rand) float64 {
				row := probs[(j/per)*k : (j/per+1)*k]
				j++
				u, acc := r.Float64(), 0.0
				for c, p := range row {
					if acc += p; u < acc {
						return float64(c)
					}
				}
				return float64(k - 1)
			})
			return nil
		},
	})
}
