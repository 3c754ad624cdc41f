/* A stand-in libcuda.so for testing pydev's native cuda path (cudarc, the
 * dispatch fast path, parameter packing) on machines without a GPU.
 *
 * It implements the driver API calls pydev makes, with "device memory" in
 * host memory, and records every launch: the kernel, its configuration and
 * the bytes of each parameter, sized by the `.param` declarations of the
 * kernel's `.entry` in the loaded PTX, as the real driver reads them. So a
 * test sees exactly what the GPU would receive. Kernels do not run.
 *
 * Build: gcc -shared -fPIC -o libcuda.so fakecuda.c; put its folder on
 * LD_LIBRARY_PATH before the process starts. The fakecuda_* functions are
 * the test's view (ctypes). Setting FAKECUDA_NO_DEVICE=1 makes it report no
 * device; FAKECUDA_DISCARD=1 makes launches only count (benchmarks).
 *
 * Faults (docs/reliability.md): fakecuda_busy(seconds) keeps every stream
 * busy that long (cuStreamQuery says CUDA_ERROR_NOT_READY, the blocking
 * synchronizes sleep), as a long-running kernel would; and
 * fakecuda_fault_next_launch(code) makes the next launch succeed and then
 * "fault": from then on every call returns `code` (a sticky error such as
 * CUDA_ERROR_ILLEGAL_ADDRESS, 700), as a real context does after a kernel
 * faulted. Calls are serialised by one lock (tests launch from threads). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
};
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };
enum { ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76 };

#define MAX_PARAMS 64

typedef struct {
    char name[256];
    int nparams;
    size_t sizes[MAX_PARAMS];
} Function;

typedef struct {
    char *ptx;
    Function *functions;
    int nfunctions;
} Module;

typedef struct {
    char kernel[256];
    unsigned dims[7]; /* grid xyz, block xyz, shared bytes */
    uint64_t stream;
    int nparams;
    size_t sizes[MAX_PARAMS];
    unsigned char *bytes;
    size_t nbytes;
} Launch;

static Launch *launches;
static int nlaunches, caplaunches;
static long live_allocations, live_modules;
static uint64_t next_handle = 0x5000;
static int primary_context = 1;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#define LOCKED(expr) do { pthread_mutex_lock(&lock); CUresult r_ = (expr); pthread_mutex_unlock(&lock); return r_; } while (0)

/* The sticky error of a faulted context (0: none), and when the streams'
 * simulated work ends (CLOCK_MONOTONIC seconds). */
static volatile CUresult sticky;
static int fault_next;
static volatile double busy_until;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

void fakecuda_busy(double seconds) { busy_until = now() + seconds; }
void fakecuda_fault_next_launch(int code) { fault_next = code; }
void fakecuda_reset_fault(void) { sticky = 0; fault_next = 0; }

