/* mxgo's stand-in for libcuda (see tools/cudashim.py and docs/gpu.md).
 *
 * tools/cudashim.py builds shim.c and a generated trampoline for every CUresult function
 * that cuda.h declares into a static archive named libcuda.a, which satisfies
 * gorgonia.org/cu's `#cgo LDFLAGS: -lcuda`: the extension then needs no libcuda.so.1
 * at load time. Each trampoline jumps through mxgo_cuda_table, whose entries return
 * CUDA_ERROR_NOT_INITIALIZED until mxgo_cuda_load fills them from the real driver. cuInit
 * itself only counts its calls and reports success, so cu's package init (which exits the
 * process when cuInit fails) always passes; mxgo_cuda_load runs the driver's cuInit and
 * returns its status. Every symbol here is hidden: nothing leaks into other libraries. */
#ifndef MXGO_CUDA_SHIM_H
#define MXGO_CUDA_SHIM_H

#include <stddef.h>

#define MXGO_CUDA_HIDDEN __attribute__((visibility("hidden")))

/* Load the driver at path (libcuda.so.1 when NULL or empty), resolve every function the
 * trampolines name, run the driver's cuInit(0) and return: 0 on success; -1 when the
 * library cannot be opened or lacks cuInit (the reason in msg); otherwise the CUresult
 * of cuInit. A second call returns the first one's result (and message). Thread-safe. */
MXGO_CUDA_HIDDEN int mxgo_cuda_load(const char* path, char* msg, size_t msglen);

/* The number of trampolines, and how many of them the loaded driver lacks (those return
 * CUDA_ERROR_NOT_FOUND). */
MXGO_CUDA_HIDDEN int mxgo_cuda_nfuncs(void);
MXGO_CUDA_HIDDEN int mxgo_cuda_nmissing(void);
/* Whether the driver lacks the function named (1), has it (0) or it is not a trampoline (-1). */
MXGO_CUDA_HIDDEN int mxgo_cuda_missing(const char* name);

/* How often cuInit was called through the shim (cu's package init calls it once). */
MXGO_CUDA_HIDDEN long mxgo_cuda_init_calls(void);

#endif
