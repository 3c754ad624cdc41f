"""Warp collectives: shuffles for a warp reduction and an inclusive scan,
ballot_sync with popc for counting, match_any_sync for grouping equal
keys, all_sync/any_sync for votes.

Run: python3 examples/warp_collectives.py
"""

import sys

import numpy as np

import cuda.device as device
import pydev

FULL = -1  # all 32 lanes: WarpMask is an int32


@device.kernel
def warp_ops(sums, scans, counts, groups, votes, x, keys):
    i = device.tid(1)
    lane = device.lane_id
    v = x[i]
    # Reduction: after 5 xor-shuffles every lane holds the warp's sum.
    s = v
    offset = 16
    while offset > 0:
        s += device.shfl_xor_sync(FULL, s, offset)
        offset //= 2
    if lane == 0:
        sums[i // 32] = s
    # Inclusive scan (Hillis-Steele) with shfl_up_sync; lanes below the
    # offset get their own value back, so they must not add it.
    c = v
    offset = 1
    while offset < 32:
        up = device.shfl_up_sync(FULL, c, offset)
        if lane >= offset:
            c += up
        offset *= 2
    scans[i] = c
    # Ballot: which lanes hold a positive value; popc counts them.
    positive = device.ballot_sync(FULL, lambda: v > 0)
    counts[i] = device.popc(device.int32(positive & device.lanemask_lt()))  # positives before me
    # match_any: the lanes whose key equals mine.
    groups[i] = device.popc(device.int32(device.match_any_sync(FULL, keys[i])))
    # Votes over the warp.
    all_small = device.all_sync(FULL, lambda: abs(v) < 3.0)
    any_big = device.any_sync(FULL, lambda: v > 2.0)
    votes[i] = (1 if all_small else 0) + (2 if any_big else 0)


def main():
    rng = np.random.default_rng(32)
    warps = 64
    n = 32 * warps
    x = rng.standard_normal(n).astype(np.float32)
    keys = rng.integers(0, 5, n).astype(np.int32)
    stream = pydev.default_stream()
    sums = pydev.to_device(np.full(warps, np.nan, np.float32))  # NaN: unwritten shows
    scans = pydev.to_device(np.full(n, np.nan, np.float32))
    counts = pydev.to_device(np.full(n, -1, np.int32))  # -1: unwritten shows
    groups = pydev.to_device(np.full(n, -1, np.int32))
    votes = pydev.to_device(np.full(n, -1, np.int32))
    device.launch(
        warp_ops, sums, scans, counts, groups, votes, pydev.to_device(x), pydev.to_device(keys),
        grid=warps // 4, block=128, stream=stream,
    )  # fmt: skip
    stream.synchronize()

    xw, kw = x.reshape(warps, 32), keys.reshape(warps, 32)
    want_counts = np.concatenate([np.cumsum(w > 0) - (w > 0) for w in xw])
    want_groups = np.concatenate([[(k == kk).sum() for kk in k] for k in kw])
    want_votes = np.repeat((np.abs(xw) < 3).all(1) * 1 + (xw > 2).any(1) * 2, 32)
    checks = [
        ("warp sums (shfl_xor_sync)", np.allclose(sums.copy_to_host(), xw.sum(1), rtol=1e-5, atol=1e-5)),
        (
            "inclusive scans (shfl_up_sync)",
            np.allclose(scans.copy_to_host(), np.cumsum(xw, 1).ravel(), rtol=1e-5, atol=1e-5),
        ),
        ("positives before each lane (ballot_sync, lanemask_lt)", np.array_equal(counts.copy_to_host(), want_counts)),
        ("lanes sharing a key (match_any_sync)", np.array_equal(groups.copy_to_host(), want_groups)),
        ("all_sync / any_sync votes", np.array_equal(votes.copy_to_host(), want_votes)),
    ]
    ok = True
    for name, good in checks:
        print(f"{'ok' if good else 'MISMATCH'}: {name} over {warps} warps")
        ok &= bool(good)
    print("warp_collectives", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