/* What a synchronize returns after waiting out the simulated work. */
static CUresult wait_streams(void) {
    while (now() < busy_until && !sticky) {
        struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
    return sticky;
}

static const char *error_text(CUresult r) {
    switch (r) {
    case CUDA_SUCCESS: return "no error";
    case CUDA_ERROR_INVALID_VALUE: return "invalid argument";
    case CUDA_ERROR_OUT_OF_MEMORY: return "out of memory";
    case CUDA_ERROR_NO_DEVICE: return "no CUDA-capable device is detected";
    case CUDA_ERROR_INVALID_HANDLE: return "invalid resource handle";
    case CUDA_ERROR_NOT_FOUND: return "named symbol not found";
    case CUDA_ERROR_INVALID_PTX: return "a PTX JIT compilation failed";
    case CUDA_ERROR_NOT_READY: return "device not ready";
    case CUDA_ERROR_ILLEGAL_ADDRESS: return "an illegal memory access was encountered";
    default: return "unknown error";
    }
}

CUresult cuGetErrorString(CUresult r, const char **s) { *s = error_text(r); return CUDA_SUCCESS; }
CUresult cuGetErrorName(CUresult r, const char **s) { *s = error_text(r); return CUDA_SUCCESS; }
CUresult cuInit(unsigned flags) { (void)flags; return CUDA_SUCCESS; }
CUresult cuDeviceGetCount(int *n) { *n = getenv("FAKECUDA_NO_DEVICE") ? 0 : 1; return CUDA_SUCCESS; }
CUresult cuDeviceGet(int *dev, int ordinal) { *dev = ordinal; return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; *ctx = &primary_context; return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(void *ctx) { return ctx == &primary_context ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }
CUresult cuCtxSynchronize(void) { return wait_streams(); }

CUresult cuDeviceGetAttribute(int *value, int attribute, int dev) {
    (void)dev;
    *value = attribute == ATTR_CC_MAJOR ? 9 : attribute == ATTR_CC_MINOR ? 0 : 0;
    return CUDA_SUCCESS;
}

/* The byte size of a `.param` declaration: `.param .f32 x`,
 * `.param .u64 .ptr .global .align 1 x`, `.param .align 8 .b8 x[24]`. */
static size_t param_size(const char *decl, const char *end) {
    static const struct { const char *type; size_t size; } types[] = {
        {".b8", 1}, {".u8", 1}, {".s8", 1}, {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2},
        {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8},
    };
    size_t size = 0;
    for (const char *p = decl; p < end && !size; p++) {
        for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
            size_t n = strlen(types[t].type);
            if (p + n < end && strncmp(p, types[t].type, n) == 0 && (p[n] == ' ' || p[n] == '\t')) {
                size = types[t].size;
                break;
            }
        }
    }
    for (const char *p = decl; p < end; p++)
        if (*p == '[')
            return size * strtoul(p + 1, NULL, 10);
    return size;
}

/* Every `.entry NAME(...)` of the PTX with its parameter sizes. */
static void parse_entries(Module *m) {
    for (const char *p = strstr(m->ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
        const char *name = p + 7, *open = strchr(name, '(');
        if (!open)
            break;
        m->functions = realloc(m->functions, (m->nfunctions + 1) * sizeof(Function));
        Function *f = &m->functions[m->nfunctions++];
        memset(f, 0, sizeof *f);
        size_t n = (size_t)(open - name);
        while (n && (name[n - 1] == ' ' || name[n - 1] == '\n'))
            n--;
        memcpy(f->name, name, n < sizeof f->name ? n : sizeof f->name - 1);
        const char *close = strchr(open, ')');
        for (const char *q = strstr(open, ".param"); q && close && q < close && f->nparams < MAX_PARAMS; q = strstr(q + 1, ".param")) {
            const char *e = q;
            while (e < close && *e != ',')
                e++;
            f->sizes[f->nparams++] = param_size(q, e);
        }
    }
}

/* An ELF cubin (a linked image, docs/interop.md): a kernel for each
 * `.nv.info.NAME` section, its parameter sizes from the EIATTR_KPARAM_INFO
 * (0x17) attributes there (bits 18-31 of the last word: the size). */
static long elf_modules;
static int parse_elf(Module *m, const unsigned char *e) {
    uint64_t shoff;
    uint16_t shentsize, shnum, shstrndx;
    memcpy(&shoff, e + 0x28, 8);
    memcpy(&shentsize, e + 0x3a, 2);
    memcpy(&shnum, e + 0x3c, 2);
    memcpy(&shstrndx, e + 0x3e, 2);
    if (e[4] != 2 || shentsize < 0x40 || shstrndx >= shnum)
        return 0;
    uint64_t stroff;
    memcpy(&stroff, e + shoff + (uint64_t)shstrndx * shentsize + 0x18, 8);
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *sh = e + shoff + (uint64_t)i * shentsize;
        uint32_t name;
        uint64_t off, size;
        memcpy(&name, sh, 4);
        memcpy(&off, sh + 0x18, 8);
        memcpy(&size, sh + 0x20, 8);
        const char *sname = (const char *)e + stroff + name;
        if (strncmp(sname, ".nv.info.", 9) != 0)
            continue;
        m->functions = realloc(m->functions, (m->nfunctions + 1) * sizeof(Function));
        Function *f = &m->functions[m->nfunctions++];
        memset(f, 0, sizeof *f);
        snprintf(f->name, sizeof f->name, "%s", sname + 9);
        for (uint64_t at = 0; at + 4 <= size;) {
            const unsigned char *a = e + off + at;
            uint16_t len = 0;
            if (a[0] == 4) /* EIFMT_SVAL: a 16-bit size, then the value */
                memcpy(&len, a + 2, 2);
            if (a[0] == 4 && a[1] == 0x17 && len >= 12) {
                uint16_t ordinal;
                uint32_t word;
                memcpy(&ordinal, a + 8, 2);
                memcpy(&word, a + 12, 4);
                if (ordinal < MAX_PARAMS) {
                    f->sizes[ordinal] = word >> 18;
                    if (ordinal + 1 > f->nparams)
                        f->nparams = ordinal + 1;
                }
            }
            at += 4 + len;
        }
    }
    elf_modules++;
    return 1;
}

static CUresult module_load(void **module, const void *image, unsigned n, int *options, void **values) {
    const char *ptx = image;
    if (sticky)
        return sticky;
    if (memcmp(image, "\x7f" "ELF", 4) == 0) {
        Module *m = calloc(1, sizeof *m);
        if (!parse_elf(m, image)) {
            free(m);
            return CUDA_ERROR_INVALID_PTX;
        }
        live_modules++;
        *module = m;
        return CUDA_SUCCESS;
    }
    if (!strstr(ptx, ".version") || !strstr(ptx, ".target")) {
        char *log = NULL;
        size_t cap = 0;
        for (unsigned i = 0; i < n; i++) {
            if (options[i] == CU_JIT_ERROR_LOG_BUFFER) log = values[i];
            if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) cap = (size_t)(uintptr_t)values[i];
        }
        if (log && cap)
            snprintf(log, cap, "ptxas application ptx input, line 1; fatal   : fakecuda: no .version/.target directive");
        return CUDA_ERROR_INVALID_PTX;
    }
    Module *m = calloc(1, sizeof *m);
    m->ptx = strdup(ptx);
    parse_entries(m);
    live_modules++;
    *module = m;
    return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
    LOCKED(module_load(module, image, n, options, values));
}

