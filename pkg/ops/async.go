package ops

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// PushFunc runs fn on the engine after the pending work on reads and writes, ordered
// with every other operation as a kernel that reads reads and writes writes would be.
// It is how foreign code (a Python callable, through pybridge) joins the engine.
//
// PushFunc holds its own references to the arrays until the operation has finished, so
// callers may release theirs at once. fn's error (or panic) becomes the engine error of
// writes. finally, when not nil, is called exactly once after that (engine.PushCleanup):
// finally(true) right after fn returned, or finally(false) when the engine never called
// fn because a dependency had failed (its error is then what writes carry), so callers
// can free what is tied to fn (a Python callable and its arguments) either way.
//
// Every array in writes must be writable; PushFunc returns the first one's error
// before pushing anything otherwise.
func PushFunc(reads, writes []*ndarray.NDArray, fn func() error, finally func(ran bool)) error {
	for _, w := range writes {
		if err := w.CheckWritable(); err != nil {
			return err
		}
	}
	if a := offHost(reads); a != nil {
		return noKernel("a host callback", a)
	}
	if a := offHost(writes); a != nil {
		return noKernel("a host callback", a)
	}
	ri, ro := ShareAll(reads), ShareAll(writes)
	Engine().PushCleanup(fn, func(ran bool) {
		ReleaseAll(ri)
		ReleaseAll(ro)
		if finally != nil {
			finally(ran)
		}
	}, varsInto(nil, ri), varsInto(nil, ro))
	return nil
}
