/* A DLPack producer with the C exchange API (dlpack.h 1.3,
 * `__dlpack_c_exchange_api__`) written in C, as PyTorch's is in C++: what
 * bench/launch.py times pydev's consumer against, without PyTorch.
 *
 * Its arrays are Python objects with int attributes `ptr` and `size`: 1-D
 * float32 arrays on cuda device 0. As PyTorch's, an export holds a
 * reference to its array until the consumer calls the deleter. Its current
 * work stream is what `producer_set_stream` set.
 *
 * Build: gcc -shared -fPIC -O2 -I<python include> exchange_producer.c
 * (loaded with ctypes into a running interpreter, which provides libpython).
 */
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct { uint32_t major, minor; } DLPackVersion;

typedef struct {
    void *data;
    int32_t device_type, device_id;
    int32_t ndim;
    uint8_t code, bits;
    uint16_t lanes;
    int64_t *shape, *strides;
    uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

typedef struct {
    DLPackVersion version;
    void *prev_api;
    void *managed_tensor_allocator;
    int (*managed_tensor_from_py_object_no_sync)(void *, DLManagedTensorVersioned **);
    void *managed_tensor_to_py_object_no_sync;
    void *dltensor_from_py_object_no_sync;
    int (*current_work_stream)(int32_t, int32_t, void **);
} DLPackExchangeAPI;

typedef struct {
    DLManagedTensorVersioned managed;
    int64_t shape, stride;
    PyObject *owner;
} Export;

static void deleter(DLManagedTensorVersioned *m) {
    Export *e = (Export *)m;
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF(e->owner);
    PyGILState_Release(g);
    free(e);
}

static int int_attr(PyObject *o, const char *name, long long *out) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v) return -1;
    *out = PyLong_AsLongLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int from_py(void *obj, DLManagedTensorVersioned **out) {
    PyObject *o = (PyObject *)obj;
    long long ptr, size;
    if (int_attr(o, "ptr", &ptr) || int_attr(o, "size", &size)) return -1;
    Export *e = calloc(1, sizeof *e);
    if (!e) {
        PyErr_NoMemory();
        return -1;
    }
    e->shape = size;
    e->stride = 1;
    Py_INCREF(o);
    e->owner = o;
    e->managed.version = (DLPackVersion){1, 3};
    e->managed.deleter = deleter;
    e->managed.dl_tensor = (DLTensor){(void *)(intptr_t)ptr, 2, 0, 1, 2, 32, 1, &e->shape, &e->stride, 0};
    *out = &e->managed;
    return 0;
}

/* The producer's current stream (torch.cuda.current_stream()). */
static void *current;

void producer_set_stream(void *stream) { current = stream; }

static int work_stream(int32_t device_type, int32_t device_id, void **out) {
    (void)device_type;
    (void)device_id;
    *out = current;
    return 0;
}

static const DLPackExchangeAPI api = {{1, 3}, NULL, NULL, from_py, NULL, NULL, work_stream};

const DLPackExchangeAPI *producer_api(void) { return &api; }

/* A native `__dlpack__` (as CuPy's, which is Cython): a versioned capsule
 * of the same export, for a type without the exchange API. The producer
 * has no pending work, so `stream` asks nothing of it. */
static void capsule_destructor(PyObject *cap) {
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, "dltensor_versioned");
        if (m && m->deleter) m->deleter(m);
    }
}

static PyObject *dlpack(PyObject *unused, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)unused;
    (void)kwnames;
    DLManagedTensorVersioned *m;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "__dlpack__ takes keyword arguments only");
        return NULL;
    }
    if (from_py(args[0], &m)) return NULL;
    PyObject *cap = PyCapsule_New(m, "dltensor_versioned", capsule_destructor);
    if (!cap) m->deleter(m);
    return cap;
}

static PyMethodDef dlpack_def = {"__dlpack__", (PyCFunction)(void (*)(void))dlpack, METH_FASTCALL | METH_KEYWORDS, NULL};

/* The method to set as a class's `__dlpack__` (binds like a Python one). */
PyObject *producer_dlpack_method(void) {
    PyObject *f = PyCFunction_New(&dlpack_def, NULL);
    if (!f) return NULL;
    PyObject *m = PyInstanceMethod_New(f);
    Py_DECREF(f);
    return m;
}
