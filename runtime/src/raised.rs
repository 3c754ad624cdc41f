//! A Python exception raised in device code (`pydev_dialect::abi::RAISE`),
//! as both targets report it: the host runtime (`host::HostError::Raised`)
//! and the cuda error buffer (`cuda_check::take_failure`). The frontend that
//! compiled the kernel owns the table that `id` indexes (the exception
//! class and its constant arguments) and raises the Python exception.

/// The first exception a launch's threads raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raised {
    /// The exception's index in the frontend's table.
    pub id: u32,
    /// The raising thread's `threadIdx` (x, y, z).
    pub thread: [u32; 3],
    /// Its `blockIdx` (x, y, z).
    pub block: [u32; 3],
}

impl std::fmt::Display for Raised {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (t, b) = (self.thread, self.block);
        write!(
            f,
            "exception {} raised in device code (thread ({}, {}, {}) of block ({}, {}, {}))",
            self.id, t[0], t[1], t[2], b[0], b[1], b[2]
        )
    }
}
