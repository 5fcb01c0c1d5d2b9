package mxgotest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The Go runtime's monitor thread runs at nice 19 (ndarray/sysmon.go) unless
// MXGO_SYSMON_NICE=0: one thread of the process, found asleep in nanosleep.
func TestRuntimeMonitorRunsAtLowestPriority(t *testing.T) {
	want := 1
	if os.Getenv("MXGO_SYSMON_NICE") == "0" {
		want = 0
	}
	var lowered []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		lowered = lowered[:0]
		tasks, err := os.ReadDir("/proc/self/task")
		require.NoError(t, err)
		for _, task := range tasks {
			b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/stat")
			if err != nil {
				continue // exited
			}
			s := string(b)
			f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
			if nice, _ := strconv.Atoi(f[16]); nice != 0 {
				lowered = append(lowered, fmt.Sprintf("%s (nice %d)", task.Name(), nice))
			}
		}
		if len(lowered) == want {
			break
		}
	}
	require.Len(t, lowered, want, "threads with a nice value: %v", lowered)
	if want == 1 {
		require.Contains(t, lowered[0], "(nice 19)")
	}
}
