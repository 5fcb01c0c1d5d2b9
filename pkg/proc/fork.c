// Marks forked children (see proc.go). The handler runs in the child, on the thread that
// called fork(), before fork() returns there: it may only do async-signal-safe work.
#include <pthread.h>
#include "proc.h"

int mxgo_forked;

static void in_child(void) { mxgo_forked = 1; }

// Runs when the shared object is loaded, before any code of it can be called.
__attribute__((constructor)) static void watch_forks(void) { pthread_atfork(NULL, NULL, in_child); }
