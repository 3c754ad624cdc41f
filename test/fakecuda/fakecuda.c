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
 * faulted. Calls are serialised by one lock (tests launch from threads).
 *
 * Devices (issue 18): two, of different architectures, device 0 sm_90 and
 * device 1 sm_80 (FAKECUDA_DEVICES=1: only device 0), each with its
 * primary context. The current context is per thread (cuCtxGetCurrent,
 * cuCtxSetCurrent, cuCtxPushCurrent/PopCurrent; none until one is set);
 * allocations, streams, events and modules belong to the context current
 * when they were made, cuPointerGetAttribute(s) tell an allocation's device,
 * a PTX module whose .target is newer than its device fails to load, and a
 * launch of a function of another context than the current one, or on a
 * stream of another context, fails as on a real driver. Each launch records
 * its device and the architecture its module was compiled for.
 *
 * Counters: fakecuda_calls("cuLaunchKernel") ... count every call of each
 * entry point (fakecuda_reset_calls() zeroes them), so tests can assert how
 * many driver calls a launch makes. */
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
    int device, arch; /* of its module: the context's device, the .target (90: sm_90) */
} Function;

/* A module-scope `.global` of the PTX (`cuModuleGetGlobal`): its bytes in
 * host memory, zeros or the PTX's initializer. */
typedef struct {
    char name[128];
    unsigned char *data;
    size_t size;
} Global;

typedef struct Module {
    char *ptx;
    Function *functions;
    int nfunctions;
    Global *globals;
    int nglobals;
    struct Module *next_loaded; /* the live PTX modules, newest first */
    int device, arch;
} Module;
static Module *loaded_modules;

typedef struct {
    char kernel[256];
    unsigned dims[7]; /* grid xyz, block xyz, shared bytes */
    uint64_t stream;
    int nparams;
    size_t sizes[MAX_PARAMS];
    unsigned char *bytes;
    size_t nbytes;
    int device, arch;
} Launch;

static Launch *launches;
static int nlaunches, caplaunches;
static long live_allocations, live_modules;
static uint64_t next_handle = 0x5000;

/* --- devices and contexts --- */
#define MAX_DEVICES 2
typedef struct { int device; } Context;
static Context contexts[MAX_DEVICES] = {{0}, {1}};
static const int device_cc[MAX_DEVICES][2] = {{9, 0}, {8, 0}};
static __thread Context *current_ctx;
static __thread Context *ctx_stack[16];
static __thread int ctx_depth;
enum { CUDA_ERROR_INVALID_CONTEXT = 201, CUDA_ERROR_CONTEXT_MISMATCH = 202 };

static int device_count(void) {
    if (getenv("FAKECUDA_NO_DEVICE"))
        return 0;
    const char *n = getenv("FAKECUDA_DEVICES");
    return n && atoi(n) == 1 ? 1 : MAX_DEVICES;
}

/* --- call counters: one per entry point --- */
#define FAKECUDA_CALLS(X) X(cuLaunchKernel) X(cuLaunchCooperativeKernel) X(cuStreamWaitEvent) X(cuEventCreate) X(cuEventRecord) X(cuEventDestroy_v2) X(cuEventQuery) X(cuEventSynchronize) \
    X(cuPointerGetAttribute) X(cuPointerGetAttributes) X(cuCtxGetCurrent) X(cuCtxSetCurrent) X(cuCtxGetDevice) \
    X(cuCtxPushCurrent_v2) X(cuCtxPopCurrent_v2) X(cuDevicePrimaryCtxRetain) X(cuStreamQuery) X(cuStreamSynchronize) \
    X(cuStreamCreate) X(cuMemAlloc_v2) X(cuMemFree_v2) X(cuMemcpyHtoDAsync_v2) X(cuMemcpyDtoHAsync_v2) X(cuModuleLoadDataEx) \
    X(cuCtxSynchronize) X(cuDeviceGetAttribute)
