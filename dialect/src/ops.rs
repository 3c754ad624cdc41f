//! The typed Rust API of the pydev ops, generated from `dialect/pydev.td`.
//!
//! Two generators read the same ODS records:
//!
//! - melior's `dialect!` macro (below) gives every op a struct
//!   (`Pydev_ShuffleOp` -> [`ShuffleOperation`]) documented from its ODS
//!   summary and description, with a builder (`ShuffleOperation::builder`,
//!   checked at compile time for required operands and attributes), a
//!   one-call constructor (`shfl(context, result, mask, value, lane, kind,
//!   location)`), accessors for operands, results and attributes
//!   (`.mask()`, `.kind()`), setters, and `TryFrom<Operation>`.
//! - `build.rs` lists the `Pydev_Op` records from TableGen's record dump into
//!   `ops_table.rs`; each line becomes, through [`PydevOp`], the op's name as a
//!   constant (`ShuffleOperation::NAME == "pydev.shfl"`, usable in `match`
//!   patterns and in text-emitting code), its mnemonic, a matcher over any
//!   operation (`ShuffleOperation::matches(&op)`) and a typed view of a
//!   borrowed operation (`ShuffleOperation::view(op_ref)`, giving the
//!   accessors above without taking ownership).
//!
//! ```ignore
//! use pydev_dialect::ops::{self, PydevOp};
//! // Build:
//! let op = ops::ShuffleOperation::builder(ctx, loc)
//!     .result(ty).mask(mask).value(v).lane(lane).kind(kind).build();
//! block.append_operation(op.into());
//! // Match:
//! if let Some(shfl) = ops::ShuffleOperation::view(op_ref) {
//!     let lane = shfl.lane()?;
//! }
//! match op_ref.name().as_string_ref().as_str().unwrap() {
//!     ops::ShuffleOperation::NAME => {}
//!     _ => {}
//! }
//! ```

use melior::ir::operation::{Operation, OperationLike, OperationRef};
use std::{marker::PhantomData, mem::ManuallyDrop, ops::Deref};

melior::dialect! {
    name: "pydev",
    files: ["pydev.td"],
    include_directories: ["./dialect"],
}

pub use self::pydev::*;

/// The dialect's namespace, `"pydev"`.
pub const DIALECT: &str = "pydev";

/// The mnemonic of a pydev op's name (`"pydev.shfl"` -> `"shfl"`); `None`
/// for another dialect's op.
pub fn mnemonic(name: &str) -> Option<&str> {
    name.strip_prefix(DIALECT)?.strip_prefix('.')
}

/// What every generated pydev op struct provides besides melior's builder
/// and accessors.
pub trait PydevOp<'c>: Sized + TryFrom<Operation<'c>> {
    /// The full op name, `"pydev.shfl"`.
    const NAME: &'static str;
    /// The op's mnemonic in pydev.td, `"shfl"`.
    const MNEMONIC: &'static str;
    /// The ODS summary.
    const SUMMARY: &'static str;

    /// Whether `op` is this op.
    fn matches<'o: 'a, 'a>(op: &impl OperationLike<'o, 'a>) -> bool {
        op.name().as_string_ref().as_str() == Ok(Self::NAME)
    }

    /// A typed view of a borrowed operation, when it is this op.
    fn view<'a>(op: OperationRef<'c, 'a>) -> Option<View<'c, 'a, Self>> {
        if !Self::matches(&op) {
            return None;
        }
        // SAFETY: the name matches, so `try_from` succeeds and does not drop
        // the operation; `ManuallyDrop` keeps the borrowed operation from
        // being destroyed with the view, which lives no longer than `'a`.
        let op = unsafe { Operation::from_raw(op.to_raw()) };
        let typed = Self::try_from(op).ok().expect("name checked");
        Some(View { op: ManuallyDrop::new(typed), _borrow: PhantomData })
    }
}

/// A generated op struct over an operation that someone else owns (from
/// [`PydevOp::view`]); derefs to the struct for its accessors.
pub struct View<'c, 'a, T> {
    op: ManuallyDrop<T>,
    _borrow: PhantomData<OperationRef<'c, 'a>>,
}

impl<T> Deref for View<'_, '_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.op
    }
}

macro_rules! pydev_ops {
    ($(($name:ident, $mnemonic:literal, $summary:literal)),* $(,)?) => {
        $(
            impl<'c> PydevOp<'c> for $name<'c> {
                const NAME: &'static str = concat!("pydev.", $mnemonic);
                const MNEMONIC: &'static str = $mnemonic;
                const SUMMARY: &'static str = $summary;
            }

            impl<'c> $name<'c> {
                #[doc = concat!("`pydev.", $mnemonic, "`: ", $summary)]
                pub const NAME: &'static str = concat!("pydev.", $mnemonic);
                #[doc = concat!("`", $mnemonic, "`")]
                pub const MNEMONIC: &'static str = $mnemonic;
            }
        )*

        /// Every op of pydev.td as (full name, mnemonic, summary), in
        /// TableGen's record order.
        pub const ALL: &[(&str, &str, &str)] = &[$((concat!("pydev.", $mnemonic), $mnemonic, $summary)),*];
    };
}

include!(concat!(env!("OUT_DIR"), "/ops_table.rs"));

/// Writers of every pydev op in MLIR's generic form, generated from
/// `pydev.td` (`build/defs.rs`), for frontends that emit IR as text (the
/// Python frontend does; the text is parsed and verified before any pass
/// runs): `generic::shfl(&mask, &value, &lane, ShuffleKind::Down, "f32")` is
/// `"pydev.shfl"(%m, %v, %l) <{kind = #pydev<shuffle_kind down>}> : (...) -> f32`.
/// Operands and attributes come in ODS order (variadic operands as slices,
/// optional operands and attributes as `Option`s, enum attributes as the
/// generated enums), then one type per result.
pub mod generic {
    /// An SSA value as text: its name (`%v3`) and its type (`f32`).
    pub trait TextValue {
        fn ssa_name(&self) -> String;
        fn type_text(&self) -> String;
    }

    /// An MLIR string literal.
    pub fn quote(s: &str) -> String {
        let mut out = String::from("\"");
        for b in s.bytes() {
            match b {
                b'"' | b'\\' => {
                    out.push('\\');
                    out.push(b as char);
                }
                0x20..=0x7e => out.push(b as char),
                _ => out += &format!("\\{b:02X}"),
            }
        }
        out + "\""
    }

    fn dense_array<T: std::fmt::Display>(element: &str, values: &[T]) -> String {
        if values.is_empty() {
            format!("array<{element}>")
        } else {
            format!("array<{element}: {}>", values.iter().map(T::to_string).collect::<Vec<_>>().join(", "))
        }
    }

    fn write_generic(name: &str, groups: &[Vec<&dyn TextValue>], props: &[String], results: &[&str]) -> String {
        let operands: Vec<&dyn TextValue> = groups.iter().flatten().copied().collect();
        let names: Vec<String> = operands.iter().map(|o| o.ssa_name()).collect();
        let types: Vec<String> = operands.iter().map(|o| o.type_text()).collect();
        let props = if props.is_empty() { String::new() } else { format!(" <{{{}}}>", props.join(", ")) };
        let results = match results {
            [one] => one.to_string(),
            many => format!("({})", many.join(", ")),
        };
        format!("\"{name}\"({}){props} : ({}) -> {results}", names.join(", "), types.join(", "))
    }

    include!(concat!(env!("OUT_DIR"), "/generic.rs"));
}
