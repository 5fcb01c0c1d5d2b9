// Package engine is mxgo's asynchronous dependency engine, after MXNet's: every piece of
// memory has a Var; an operation is pushed with the Vars it reads and the Vars it writes
// and runs as soon as what it depends on has finished. Reads of a Var may run in
// parallel; a write waits for the earlier reads and writes of its Vars, and later
// operations wait for it. Push returns at once.
//
// Waits: WaitToRead(v) returns when v's pending writes are done, WaitToWrite(v) when its
// pending reads and writes are done, WaitAll when everything pushed so far is done.
//
// Errors: an operation's error is stored on every Var it writes and returned by the next
// wait on that Var (once) and by WaitAll; operations that read or write a Var holding an
// error do not run and pass the error on to what they write. That is decided in push
// order: an operation pushed while one of its Vars holds an error, or has a write pending
// that fails, does not run even if a wait takes the error before it would. The engine
// never stops.
//
// Push may be called from any goroutine, including from inside an operation; pushes are
// wired into the dependency graph one at a time.
//
// Setting MXGO_ENGINE=naive makes Push run each operation before returning (after
// waiting for its dependencies), which serialises everything for debugging.
package engine
