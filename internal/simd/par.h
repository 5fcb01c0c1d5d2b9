// A pool of helper threads for the C kernels that split their work across cores
// (par.c), and the split of a matrix product into blocks of its result.
#ifndef MXGO_PAR_H
#define MXGO_PAR_H

// mxgo_par calls fn(ctx, i) once for every i < n, on the calling thread and on up to
// width - 1 helper threads, and returns when every call has returned. Which thread runs
// which i is not fixed: an i goes to whichever thread asks first, so the caller never
// waits for a helper that is slow to wake. When another mxgo_par is running (another
// thread's), the calls run on the caller alone, in order.
void mxgo_par(long n, long width, void (*fn)(void *ctx, long i), void *ctx);

// mxgo_part sets [*lo, *hi) to part t of [0, n) cut into parts nearly equal parts: the
// range of a call of an mxgo_par split into parts calls.
static inline void mxgo_part(long t, long parts, long n, long *lo, long *hi) {
	*lo = t * n / parts;
	*hi = (t + 1) * n / parts;
}

// The pool's other client is a loop of Go code (pkg/ndarray's ForChunks), which helpers
// join by calling the runner set once by mxgo_par_set_runner (a cgo export that takes the
// current loop's chunks until none is left, and returns at once when there is no loop):
// mxgo_par_claim takes the pool, returning 0 when another dispatcher holds it;
// mxgo_par_offer then has up to helpers helper threads call the runner once each; and
// mxgo_par_release frees the pool without waiting for them. A helper that comes late
// finds the loop finished, or joins a later one, which the runner allows. One pool of
// spinning helpers for both kinds of work: two pools' spinners shared the spare cores,
// and each pool's work ran at one core's speed while the other's helpers spun.
void mxgo_par_set_runner(void (*runner)(void));
int mxgo_par_claim(void);
void mxgo_par_offer(long helpers);
void mxgo_par_release(void);

// A product c = a b (m x k by k x n; strides in elements, c's rows ldc apart) cut into
// blocks of chunk rows of c (rows set) or chunk columns, each computed by run with its
// own work buffer of wstride bytes. The element type is run's business: esize is its
// size in bytes.
typedef struct mxgo_gemm_split {
	void (*run)(const struct mxgo_gemm_split *s, long m, long n, const char *a, const char *b,
		    char *c, char *work);
	long m, n, k, esize;
	const char *a, *b;
	char *c;
	long ars, acs, brs, bcs, ldc;
	char *work;
	long wstride, chunk;
	int rows;
	double alpha, beta; // for run's use
} mxgo_gemm_split;

// mxgo_gemm_split_run computes every block of s, on up to width threads.
void mxgo_gemm_split_run(mxgo_gemm_split *s, long width);

#endif
