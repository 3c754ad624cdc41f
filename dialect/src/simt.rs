//! Which pydev ops synchronise threads: one definition for the passes that
//! lower them for each target (`pydev-lower-sync-nvvm` for cuda,
//! `pydev-lower-simt-host` for the host runtime).

use crate::ops;

/// The barriers: `syncthreads` and its counting/voting forms (the block),
/// `grid_sync` (the grid) and `syncwarp` (the warp).
pub const BARRIERS: &[&str] = &[
    ops::GridSyncOperation::NAME,
    ops::SyncThreadsOperation::NAME,
    ops::SyncThreadsCountOperation::NAME,
    ops::SyncThreadsAndOperation::NAME,
    ops::SyncThreadsOrOperation::NAME,
    ops::SyncWarpOperation::NAME,
];

/// The warp collectives: each lane's result depends on the other lanes of
/// its warp at that point (`activemask`, votes, shuffles, matches).
pub const WARP_COLLECTIVES: &[&str] = &[
    ops::ActiveMaskOperation::NAME,
    ops::VoteOperation::NAME,
    ops::ShuffleOperation::NAME,
    ops::MatchAnyOperation::NAME,
    ops::MatchAllOperation::NAME,
];
