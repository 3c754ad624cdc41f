//! A function under construction: blocks of pydev/upstream ops in MLIR
//! syntax, structured terminators, and SSA construction for Python locals
//! (Braun et al., "Simple and Efficient Construction of SSA Form", 2013:
//! block arguments are the phis; loop headers are sealed once their back
//! edges are known). `print` writes the `func.func`, which the caller parses
//! and verifies.
//!
//! The frontend writes its IR as text (parsed and verified by `compile`
//! before any pass runs): pydev ops through the writers generated from
//! `dialect/pydev.td` (`pydev_dialect::ops::generic::shfl(kind, &mask, ...)`,
//! MLIR's generic form), so an op's name, operands and attributes are checked
//! when the frontend is compiled, not when its output is parsed. A [`Val`] is
//! a `TextValue` (its `%vN` and its type); [`Typed`] is a value seen at
//! another type than its Python one (an `i32` warp mask, say). Upstream ops
//! (arith, cf, func, gpu, math) are still written in their custom syntax.

use crate::types::Ty;
use pydev_dialect::ops;
use std::collections::HashMap;

pub type ValueId = usize;
pub type BlockId = usize;

/// A value as the generated op writers take it: `%vN` and its Python type's
/// MLIR spelling.
impl ops::generic::TextValue for Val {
    fn ssa_name(&self) -> String {
        v(self.id)
    }
    fn type_text(&self) -> String {
        self.ty.mlir()
    }
}

/// A value at an explicit MLIR type (when it is not its Python type's).
pub struct Typed(pub ValueId, pub String);

impl ops::generic::TextValue for Typed {
    fn ssa_name(&self) -> String {
        v(self.0)
    }
    fn type_text(&self) -> String {
        self.1.clone()
    }
}

/// A compile-time constant carried by a value (constant expressions).
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    Int(i128),
    Float(f64),
    Bool(bool),
}

/// An SSA value with its Python-level type. `weak` marks Python scalars
/// (builtin int/float/complex/bool) for promotion.
#[derive(Clone, Debug)]
pub struct Val {
    pub id: ValueId,
    pub ty: Ty,
    pub weak: bool,
    pub konst: Option<Const>,
}

#[derive(Clone, Debug)]
enum Def {
    Val(Val),
    /// Not assigned on some path to here.
    Undefined,
}

#[derive(Clone, Debug)]
pub enum Terminator {
    Br(BlockId, Vec<ValueId>),
    CondBr(ValueId, BlockId, Vec<ValueId>, BlockId, Vec<ValueId>),
    Return(Vec<Val>, String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Plain,
    /// Joins branches of an `if`, `and`/`or` or conditional expression:
    /// numbers of different types meeting here are promoted.
    Merge,
    /// A loop header: a local must keep its type around the loop.
    LoopHeader,
}

struct Block {
    params: Vec<(ValueId, Ty)>,
    ops: Vec<String>,
    term: Option<Terminator>,
    /// The source location current when `term` was set (`cf.br`/`cond_br`
    /// carry it, so line info and diagnostics never point at the IR text).
    term_loc: String,
    preds: Vec<BlockId>,
    sealed: bool,
    kind: BlockKind,
    /// Phis created before the block was sealed: (variable, param value).
    incomplete: Vec<(String, Val)>,
}

/// A type clash found while joining a local's definitions.
#[derive(Debug)]
pub struct JoinError {
    pub var: String,
    pub first: Ty,
    pub second: Ty,
    pub in_loop: bool,
}

pub struct FuncBuilder {
    blocks: Vec<Block>,
    next_value: ValueId,
    defs: HashMap<(String, BlockId), Def>,
    /// The block code is emitted into; `None` after `return`/`break`/`continue`.
    pub cur: Option<BlockId>,
    pub errors: Vec<JoinError>,
    /// Current source location, `loc(...)`, attached to each new op.
    pub loc: String,
    /// Trivial phis removed (Braun et al. 3.2), mapped to the value they
    /// stand for; applied when printing.
    alias: HashMap<ValueId, ValueId>,
}

impl Default for FuncBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl FuncBuilder {
    pub fn new() -> Self {
        let mut b = Self {
            blocks: vec![],
            next_value: 0,
            defs: HashMap::new(),
            cur: None,
            errors: vec![],
            loc: "loc(unknown)".into(),
            alias: HashMap::new(),
        };
        let entry = b.new_block(BlockKind::Plain);
        b.blocks[entry].sealed = true;
        b.cur = Some(entry);
        b
    }

    pub fn new_block(&mut self, kind: BlockKind) -> BlockId {
        self.blocks.push(Block {
            params: vec![],
            ops: vec![],
            term: None,
            term_loc: String::new(),
            preds: vec![],
            sealed: false,
            kind,
            incomplete: vec![],
        });
        self.blocks.len() - 1
    }

