// Package engine is mxgo's asynchronous dependency engine, after MXNet's: every piece of
// memory has a Var; an operation is pushed with the Vars it reads and the Vars it writes
// and runs as soon as what it depends on has finished. Reads of a Var may run in
// parallel; a write waits for the earlier reads and writes of its Vars, and later
// operations wait for it. Push returns at once.
//
// Waits: WaitToRead(v) returns when v's pending writes are done, WaitToWrite(v) when its
// pending reads and writes are done, WaitAll when everything pushed so far is done.
//
// Errors, as in MXNet 1.x: an operation's error reaches every Var it writes; operations
// that read or write such a Var do not run, and pass the error on to what they write. The
// first wait that meets an error raises it: a wait on any Var it reached, or WaitAll.
// From then on no wait raises it again. Program order, not timing, decides what runs: an
// operation pushed before the wait that raised the error does not run, even if it becomes
// ready only after that wait; one pushed after it runs. Of two errors reaching one
// operation, it inherits the one whose operation was pushed first. The engine never stops.
//
// Push may be called from any goroutine, including from inside an operation; pushes are
// wired into the dependency graph one at a time.
//
// Setting MXGO_ENGINE=naive makes Push run each operation before returning (after
// waiting for its dependencies), which serialises everything for debugging.
package engine
