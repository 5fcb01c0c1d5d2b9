/* A fake CUDA driver for mxgo's tests: it checks mxgo's logic, not CUDA.
 *
 * Built into a shared library (tests: gcc -shared -fPIC -o libfakecuda.so fakecuda.c) and
 * loaded by mxgo through the same path as the real driver ($MXGO_LIBCUDA), it implements
 * the driver functions mxgo uses with the semantics mxgo relies on, and counts and checks
 * how they are called:
 *   - device memory is host memory, but the address handed out is a second mapping of it
 *     with no access (PROT_NONE): a CPU kernel that touched device memory would crash
 *     instead of silently working; the fake itself reads and writes through the first;
 *   - each call that needs a context checks that the calling thread has a current one
 *     (cuCtxSetCurrent is per thread, as in CUDA) and that the pointers it is given lie
 *     inside live allocations of that context's device; violations are counted;
 *   - every call is counted by name; allocations, frees and live bytes are tracked;
 *   - work issued on a stream someone created is queued and runs only when someone waits
 *     for it (see "streams, events and asynchronous work"): a missing wait shows as stale
 *     data; which event was recorded on which stream, and which stream waited on it, is
 *     logged (fakecuda_log); fakecuda_queued counts what has not run;
 *   - page-locked host memory (cuMemHostAlloc) is remembered, and counted.
 * Configuration: FAKECUDA_DEVICES (default 1), FAKECUDA_INIT (the CUresult cuInit returns,
 * default 0), FAKECUDA_VERSION (cuDriverGetVersion, default 12090), FAKECUDA_FAIL
 * ("cuMemAlloc_v2=2,cuMemFree_v2=1": those calls return those codes). At run time, through
 * ctypes on the same library: fakecuda_fail(name, code) makes every later call of name
 * return code (0 clears), fakecuda_count(name) reads a counter.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef uintptr_t CUdeviceptr;
typedef struct fake_ctx* CUcontext;

enum { OK = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, INVALID_DEVICE = 101,
       INVALID_CONTEXT = 201, NOT_FOUND = 500 };

#define MAXDEV 16
#define MAXCOUNTERS 256
#define MAXBLOCKS 65536

struct fake_ctx { int device; long retains; };

/* A stream mxgo created holds its work until someone waits for it (see "asynchronous
 * work" below); an event remembers the stream and the position it was recorded at. */
typedef struct fake_op fake_op;
typedef struct fake_stream { int id, device, blocking; long issued, done; fake_op *head, *tail; }* CUstream;
typedef struct fake_event { int id, device, recorded; CUstream stream; long seq; }* CUevent;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int initialised, ndevices = -1;
static struct fake_ctx ctxs[MAXDEV];
static __thread CUcontext current;

/* counters by name, and injected failures by name */
static struct { char name[64]; long n; int fail; } counters[MAXCOUNTERS];
static int ncounters;

static int slot(const char* name) { /* under mu */
	for (int i = 0; i < ncounters; i++)
		if (strcmp(counters[i].name, name) == 0) return i;
	if (ncounters == MAXCOUNTERS) return MAXCOUNTERS - 1;
	strncpy(counters[ncounters].name, name, sizeof counters[0].name - 1);
	return ncounters++;
}

static void bump(const char* name, long by) {
	pthread_mutex_lock(&mu);
	counters[slot(name)].n += by;
	pthread_mutex_unlock(&mu);
}

/* Counts the call; returns the injected failure for name, if any. */
static int enter(const char* name) {
	pthread_mutex_lock(&mu);
	int i = slot(name);
	counters[i].n++;
	int f = counters[i].fail;
	pthread_mutex_unlock(&mu);
	return f;
}

long fakecuda_count(const char* name) {
	pthread_mutex_lock(&mu);
	long n = counters[slot(name)].n;
	pthread_mutex_unlock(&mu);
	return n;
}

void fakecuda_fail(const char* name, int code) {
	pthread_mutex_lock(&mu);
	counters[slot(name)].fail = code;
	pthread_mutex_unlock(&mu);
}

/* device memory: [dev, dev+size) is what mxgo sees (no access); host is the fake's view */
static struct { uintptr_t dev; char* host; size_t size, mapped; int device; } blocks[MAXBLOCKS];

static int envint(const char* name, int def) {
	const char* s = getenv(name);
	return s && *s ? atoi(s) : def;
}

