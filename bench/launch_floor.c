/* The driver's own floor for bench/launch.py: cuLaunchKernel of an empty
 * kernel with three array descriptors and a float (pydev's `empty`: each
 * array a 1-D descriptor of data, shape, stride), back to back from C, on
 * the legacy default stream and on a non-blocking stream; µs per launch,
 * median of 5 runs of N launches. No CUDA headers: the few driver entry
 * points are declared here.
 *
 *   gcc -O2 -o launch_floor bench/launch_floor.c -ldl && ./launch_floor 20000
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*fn_t)();
static fn_t get(void *lib, const char *name) {
    fn_t f = (fn_t)dlsym(lib, name);
    if (!f) { fprintf(stderr, "no %s\n", name); exit(1); }
    return f;
}
#define CHECK(call) do { int r_ = (call); if (r_) { fprintf(stderr, "%s failed: %d\n", #call, r_); exit(1); } } while (0)

static const char *PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry empty(.param .align 8 .b8 a[24], .param .align 8 .b8 b[24], .param .align 8 .b8 c[24], .param .f32 s) { ret; }\n";

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) { fprintf(stderr, "no libcuda.so.1\n"); return 1; }
    int dev; void *ctx, *mod, *fun, *streams[2] = {0, 0};
    unsigned long long mem;
    CHECK(get(lib, "cuInit")(0));
    CHECK(get(lib, "cuDeviceGet")(&dev, 0));
    CHECK(get(lib, "cuDevicePrimaryCtxRetain")(&ctx, dev));
    CHECK(get(lib, "cuCtxSetCurrent")(ctx));
    CHECK(get(lib, "cuModuleLoadData")(&mod, PTX));
    CHECK(get(lib, "cuModuleGetFunction")(&fun, mod, "empty"));
    CHECK(get(lib, "cuMemAlloc_v2")(&mem, (size_t)3 * 4096));
    CHECK(get(lib, "cuStreamCreate")(&streams[1], 1 /* CU_STREAM_NON_BLOCKING */));
    fn_t launch = get(lib, "cuLaunchKernel"), sync = get(lib, "cuStreamSynchronize");
    unsigned long long desc[3][3];
    for (int k = 0; k < 3; k++) { desc[k][0] = mem + 4096 * k; desc[k][1] = 1024; desc[k][2] = 1; }
    float s = 1.5f;
    void *params[4] = {desc[0], desc[1], desc[2], &s};
    const char *names[2] = {"legacy default stream", "non-blocking stream"};
    for (int which = 0; which < 2; which++) {
        double runs[5];
        for (int i = 0; i < 200; i++) CHECK(launch(fun, 1, 1, 1, 1, 1, 1, 0, streams[which], params, NULL));
        CHECK(sync(streams[which]));
        for (int r = 0; r < 5; r++) {
            double t = now_us();
            for (int i = 0; i < n; i++) CHECK(launch(fun, 1, 1, 1, 1, 1, 1, 0, streams[which], params, NULL));
            runs[r] = (now_us() - t) / n;
            CHECK(sync(streams[which]));
        }
        qsort(runs, 5, sizeof runs[0], cmp);
        printf("| cuLaunchKernel from C, %s | %.2f µs |\n", names[which], runs[2]);
    }
    return 0;
}
