//! Warp operations: given what each lane of a warp asked for, which lanes
//! go on and the results a GPU gives them (CUDA semantics, API.md
//! "Decisions"), for a warp whose lanes wait at different places (a
//! warp-uniform branch around a collective, a partial mask).

use pydev_dialect::abi::warp_op as op;

/// What a lane asks of its warp (`pydev_rt_warp`).
#[derive(Clone, Copy, Debug)]
pub struct Request {
    pub op: i32,
    pub mask: u32,
    /// The operand's bits (a predicate is 0 or 1).
    pub value: u64,
    /// Source lane, delta or lane mask of a shuffle.
    pub arg: i32,
}

/// A lane as the scheduler sees it.
#[derive(Clone, Copy, Debug)]
pub enum Lane {
    /// No thread (a partial last warp) or an exited one.
    Gone,
    /// Waiting in a warp operation.
    Warp(Request),
    /// Running, or waiting for something else (a block barrier).
    Other,
}

/// Releases what can complete among the lanes of one warp, all of them
/// suspended (none is running): the released lanes and each one's result.
///
/// A collective with a mask (shuffle, vote, match, syncwarp) completes when
/// every lane its mask names (and the lane itself) either waits in the same
/// operation or is gone (exited, or past the block's last thread): that is
/// its group, computed as a converged warp on a GPU would. Lanes held
/// elsewhere (a block barrier, another operation) make it wait; one pass
/// over the lanes releases every group that is complete, so the lanes of a
/// warp-uniform branch go on while the rest of the warp waits at a barrier.
///
/// `activemask` names no lanes: it returns the lanes that wait at the same
/// `activemask` (its site, the request's `arg`) when nothing else in the warp
/// can move. Lanes that are about to arrive from a collective released in
/// this pass come first, so that a reconverged warp sees all of them.
pub fn release(lanes: &[Lane]) -> (u32, [u64; 32]) {
    let n = lanes.len().min(32);
    let mut lanes: [Lane; 32] = std::array::from_fn(|l| if l < n { lanes[l] } else { Lane::Gone });
    let mut released = 0u32;
    let mut results = [0u64; 32];
    for leader in 0..n {
        let Lane::Warp(r) = lanes[leader] else { continue };
        if i64::from(r.op) == op::ACTIVEMASK {
            continue;
        }
        if let Some(group) = group_of(&lanes[..n], leader) {
            compute(&lanes[..n], group, &mut results);
            for l in (0..n).filter(|l| group & (1 << l) != 0) {
                lanes[l] = Lane::Other;
            }
            released |= group;
        }
    }
    if released == 0 {
        for leader in 0..n {
            let Lane::Warp(r) = lanes[leader] else { continue };
            if i64::from(r.op) != op::ACTIVEMASK {
                continue;
            }
            let group = (0..n)
                .filter(|&l| matches!(lanes[l], Lane::Warp(q) if q.op == r.op && q.arg == r.arg))
                .fold(0u32, |m, l| m | 1 << l);
            for l in (0..n).filter(|l| group & (1 << l) != 0) {
                results[l] = u64::from(group);
                lanes[l] = Lane::Other;
            }
            released |= group;
        }
    }
    (released, results)
}

/// The group of the collective that lane `leader` waits in, if it is
/// complete (see [`release`]).
fn group_of(lanes: &[Lane], leader: usize) -> Option<u32> {
    let Lane::Warp(first) = lanes[leader] else { return None };
    let mask = first.mask | 1 << leader;
    let mut group = 0u32;
    for (l, lane) in lanes.iter().enumerate() {
        if mask & (1 << l) == 0 {
            continue;
        }
        match lane {
            Lane::Gone => {}
            Lane::Warp(r) if r.op == first.op => group |= 1 << l,
            Lane::Warp(_) | Lane::Other => return None,
        }
    }
    Some(group)
}