CUresult cuInit(unsigned int flags) {
	int f = enter("cuInit");
	if (f) return f;
	if (flags != 0) return INVALID_VALUE;
	const char* fail = getenv("FAKECUDA_FAIL");
	while (fail && *fail) { /* name=code[,name=code...] */
		const char *eq = strchr(fail, '='), *end = strchr(fail, ',');
		if (!end) end = fail + strlen(fail);
		if (eq && eq < end && eq - fail < 63) {
			char name[64];
			memcpy(name, fail, (size_t)(eq - fail));
			name[eq - fail] = 0;
			fakecuda_fail(name, atoi(eq + 1));
		}
		fail = *end ? end + 1 : end;
	}
	int r = envint("FAKECUDA_INIT", 0);
	if (r == 0) {
		pthread_mutex_lock(&mu);
		initialised = 1;
		ndevices = envint("FAKECUDA_DEVICES", 1);
		if (ndevices < 0 || ndevices > MAXDEV) ndevices = MAXDEV;
		for (int i = 0; i < MAXDEV; i++) ctxs[i].device = i;
		pthread_mutex_unlock(&mu);
	}
	return r;
}

CUresult cuDriverGetVersion(int* v) {
	int f = enter("cuDriverGetVersion");
	if (f) return f;
	if (!v) return INVALID_VALUE;
	*v = envint("FAKECUDA_VERSION", 12090);
	return OK;
}

CUresult cuDeviceGetCount(int* n) {
	int f = enter("cuDeviceGetCount");
	if (f) return f;
	if (!initialised) return NOT_INITIALIZED;
	if (!n) return INVALID_VALUE;
	*n = ndevices;
	return OK;
}

CUresult cuDeviceGet(CUdevice* d, int ordinal) {
	int f = enter("cuDeviceGet");
	if (f) return f;
	if (!initialised) return NOT_INITIALIZED;
	if (!d) return INVALID_VALUE;
	if (ordinal < 0 || ordinal >= ndevices) return INVALID_DEVICE;
	*d = ordinal;
	return OK;
}

CUresult cuDeviceGetName(char* name, int len, CUdevice d) {
	int f = enter("cuDeviceGetName");
	if (f) return f;
	if (!initialised) return NOT_INITIALIZED;
	if (d < 0 || d >= ndevices) return INVALID_DEVICE;
	if (!name || len <= 0) return INVALID_VALUE;
	strncpy(name, "mxgo fake CUDA device", (size_t)len - 1);
	name[len - 1] = 0;
	return OK;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* c, CUdevice d) {
	int f = enter("cuDevicePrimaryCtxRetain");
	if (f) return f;
	if (!initialised) return NOT_INITIALIZED;
	if (d < 0 || d >= ndevices) return INVALID_DEVICE;
	if (!c) return INVALID_VALUE;
	pthread_mutex_lock(&mu);
	ctxs[d].retains++;
	pthread_mutex_unlock(&mu);
	*c = &ctxs[d];
	return OK;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
	int f = enter("cuDevicePrimaryCtxRelease_v2");
	if (f) return f;
	if (d < 0 || d >= ndevices) return INVALID_DEVICE;
	pthread_mutex_lock(&mu);
	int bad = ctxs[d].retains <= 0;
	if (!bad) ctxs[d].retains--;
	pthread_mutex_unlock(&mu);
	if (bad) {
		bump("bad_release", 1);
		return INVALID_CONTEXT;
	}
	return OK;
}

static int valid_ctx(CUcontext c) {
	return c >= &ctxs[0] && c < &ctxs[MAXDEV] && c->device < ndevices && c->retains > 0;
}

CUresult cuCtxSetCurrent(CUcontext c) {
	int f = enter("cuCtxSetCurrent");
	if (f) return f;
	pthread_mutex_lock(&mu);
	int ok = c == NULL || valid_ctx(c);
	pthread_mutex_unlock(&mu);
	if (!ok) {
		bump("bad_ctx", 1);
		return INVALID_CONTEXT;
	}
	current = c;
	return OK;
}

CUresult cuCtxGetCurrent(CUcontext* c) {
	int f = enter("cuCtxGetCurrent");
	if (f) return f;
	if (!c) return INVALID_VALUE;
	*c = current;
	return OK;
}

/* The calling thread's device, or -1 (counted as bad_ctx) when it has no usable context. */
static int current_device(void) {
	pthread_mutex_lock(&mu);
	int d = current && valid_ctx(current) ? current->device : -1;
	pthread_mutex_unlock(&mu);
	if (d < 0) bump("bad_ctx", 1);
	return d;
}