#define FAKECUDA_ENUM(name) CALL_##name,
enum { FAKECUDA_CALLS(FAKECUDA_ENUM) NCALLS };
#define FAKECUDA_NAME(name) #name,
static const char *call_names[NCALLS] = {FAKECUDA_CALLS(FAKECUDA_NAME)};
static long calls[NCALLS];
#define COUNT(name) __atomic_add_fetch(&calls[CALL_##name], 1, __ATOMIC_RELAXED)

/* How often entry point `name` was called (-1: not counted). */
long fakecuda_calls(const char *name) {
    for (int i = 0; i < NCALLS; i++)
        if (strcmp(call_names[i], name) == 0)
            return __atomic_load_n(&calls[i], __ATOMIC_RELAXED);
    return -1;
}
void fakecuda_reset_calls(void) {
    for (int i = 0; i < NCALLS; i++)
        __atomic_store_n(&calls[i], 0, __ATOMIC_RELAXED);
}

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
CUresult cuDeviceGetCount(int *n) { *n = device_count(); return CUDA_SUCCESS; }
CUresult cuDeviceGet(int *dev, int ordinal) { *dev = ordinal; return ordinal >= 0 && ordinal < device_count() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }
static long retains[MAX_DEVICES];
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) {
    COUNT(cuDevicePrimaryCtxRetain);
    if (dev < 0 || dev >= device_count())
        return CUDA_ERROR_INVALID_VALUE;
    __atomic_add_fetch(&retains[dev], 1, __ATOMIC_RELAXED);
    *ctx = &contexts[dev];
    return CUDA_SUCCESS;
}
static int is_context(void *ctx) { return ctx == &contexts[0] || ctx == &contexts[1]; }
CUresult cuCtxSetCurrent(void *ctx) {
    COUNT(cuCtxSetCurrent);
    if (ctx && !is_context(ctx))
        return CUDA_ERROR_INVALID_HANDLE;
    if (ctx_depth == 0 && ctx)
        ctx_stack[ctx_depth++] = ctx; /* the stack's top is the current context */
    else if (ctx_depth)
        ctx_stack[ctx_depth - 1] = ctx;
    current_ctx = ctx;
    return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(void **ctx) { COUNT(cuCtxGetCurrent); *ctx = current_ctx; return CUDA_SUCCESS; }
CUresult cuCtxGetDevice(int *dev) {
    COUNT(cuCtxGetDevice);
    if (!current_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    *dev = current_ctx->device;
    return CUDA_SUCCESS;
}
CUresult cuCtxPushCurrent_v2(void *ctx) {
    COUNT(cuCtxPushCurrent_v2);
    if (!is_context(ctx) || ctx_depth == 16)
        return CUDA_ERROR_INVALID_VALUE;
    ctx_stack[ctx_depth++] = ctx;
    current_ctx = ctx;
    return CUDA_SUCCESS;
}
CUresult cuCtxPopCurrent_v2(void **ctx) {
    COUNT(cuCtxPopCurrent_v2);
    if (ctx_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    Context *top = ctx_stack[--ctx_depth];
    if (ctx)
        *ctx = top;
    current_ctx = ctx_depth ? ctx_stack[ctx_depth - 1] : NULL;
    return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void) { COUNT(cuCtxSynchronize); return current_ctx ? wait_streams() : CUDA_ERROR_INVALID_CONTEXT; }

CUresult cuDeviceGetAttribute(int *value, int attribute, int dev) {
    COUNT(cuDeviceGetAttribute);
    if (dev < 0 || dev >= device_count())
        return CUDA_ERROR_INVALID_VALUE;
    *value = attribute == ATTR_CC_MAJOR ? device_cc[dev][0] : attribute == ATTR_CC_MINOR ? device_cc[dev][1] : 0;
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

/* `[.visible] .global .align A .b8 NAME[SIZE] [= {b, b, ...}];` */
static void parse_globals(Module *m) {
    for (const char *p = m->ptx; (p = strstr(p, ".global .align ")); p++) {
        const char *eol = strchr(p, '\n');
        const char *b8 = strstr(p, ".b8 ");
        char name[128];
        size_t size = 0;
        if (!b8 || (eol && b8 > eol) || sscanf(b8 + 4, "%127[A-Za-z0-9_$][%zu]", name, &size) != 2)
            continue;
        m->globals = realloc(m->globals, (m->nglobals + 1) * sizeof(Global));
        Global *g = &m->globals[m->nglobals++];
        snprintf(g->name, sizeof g->name, "%s", name);
        g->size = size;
        g->data = calloc(size ? size : 1, 1);
        const char *init = strchr(b8, '{');
        if (init && (!eol || init < eol)) {
            char *at = (char *)init + 1;
            for (size_t i = 0; i < size; i++) {
                char *end;
                long v = strtol(at, &end, 10);
                if (end == at)
                    break;
                g->data[i] = (unsigned char)v;
                at = end + strspn(end, ", ");
            }
        }
    }
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
    parse_globals(m);
    m->next_loaded = loaded_modules;
    loaded_modules = m;
    live_modules++;
    *module = m;
    return CUDA_SUCCESS;
}

/* The architecture of a PTX text's `.target sm_XY` (90), 0 if none. */
static int ptx_arch(const char *ptx) {
    const char *t = strstr(ptx, ".target");
    if (!t)
        return 0;
    t += 7;
    while (*t == ' ' || *t == '\t')
        t++;
    return strncmp(t, "sm_", 3) == 0 ? atoi(t + 3) : 0;
}

/* A module belongs to the current context; PTX for a newer architecture
 * than the context's device does not load (the JIT cannot lower it). */
static CUresult module_load_here(void **module, const void *image, unsigned n, int *options, void **values) {
    if (!current_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    int device = current_ctx->device, arch = 0;
    int device_arch = device_cc[device][0] * 10 + device_cc[device][1];
    if (memcmp(image, "\x7f" "ELF", 4) != 0) {
        arch = ptx_arch(image);
        if (arch > device_arch) {
            for (unsigned i = 0; i < n; i++) {
                if (options[i] == CU_JIT_ERROR_LOG_BUFFER) {
                    size_t cap = 0;
                    for (unsigned j = 0; j < n; j++)
                        if (options[j] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) cap = (size_t)(uintptr_t)values[j];
                    if (cap)
                        snprintf(values[i], cap, "ptxas fatal   : fakecuda: the PTX targets sm_%d, newer than device %d (sm_%d)", arch, device, device_arch);
                }
            }
            return CUDA_ERROR_INVALID_PTX;
        }
    }
    CUresult r = module_load(module, image, n, options, values);
    if (r == CUDA_SUCCESS) {
        Module *m = *module;
        m->device = device;
        m->arch = arch ? arch : device_arch;
        for (int i = 0; i < m->nfunctions; i++) {
            m->functions[i].device = m->device;
            m->functions[i].arch = m->arch;
        }
    }
    return r;
}

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
    COUNT(cuModuleLoadDataEx);
    LOCKED(module_load_here(module, image, n, options, values));
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
    for (Module **l = &loaded_modules; *l; l = &(*l)->next_loaded)
        if (*l == m) {
            *l = m->next_loaded;
            break;
        }
    for (int i = 0; i < m->nglobals; i++)
        free(m->globals[i].data);
    free(m->globals);
    free(m->ptx);
    free(m->functions);
    free(m);
    live_modules--;
    return CUDA_SUCCESS;
}

static int stream_in_context(void *stream, int device);

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
    if (!current_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (f->device != current_ctx->device || !stream_in_context(stream, current_ctx->device))
        return CUDA_ERROR_INVALID_HANDLE; /* a function or stream of another context */
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
    l->device = f->device;
    l->arch = f->arch;
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
    COUNT(cuLaunchKernel);
    LOCKED(launch(function, gx, gy, gz, bx, by, bz, shared, stream, params, extra));
}

/* A cooperative launch: recorded as any launch, counted on its own. */
CUresult cuLaunchCooperativeKernel(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, void *stream, void **params) {
    COUNT(cuLaunchCooperativeKernel);
    LOCKED(launch(function, gx, gy, gz, bx, by, bz, shared, stream, params, NULL));
}

/* Device allocations with the device of the context they were made in. */
typedef struct { uint64_t ptr; size_t bytes; int device; } Allocation;
static Allocation *allocations;
static int nallocations, capallocations;

/* The allocation holding `ptr`, or NULL (call with `lock` held). */
static Allocation *allocation_of(uint64_t ptr) {
    for (int i = 0; i < nallocations; i++)
        if (ptr >= allocations[i].ptr && ptr < allocations[i].ptr + (allocations[i].bytes ? allocations[i].bytes : 1))
            return &allocations[i];
    return NULL;
}

CUresult cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
    COUNT(cuMemAlloc_v2);
    if (sticky)
        return sticky;
    if (!current_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memset(p, 0xAB, bytes); /* uninitialised device memory is not zeros */
    __atomic_add_fetch(&live_allocations, 1, __ATOMIC_SEQ_CST);
    *ptr = (uint64_t)(uintptr_t)p;
    pthread_mutex_lock(&lock);
    if (nallocations == capallocations) {
        capallocations = capallocations ? 2 * capallocations : 64;
        allocations = realloc(allocations, capallocations * sizeof(Allocation));
    }
    allocations[nallocations++] = (Allocation){*ptr, bytes, current_ctx->device};
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(uint64_t ptr) {
    COUNT(cuMemFree_v2);
    if (!ptr)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nallocations; i++) {
        if (allocations[i].ptr == ptr) {
            allocations[i] = allocations[--nallocations];
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    free((void *)(uintptr_t)ptr);
    __atomic_sub_fetch(&live_allocations, 1, __ATOMIC_SEQ_CST);
    return CUDA_SUCCESS;
}

/* Page-locked host memory: plain host memory here (mapped: the same address
 * on the "device"); counted apart from device allocations. */
static long live_host_allocations;
CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags) {
    (void)flags;
    if (sticky)
        return sticky;
    *p = malloc(bytes ? bytes : 1);
    if (!*p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    __atomic_add_fetch(&live_host_allocations, 1, __ATOMIC_SEQ_CST);
    return CUDA_SUCCESS;
}
CUresult cuMemHostGetDevicePointer_v2(uint64_t *d, void *p, unsigned flags) { (void)flags; *d = (uint64_t)(uintptr_t)p; return CUDA_SUCCESS; }
CUresult cuMemFreeHost(void *p) {
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    free(p);
    __atomic_sub_fetch(&live_host_allocations, 1, __ATOMIC_SEQ_CST);
    return CUDA_SUCCESS;
}
long fakecuda_live_host_allocations(void) { return live_host_allocations; }

enum { PTR_CONTEXT = 1, PTR_MEMORY_TYPE = 2, PTR_IS_MANAGED = 8, PTR_DEVICE_ORDINAL = 9, MEMORYTYPE_DEVICE = 2 };
/* One attribute of a device pointer; CUDA_ERROR_INVALID_VALUE for memory
 * the driver did not allocate (call with `lock` held). */
static CUresult pointer_attribute(void *data, int attribute, uint64_t ptr) {
    Allocation *a = allocation_of(ptr);
    if (!a)
        return CUDA_ERROR_INVALID_VALUE;
    switch (attribute) {
    case PTR_CONTEXT: *(void **)data = &contexts[a->device]; return CUDA_SUCCESS;
    case PTR_MEMORY_TYPE: *(unsigned *)data = MEMORYTYPE_DEVICE; return CUDA_SUCCESS;
    case PTR_IS_MANAGED: *(int *)data = 0; return CUDA_SUCCESS;
    case PTR_DEVICE_ORDINAL: *(int *)data = a->device; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}
CUresult cuPointerGetAttribute(void *data, int attribute, uint64_t ptr) {
    COUNT(cuPointerGetAttribute);
    LOCKED(pointer_attribute(data, attribute, ptr));
}
/* As the real driver, unknown memory is no error here: its attributes are
 * the defaults (memory type 0, device ordinal -2). */
static CUresult pointer_attributes(unsigned n, int *attributes, void **data, uint64_t ptr) {
    for (unsigned i = 0; i < n; i++) {
        if (pointer_attribute(data[i], attributes[i], ptr) == CUDA_SUCCESS)
            continue;
        if (attributes[i] == PTR_DEVICE_ORDINAL)
            *(int *)data[i] = -2;
        else if (attributes[i] == PTR_CONTEXT)
            *(void **)data[i] = NULL;
        else if (attributes[i] == PTR_MEMORY_TYPE || attributes[i] == PTR_IS_MANAGED)
            *(unsigned *)data[i] = 0;
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}
CUresult cuPointerGetAttributes(unsigned n, int *attributes, void **data, uint64_t ptr) {
    COUNT(cuPointerGetAttributes);
    LOCKED(pointer_attributes(n, attributes, data, ptr));
}

CUresult cuMemcpyHtoDAsync_v2(uint64_t dst, const void *src, size_t n, void *stream) {
    (void)stream;
    COUNT(cuMemcpyHtoDAsync_v2);
    if (sticky)
        return sticky;
    memcpy((void *)(uintptr_t)dst, src, n);
    return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, uint64_t src, size_t n, void *stream) {
    (void)stream;
    COUNT(cuMemcpyDtoHAsync_v2);
    CUresult r = wait_streams(); /* a pageable copy waits for the stream */
    if (r)
        return r;
    memcpy(dst, (void *)(uintptr_t)src, n);
    return CUDA_SUCCESS;
}
/* Streams with the device of their context (0, 1, 2: the current context's). */
static struct { uint64_t handle; int device; } *streams;
static int nstreams, capstreams;
static CUresult stream_create(void **stream) {
    if (!current_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    *stream = (void *)(uintptr_t)(next_handle += 0x10);
    if (nstreams == capstreams) {
        capstreams = capstreams ? 2 * capstreams : 64;
        streams = realloc(streams, capstreams * sizeof *streams);
    }
    streams[nstreams].handle = (uint64_t)(uintptr_t)*stream;
    streams[nstreams++].device = current_ctx->device;
    return CUDA_SUCCESS;
}
/* Whether `stream` may be used in `device`'s context (call with `lock` held). */
static int stream_in_context(void *stream, int device) {
    uint64_t h = (uint64_t)(uintptr_t)stream;
    for (int i = 0; i < nstreams; i++)
        if (streams[i].handle == h)
            return streams[i].device == device;
    return 1; /* the default streams, and handles the fake did not make */
}
CUresult cuStreamCreate(void **stream, unsigned flags) { (void)flags; COUNT(cuStreamCreate); LOCKED(stream_create(stream)); }
CUresult cuStreamDestroy_v2(void *stream) { (void)stream; return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(void *stream) { (void)stream; COUNT(cuStreamSynchronize); return wait_streams(); }
CUresult cuStreamQuery(void *stream) {
    (void)stream;
    COUNT(cuStreamQuery);
    if (sticky)
        return sticky;
    return now() < busy_until ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}
/* An event remembers the stream it was recorded on, so the stream waits
 * the test sees name both streams, and when the work queued before it
 * ends (the end of fakecuda_busy's simulated work at the record). */
struct event {
    uint64_t stream; /* first: stream waits read it */
    double done_at;
};
CUresult cuEventCreate(void **event, unsigned flags) { (void)flags; COUNT(cuEventCreate); *event = calloc(1, sizeof(struct event)); return CUDA_SUCCESS; }
CUresult cuEventRecord(void *event, void *stream) {
    COUNT(cuEventRecord);
    struct event *e = event;
    e->stream = (uint64_t)(uintptr_t)stream;
    e->done_at = busy_until;
    return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(void *event) { COUNT(cuEventDestroy_v2); free(event); return CUDA_SUCCESS; }
CUresult cuEventQuery(void *event) {
    COUNT(cuEventQuery);
    if (sticky)
        return sticky;
    return now() < ((struct event *)event)->done_at ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}
/* What bench/gpu.py times with (kernels do not run here: 1 ms between any
 * two events); a fence wait waits for the work before the event only. */
CUresult cuEventSynchronize(void *event) {
    COUNT(cuEventSynchronize);
    while (now() < ((struct event *)event)->done_at && !sticky) {
        struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
    return sticky;
}
CUresult cuEventElapsedTime(float *ms, void *start, void *end) { (void)start; (void)end; *ms = 1.0f; return CUDA_SUCCESS; }
CUresult cuMemcpyDtoDAsync_v2(uint64_t dst, uint64_t src, size_t n, void *stream) {
    (void)stream;
    if (sticky)
        return sticky;
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    return CUDA_SUCCESS;
}

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
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) { (void)flags; COUNT(cuStreamWaitEvent); LOCKED(stream_wait(stream, event)); }

static CUresult module_get_global(uint64_t *dptr, size_t *bytes, void *module, const char *name) {
    Module *m = module;
    for (int i = 0; m && i < m->nglobals; i++) {
        if (strcmp(m->globals[i].name, name) == 0) {
            if (dptr)
                *dptr = (uint64_t)(uintptr_t)m->globals[i].data;
            if (bytes)
                *bytes = m->globals[i].size;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}
CUresult cuModuleGetGlobal_v2(uint64_t *dptr, size_t *bytes, void *module, const char *name) {
    if (sticky)
        return sticky;
    LOCKED(module_get_global(dptr, bytes, module, name));
}

/* --- the test's view --- */
/* The address of global `name` of the newest live PTX module that has one
 * (0: none), so that a test can write what a kernel would have written
 * there (a bounds-check record, docs/reliability.md). */
uint64_t fakecuda_module_global(const char *name) {
    uint64_t at = 0;
    pthread_mutex_lock(&lock);
    for (Module *m = loaded_modules; m && !at; m = m->next_loaded)
        module_get_global(&at, NULL, m, name);
    pthread_mutex_unlock(&lock);
    return at;
}
int fakecuda_launch_count(void) { return nlaunches; }
long fakecuda_elf_modules(void) { return elf_modules; } /* cubin images loaded */
long fakecuda_live_allocations(void) { return live_allocations; }
long fakecuda_live_modules(void) { return live_modules; }
int fakecuda_wait_count(void) { return nwaits; }
/* Wait `i`: the waiting stream (which = 0) or the stream waited for (1). */
uint64_t fakecuda_wait(int i, int which) { return i < nwaits ? waits[i][which & 1] : 0; }
/* Launch `i`: the device it ran on and the architecture its module's PTX
 * targets (90: sm_90); -1 if there is no such launch. */
int fakecuda_launch_device(int i) { return i >= 0 && i < nlaunches && launches ? launches[i].device : -1; }
int fakecuda_launch_arch(int i) { return i >= 0 && i < nlaunches && launches ? launches[i].arch : -1; }
/* The device of the calling thread's current context (-1: none), and how
 * often each device's primary context was retained. */
int fakecuda_current_device(void) { return current_ctx ? current_ctx->device : -1; }
long fakecuda_retains(int device) { return device >= 0 && device < MAX_DEVICES ? retains[device] : -1; }
/* The device of the allocation holding `ptr` (-1: none). */
int fakecuda_pointer_device(uint64_t ptr) {
    pthread_mutex_lock(&lock);
    Allocation *a = allocation_of(ptr);
    int d = a ? a->device : -1;
    pthread_mutex_unlock(&lock);
    return d;
}

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
