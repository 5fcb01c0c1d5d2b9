package mxgotest

import (
	"testing"

	"github.com/mxgo/mxgo/pkg/engine"
)

// The engine's per-operation cost, without a kernel: a small operation run at once on the
// caller (RunNow, what most small mx.nd calls take), and one pushed behind a pending
// write of its input and waited for.
func BenchmarkEngineRunNow(b *testing.B) {
	e := engine.New()
	x, y := engine.NewVar(), engine.NewVar()
	r, w := vars(x), vars(y)
	for b.Loop() {
		e.RunNow(func() error { return nil }, r, w)
	}
}

func BenchmarkEnginePushChainWait(b *testing.B) {
	e := engine.New()
	x, y := engine.NewVar(), engine.NewVar()
	r, w := vars(x), vars(y)
	for b.Loop() {
		e.Push(func() error { return nil }, nil, r)          // a write of x...
		e.PushInline(func() error { return nil }, nil, r, w) // ...that this read of x waits for
		if err := e.WaitToRead(y); err != nil {
			b.Fatal(err)
		}
	}
}