static void drain_all(int d, int blocking_only);

/* Counts call name and finds the calling thread's device: OK with *d set, else the
 * result to return (an injected failure, or INVALID_CONTEXT). */
static CUresult begin(const char* name, int* d) {
	int f = enter(name);
	if (f) return f;
	*d = current_device();
	return *d < 0 ? INVALID_CONTEXT : OK;
}

/* The fake's own view of [p, p+n) on device d (any device when d < 0), or NULL (counted). */
static char* host_of(CUdeviceptr p, size_t n, int d) {
	char* h = NULL;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAXBLOCKS; i++) {
		if (blocks[i].dev && p >= blocks[i].dev && p - blocks[i].dev <= blocks[i].size &&
		    n <= blocks[i].size - (p - blocks[i].dev) && (d < 0 || blocks[i].device == d)) {
			h = blocks[i].host + (p - blocks[i].dev);
			break;
		}
	}
	pthread_mutex_unlock(&mu);
	if (!h) bump("bad_ptr", 1);
	return h;
}

CUresult cuMemAlloc_v2(CUdeviceptr* p, size_t n) {
	int d;
	CUresult f = begin("cuMemAlloc_v2", &d);
	if (f) return f;
	if (!p || n == 0) return INVALID_VALUE;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), mapped = (n + page - 1) / page * page;
	int fd = memfd_create("fakecuda", MFD_CLOEXEC);
	if (fd < 0) return OUT_OF_MEMORY;
	void *host = MAP_FAILED, *dev = MAP_FAILED;
	if (ftruncate(fd, (off_t)mapped) == 0) {
		host = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		dev = mmap(NULL, mapped, PROT_NONE, MAP_SHARED, fd, 0);
	}
	close(fd);
	if (host == MAP_FAILED || dev == MAP_FAILED) {
		if (host != MAP_FAILED) munmap(host, mapped);
		if (dev != MAP_FAILED) munmap(dev, mapped);
		return OUT_OF_MEMORY;
	}
	pthread_mutex_lock(&mu);
	int i = 0;
	while (i < MAXBLOCKS && blocks[i].dev) i++;
	if (i < MAXBLOCKS) {
		blocks[i].dev = (uintptr_t)dev;
		blocks[i].host = host;
		blocks[i].size = n;
		blocks[i].mapped = mapped;
		blocks[i].device = d;
	}
	pthread_mutex_unlock(&mu);
	if (i == MAXBLOCKS) {
		munmap(host, mapped);
		munmap(dev, mapped);
		return OUT_OF_MEMORY;
	}
	bump("live_allocs", 1);
	bump("live_bytes", (long)n);
	*p = (CUdeviceptr)dev;
	return OK;
}

CUresult cuMemFree_v2(CUdeviceptr p) {
	int f = enter("cuMemFree_v2");
	if (f) return f;
	if (current_device() < 0) return INVALID_CONTEXT;
	drain_all(-1, 0); /* as cudaFree: queued work that uses the block runs first */
	pthread_mutex_lock(&mu);
	int i = 0;
	while (i < MAXBLOCKS && blocks[i].dev != p) i++;
	char* host = NULL;
	size_t size = 0, mapped = 0;
	if (i < MAXBLOCKS && p) {
		host = blocks[i].host;
		size = blocks[i].size;
		mapped = blocks[i].mapped;
		blocks[i].dev = 0;
	}
	pthread_mutex_unlock(&mu);
	if (!host) {
		bump("bad_free", 1);
		return INVALID_VALUE;
	}
	munmap(host, mapped);
	munmap((void*)p, mapped);
	bump("live_allocs", -1);
	bump("live_bytes", -(long)size);
	return OK;
}

/* ---- streams, events and asynchronous work ------------------------------------------
 * Work issued on a stream mxgo (or a test) created is queued, not done: it runs when the
 * host waits for it (cuStreamSynchronize, cuEventSynchronize on an event recorded after
 * it, cuCtxSynchronize), when another stream waits on such an event (cuStreamWaitEvent
 * runs it then: earlier than a GPU might, never later), before memory is freed, and, for
 * blocking streams (CU_STREAM_DEFAULT), before any work on the legacy stream, which CUDA
 * orders after them. A missing wait therefore shows as stale data, as on a GPU. Work on
 * the legacy and per-thread default streams runs at once. A copy reads pageable host
 * memory when it is issued (the driver stages it) and page-locked memory (cuMemHostAlloc)
 * when it runs. Which event was recorded on which stream, and which stream waited on it,
 * is logged: fakecuda_log() ("record s1 e1; wait legacy e1; ..."). */

