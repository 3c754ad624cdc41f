# Device code for test_local_atomics.py and test/pipeline/local-atomics.py:
# atomics on a thread's local arrays, which pydev-lower-atomics makes plain
# load/op/store (PTX defines atom only on .global and .shared).
import cuda.device as device


@device.kernel
def local_every_kind(out, uout, fout, special, n):
    # Every AtomicInterface method on a thread's local arrays, at index
    # n % 4, known only at run time (the arrays are filled in a loop, so
    # LLVM keeps them in memory); out/uout/fout get the value each returns.
    i = device.tid(1)
    j = n % 4
    a = device.local_array(4, device.int32)
    for k in range(4):
        a[k] = i + k - j
    r = device.atomic_ref(a, j)
    out[i, 0] = r.add(5)
    out[i, 1] = r.sub(2, memory="relaxed")
    out[i, 2] = r.and_(6, scope="thread")
    out[i, 3] = r.or_(8, "acquire", "block")
    out[i, 4] = r.xor(3, memory="release")
    out[i, 5] = r.max(i, memory="acq_rel", scope="device")
    out[i, 6] = r.min(-i)
    out[i, 7] = r.nanmax(4)
    out[i, 8] = r.nanmin(-7, scope="system")
    out[i, 9] = r.exch(i * 3)
    out[i, 10] = r.cas(i * 3, 11)
    out[i, 11] = r.cas(0, 12)
    r.store(i - 9, memory="release", scope="block")
    out[i, 12] = r.load(memory="acquire")
    out[i, 13] = a[j]
    b = device.local_array(4, device.int8)
    for k in range(4):
        b[k] = 3
    rb = device.atomic_ref(b, j)
    out[i, 14] = rb.exch(device.int8(-4))
    out[i, 15] = rb.cas(device.int8(-4), device.int8(9))
    out[i, 16] = b[j]
    # uint64: max/min compare unsigned.
    u = device.local_array(4, device.uint64)
    for k in range(4):
        u[k] = device.uint64(5)
    ru = device.atomic_ref(u, j)
    uout[i, 0] = ru.max(device.uint64(0x8000000000000000))
    uout[i, 1] = ru.min(device.uint64(7))
    uout[i, 2] = ru.add(device.uint64(1))
    uout[i, 3] = u[j]
    # float32 with NaN (special[0]): max/min in Python's order keep the old
    # value against NaN, nanmax/nanmin treat NaN as missing.
    nan = special[0]
    f = device.local_array(4, device.float32)
    for k in range(4):
        f[k] = device.float32(1.5)
    rf = device.atomic_ref(f, j)
    fout[i, 0] = rf.add(device.float32(1.0))
    fout[i, 1] = rf.sub(device.float32(0.25))
    fout[i, 2] = rf.max(nan)
    fout[i, 3] = rf.nanmin(nan)
    fout[i, 4] = rf.min(device.float32(-1.0))
    fout[i, 5] = rf.nanmax(device.float32(3.0))
    fout[i, 6] = rf.exch(nan)
    fout[i, 7] = rf.max(device.float32(5.0))
    fout[i, 8] = rf.nanmax(device.float32(5.0))
    fout[i, 9] = rf.cas(device.float32(5.0), device.float32(6.0))
    fout[i, 10] = rf.load()
    # complex128 (16 bytes): load and store.
    z = device.local_array(4, device.complex128)
    rz = device.atomic_ref(z, j)
    rz.store(complex(device.float64(i), -1.0))
    w = rz.load()
    fout[i, 11] = w.real
    fout[i, 12] = w.imag
    device.threadfence()