    pub fn fresh(&mut self) -> ValueId {
        self.next_value += 1;
        self.next_value - 1
    }

    /// A function argument (a parameter of the entry block).
    pub fn add_argument(&mut self, ty: Ty) -> ValueId {
        let id = self.fresh();
        self.blocks[0].params.push((id, ty));
        id
    }

    /// Emits `%r = text loc` (or just `text loc` with no results) in the
    /// current block. `text` names operands as `%vN` (see [`v`]).
    pub fn op(&mut self, results: &[ValueId], text: &str) {
        let Some(b) = self.cur else { return };
        let lhs = if results.is_empty() {
            String::new()
        } else {
            results.iter().map(|r| v(*r)).collect::<Vec<_>>().join(", ") + " = "
        };
        let line = format!("{lhs}{text} {}", self.loc);
        self.blocks[b].ops.push(line);
    }

    /// Emits an op with one result of type `ty`.
    pub fn op1(&mut self, text: &str, ty: Ty) -> Val {
        let id = self.fresh();
        self.op(&[id], text);
        Val { id, ty, weak: false, konst: None }
    }

    pub fn terminate(&mut self, term: Terminator) {
        let Some(b) = self.cur else { return };
        let targets: Vec<BlockId> = match &term {
            Terminator::Br(t, _) => vec![*t],
            Terminator::CondBr(_, t, _, f, _) => vec![*t, *f],
            Terminator::Return(..) => vec![],
        };
        for t in targets {
            self.blocks[t].preds.push(b);
        }
        self.blocks[b].term = Some(term);
        self.blocks[b].term_loc = self.loc.clone();
        self.cur = None;
    }

    pub fn br(&mut self, target: BlockId) {
        self.terminate(Terminator::Br(target, vec![]));
    }

    pub fn cond_br(&mut self, cond: ValueId, t: BlockId, f: BlockId) {
        self.terminate(Terminator::CondBr(cond, t, vec![], f, vec![]));
    }

    /// Continues in `block`; a block nothing branches to is dead code.
    pub fn switch_to(&mut self, block: BlockId) {
        self.cur = if self.blocks[block].preds.is_empty() { None } else { Some(block) };
    }

    pub fn has_preds(&self, block: BlockId) -> bool {
        !self.blocks[block].preds.is_empty()
    }

    pub fn write(&mut self, var: &str, block: BlockId, val: Val) {
        self.defs.insert((var.to_owned(), block), Def::Val(val));
    }

    /// The current value of local `var` in the current block, `None` when it
    /// may be unassigned.
    pub fn read(&mut self, var: &str) -> Option<Val> {
        let b = self.cur?;
        match self.read_in(var, b) {
            Def::Val(v) => Some(v),
            Def::Undefined => None,
        }
    }

    fn read_in(&mut self, var: &str, block: BlockId) -> Def {
        if let Some(d) = self.defs.get(&(var.to_owned(), block)) {
            return d.clone();
        }
        let preds = self.blocks[block].preds.clone();
        let def = if !self.blocks[block].sealed {
            // A loop header: its first predecessor (the way in) gives the type.
            match preds.first().map(|&p| self.read_in(var, p)) {
                Some(Def::Val(first)) => {
                    let param = self.add_param(block, &first);
                    self.blocks[block].incomplete.push((var.to_owned(), param.clone()));
                    Def::Val(param)
                }
                _ => Def::Undefined,
            }
        } else if preds.len() == 1 {
            self.read_in(var, preds[0])
        } else if preds.is_empty() {
            Def::Undefined
        } else {
            match self.read_in(var, preds[0]) {
                Def::Undefined => Def::Undefined,
                Def::Val(first) => {
                    let param = self.add_param(block, &first);
                    self.defs.insert((var.to_owned(), block), Def::Val(param.clone()));
                    self.fill_phi(var, block, param)
                }
            }
        };
        self.defs.insert((var.to_owned(), block), def.clone());
        def
    }

    fn add_param(&mut self, block: BlockId, like: &Val) -> Val {
        let id = self.fresh();
        self.blocks[block].params.push((id, like.ty.clone()));
        Val { id, ty: like.ty.clone(), weak: like.weak, konst: None }
    }