CUresult cuModuleLoadData(void **module, const void *image) { return cuModuleLoadDataEx(module, image, 0, NULL, NULL); }

CUresult cuModuleUnload(void *module);

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
    Module *m = module;
    for (int i = 0; i < m->nfunctions; i++) {
        if (strcmp(m->functions[i].name, name) == 0) {
            *function = &m->functions[i];
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}

static CUresult module_unload(void *module) {
    Module *m = module;
    free(m->ptx);
    free(m->functions);
    free(m);
    live_modules--;
    return CUDA_SUCCESS;
}

static CUresult launch(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       unsigned shared, void *stream, void **params, void **extra) {
    Function *f = function;
    if (sticky)
        return sticky;
    if (fault_next) { /* this kernel "faults" once it runs */
        sticky = fault_next;
        fault_next = 0;
    }
    if (!f || extra || (f->nparams && !params))
        return CUDA_ERROR_INVALID_VALUE;
    if ((uint64_t)bx * by * bz > 1024 || gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0)
        return CUDA_ERROR_INVALID_VALUE;
    static int discard = -1;
    if (discard < 0)
        discard = getenv("FAKECUDA_DISCARD") != NULL;
    if (discard) { /* benchmarks: count only */
        nlaunches++;
        return CUDA_SUCCESS;
    }
    if (nlaunches == caplaunches) {
        caplaunches = caplaunches ? 2 * caplaunches : 16;
        launches = realloc(launches, caplaunches * sizeof(Launch));
    }
    Launch *l = &launches[nlaunches++];
    memset(l, 0, sizeof *l);
    snprintf(l->kernel, sizeof l->kernel, "%s", f->name);
    unsigned dims[7] = {gx, gy, gz, bx, by, bz, shared};
    memcpy(l->dims, dims, sizeof dims);
    l->stream = (uint64_t)(uintptr_t)stream;
    l->nparams = f->nparams;
    for (int i = 0; i < f->nparams; i++)
        l->nbytes += f->sizes[i];
    l->bytes = malloc(l->nbytes + 1);
    size_t at = 0;
    for (int i = 0; i < f->nparams; i++) {
        l->sizes[i] = f->sizes[i];
        memcpy(l->bytes + at, params[i], f->sizes[i]); /* what the driver copies */
        at += f->sizes[i];
    }
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(void *module) { LOCKED(module_unload(module)); }

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra) {
    LOCKED(launch(function, gx, gy, gz, bx, by, bz, shared, stream, params, extra));
}

CUresult cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
    if (sticky)
        return sticky;
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memset(p, 0xAB, bytes); /* uninitialised device memory is not zeros */
    __atomic_add_fetch(&live_allocations, 1, __ATOMIC_SEQ_CST);
    *ptr = (uint64_t)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(uint64_t ptr) {
    if (!ptr)
        return CUDA_ERROR_INVALID_VALUE;
    free((void *)(uintptr_t)ptr);
    __atomic_sub_fetch(&live_allocations, 1, __ATOMIC_SEQ_CST);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(uint64_t dst, const void *src, size_t n, void *stream) {
    (void)stream;
    if (sticky)
        return sticky;
    memcpy((void *)(uintptr_t)dst, src, n);
    return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, uint64_t src, size_t n, void *stream) {
    (void)stream;
    CUresult r = wait_streams(); /* a pageable copy waits for the stream */
    if (r)
        return r;
    memcpy(dst, (void *)(uintptr_t)src, n);
    return CUDA_SUCCESS;
}
static CUresult stream_create(void **stream) { *stream = (void *)(uintptr_t)(next_handle += 0x10); return CUDA_SUCCESS; }
CUresult cuStreamCreate(void **stream, unsigned flags) { (void)flags; LOCKED(stream_create(stream)); }
CUresult cuStreamDestroy_v2(void *stream) { (void)stream; return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(void *stream) { (void)stream; return wait_streams(); }
CUresult cuStreamQuery(void *stream) {
    (void)stream;
    if (sticky)
        return sticky;
    return now() < busy_until ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}
/* An event remembers the stream it was recorded on, so the stream waits
 * the test sees name both streams. */
CUresult cuEventCreate(void **event, unsigned flags) { (void)flags; *event = calloc(1, sizeof(uint64_t)); return CUDA_SUCCESS; }
CUresult cuEventRecord(void *event, void *stream) { *(uint64_t *)event = (uint64_t)(uintptr_t)stream; return CUDA_SUCCESS; }
CUresult cuEventDestroy_v2(void *event) { free(event); return CUDA_SUCCESS; }

static uint64_t waits[1024][2];
static int nwaits;
static CUresult stream_wait(void *stream, void *event) {
    if (nwaits < 1024) {
        waits[nwaits][0] = (uint64_t)(uintptr_t)stream;
        waits[nwaits][1] = *(uint64_t *)event;
        nwaits++;
    }
    return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) { (void)flags; LOCKED(stream_wait(stream, event)); }

/* --- the test's view --- */
int fakecuda_launch_count(void) { return nlaunches; }
long fakecuda_elf_modules(void) { return elf_modules; } /* cubin images loaded */
long fakecuda_live_allocations(void) { return live_allocations; }
long fakecuda_live_modules(void) { return live_modules; }
int fakecuda_wait_count(void) { return nwaits; }
/* Wait `i`: the waiting stream (which = 0) or the stream waited for (1). */
uint64_t fakecuda_wait(int i, int which) { return i < nwaits ? waits[i][which & 1] : 0; }

/* Launch `i`: its kernel name, dims (grid xyz, block xyz, shared), stream,
 * parameter count; `sizes` gets each parameter's size and `bytes` their
 * bytes, one after another (`cap` bytes at most). Returns the total size. */
long fakecuda_launch(int i, char *kernel, size_t kernel_cap, unsigned *dims, uint64_t *stream, int *nparams,
                     size_t *sizes, unsigned char *bytes, size_t cap) {
    pthread_mutex_lock(&lock);
    long n = -1;
    if (i >= 0 && i < nlaunches && launches) {
        Launch *l = &launches[i];
        snprintf(kernel, kernel_cap, "%s", l->kernel);
        memcpy(dims, l->dims, sizeof l->dims);
        *stream = l->stream;
        *nparams = l->nparams;
        memcpy(sizes, l->sizes, l->nparams * sizeof(size_t));
        memcpy(bytes, l->bytes, l->nbytes < cap ? l->nbytes : cap);
        n = (long)l->nbytes;
    }
    pthread_mutex_unlock(&lock);
    return n;
}
