#include "gather_rows.h"

#include <string.h>

#include "par.h"

typedef struct {
	char *dst;
	const char *src;
	const double *ids;
	long n, rows, row_bytes, parts;
} gather_job;

// The row of id v: clipping before the truncation picks the row trunc-then-clip picks
// (Go's embedRow), and needs no libm.
static long row_of(double v, long rows) {
	if (v != v || v < 0)
		return 0;
	if (v > (double)(rows - 1))
		return rows - 1;
	return (long)v;
}

// The rows are random lines of a table larger than the caches: each is prefetched
// AHEAD rows before it is copied (up to PREFETCH_MOST bytes of it), so that its misses
// overlap the copies before it. Measured on one core, 8192 rows of 1 KiB from a 30 MB
// table: 384-394 µs against 463-531 µs for the copies alone.
enum { AHEAD = 4, PREFETCH_MOST = 4096 };

static void gather_part(void *ctx, long t) {
	const gather_job *g = ctx;
	long lo, hi;
	mxgo_part(t, g->parts, g->n, &lo, &hi);
	long reach = g->row_bytes < PREFETCH_MOST ? g->row_bytes : PREFETCH_MOST;
	for (long i = lo; i < hi; i++) {
		if (i + AHEAD < hi) {
			const char *next = g->src + row_of(g->ids[i + AHEAD], g->rows) * g->row_bytes;
			for (long b = 0; b < reach; b += 64)
				__builtin_prefetch(next + b);
		}
		memcpy(g->dst + i * g->row_bytes, g->src + row_of(g->ids[i], g->rows) * g->row_bytes, g->row_bytes);
	}
}

void mxgo_gather_rows(char *dst, const char *src, const double *ids, long n, long rows, long row_bytes, long parts) {
	gather_job g = {dst, src, ids, n, rows, row_bytes, parts < 1 ? 1 : parts};
	mxgo_par(g.parts, g.parts, gather_part, &g); // one part runs here, without the pool
}
