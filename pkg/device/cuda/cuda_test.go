//go:build mxgo_cuda

package cuda

// The driver is loaded once per process, so each scenario runs in a child process of the
// test binary (TestScenario) with its own environment. The fake driver (fakecuda/) checks
// mxgo's logic, not CUDA: these tests say nothing about a real GPU.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

const scenarioVar = "MXGO_CUDA_TEST_SCENARIO"

// fakeLib compiles the fake driver once per test binary.
func fakeLib(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	lib := filepath.Join(dir, "libfakecuda.so")
	out, err := exec.Command("gcc", "-O2", "-Wall", "-shared", "-fPIC", "-o", lib, "fakecuda/fakecuda.c").CombinedOutput()
	if err != nil {
		t.Fatalf("building the fake driver: %v\n%s", err, out)
	}
	return lib
}

// run runs scenario in a child process with env added; it fails t when the child does.
func run(t *testing.T, scenario string, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestScenario$", "-test.v")
	cmd.Env = append(os.Environ(), append(env, scenarioVar+"="+scenario)...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "scenario "+scenario+" passed") {
		t.Fatalf("scenario %s: %v\n%s", scenario, err, out)
	}
}

func TestNoDriver(t *testing.T) {
	run(t, "nodriver", "MXGO_LIBCUDA=/nonexistent/libcuda.so.1")
	run(t, "notcuda", "MXGO_LIBCUDA=libm.so.6")
}

func TestFakeDriverErrors(t *testing.T) {
	lib := fakeLib(t)
	run(t, "nodevice", "MXGO_LIBCUDA="+lib, "FAKECUDA_INIT=100")
	run(t, "zerodevices", "MXGO_LIBCUDA="+lib, "FAKECUDA_DEVICES=0")
	run(t, "olddriver", "MXGO_LIBCUDA="+lib, "FAKECUDA_VERSION=10020")
	run(t, "allocfails", "MXGO_LIBCUDA="+lib, "FAKECUDA_FAIL=cuMemAlloc_v2=2,cuMemcpyHtoDAsync_v2=700")
}

func TestFakeDriverMemory(t *testing.T) {
	run(t, "memory", "MXGO_LIBCUDA="+fakeLib(t), "FAKECUDA_DEVICES=2")
}

func TestFakeDriverHandOff(t *testing.T) {
	run(t, "handoff", "MXGO_LIBCUDA="+fakeLib(t))
}

func expectErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}

