//! pydev's attributes: the typed API generated from `pydev.td` (one struct
//! per `AttrDef`: the target description and the enum attributes, with
//! `new`, `from_attribute` and an accessor per parameter).

pub use crate::capi::defs::{
    enum_value, AtomicRMWKindAttr, CmpPredicateAttr, LayoutAttr, MemoryOrderAttr, ScopeAttr, ShuffleKindAttr,
    TargetAttr, VoteKindAttr,
};
