package mxgotest

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/cmem"
)

// cmem.StorePtr against golang/go#19928: a pointer store from Go into memory outside Go's
// heap whose old contents are a stale Go pointer. An anonymous mapping stands in for a C
// caller's uninitialised out-parameter (pybridge's mxgo_desc on the C stack).

type staleTarget struct {
	pad [400]byte
	p   *int
}

var staleKeep *staleTarget

// storeOverStale stores a non-Go pointer over stale Go pointers n times while another
// goroutine keeps the GC marking, with cmem.StorePtr or with a plain (barriered) store.
func storeOverStale(t *testing.T, n int, plain bool) {
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	defer func() { require.NoError(t, syscall.Munmap(mem)) }()
	slot, value := unsafe.Pointer(&mem[0]), unsafe.Pointer(&mem[64]) // both outside Go's heap
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	var stale [4096]uintptr
	for i := range n {
		staleKeep = &staleTarget{} // escapes, and is garbage one iteration later
		stale[i%len(stale)] = uintptr(unsafe.Pointer(staleKeep))
		*(*uintptr)(slot) = stale[(i+1)%len(stale)] // the garbage a C stack can hold
		if plain {
			*(*unsafe.Pointer)(slot) = value
		} else {
			cmem.StorePtr(slot, value)
		}
	}
	close(stop)
	<-done
}

func TestStorePtrOverStaleGoPointers(t *testing.T) {
	storeOverStale(t, 1_000_000, false)
}

// The hazard is real: the same loop with a plain store aborts the process (run in a child).
func TestPlainStoreOverStaleGoPointersAborts(t *testing.T) {
	if os.Getenv("MXGO_PLAIN_STORE_CHILD") == "1" {
		storeOverStale(t, 20_000_000, true)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPlainStoreOverStaleGoPointersAborts$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MXGO_PLAIN_STORE_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the plain store survived: %s", out)
	require.Regexp(t, `fatal error: found (bad pointer in Go heap|pointer to free object)`, string(out))
}