enum { INVALID_HANDLE = 400 };
enum { OP_COPY, OP_FILL };
struct fake_op { int kind, size; char* dst; const char* src; char* staged; size_t n; unsigned v; long seq; fake_op* next; };

#define MAXSTREAMS 1024
static CUstream streams[MAXSTREAMS]; /* live streams mxgo or a test created: under mu */
static char event_log[8192];
static int nstreams, nevents;
static long queued; /* operations issued to a stream and not yet run: under mu */

static void logf_(const char* what, const char* stream, int ev) {
	pthread_mutex_lock(&mu);
	size_t n = strlen(event_log);
	if (n + 64 < sizeof event_log)
		snprintf(event_log + n, sizeof event_log - n, "%s%s %s e%d", n ? "; " : "", what, stream, ev);
	pthread_mutex_unlock(&mu);
}

const char* fakecuda_log(void) { return event_log; }

long fakecuda_queued(void) {
	pthread_mutex_lock(&mu);
	long n = queued;
	pthread_mutex_unlock(&mu);
	return n;
}

static int is_created(CUstream s) { return (uintptr_t)s >= 4096; }

/* The stream's name in the log, or NULL (counted as bad_stream) for a handle no one made. */
static const char* stream_name(CUstream s, char* buf) {
	if (s == NULL || s == (CUstream)1) return "legacy";
	if (s == (CUstream)2) return "per_thread";
	if (!is_created(s)) {
		bump("bad_stream", 1);
		return NULL;
	}
	snprintf(buf, 16, "s%d", s->id);
	return buf;
}

static void run_op(const fake_op* o) {
	if (o->kind == OP_COPY) memmove(o->dst, o->src, o->n);
	else for (size_t i = 0; i < o->n; i++) memcpy(o->dst + i * (size_t)o->size, &o->v, (size_t)o->size);
}

/* Runs s's queued work up to position seq. Under mu. */
static void drain_locked(CUstream s, long seq) {
	while (s->head && s->head->seq <= seq) {
		fake_op* o = s->head;
		s->head = o->next;
		if (!s->head) s->tail = NULL;
		run_op(o);
		s->done = o->seq;
		queued--;
		free(o->staged);
		free(o);
	}
}

static void drain(CUstream s, long seq) {
	pthread_mutex_lock(&mu);
	drain_locked(s, seq);
	pthread_mutex_unlock(&mu);
}

/* Runs the queued work of every stream of device d (any device when d < 0), or only of
 * the blocking ones. */
static void drain_all(int d, int blocking_only) {
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAXSTREAMS; i++)
		if (streams[i] && (d < 0 || streams[i]->device == d) && (!blocking_only || streams[i]->blocking))
			drain_locked(streams[i], LONG_MAX);
	pthread_mutex_unlock(&mu);
}

static void legacy(int d) { drain_all(d, 1); }

static int pinned_range(const void* p, size_t n);

/* Issues an operation on s for device d: at once on the default streams, queued on a
 * created stream of d's (a stream of another device is bad_stream). */
static CUresult submit(CUstream s, int d, fake_op o, int src_is_host) {
	if (!is_created(s)) {
		char buf[16];
		if (!stream_name(s, buf)) return INVALID_HANDLE;
		if (s != (CUstream)2) legacy(d);
		run_op(&o);
		return OK;
	}
	if (d >= 0 && s->device != d) {
		bump("bad_stream", 1);
		return INVALID_HANDLE;
	}
	fake_op* q = malloc(sizeof *q);
	if (!q) return OUT_OF_MEMORY;
	*q = o;
	q->next = NULL;
	if (src_is_host && !pinned_range(o.src, o.n)) { /* pageable: staged now */
		if (!(q->staged = malloc(o.n ? o.n : 1))) {
			free(q);
			return OUT_OF_MEMORY;
		}
		memcpy(q->staged, o.src, o.n);
		q->src = q->staged;
	}
	pthread_mutex_lock(&mu);
	q->seq = ++s->issued;
	if (s->tail) s->tail->next = q;
	else s->head = q;
	s->tail = q;
	queued++;
	pthread_mutex_unlock(&mu);
	return OK;
}