func TestScenario(t *testing.T) {
	scenario := os.Getenv(scenarioVar)
	if scenario == "" {
		t.Skip("run by the other tests in a child process")
	}
	if got := Stats()["shim_init_calls"]; got != 1 {
		t.Fatalf("cu's init called the shim's cuInit %d times, want 1", got)
	}
	switch scenario {
	case "nodriver":
		expectErr(t, Load(), "no CUDA driver: cannot load /nonexistent/libcuda.so.1")
		if Count() != 0 {
			t.Fatal("Count without a driver")
		}
		expectErr(t, CheckDevice(0), "no CUDA driver")
		if _, _, err := Alloc(0, 8); err == nil {
			t.Fatal("Alloc without a driver")
		}
	case "notcuda":
		expectErr(t, Load(), "has no cuInit: not a CUDA driver")
	case "nodevice":
		expectErr(t, Load(), "no CUDA device: the driver")
		expectErr(t, Load(), "CUDA_ERROR_NO_DEVICE")
	case "zerodevices":
		expectErr(t, Load(), "reports none")
	case "olddriver":
		expectErr(t, Load(), "too old: version 10.2, mxgo needs 11.0")
	case "allocfails":
		if Count() != 1 {
			t.Fatalf("Count %d, want 1", Count())
		}
		_, _, err := Alloc(0, 8)
		expectErr(t, err, "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (2)")
	case "memory":
		memory(t)
	case "handoff":
		if err := HandOff(0, -1); err != nil || Stats()["handoff"] != 0 { // the consumer synchronises itself
			t.Fatalf("HandOff(-1): %v, stats %v", err, Stats())
		}
		for _, s := range []int64{0, 1, 2} { // None and 1 (legacy), 2 (per thread): each waits on an event
			if err := HandOff(0, s); err != nil {
				t.Fatal(err)
			}
		}
		if Stats()["handoff"] != 3 {
			t.Fatalf("stats %v", Stats())
		}
		expectErr(t, HandOff(0, 5), "cuStreamWaitEvent failed: CUDA_ERROR_INVALID_HANDLE")
		expectErr(t, HandOff(1, 2), "invalid device id")
		s0, err := Stream(0)
		if err != nil || s0 < 4096 { // a stream mxgo created, not a named default
			t.Fatalf("Stream(0) = %#x, %v", s0, err)
		}
		for _, p := range []uintptr{0, 1, 2, s0} { // a producer's stream: mxgo's waits on an event
			if err := WaitFor(0, p); err != nil {
				t.Fatal(err)
			}
		}
		expectErr(t, WaitFor(0, 5), "cuEventRecord failed: CUDA_ERROR_INVALID_HANDLE")
		if Stats()["waitfor"] != 4 {
			t.Fatalf("stats %v", Stats())
		}
	default:
		t.Fatalf("unknown scenario %q", scenario)
	}
	t.Logf("scenario %s passed", scenario)
}

func memory(t *testing.T) {
	if err := Load(); err != nil || Count() != 2 {
		t.Fatalf("Load %v, Count %d", err, Count())
	}
	expectErr(t, CheckDevice(2), "invalid device id: gpu(2) does not exist, the CUDA driver reports 2 device(s)")
	expectErr(t, CheckDevice(-1), "invalid device id")
	src := []int32{1, 2, 3, 4, 5}
	n := len(src) * 4
	p0, free0, err := Alloc(0, n)
	if err != nil {
		t.Fatal(err)
	}
	p1, free1, err := Alloc(1, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := CopyHtoD(0, p0, unsafe.Pointer(&src[0]), n); err != nil {
		t.Fatal(err)
	}
	if err := CopyDtoD(1, p1, 0, p0, n); err != nil { // cuMemcpyPeer
		t.Fatal(err)
	}
	if err := MemsetD32(0, p0, 7, 2); err != nil {
		t.Fatal(err)
	}
	if err := MemsetD16(0, p0+8, 9, 1); err != nil { // the low half of element 2 (little-endian)
		t.Fatal(err)
	}
	got0, got1 := make([]int32, 5), make([]int32, 5)
	if err := CopyDtoH(0, unsafe.Pointer(&got0[0]), p0, n); err != nil {
		t.Fatal(err)
	}
	if err := CopyDtoH(1, unsafe.Pointer(&got1[0]), p1, n); err != nil {
		t.Fatal(err)
	}
	if want := []int32{7, 7, 9, 4, 5}; !equal(got0, want) || !equal(got1, src) {
		t.Fatalf("device contents %v %v", got0, got1)
	}
	// gpu(1)'s pointer is not gpu(0)'s: the fake rejects it, and mxgo reports the call
	expectErr(t, CopyDtoH(0, unsafe.Pointer(&got0[0]), p1, n), "cuMemcpyDtoHAsync failed: CUDA_ERROR_INVALID_VALUE")
	s := Stats()
	if s["alloc"] != 2 || s["free"] != 0 || s["live_bytes"] != int64(2*n) || s["ctx_retain"] != 2 || s["sync"] != 6 {
		t.Fatalf("stats %v", s)
	}
	free0()
	free1()
	s = Stats()
	if s["free"] != 2 || s["live_bytes"] != 0 {
		t.Fatalf("stats after free %v", s)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a second free did not panic")
		}
	}()
	free0()
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
