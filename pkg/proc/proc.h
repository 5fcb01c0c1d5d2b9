// Whether this process is a forked child of the one that started Go (see proc.go).
#ifndef MXGO_PROC_H
#define MXGO_PROC_H

// Set in the child by the pthread_atfork handler of fork.c; never cleared. Only the one
// thread of a new child writes it, before anything else runs there.
extern int mxgo_forked;

#endif
