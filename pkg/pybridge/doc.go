// Package pybridge is the thin facade that gopy turns into mxgo's Python extension
// module, and the only package that knows about CPython.
//
// Arrays cross the boundary as int64 handles into a table owned here, so gopy only ever
// sees plain types (ints, floats, strings, errors) and generates no handle-leaking
// wrappers. Every entry point recovers from panics (a panic would abort Python) and
// returns errors whose message starts with the Python exception name ("ValueError: ...");
// mxgo's Python layer raises that exception type. No entry point returns an error alone:
// gopy's wrapper for that form returns a C string it never frees (a byte or the message
// leaked per call, found under LeakSanitizer), so those return (0, err) instead.
//
// The per-call hot paths (capsule export and consumption, from_numpy, waits, operator
// calls) are C functions that CPython calls directly, in the mxgo._fastpath module that
// Python creates once at import (mxgo_fastpath_module, module.c). bridge.h is their map:
// each C file has one job, and the Go file of the same name holds the exports it calls.
// Exports, their deleters and the import of plain tensors and NumPy arrays do not enter
// Go at all while the engine is idle (see README, "How it is built"). gopy wraps the
// functions of api.go, callback.go (RunAsync) and facts.go for the rarer calls.
package pybridge
