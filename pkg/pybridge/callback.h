// Python callables run on mxgo's engine (mx.nd.run_async): the C half, between the Go
// engine goroutines that run them and CPython. See callback.c.
#ifndef MXGO_CALLBACK_H
#define MXGO_CALLBACK_H

#include <stdint.h>

// Runs (run != 0) or discards (run == 0) the Python callable registered under id, from
// any thread, taking the GIL only for that. Returns -1 on success, otherwise an
// mxerr.Kind with a malloc'd message in *msg that the caller frees. Never runs Python
// once the interpreter is finalizing (or after mxgo's exit hook): then it returns
// MXNetError's kind without taking the GIL.
int mxgo_run_callback(int64_t id, int run, char** msg);

#endif
