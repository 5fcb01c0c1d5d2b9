package pybridge

import (
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/wire"
)

// The functions below are what gopy wraps. Each takes and returns plain types, recovers
// from panics and reports errors as "<PythonException>: <message>".

// DTypeNames returns the dtype names in code order, comma-separated.
func DTypeNames() string {
	names := make([]string, 0, len(ndarray.DTypes()))
	for _, dt := range ndarray.DTypes() {
		names = append(names, dt.String())
	}
	return strings.Join(names, ",")
}

// Copy copies src into dst (same shape), casting if the dtypes differ. The copy runs on
// the engine; with wait set, Copy returns once it is done (for memory the engine does not
// track, such as a NumPy array being read or filled).
func Copy(dst, src int64, wait bool) (zero int, err error) {
	defer guard(&err)
	return 0, pyErr(with2(dst, src, func(d, s *ndarray.NDArray) error {
		m := currentMode()
		if err := autograd.CheckWrite(d, m); err != nil {
			return err
		}
		if err := ops.Copy(d, s); err != nil {
			return err
		}
		autograd.Record("copy", ops.CastBack, []*ndarray.NDArray{s}, []*ndarray.NDArray{d}, m, nil)
		if !wait {
			return nil
		}
		return ops.WaitToRead(d)
	}))
}

// WaitToRead waits for h's pending writes and raises the first error they had.
func WaitToRead(h int64) (zero int, err error) {
	defer guard(&err)
	return 0, pyErr(with1(h, ops.WaitToRead))
}

// WaitAll waits for every pending operation and raises the first error since the last
// WaitAll.
func WaitAll() (zero int, err error) {
	defer guard(&err)
	return 0, pyErr(ops.WaitAll())
}

// GetItem returns a view of h selected by an encoded basic-indexing key, with mx.nd's
// rules when mxnet is set (basicIndex).
func GetItem(h int64, key string, mxnet bool) (v int64, err error) {
	defer guard(&err)
	k, err := wire.Key(key)
	if err != nil {
		return 0, pyErr(err)
	}
	return derive(h, func(a *ndarray.NDArray) (*ndarray.NDArray, error) { return basicIndex(a, k, mxnet, true) })
}

// Reshape returns h reshaped (a view when h is contiguous, a copy otherwise); shape may hold
// MXNet's codes 0, -1, -2, -3, -4, matched from the right when reverse is set (ops.MXNetShape).
func Reshape(h int64, shape string, reverse bool) (v int64, err error) {
	defer guard(&err)
	spec, err := wire.Dims(shape)
	if err != nil {
		return 0, pyErr(err)
	}
	return derive(h, func(a *ndarray.NDArray) (*ndarray.NDArray, error) { return mxnetReshape(a, spec, reverse, true) })
}

// Transpose returns a view of h with its axes permuted ("" reverses them).
func Transpose(h int64, axes string) (v int64, err error) {
	defer guard(&err)
	var perm []int
	if axes != "" {
		if perm, err = wire.Dims(axes); err != nil {
			return 0, pyErr(err)
		}
	}
	return derive(h, func(a *ndarray.NDArray) (*ndarray.NDArray, error) {
		v, err := a.Transpose(perm)
		if err == nil {
			recordView(a, v, func() *ops.Gradient { return autograd.TransposeGrad(permOf(perm, a.NDim())) })
		}
		return v, err
	})
}

// Arange fills h in C order with start, start+step, ...
func Arange(h int64, start, step float64) (zero int, err error) {
	defer guard(&err)
	return 0, pyErr(with1(h, func(a *ndarray.NDArray) error { return ops.Arange(a, start, step) }))
}

// Seed reseeds the random generator.
func Seed(seed int64) { ops.Seed(uint64(seed)) }

// OpInfo describes every registered operator as JSON, for the Python front end that is
// generated from it at import.
func OpInfo() string { return opInfoJSON() }

// LiveStorages returns the number of storages alive (for leak tests).
func LiveStorages() int64 { return ndarray.LiveStorages() }

// SettleGraphs runs Go's collector until the count of live storages holds still: the
// storages of unreachable autograd graphs and of variables' gradients are freed by
// runtime.AddCleanup, which runs whenever Go next collects, so leak checks settle them
// before counting. It returns the count.
func SettleGraphs() int64 {
	n, still := ndarray.LiveStorages(), 0
	for range 200 {
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
		m := ndarray.LiveStorages()
		if m == n {
			if still++; still == 2 {
				break
			}
		} else {
			still = 0
		}
		n = m
	}
	return n
}

