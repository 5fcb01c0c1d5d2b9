#include "par.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

// One job at a time: the dispatcher publishes it and bumps gen; helpers that see the new
// gen claim indices from the job until none is left, or take a call of the Go runner
// when the job is a Go loop's (par.h). A helper that finished a job spins
// for SPIN_NS (yielding the CPU to any other runnable thread every few microseconds)
// before it sleeps on the condition variable: waking a sleeping thread costs about 100
// µs on a virtual machine (measured here: a Go worker woke that late), as long as a
// medium matrix product takes, while a spinning helper starts within a microsecond.
enum { MAX_HELPERS = 63, SPIN_NS = 300000, YIELD_EVERY = 64 };

typedef struct {
	void (*fn)(void *, long);
	void *ctx;
	long n;
	atomic_long next, done;
} job;

static struct {
	atomic_int busy;    // a dispatcher holds the pool
	_Atomic(job *) job; // the current job, NULL between jobs
	atomic_ulong gen;   // bumped when a job is published
	atomic_int active;  // helpers that may be reading job
	atomic_int sleepers;
	atomic_long calls;  // runner calls still to make for the offered Go loop
	void (*runner)(void);
	pthread_mutex_t mu; // guards helpers and the sleep on cv
	pthread_cond_t cv;
	int helpers;
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static inline void cpu_relax(void) {
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

static long now_ns(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void work_on(job *j) {
	for (;;) {
		long i = atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			return;
		j->fn(j->ctx, i);
		atomic_fetch_add(&j->done, 1);
	}
}

// wait_gen returns the first gen other than seen: spinning, then asleep.
static unsigned long wait_gen(unsigned long seen) {
	unsigned long g;
	long until = now_ns() + SPIN_NS;
	for (int spins = 0; (g = atomic_load(&pool.gen)) == seen; spins++) {
		cpu_relax();
		if (spins % YIELD_EVERY == YIELD_EVERY - 1) {
			if (now_ns() > until)
				break;
			sched_yield();
		}
	}
	if (g != seen)
		return g;
	pthread_mutex_lock(&pool.mu);
	atomic_fetch_add(&pool.sleepers, 1); // before the check: see mxgo_par's wake
	while ((g = atomic_load(&pool.gen)) == seen)
		pthread_cond_wait(&pool.cv, &pool.mu);
	atomic_fetch_sub(&pool.sleepers, 1);
	pthread_mutex_unlock(&pool.mu);
	return g;
}

// take_call takes one of the offered runner calls, if any is left.
static int take_call(void) {
	long c = atomic_load(&pool.calls);
	while (c > 0 && !atomic_compare_exchange_weak(&pool.calls, &c, c - 1))
		;
	return c > 0;
}

static void *helper(void *arg) {
	(void)arg;
	for (unsigned long seen = 0;;) {
		seen = wait_gen(seen);
		if (take_call()) {
			pool.runner();
			continue;
		}
		atomic_fetch_add(&pool.active, 1); // before reading job: see mxgo_par's retire
		job *j = atomic_load(&pool.job);
		if (j)
			work_on(j);
		atomic_fetch_sub(&pool.active, 1);
	}
	return NULL;
}

// A forked child has only the thread that forked: it starts over with no helpers (the
// locks may have been held by threads that no longer exist).
static void in_child(void) {
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	pool.mu = mu;
	pool.cv = cv;
	pool.helpers = 0;
	atomic_store(&pool.busy, 0);
	atomic_store(&pool.job, NULL);
	atomic_store(&pool.active, 0);
	atomic_store(&pool.sleepers, 0);
	atomic_store(&pool.calls, 0);
}

__attribute__((constructor)) static void watch_forks(void) { pthread_atfork(NULL, NULL, in_child); }

static void ensure_helpers(long want) {
	if (want > MAX_HELPERS)
		want = MAX_HELPERS;
	if (pool.helpers >= want) // read by the one dispatcher that holds busy
		return;
	pthread_mutex_lock(&pool.mu);
	while (pool.helpers < want) {
		pthread_t t;
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		int err = pthread_create(&t, &attr, helper, NULL);
		pthread_attr_destroy(&attr);
		if (err)
			break; // fewer helpers: the caller does their share
		pool.helpers++;
	}
	pthread_mutex_unlock(&pool.mu);
}

// publish hands the helpers a new gen (its job or runner calls already set).
static void publish(void) {
	atomic_fetch_add(&pool.gen, 1);
	// A helper counts itself a sleeper before it checks gen, and this reads sleepers
	// after bumping gen (both sequentially consistent): a helper either sees the new
	// gen or is counted here and woken.
	if (atomic_load(&pool.sleepers)) {
		pthread_mutex_lock(&pool.mu);
		pthread_cond_broadcast(&pool.cv);
		pthread_mutex_unlock(&pool.mu);
	}
}

int mxgo_par_claim(void) {
	int idle = 0;
	return atomic_compare_exchange_strong(&pool.busy, &idle, 1);
}

void mxgo_par_set_runner(void (*runner)(void)) { pool.runner = runner; }

void mxgo_par_offer(long helpers) {
	if (helpers < 1 || !pool.runner)
		return;
	ensure_helpers(helpers);
	atomic_store(&pool.calls, helpers);
	publish();
}

void mxgo_par_release(void) {
	atomic_store(&pool.calls, 0);
	atomic_store(&pool.busy, 0);
}

void mxgo_par(long n, long width, void (*fn)(void *, long), void *ctx) {
	if (n <= 1 || width <= 1 || !mxgo_par_claim()) {
		for (long i = 0; i < n; i++)
			fn(ctx, i);
		return;
	}
	ensure_helpers((width < n ? width : n) - 1);
	job j = {.fn = fn, .ctx = ctx, .n = n};
	atomic_store(&pool.job, &j);
	publish();
	work_on(&j);
	// A helper may share its CPU with another thread (the engine runs independent
	// operations side by side): yield now and then so that it gets the CPU back.
	for (int spins = 0; atomic_load(&j.done) < n; spins++) {
		cpu_relax();
		if (spins % YIELD_EVERY == YIELD_EVERY - 1)
			sched_yield();
	}
	// Retire the job before it leaves this stack frame: a helper that counted itself
	// active before the store below may still read it; one that counts itself after
	// reads NULL.
	atomic_store(&pool.job, NULL);
	while (atomic_load(&pool.active))
		cpu_relax();
	atomic_store(&pool.busy, 0);
}

static void gemm_block(void *ctx, long t) {
	const mxgo_gemm_split *s = ctx;
	long lo = t * s->chunk, e = s->esize;
	char *work = s->work + t * s->wstride;
	if (s->rows) {
		long hi = lo + s->chunk < s->m ? lo + s->chunk : s->m;
		s->run(s, hi - lo, s->n, s->a + lo * s->ars * e, s->b, s->c + lo * s->ldc * e, work);
	} else {
		long hi = lo + s->chunk < s->n ? lo + s->chunk : s->n;
		s->run(s, s->m, hi - lo, s->a, s->b + lo * s->bcs * e, s->c + lo * e, work);
	}
}

void mxgo_gemm_split_run(mxgo_gemm_split *s, long width) {
	long len = s->rows ? s->m : s->n;
	mxgo_par((len + s->chunk - 1) / s->chunk, width, gemm_block, s);
}
