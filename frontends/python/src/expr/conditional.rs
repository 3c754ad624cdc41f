//! `a and b`, `a or b` and `x if c else y`: operands evaluated only as a
//! condition asks, with Python's value semantics (a constant condition
//! decides at compile time).

use crate::{
    ir::{BlockKind, Const},
    lower::{describe, Item, Lowerer, Reported, R},
};
use ruff_python_ast as ast;
use ruff_text_size::Ranged;

impl Lowerer<'_, '_, '_> {
    /// `a and b` / `a or b` with Python's value semantics and short-circuit.
    pub(super) fn bool_op(&mut self, b: &ast::ExprBoolOp) -> R<Item> {
        let merge = self.b.new_block(BlockKind::Merge);
        let name = format!(".bool{}", b.range().start().to_u32());
        let n = b.values.len();
        for (i, e) in b.values.iter().enumerate() {
            let item = self.expr(e)?;
            let val = match item {
                Item::Val(v) => v,
                Item::Tuple(_) => self.materialize(&item, e.range())?,
                other => {
                    return self.err(e.range(), format!("'{}' needs values, got {}", b.op.as_str(), describe(&other)))
                }
            };
            let cur = self.b.cur.ok_or(Reported)?;
            self.b.write(&name, cur, val.clone());
            if i + 1 == n {
                self.b.br(merge);
            } else {
                let t = self.truth(Item::Val(val), e.range())?;
                // A constant operand decides at compile time (dtype tests):
                // it is the result, or the next operand is.
                if let Some(Const::Bool(k)) = t.konst {
                    if k == (b.op == ast::BoolOp::Or) {
                        self.b.br(merge);
                        break;
                    }
                    continue;
                }
                let next = self.b.new_block(BlockKind::Plain);
                match b.op {
                    ast::BoolOp::And => self.b.cond_br(t.id, next, merge),
                    ast::BoolOp::Or => self.b.cond_br(t.id, merge, next),
                }
                self.b.seal(next);
                self.b.switch_to(next);
            }
        }
        self.b.seal(merge);
        self.b.switch_to(merge);
        let before = self.b.errors.len();
        let out = self.b.read(&name).ok_or(Reported)?;
        if self.b.errors.len() > before {
            let e = self.b.errors.pop().expect("error just pushed");
            return self
                .err(b.range(), format!("'{}' of {} and {} has no common type", b.op.as_str(), e.first, e.second));
        }
        Ok(Item::Val(out))
    }

    pub(super) fn if_expr(&mut self, i: &ast::ExprIf) -> R<Item> {
        let cond = self.expr(&i.test)?;
        let cond = self.truth(cond, i.test.range())?;
        if let Some(Const::Bool(k)) = cond.konst {
            return self.expr(if k { &i.body } else { &i.orelse });
        }
        let name = format!(".ifexp{}", i.range().start().to_u32());
        let (then, otherwise, merge) = (
            self.b.new_block(BlockKind::Plain),
            self.b.new_block(BlockKind::Plain),
            self.b.new_block(BlockKind::Merge),
        );
        self.b.cond_br(cond.id, then, otherwise);
        self.b.seal(then);
        self.b.seal(otherwise);
        for (block, e) in [(then, &i.body), (otherwise, &i.orelse)] {
            self.b.switch_to(block);
            let val = self.value(e)?;
            let cur = self.b.cur.ok_or(Reported)?;
            self.b.write(&name, cur, val);
            self.b.br(merge);
        }
        self.b.seal(merge);
        self.b.switch_to(merge);
        let before = self.b.errors.len();
        let out = self.b.read(&name).ok_or(Reported)?;
        if self.b.errors.len() > before {
            let e = self.b.errors.pop().expect("error just pushed");
            return self.err(
                i.range(),
                format!("the branches of this conditional expression are {} and {}", e.first, e.second),
            );
        }
        Ok(Item::Val(out))
    }
}