CUresult cuStreamCreate(CUstream* s, unsigned int flags) {
	int d;
	CUresult f = begin("cuStreamCreate", &d);
	if (f) return f;
	if (!s || flags > 1) return INVALID_VALUE;
	CUstream n = calloc(1, sizeof *n);
	if (!n) return OUT_OF_MEMORY;
	n->device = d;
	n->blocking = flags == 0; /* CU_STREAM_NON_BLOCKING is 1 */
	pthread_mutex_lock(&mu);
	int i = 0;
	while (i < MAXSTREAMS && streams[i]) i++;
	if (i < MAXSTREAMS) {
		streams[i] = n;
		n->id = ++nstreams;
	}
	pthread_mutex_unlock(&mu);
	if (i == MAXSTREAMS) {
		free(n);
		return OUT_OF_MEMORY;
	}
	bump("live_streams", 1);
	*s = n;
	return OK;
}

CUresult cuStreamDestroy_v2(CUstream s) {
	int f = enter("cuStreamDestroy_v2");
	if (f) return f;
	if (!is_created(s)) return INVALID_HANDLE;
	drain(s, LONG_MAX); /* its work completes, as on a GPU */
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAXSTREAMS; i++)
		if (streams[i] == s) streams[i] = NULL;
	pthread_mutex_unlock(&mu);
	free(s);
	bump("live_streams", -1);
	return OK;
}

CUresult cuStreamSynchronize(CUstream s) {
	int f = enter("cuStreamSynchronize");
	if (f) return f;
	if (!is_created(s)) {
		int d = current_device();
		if (d < 0) return INVALID_CONTEXT;
		char buf[16];
		if (!stream_name(s, buf)) return INVALID_HANDLE;
		legacy(d);
		return OK;
	}
	drain(s, LONG_MAX);
	return OK;
}

CUresult cuCtxSynchronize(void) {
	int d;
	CUresult f = begin("cuCtxSynchronize", &d);
	if (f) return f;
	drain_all(d, 0);
	return OK;
}

CUresult cuEventCreate(CUevent* e, unsigned int flags) {
	int f = enter("cuEventCreate");
	if (f) return f;
	(void)flags;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
	if (!e) return INVALID_VALUE;
	*e = calloc(1, sizeof **e);
	pthread_mutex_lock(&mu);
	(*e)->id = ++nevents;
	pthread_mutex_unlock(&mu);
	(*e)->device = d;
	bump("live_events", 1);
	return OK;
}

CUresult cuEventDestroy_v2(CUevent e) {
	int f = enter("cuEventDestroy_v2");
	if (f) return f;
	if (!e) return INVALID_HANDLE;
	free(e);
	bump("live_events", -1);
	return OK;
}

CUresult cuEventRecord(CUevent e, CUstream s) {
	int f = enter("cuEventRecord");
	if (f) return f;
	char buf[16];
	const char* name = stream_name(s, buf);
	if (!e || !name) return INVALID_HANDLE;
	if (current_device() != e->device || (is_created(s) && s->device != e->device)) return INVALID_CONTEXT;
	if (is_created(s)) {
		pthread_mutex_lock(&mu);
		e->stream = s;
		e->seq = s->issued;
		pthread_mutex_unlock(&mu);
	} else {
		legacy(e->device);
		e->stream = NULL;
	}
	e->recorded = 1;
	logf_("record", name, e->id);
	return OK;
}

/* Runs the work e was recorded after. */
static void reach(CUevent e) {
	if (e->stream) drain(e->stream, e->seq);
}

CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags) {
	int f = enter("cuStreamWaitEvent");
	if (f) return f;
	char buf[16];
	const char* name = stream_name(s, buf);
	if (!e || !name || flags != 0) return INVALID_HANDLE;
	if (!e->recorded) bump("wait_unrecorded", 1);
	reach(e);
	logf_("wait", name, e->id);
	return OK;
}

CUresult cuEventSynchronize(CUevent e) {
	int f = enter("cuEventSynchronize");
	if (f) return f;
	if (!e) return INVALID_HANDLE;
	reach(e);
	return OK;
}

/* ---- asynchronous copies and fills ---- */

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t n, CUstream s) {
	int d;
	CUresult f = begin("cuMemcpyHtoDAsync_v2", &d);
	if (f) return f;
	char* h = host_of(dst, n, d);
	if (!h || !src) return INVALID_VALUE;
	return submit(s, d, (fake_op){.kind = OP_COPY, .dst = h, .src = src, .n = n}, 1);
}