    /// Adds the incoming value of `var` from every predecessor to the branch
    /// arguments; joins types (promoting numbers at merges).
    fn fill_phi(&mut self, var: &str, block: BlockId, param: Val) -> Def {
        let preds = self.blocks[block].preds.clone();
        let mut incoming = Vec::new();
        for &p in &preds {
            match self.read_in(var, p) {
                Def::Val(v) => incoming.push((p, v)),
                Def::Undefined => return Def::Undefined,
            }
        }
        let kind = self.blocks[block].kind;
        let mut ty = param.ty.clone();
        let mut weak = true;
        for (_, v) in &incoming {
            weak &= v.weak;
            if v.ty != ty {
                // A WarpMask is an int32 (spec: WarpMask): with another
                // number it joins as one (`m if p else 0` is an int32).
                let number = |t: &Ty| {
                    if *t == Ty::WarpMask {
                        Some(crate::types::INT32)
                    } else {
                        Some(t.clone()).filter(Ty::is_number)
                    }
                };
                let joined = if kind == BlockKind::Merge {
                    number(&ty).zip(number(&v.ty)).and_then(|(a, b)| crate::types::promote(&a, false, &b, false).ok())
                } else {
                    None
                };
                match joined {
                    Some(t) => ty = t,
                    None => {
                        self.errors.push(JoinError {
                            var: var.to_owned(),
                            first: ty.clone(),
                            second: v.ty.clone(),
                            in_loop: kind == BlockKind::LoopHeader,
                        });
                        return Def::Val(param);
                    }
                }
            }
        }
        // A phi whose inputs are all one value (or itself) is that value.
        let mut distinct: Vec<ValueId> =
            incoming.iter().map(|(_, v)| self.resolve(v.id)).filter(|id| *id != param.id).collect();
        distinct.dedup();
        if distinct.len() == 1 && incoming.iter().all(|(_, v)| v.ty == ty) {
            let same = incoming
                .iter()
                .find(|(_, v)| self.resolve(v.id) == distinct[0])
                .map(|(_, v)| v.clone())
                .expect("the one input");
            self.blocks[block].params.retain(|(id, _)| *id != param.id);
            self.alias.insert(param.id, distinct[0]);
            let same = Val { id: distinct[0], weak, ..same };
            self.defs.insert((var.to_owned(), block), Def::Val(same.clone()));
            return Def::Val(same);
        }
        // Set the joined type, then pass each predecessor's value, converted.
        let index = self.blocks[block].params.iter().position(|(id, _)| *id == param.id).expect("param of this block");
        self.blocks[block].params[index].1 = ty.clone();
        for (p, v) in incoming {
            let arg = if v.ty != ty { self.cast_at_end(p, &v, &ty) } else { v.id };
            self.add_branch_arg(p, block, arg);
        }
        let joined = Val { id: param.id, ty, weak, konst: None };
        self.defs.insert((var.to_owned(), block), Def::Val(joined.clone()));
        Def::Val(joined)
    }

    fn cast_at_end(&mut self, block: BlockId, v: &Val, to: &Ty) -> ValueId {
        if v.ty == Ty::WarpMask && !to.is_integer() {
            // pydev.cast takes a warp mask only to an integer: through int32.
            let i = self.cast_at_end(block, v, &crate::types::INT32);
            return self.cast_at_end(block, &Val { id: i, ty: crate::types::INT32, weak: false, konst: None }, to);
        }
        let id = self.fresh();
        let line = format!("{} = {} {}", crate::ir::v(id), ops::generic::cast(v, &to.mlir()), self.loc);
        self.blocks[block].ops.push(line);
        id
    }

    fn add_branch_arg(&mut self, from: BlockId, to: BlockId, arg: ValueId) {
        match self.blocks[from].term.as_mut() {
            Some(Terminator::Br(t, args)) if *t == to => args.push(arg),
            Some(Terminator::CondBr(_, t, targs, f, fargs)) => {
                // Both edges may go to `to` (e.g. `if c: pass`).
                if *t == to {
                    targs.push(arg);
                }
                if *f == to {
                    fargs.push(arg);
                }
            }
            _ => unreachable!("a predecessor ends with a branch to its successor"),
        }
    }

    fn resolve(&self, mut id: ValueId) -> ValueId {
        while let Some(&next) = self.alias.get(&id) {
            id = next;
        }
        id
    }

