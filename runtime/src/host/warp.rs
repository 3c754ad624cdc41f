//! Warp operations of a converged warp: given what each lane asked for,
//! the results a GPU gives (CUDA semantics, API.md "Decisions").

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

/// If the warp operation of the first waiting lane can complete (every
/// live lane its mask names is waiting in the same operation), the lanes it
/// releases and their results.
pub fn try_release(lanes: &[Lane]) -> Option<(u32, [u64; 32])> {
    let first = lanes.iter().find_map(|l| if let Lane::Warp(r) = l { Some(*r) } else { None })?;
    let mask = if i64::from(first.op) == op::ACTIVEMASK { u32::MAX } else { first.mask };
    let mut group = 0u32;
    for (l, lane) in lanes.iter().enumerate() {
        if mask & (1 << l) == 0 {
            continue;
        }
        match lane {
            Lane::Gone => {}
            Lane::Other => return None,
            Lane::Warp(r) if r.op == first.op => group |= 1 << l,
            Lane::Warp(_) => return None,
        }
    }
    let req = |l: usize| match lanes[l] {
        Lane::Warp(r) => r,
        _ => unreachable!("lane in the group"),
    };
    let in_group = |l: i64| (0..32).contains(&l) && group & (1 << l) != 0;
    let members = || (0..lanes.len()).filter(move |l| group & (1 << l) != 0);
    let mut results = [0u64; 32];
    let ballot = members().filter(|&l| req(l).value != 0).fold(0u32, |m, l| m | 1 << l);
    for l in members() {
        let r = req(l);
        results[l] = match i64::from(r.op) {
            op::SYNCWARP => 0,
            op::ACTIVEMASK => u64::from(group),
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
    Some((group, results))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warp(op: i64, values: impl Fn(usize) -> u64, arg: i32) -> Vec<Lane> {
        (0..32).map(|l| Lane::Warp(Request { op: op as i32, mask: u32::MAX, value: values(l), arg })).collect()
    }

    #[test]
    fn shuffles_match_cuda() {
        let (m, r) = try_release(&warp(op::SHFL_DOWN, |l| l as u64 * 10, 1)).unwrap();
        assert_eq!(m, u32::MAX);
        assert_eq!(r[0], 10);
        assert_eq!(r[31], 310, "out of the warp: own value");
        let (_, r) = try_release(&warp(op::SHFL_UP, |l| l as u64, 4)).unwrap();
        assert_eq!((r[3], r[4], r[31]), (3, 0, 27));
        let (_, r) = try_release(&warp(op::SHFL_XOR, |l| l as u64, 16)).unwrap();
        assert_eq!((r[0], r[17]), (16, 1));
        let (_, r) = try_release(&warp(op::SHFL_IDX, |l| 100 + l as u64, 7)).unwrap();
        assert!(r.iter().all(|v| *v == 107));
    }

    #[test]
    fn votes_and_matches() {
        let (_, r) = try_release(&warp(op::BALLOT, |l| (l % 2) as u64, 0)).unwrap();
        assert_eq!(r[0] as u32, 0xAAAA_AAAA);
        let (_, r) = try_release(&warp(op::ALL, |l| u64::from(l < 31), 0)).unwrap();
        assert_eq!(r[0], 0);
        let (_, r) = try_release(&warp(op::MATCH_ANY, |l| (l % 4) as u64, 0)).unwrap();
        assert_eq!(r[1] as u32, 0x2222_2222);
        let (_, r) = try_release(&warp(op::MATCH_ALL, |_| 5, 0)).unwrap();
        assert_eq!(r[9], u64::from(u32::MAX) | 1 << 32);
    }

    #[test]
    fn waits_for_every_lane_of_the_mask() {
        let mut lanes = warp(op::SYNCWARP, |_| 0, 0);
        lanes[5] = Lane::Other;
        assert!(try_release(&lanes).is_none());
        lanes[5] = Lane::Gone;
        let (m, _) = try_release(&lanes).unwrap();
        assert_eq!(m, !(1 << 5));
    }
}