// LiveExports returns the number of DLPack exports whose deleter has not run.
func LiveExports() int64 { return dlpack.LiveExports() }

func scalar(isInt bool, iv int64, re, im float64) ops.Scalar {
	return ops.Scalar{IsInt: isInt, Int: iv, Value: complex(re, im)}
}

func lookupAll(hs ...int64) ([]*ndarray.NDArray, error) {
	out := make([]*ndarray.NDArray, len(hs))
	for i, h := range hs {
		a, err := lookup(h)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// lookupList returns the arrays of a comma-separated handle list ("" is none).
func lookupList(list string) ([]*ndarray.NDArray, error) {
	ids, err := wire.Ints(list)
	if err != nil {
		return nil, err
	}
	hs := make([]int64, len(ids))
	for i, id := range ids {
		hs[i] = int64(id)
	}
	return lookupAll(hs...)
}

func with1(h int64, fn func(*ndarray.NDArray) error) error {
	a, err := lookup(h)
	if err != nil {
		return err
	}
	return fn(a)
}

func with2(h1, h2 int64, fn func(a, b *ndarray.NDArray) error) error {
	arrs, err := lookupAll(h1, h2)
	if err != nil {
		return err
	}
	return fn(arrs[0], arrs[1])
}

func derive(h int64, fn func(*ndarray.NDArray) (*ndarray.NDArray, error)) (int64, error) {
	a, err := lookup(h)
	if err != nil {
		return 0, pyErr(err)
	}
	v, err := fn(a)
	if err != nil {
		return 0, pyErr(err)
	}
	return register(v), nil
}

// InvokeAll runs operator opID (OpInfo's id) on the arrays ins (handles, comma-separated)
// and returns every result's new handle, comma-separated: the path of the operators of
// several results (topk with ret_typ='both', slogdet, ...). With outs (handles,
// comma-separated, one per result) the results go there and it returns "". Borrowed and
// foreign operands are op.py's business: here every operand is an mxgo array.
func InvokeAll(opID int, ins, outs, attrs string) (v string, err error) {
	defer guard(&err)
	in, err := lookupList(ins)
	if err != nil {
		return "", pyErr(err)
	}
	var out []*ndarray.NDArray // nil: new arrays
	if outs != "" {
		if out, err = lookupList(outs); err != nil {
			return "", pyErr(err)
		}
	}
	res, err := invokeAll(opID, in, out, attrs, currentMode())
	if err != nil {
		return "", pyErr(err)
	}
	if out != nil {
		ops.ReleaseAll(res)
		return "", nil
	}
	hs := make([]string, len(res))
	for i, r := range res {
		hs[i] = strconv.FormatInt(register(r), 10)
	}
	return strings.Join(hs, ","), nil
}

// opOf is the operator of id opID (OpInfo's).
func opOf(opID int) (*ops.Op, error) {
	table := opTable()
	if opID < 0 || opID >= len(table) {
		return nil, mxerr.ValueErr("unknown operator id %d", opID)
	}
	return table[opID], nil
}

// invokeAll runs operator opID on in with attrs (the parameters' wire form), into out
// when it is not nil, and returns every result: InvokeAll's and invoke_all's (invoke.c) call.
func invokeAll(opID int, in, out []*ndarray.NDArray, attrs string, m autograd.Mode) ([]*ndarray.NDArray, error) {
	op, err := opOf(opID)
	if err != nil {
		return nil, err
	}
	at, err := ops.ParseAttrs(op, attrs)
	if err != nil {
		return nil, err
	}
	return autograd.InvokeAll(op, in, out, at, m)
}

// permOf is Transpose's permutation: perm, or the axes reversed when it is empty.
func permOf(perm []int, ndim int) []int {
	if len(perm) > 0 {
		return perm
	}
	rev := make([]int, ndim)
	for i := range rev {
		rev[i] = ndim - 1 - i
	}
	return rev
}

// Share returns a second handle to h's array: the same memory and autograd entry, held by
// another Python object (mx.np's as_nd_ndarray and as_np_ndarray, which MXNet gives the
// same handle).
func Share(h int64) (v int64, err error) {
	defer guard(&err)
	return derive(h, func(a *ndarray.NDArray) (*ndarray.NDArray, error) { return a.ShareWithEntry(), nil })
}