    /// `text` with removed phis replaced by their values.
    fn subst(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find("%v") {
            out.push_str(&rest[..at + 2]);
            rest = &rest[at + 2..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            match rest[..digits].parse::<ValueId>() {
                Ok(id) => out.push_str(&self.resolve(id).to_string()),
                Err(_) => out.push_str(&rest[..digits]),
            }
            rest = &rest[digits..];
        }
        out.push_str(rest);
        out
    }

    /// Seals a block once all its predecessors are known.
    pub fn seal(&mut self, block: BlockId) {
        let incomplete = std::mem::take(&mut self.blocks[block].incomplete);
        self.blocks[block].sealed = true;
        for (var, param) in incomplete {
            self.fill_phi(&var, block, param);
        }
    }

    /// The `func.func` text.
    pub fn print(&self, name: &str, results: &[Ty], attrs: &str, loc: &str) -> String {
        let args: Vec<String> =
            self.blocks[0].params.iter().map(|(id, t)| format!("{}: {}", v(*id), t.mlir())).collect();
        let result_types: Vec<String> = results.iter().map(Ty::mlir).collect();
        let sig = if results.is_empty() { String::new() } else { format!(" -> ({})", result_types.join(", ")) };
        let mut out = format!("func.func @{name}({}){sig}{attrs} {{\n", args.join(", "));
        let reachable = self.reachable();
        let label: HashMap<BlockId, usize> = reachable.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let target = |b: &BlockId, args: &Vec<ValueId>| {
            let params = &self.blocks[*b].params;
            if args.is_empty() {
                format!("^bb{}", label[b])
            } else {
                let names: Vec<String> = args.iter().map(|a| v(*a)).collect();
                let types: Vec<String> = params.iter().map(|(_, t)| t.mlir()).collect();
                format!("^bb{}({} : {})", label[b], names.join(", "), types.join(", "))
            }
        };
        for &b in &reachable {
            let block = &self.blocks[b];
            if b != 0 {
                let params: Vec<String> =
                    block.params.iter().map(|(id, t)| format!("{}: {}", v(*id), t.mlir())).collect();
                if params.is_empty() {
                    out.push_str(&format!("^bb{}:\n", label[&b]));
                } else {
                    out.push_str(&format!("^bb{}({}):\n", label[&b], params.join(", ")));
                }
            }
            for op in &block.ops {
                out.push_str("  ");
                out.push_str(&self.subst(op));
                out.push('\n');
            }
            let term = match &block.term {
                Some(Terminator::Br(t, args)) => format!("cf.br {} {}", target(t, args), block.term_loc),
                Some(Terminator::CondBr(c, t, ta, f, fa)) => {
                    format!("cf.cond_br {}, {}, {} {}", v(*c), target(t, ta), target(f, fa), block.term_loc)
                }
                Some(Terminator::Return(vals, loc)) => {
                    if vals.is_empty() {
                        format!("func.return {loc}")
                    } else {
                        let names: Vec<String> = vals.iter().map(|x| v(x.id)).collect();
                        let types: Vec<String> = vals.iter().map(|x| x.ty.mlir()).collect();
                        format!("func.return {} : {} {loc}", names.join(", "), types.join(", "))
                    }
                }
                None => unreachable!("reachable blocks are terminated before printing"),
            };
            out.push_str(&format!("  {}\n", self.subst(&term)));
        }
        out.push_str(&format!("}} {loc}\n"));
        out
    }

    /// The blocks reachable from the entry, in reverse post-order (so a
    /// block is printed after the blocks that dominate it).
    fn reachable(&self) -> Vec<BlockId> {
        use petgraph::{graph::NodeIndex, visit::DfsPostOrder};
        let mut cfg = petgraph::graph::DiGraph::<(), ()>::with_capacity(self.blocks.len(), 2 * self.blocks.len());
        for _ in &self.blocks {
            cfg.add_node(());
        }
        for (b, block) in self.blocks.iter().enumerate() {
            let edge = |cfg: &mut petgraph::graph::DiGraph<(), ()>, to: BlockId| {
                cfg.add_edge(NodeIndex::new(b), NodeIndex::new(to), ());
            };
            match &block.term {
                Some(Terminator::Br(t, _)) => edge(&mut cfg, *t),
                // The search takes the last edge added first: the false edge,
                // so that the true edge comes first in reverse post-order.
                Some(Terminator::CondBr(_, t, _, f, _)) => {
                    edge(&mut cfg, *f);
                    edge(&mut cfg, *t);
                }
                _ => {}
            }
        }
        let mut post = Vec::new();
        let mut dfs = DfsPostOrder::new(&cfg, NodeIndex::new(0));
        while let Some(b) = dfs.next(&cfg) {
            post.push(b.index());
        }
        post.reverse();
        post
    }

    /// The values returned, per `return` (to join their types).
    pub fn returns_mut(&mut self) -> Vec<(BlockId, &mut Vec<Val>)> {
        self.blocks
            .iter_mut()
            .enumerate()
            .filter_map(|(i, b)| match b.term.as_mut() {
                Some(Terminator::Return(vals, _)) => Some((i, vals)),
                _ => None,
            })
            .collect()
    }

    /// Converts a returned value to `to` just before its `return`.
    pub fn cast_return(&mut self, block: BlockId, v: &Val, to: &Ty) -> Val {
        let id = self.cast_at_end(block, v, to);
        Val { id, ty: to.clone(), weak: false, konst: None }
    }
}

/// The MLIR name of a value.
pub fn v(id: ValueId) -> String {
    format!("%v{id}")
}
