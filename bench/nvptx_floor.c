/* What LLVM's NVPTX back end costs a kernel, in-process and warm, as a
 * JIT compile pays it: `opt` pipeline A and pipeline B (new pass manager)
 * and PTX code generation for sm_90, alternately on fresh copies of one
 * linked module (bench/sass_identity.sh WORK=DIR leaves DIR/KERNEL.linked.bc),
 * with one target machine kept, or made per compile with FRESH_TM=1.
 * Prints the minimum and mean of each, and how often B was faster.
 *
 *   clang-22 -O2 bench/nvptx_floor.c -I/usr/lib/llvm-22/include \
 *       -L/usr/lib/llvm-22/lib -lLLVM-22 -Wl,-rpath,/usr/lib/llvm-22/lib -o /tmp/nvptx_floor
 *   /tmp/nvptx_floor DIR/block_sum.linked.bc 'default<O3>' 'default<O2>' [compiles]
 */
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static LLVMTargetRef target;

static LLVMTargetMachineRef machine(void) {
    return LLVMCreateTargetMachine(target, "nvptx64-nvidia-cuda", "sm_90", "+ptx80", LLVMCodeGenLevelAggressive, LLVMRelocDefault, LLVMCodeModelDefault);
}

/* One compile: parse (untimed), optimize, emit PTX; the time in ms. */
static double compile(LLVMTargetMachineRef kept, LLVMMemoryBufferRef bitcode, const char *pipeline) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef copy = LLVMCreateMemoryBufferWithMemoryRangeCopy(LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode), "kernel");
    LLVMModuleRef m;
    if (LLVMParseBitcodeInContext2(ctx, copy, &m)) {
        fprintf(stderr, "not LLVM bitcode\n");
        exit(2);
    }
    LLVMDisposeMemoryBuffer(copy);
    double t0 = now_ms();
    LLVMTargetMachineRef tm = kept ? kept : machine();
    LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m, pipeline, tm, options);
    LLVMDisposePassBuilderOptions(options);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        fprintf(stderr, "pipeline '%s': %s\n", pipeline, msg);
        exit(2);
    }
    char *why = NULL;
    LLVMMemoryBufferRef ptx;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &why, &ptx)) {
        fprintf(stderr, "code generation: %s\n", why);
        exit(2);
    }
    if (!kept)
        LLVMDisposeTargetMachine(tm);
    double t = now_ms() - t0;
    LLVMDisposeMemoryBuffer(ptx);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return t;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s KERNEL.linked.bc PIPELINE_A PIPELINE_B [compiles]\n", argv[0]);
        return 2;
    }
    int n = argc > 4 ? atoi(argv[4]) : 40;
    /* libdevice's square root as pydev asks for it (passes/src/capi.rs). */
    const char *args[] = {"nvptx_floor", "-nvvm-reflect-add=__CUDA_PREC_SQRT=1"};
    LLVMParseCommandLineOptions(2, args, "");
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    char *why = NULL;
    if (LLVMGetTargetFromTriple("nvptx64-nvidia-cuda", &target, &why)) {
        fprintf(stderr, "no NVPTX target: %s\n", why);
        return 2;
    }
    LLVMTargetMachineRef kept = getenv("FRESH_TM") ? NULL : machine();
    LLVMMemoryBufferRef bitcode;
    if (LLVMCreateMemoryBufferWithContentsOfFile(argv[1], &bitcode, &why)) {
        fprintf(stderr, "%s: %s\n", argv[1], why);
        return 2;
    }
    double min_a = 1e9, min_b = 1e9, sum_a = 0, sum_b = 0;
    int b_faster = 0, timed = 0;
    for (int i = 0; i < n + 2; i++) {
        double a = compile(kept, bitcode, argv[2]), b = compile(kept, bitcode, argv[3]);
        if (i < 2)
            continue; /* warm-up */
        timed++;
        min_a = a < min_a ? a : min_a;
        min_b = b < min_b ? b : min_b;
        sum_a += a;
        sum_b += b;
        b_faster += b < a;
    }
    printf("A %.2f ms min, %.2f mean | B %.2f ms min, %.2f mean | B faster in %d of %d\n", min_a, sum_a / timed, min_b, sum_b / timed, b_faster, timed);
    return 0;
}
