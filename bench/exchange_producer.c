/* A DLPack producer with the C exchange API (dlpack.h 1.3,
 * `__dlpack_c_exchange_api__`) written in C, as PyTorch's is in C++: what
 * bench/launch.py times pydev's consumer against, without PyTorch.
 *
 * Its arrays are Python objects with int attributes `ptr` and `size`: 1-D
 * float32 arrays on cuda device 0. As PyTorch's, an export holds a
 * reference to its array until the consumer calls the deleter. Its current
 * work stream is what `producer_set_stream` set.
 *
 * `producer_array_type` is a C array type as CuPy's ndarray and PyTorch's
 * Tensor are: its data pointer, length and element type are C fields, its
 * `__dlpack__` a method of the type that reads them (no Python attribute
 * per export), for producers that have `__dlpack__` only.
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

/* A C array type (1-D, any DLPack element type, cuda device 0) whose
 * `__dlpack__` checks its keywords (stream: None or an int; max_version: a
 * tuple) as real producers do, and exports from its C fields. */
typedef struct {
    PyObject_HEAD
    void *data;
    int64_t size;
    uint8_t code, bits;
    uint16_t lanes;
    PyObject *owner; /* what keeps `data` alive */
} NativeArray;

static PyObject *kw_stream, *kw_max_version;

static void native_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(((NativeArray *)self)->owner);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *native_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    NativeArray *a = (NativeArray *)self;
    if (nargs != 0) {
        PyErr_SetString(PyExc_TypeError, "__dlpack__ takes keyword arguments only");
        return NULL;
    }
    Py_ssize_t n = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i), *v = args[i];
        if (k == kw_stream || PyUnicode_Compare(k, kw_stream) == 0) {
            if (v != Py_None && !PyLong_Check(v)) {
                PyErr_SetString(PyExc_TypeError, "stream must be None or an int");
                return NULL;
            }
        } else if (k == kw_max_version || PyUnicode_Compare(k, kw_max_version) == 0) {
            if (v != Py_None && !PyTuple_Check(v)) {
                PyErr_SetString(PyExc_TypeError, "max_version must be a tuple");
                return NULL;
            }
        }
    }
    Export *e = malloc(sizeof *e);
    if (!e) return PyErr_NoMemory();
    e->shape = a->size;
    e->stride = 1;
    Py_INCREF(self);
    e->owner = self;
    e->managed.version = (DLPackVersion){1, 3};
    e->managed.manager_ctx = NULL;
    e->managed.deleter = deleter;
    e->managed.flags = 0;
    e->managed.dl_tensor = (DLTensor){a->data, 2, 0, 1, a->code, a->bits, a->lanes, &e->shape, &e->stride, 0};
    PyObject *cap = PyCapsule_New(&e->managed, "dltensor_versioned", capsule_destructor);
    if (!cap) deleter(&e->managed);
    return cap;
}

static PyObject *native_device(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return Py_BuildValue("(ii)", 2, 0);
}

static PyMethodDef native_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))native_dlpack, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"__dlpack_device__", native_device, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot native_slots[] = {
    {Py_tp_dealloc, native_dealloc},
    {Py_tp_methods, native_methods},
    {0, NULL},
};

static PyType_Spec native_spec = {"exchange_producer.NativeArray", sizeof(NativeArray), 0, Py_TPFLAGS_DEFAULT, native_slots};

static PyObject *native_type;

/* The type (made once). */
PyObject *producer_array_type(void) {
    if (!native_type) {
        kw_stream = PyUnicode_InternFromString("stream");
        kw_max_version = PyUnicode_InternFromString("max_version");
        native_type = PyType_FromSpec(&native_spec);
        if (!native_type) return NULL;
    }
    Py_INCREF(native_type);
    return native_type;
}

/* A NativeArray of `size` elements of (code, bits, lanes) at `data`,
 * keeping `owner` alive. */
PyObject *producer_array(PyObject *owner, void *data, int64_t size, int code, int bits, int lanes) {
    PyObject *tp = producer_array_type();
    if (!tp) return NULL;
    NativeArray *a = PyObject_New(NativeArray, (PyTypeObject *)tp);
    Py_DECREF(tp); /* the instance holds its own reference (heap type) */
    if (!a) return NULL;
    a->data = data;
    a->size = size;
    a->code = (uint8_t)code;
    a->bits = (uint8_t)bits;
    a->lanes = (uint16_t)lanes;
    Py_INCREF(owner);
    a->owner = owner;
    return (PyObject *)a;
}