/// The results of the lanes of `group`, a complete group of one collective.
fn compute(lanes: &[Lane], group: u32, results: &mut [u64; 32]) {
    let req = |l: usize| match lanes[l] {
        Lane::Warp(r) => r,
        _ => unreachable!("lane in the group"),
    };
    let in_group = |l: i64| (0..32).contains(&l) && group & (1 << l) != 0;
    let members = || (0..lanes.len()).filter(move |l| group & (1 << l) != 0);
    let ballot = members().filter(|&l| req(l).value != 0).fold(0u32, |m, l| m | 1 << l);
    for l in members() {
        let r = req(l);
        results[l] = match i64::from(r.op) {
            op::SYNCWARP => 0,
            op::ALL => u64::from(ballot == group),
            op::ANY => u64::from(ballot != 0),
            op::UNI => u64::from(ballot == group || ballot == 0),
            op::BALLOT => u64::from(ballot),
            op::SHFL_IDX | op::SHFL_UP | op::SHFL_DOWN | op::SHFL_XOR => {
                let a = i64::from(r.arg);
                let li = l as i64;
                let src = match i64::from(r.op) {
                    op::SHFL_IDX => a & 31,
                    op::SHFL_UP => li - a,
                    op::SHFL_DOWN => li + a,
                    _ => li ^ a,
                };
                if in_group(src) {
                    req(src as usize).value
                } else {
                    r.value
                }
            }
            op::MATCH_ANY => u64::from(members().filter(|&o| req(o).value == r.value).fold(0u32, |m, o| m | 1 << o)),
            // Lanes that disagree get 0 (no mask, predicate false) below.
            op::MATCH_ALL if members().all(|o| req(o).value == r.value) => u64::from(group) | 1 << 32,
            _ => 0,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warp(op: i64, values: impl Fn(usize) -> u64, arg: i32) -> Vec<Lane> {
        (0..32).map(|l| Lane::Warp(Request { op: op as i32, mask: u32::MAX, value: values(l), arg })).collect()
    }

    #[test]
    fn shuffles_match_cuda() {
        let (m, r) = release(&warp(op::SHFL_DOWN, |l| l as u64 * 10, 1));
        assert_eq!(m, u32::MAX);
        assert_eq!(r[0], 10);
        assert_eq!(r[31], 310, "out of the warp: own value");
        let (_, r) = release(&warp(op::SHFL_UP, |l| l as u64, 4));
        assert_eq!((r[3], r[4], r[31]), (3, 0, 27));
        let (_, r) = release(&warp(op::SHFL_XOR, |l| l as u64, 16));
        assert_eq!((r[0], r[17]), (16, 1));
        let (_, r) = release(&warp(op::SHFL_IDX, |l| 100 + l as u64, 7));
        assert!(r.iter().all(|v| *v == 107));
    }

    #[test]
    fn votes_and_matches() {
        let (_, r) = release(&warp(op::BALLOT, |l| (l % 2) as u64, 0));
        assert_eq!(r[0] as u32, 0xAAAA_AAAA);
        let (_, r) = release(&warp(op::ALL, |l| u64::from(l < 31), 0));
        assert_eq!(r[0], 0);
        let (_, r) = release(&warp(op::MATCH_ANY, |l| (l % 4) as u64, 0));
        assert_eq!(r[1] as u32, 0x2222_2222);
        let (_, r) = release(&warp(op::MATCH_ALL, |_| 5, 0));
        assert_eq!(r[9], u64::from(u32::MAX) | 1 << 32);
    }

    #[test]
    fn waits_for_every_lane_of_the_mask() {
        let mut lanes = warp(op::SYNCWARP, |_| 0, 0);
        lanes[5] = Lane::Other;
        assert_eq!(release(&lanes).0, 0);
        lanes[5] = Lane::Gone;
        let (m, _) = release(&lanes);
        assert_eq!(m, !(1 << 5));
    }

    #[test]
    fn a_warp_uniform_branch_goes_on_while_the_rest_waits() {
        // Lanes 0-15 shuffle among themselves; lanes 16-31 wait elsewhere.
        let mut lanes: Vec<Lane> = (0..32)
            .map(|l| {
                if l < 16 {
                    Lane::Warp(Request { op: op::SHFL_XOR as i32, mask: 0xffff, value: l as u64, arg: 1 })
                } else {
                    Lane::Other
                }
            })
            .collect();
        let (m, r) = release(&lanes);
        assert_eq!(m, 0xffff);
        assert_eq!((r[0], r[1], r[14]), (1, 0, 15));
        // The other half in a vote of its own, the first half held elsewhere.
        for (l, lane) in lanes.iter_mut().enumerate() {
            *lane = if l < 16 {
                Lane::Other
            } else {
                Lane::Warp(Request { op: op::BALLOT as i32, mask: 0xffff_0000, value: (l % 2) as u64, arg: 0 })
            };
        }
        let (m, r) = release(&lanes);
        assert_eq!(m, 0xffff_0000);
        assert_eq!(r[16] as u32, 0xaaaa_0000);
    }

    #[test]
    fn activemask_is_the_lanes_at_the_same_site() {
        let am = |site| Lane::Warp(Request { op: op::ACTIVEMASK as i32, mask: u32::MAX, value: 0, arg: site });
        let mut lanes: Vec<Lane> = (0..32).map(|l| if l < 8 { am(1) } else { Lane::Other }).collect();
        lanes[20] = am(2);
        let (m, r) = release(&lanes);
        assert_eq!(m, 0xff | 1 << 20);
        assert_eq!((r[0], r[20]), (0xff, 1 << 20));
        // A collective that can complete goes first: its lanes may reach the activemask too.
        lanes[31] = Lane::Warp(Request { op: op::SYNCWARP as i32, mask: 1 << 31, value: 0, arg: 0 });
        assert_eq!(release(&lanes).0, 1 << 31);
    }
}
