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
 *   - streams and events are logged (which event was recorded on which stream, which stream
 *     waited on it: fakecuda_log); the fake runs everything at once, so order always holds.
 * Configuration: FAKECUDA_DEVICES (default 1), FAKECUDA_INIT (the CUresult cuInit returns,
 * default 0), FAKECUDA_VERSION (cuDriverGetVersion, default 12090), FAKECUDA_FAIL
 * ("cuMemAlloc_v2=2,cuMemFree_v2=1": those calls return those codes). At run time, through
 * ctypes on the same library: fakecuda_fail(name, code) makes every later call of name
 * return code (0 clears), fakecuda_count(name) reads a counter.
 */
#define _GNU_SOURCE
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
	int f = enter("cuMemAlloc_v2");
	if (f) return f;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
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

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t n) {
	int f = enter("cuMemcpyHtoD_v2");
	if (f) return f;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
	char* h = host_of(dst, n, d);
	if (!h || !src) return INVALID_VALUE;
	memcpy(h, src, n);
	return OK;
}

CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t n) {
	int f = enter("cuMemcpyDtoH_v2");
	if (f) return f;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
	char* h = host_of(src, n, d);
	if (!h || !dst) return INVALID_VALUE;
	memcpy(dst, h, n);
	return OK;
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
	int f = enter("cuMemcpyDtoD_v2");
	if (f) return f;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
	char *hd = host_of(dst, n, d), *hs = host_of(src, n, d);
	if (!hd || !hs) return INVALID_VALUE;
	memmove(hd, hs, n);
	return OK;
}

CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n) {
	int f = enter("cuMemcpyPeer");
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
	memmove(hd, hs, n);
	return OK;
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) {
	int f = enter("cuMemsetD8_v2");
	if (f) return f;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
	char* h = host_of(dst, n, d);
	if (!h) return INVALID_VALUE;
	memset(h, v, n);
	return OK;
}

CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short v, size_t n) {
	int f = enter("cuMemsetD16_v2");
	if (f) return f;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
	char* h = host_of(dst, 2 * n, d);
	if (!h || dst % 2) return INVALID_VALUE;
	for (size_t i = 0; i < n; i++) memcpy(h + 2 * i, &v, 2);
	return OK;
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int v, size_t n) {
	int f = enter("cuMemsetD32_v2");
	if (f) return f;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
	char* h = host_of(dst, 4 * n, d);
	if (!h || dst % 4) return INVALID_VALUE;
	for (size_t i = 0; i < n; i++) memcpy(h + 4 * i, &v, 4);
	return OK;
}

/* ---- streams and events: the fake's work is synchronous, so order always holds; what
 * is checked is which event was recorded on which stream and which stream waited on it,
 * in the log that fakecuda_log returns ("record e1 legacy; wait s1 e1; ..."). */

typedef struct fake_stream { int id, device; }* CUstream;
typedef struct fake_event { int id, device, recorded; }* CUevent;

enum { INVALID_HANDLE = 400 };
static char event_log[8192];
static int nstreams, nevents;

static void logf_(const char* what, const char* stream, int ev) {
	pthread_mutex_lock(&mu);
	size_t n = strlen(event_log);
	if (n + 64 < sizeof event_log)
		snprintf(event_log + n, sizeof event_log - n, "%s%s %s e%d", n ? "; " : "", what, stream, ev);
	pthread_mutex_unlock(&mu);
}

const char* fakecuda_log(void) { return event_log; }

/* The stream's name in the log, or NULL (counted as bad_stream) for a handle no one made. */
static const char* stream_name(CUstream s, char* buf) {
	if (s == NULL || s == (CUstream)1) return "legacy";
	if (s == (CUstream)2) return "per_thread";
	if ((uintptr_t)s < 4096) {
		bump("bad_stream", 1);
		return NULL;
	}
	snprintf(buf, 16, "s%d", s->id);
	return buf;
}

CUresult cuStreamCreate(CUstream* s, unsigned int flags) {
	int f = enter("cuStreamCreate");
	if (f) return f;
	(void)flags;
	int d = current_device();
	if (d < 0) return INVALID_CONTEXT;
	if (!s) return INVALID_VALUE;
	*s = calloc(1, sizeof **s);
	pthread_mutex_lock(&mu);
	(*s)->id = ++nstreams;
	pthread_mutex_unlock(&mu);
	(*s)->device = d;
	bump("live_streams", 1);
	return OK;
}

CUresult cuStreamDestroy_v2(CUstream s) {
	int f = enter("cuStreamDestroy_v2");
	if (f) return f;
	if ((uintptr_t)s < 4096) return INVALID_HANDLE;
	free(s);
	bump("live_streams", -1);
	return OK;
}

CUresult cuStreamSynchronize(CUstream s) {
	int f = enter("cuStreamSynchronize");
	if (f) return f;
	if ((s == NULL || s == (CUstream)1 || s == (CUstream)2) && current_device() < 0) return INVALID_CONTEXT;
	char buf[16];
	return stream_name(s, buf) ? OK : INVALID_HANDLE;
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
	if (current_device() != e->device) return INVALID_CONTEXT;
	e->recorded = 1;
	logf_("record", name, e->id);
	return OK;
}

CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags) {
	int f = enter("cuStreamWaitEvent");
	if (f) return f;
	char buf[16];
	const char* name = stream_name(s, buf);
	if (!e || !name || flags != 0) return INVALID_HANDLE;
	if (!e->recorded) bump("wait_unrecorded", 1);
	logf_("wait", name, e->id);
	return OK;
}

CUresult cuEventSynchronize(CUevent e) {
	int f = enter("cuEventSynchronize");
	if (f) return f;
	return e ? OK : INVALID_HANDLE;
}

/* For a test's consumer: copy n bytes of device memory at p to out, without a context
 * (0, or -1 when p is not inside a live allocation). */
int fakecuda_peek(CUdeviceptr p, void* out, size_t n) {
	char* h = host_of(p, n, -1);
	if (!h) return -1;
	memcpy(out, h, n);
	return 0;
}
