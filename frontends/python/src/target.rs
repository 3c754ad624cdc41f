//! Target descriptions (spec: Target Specialization): the trees that
//! `device.target(...)`, `&`, `|` and `~` build, printed as
//! `#pydev.target<...>` and decided for a compile target.

use pydev_dialect::TargetKind;

/// A target description tree (spec: Target Specialization), printed as
/// `#pydev.target<...>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub kind: TargetKind,
    /// The SM number of `is_exactly` and `provides`, else 0.
    pub sm: u32,
    pub operands: Vec<Target>,
}

impl Target {
    pub fn leaf(kind: TargetKind, sm: u32) -> Self {
        Self { kind, sm, operands: vec![] }
    }

    pub fn node(kind: TargetKind, operands: Vec<Target>) -> Self {
        Self { kind, sm: 0, operands }
    }

    pub fn text(&self) -> String {
        match self.kind {
            TargetKind::IsExactly | TargetKind::Provides => format!("{}(sm_{})", self.kind, self.sm),
            _ if self.operands.is_empty() => self.kind.to_string(),
            _ => format!("{}({})", self.kind, self.operands.iter().map(Target::text).collect::<Vec<_>>().join(", ")),
        }
    }

    /// Whether the description holds for the compile target (`None`: the
    /// host, else the SM number), as `pydev-specialize-target` folds it.
    pub fn holds(&self, sm: Option<u32>) -> bool {
        self.kind.holds(self.sm, self.operands.iter().map(|o| o.holds(sm)), sm)
    }
}