CUresult cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, size_t n, CUstream s) {
	int d;
	CUresult f = begin("cuMemcpyDtoHAsync_v2", &d);
	if (f) return f;
	char* h = host_of(src, n, d);
	if (!h || !dst) return INVALID_VALUE;
	return submit(s, d, (fake_op){.kind = OP_COPY, .dst = dst, .src = h, .n = n}, 0);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
	int d;
	CUresult f = begin("cuMemcpyDtoDAsync_v2", &d);
	if (f) return f;
	char *hd = host_of(dst, n, d), *hs = host_of(src, n, d);
	if (!hd || !hs) return INVALID_VALUE;
	return submit(s, d, (fake_op){.kind = OP_COPY, .dst = hd, .src = hs, .n = n}, 0);
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n, CUstream s) {
	int f = enter("cuMemcpyPeerAsync");
	if (f) return f;
	pthread_mutex_lock(&mu);
	int ok = valid_ctx(dctx) && valid_ctx(sctx);
	pthread_mutex_unlock(&mu);
	if (!ok) {
		bump("bad_ctx", 1);
		return INVALID_CONTEXT;
	}
	char *hd = host_of(dst, n, dctx->device), *hs = host_of(src, n, sctx->device);
	if (!hd || !hs) return INVALID_VALUE;
	return submit(s, -1, (fake_op){.kind = OP_COPY, .dst = hd, .src = hs, .n = n}, 0);
}

static CUresult memset_async(const char* name, CUdeviceptr dst, unsigned v, int size, size_t n, CUstream s) {
	int d;
	CUresult f = begin(name, &d);
	if (f) return f;
	char* h = host_of(dst, (size_t)size * n, d);
	if (!h || dst % (unsigned)size) return INVALID_VALUE;
	return submit(s, d, (fake_op){.kind = OP_FILL, .dst = h, .v = v, .size = size, .n = n}, 0);
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s) {
	return memset_async("cuMemsetD8Async", dst, v, 1, n, s);
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n, CUstream s) {
	return memset_async("cuMemsetD16Async", dst, v, 2, n, s);
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int v, size_t n, CUstream s) {
	return memset_async("cuMemsetD32Async", dst, v, 4, n, s);
}

/* ---- page-locked host memory: ordinary memory the fake remembers (see submit) ---- */

#define MAXPINNED 4096
static struct { char* p; size_t n; } pinned[MAXPINNED]; /* under mu */

static int pinned_range(const void* p, size_t n) {
	int found = 0;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAXPINNED && !found; i++)
		found = pinned[i].p && (const char*)p >= pinned[i].p && (size_t)((const char*)p - pinned[i].p) + n <= pinned[i].n;
	pthread_mutex_unlock(&mu);
	return found;
}

CUresult cuMemHostAlloc(void** pp, size_t n, unsigned int flags) {
	int f = enter("cuMemHostAlloc");
	if (f) return f;
	(void)flags;
	if (current_device() < 0) return INVALID_CONTEXT;
	if (!pp || n == 0) return INVALID_VALUE;
	char* p = aligned_alloc(64, (n + 63) / 64 * 64);
	if (!p) return OUT_OF_MEMORY;
	pthread_mutex_lock(&mu);
	int i = 0;
	while (i < MAXPINNED && pinned[i].p) i++;
	if (i < MAXPINNED) {
		pinned[i].p = p;
		pinned[i].n = n;
	}
	pthread_mutex_unlock(&mu);
	if (i == MAXPINNED) {
		free(p);
		return OUT_OF_MEMORY;
	}
	bump("live_pinned", 1);
	bump("live_pinned_bytes", (long)n);
	*pp = p;
	return OK;
}

CUresult cuMemFreeHost(void* p) {
	int f = enter("cuMemFreeHost");
	if (f) return f;
	drain_all(-1, 0); /* queued copies that read it run first */
	size_t n = 0;
	pthread_mutex_lock(&mu);
	int i = 0;
	while (i < MAXPINNED && (!p || pinned[i].p != p)) i++;
	if (i < MAXPINNED) {
		n = pinned[i].n;
		pinned[i].p = NULL;
	}
	pthread_mutex_unlock(&mu);
	if (i == MAXPINNED) {
		bump("bad_free", 1);
		return INVALID_VALUE;
	}
	free(p);
	bump("live_pinned", -1);
	bump("live_pinned_bytes", -(long)n);
	return OK;
}

/* For a test's consumer: copy n bytes of device memory at p to out, without a context
 * (0, or -1 when p is not inside a live allocation). */
int fakecuda_peek(CUdeviceptr p, void* out, size_t n) {
	char* h = host_of(p, n, -1);
	if (!h) return -1;
	memcpy(out, h, n);
	return 0;
}
