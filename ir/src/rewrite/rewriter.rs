//! The `PatternRewriter`: the one door through which patterns (and the
//! folder) change the IR, so that a listener sees every change.
//!
//! This is MLIR's `RewriterBase` with its `Listener`. A rewriter borrows the
//! context mutably for its lifetime and carries an insertion point for the
//! operations it creates. Changes made through [`PatternRewriter::ctx_mut`]
//! bypass the listener: use it for queries that need `&mut Context`
//! (interning names, attributes and types), not for mutation.

use crate::context::{Block, Context, Operation};
use crate::ir::{OperationState, Value};

/// Observes the changes a [`PatternRewriter`] makes (MLIR's
/// `RewriterBase::Listener`). Every method has an empty default.
pub trait RewriterListener {
    /// `op` was just inserted into a block (created, or moved).
    fn notify_operation_inserted(&mut self, _ctx: &Context, _op: Operation) {}

    /// `op` was just changed in place (operands, attributes, properties, location).
    fn notify_operation_modified(&mut self, _ctx: &Context, _op: Operation) {}

    /// The results of `op` are about to be replaced by `replacement` (the uses
    /// still point to `op`); the erasure of `op` is notified next.
    fn notify_operation_replaced(
        &mut self,
        _ctx: &Context,
        _op: Operation,
        _replacement: &[Value],
    ) {
    }

    /// `op` is about to be erased: it is still in place, with its operands;
    /// everything nested in it has already been erased (and notified).
    fn notify_operation_erased(&mut self, _ctx: &Context, _op: Operation) {}
}

/// Where a rewriter inserts the operations it creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertionPoint {
    /// Right before this operation.
    Before(Operation),
    /// At the end of this block.
    End(Block),
}

/// Creates, replaces, moves and erases operations, telling its listener
/// about each change (MLIR's `PatternRewriter`).
pub struct PatternRewriter<'a> {
    ctx: &'a mut Context,
    insertion_point: Option<InsertionPoint>,
    listener: Option<&'a mut dyn RewriterListener>,
}

impl<'a> PatternRewriter<'a> {
    /// A rewriter without a listener and without an insertion point.
    pub fn new(ctx: &'a mut Context) -> Self {
        PatternRewriter {
            ctx,
            insertion_point: None,
            listener: None,
        }
    }

    /// A rewriter that reports every change to `listener`.
    pub fn with_listener(ctx: &'a mut Context, listener: &'a mut dyn RewriterListener) -> Self {
        PatternRewriter {
            ctx,
            insertion_point: None,
            listener: Some(listener),
        }
    }

    /// The context, for queries.
    pub fn ctx(&self) -> &Context {
        self.ctx
    }

    /// The context, mutably: for interning (names, types, attributes). IR
    /// changes made through it are not seen by the listener.
    pub fn ctx_mut(&mut self) -> &mut Context {
        self.ctx
    }

    /// The current insertion point, if any (save it to restore it later).
    pub fn insertion_point(&self) -> Option<InsertionPoint> {
        self.insertion_point
    }

    /// Restore a saved insertion point (`None`: created ops stay detached).
    pub fn restore_insertion_point(&mut self, point: Option<InsertionPoint>) {
        self.insertion_point = point;
    }

    /// Insert new operations right before `op`.
    pub fn set_insertion_point(&mut self, op: Operation) {
        self.insertion_point = Some(InsertionPoint::Before(op));
    }

    /// Insert new operations right after `op`.
    pub fn set_insertion_point_after(&mut self, op: Operation) {
        self.insertion_point = match (self.ctx.op_next(op), self.ctx.op_parent_block(op)) {
            (Some(next), _) => Some(InsertionPoint::Before(next)),
            (None, Some(block)) => Some(InsertionPoint::End(block)),
            (None, None) => None,
        };
    }

    /// Insert new operations at the start of `block`.
    pub fn set_insertion_point_to_start(&mut self, block: Block) {
        self.insertion_point = Some(match self.ctx.block_first_op(block) {
            Some(first) => InsertionPoint::Before(first),
            None => InsertionPoint::End(block),
        });
    }

    /// Insert new operations at the end of `block`.
    pub fn set_insertion_point_to_end(&mut self, block: Block) {
        self.insertion_point = Some(InsertionPoint::End(block));
    }

    /// Leave newly created operations detached.
    pub fn clear_insertion_point(&mut self) {
        self.insertion_point = None;
    }

    /// The block new operations go into, if there is an insertion point.
    pub fn insertion_block(&self) -> Option<Block> {
        match self.insertion_point? {
            InsertionPoint::Before(op) => self.ctx.op_parent_block(op),
            InsertionPoint::End(block) => Some(block),
        }
    }

    /// Create an operation from `state` at the insertion point (detached when
    /// there is none).
    pub fn create(&mut self, state: OperationState) -> Operation {
        let op = self.ctx.create_operation(state);
        self.insert(op)
    }

    /// Insert the detached `op` at the insertion point and notify it; returns `op`.
    pub fn insert(&mut self, op: Operation) -> Operation {
        let inserted = match self.insertion_point {
            Some(InsertionPoint::Before(before)) if self.ctx.op_parent_block(before).is_some() => {
                self.ctx.insert_op_before(before, op);
                true
            }
            Some(InsertionPoint::End(block)) => {
                self.ctx.append_op(block, op);
                true
            }
            _ => false,
        };
        if inserted {
            if let Some(listener) = self.listener.as_deref_mut() {
                listener.notify_operation_inserted(self.ctx, op);
            }
        }
        op
    }

    /// Move `op` right before `before` (MLIR's `moveOpBefore`).
    pub fn move_op_before(&mut self, op: Operation, before: Operation) {
        if op == before || self.ctx.op_parent_block(before).is_none() {
            return;
        }
        self.ctx.detach_op(op);
        self.ctx.insert_op_before(before, op);
        if let Some(listener) = self.listener.as_deref_mut() {
            listener.notify_operation_inserted(self.ctx, op);
        }
    }

    /// Move `op` right after `after` (MLIR's `moveOpAfter`).
    pub fn move_op_after(&mut self, op: Operation, after: Operation) {
        if op == after {
            return;
        }
        let Some(block) = self.ctx.op_parent_block(after) else {
            return;
        };
        self.ctx.detach_op(op);
        match self.ctx.op_next(after) {
            Some(next) => self.ctx.insert_op_before(next, op),
            None => self.ctx.append_op(block, op),
        }
        if let Some(listener) = self.listener.as_deref_mut() {
            listener.notify_operation_inserted(self.ctx, op);
        }
    }

    /// Change `op` in place through `f`, then notify it as modified.
    pub fn modify_op_in_place<R>(&mut self, op: Operation, f: impl FnOnce(&mut Context) -> R) -> R {
        let result = f(self.ctx);
        if let Some(listener) = self.listener.as_deref_mut() {
            listener.notify_operation_modified(self.ctx, op);
        }
        result
    }

    /// Make every use of `from` use `to`; each user is notified as modified.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        loop {
            let Some(user) = self.ctx.uses(from).next() else {
                break;
            };
            self.ctx.set_operand(user.op, user.index as usize, to);
            if let Some(listener) = self.listener.as_deref_mut() {
                listener.notify_operation_modified(self.ctx, user.op);
            }
        }
    }

    /// Replace every use of `op`'s results by `values` (one per result),
    /// keeping `op`.
    pub fn replace_all_op_uses_with(&mut self, op: Operation, values: &[Value]) {
        debug_assert_eq!(
            values.len(),
            self.ctx.num_results(op),
            "one value per result"
        );
        for (index, &value) in values.iter().enumerate() {
            self.replace_all_uses_with(Value::Result(op, index as u32), value);
        }
    }

    /// Replace `op`'s results by `values` (one per result) and erase `op`.
    pub fn replace_op(&mut self, op: Operation, values: &[Value]) {
        debug_assert_eq!(
            values.len(),
            self.ctx.num_results(op),
            "one value per result"
        );
        if let Some(listener) = self.listener.as_deref_mut() {
            listener.notify_operation_replaced(self.ctx, op, values);
        }
        self.replace_all_op_uses_with(op, values);
        self.erase_op(op);
    }

    /// Create an operation from `state` right before `op`, replace `op` by its
    /// results and erase `op`; returns the new operation.
    pub fn replace_op_with_new(&mut self, op: Operation, state: OperationState) -> Operation {
        let saved = self.insertion_point;
        self.set_insertion_point(op);
        let new_op = self.create(state);
        self.insertion_point = saved;
        let results: Vec<Value> = self.ctx.results(new_op).collect();
        self.replace_op(op, &results);
        new_op
    }

    /// Erase `op` and everything nested in it. Its results must be unused (or
    /// used only inside `op`). Nested ops are erased and notified first,
    /// users before definitions, so that a listener always sees valid IR.
    pub fn erase_op(&mut self, op: Operation) {
        debug_assert!(
            self.ctx
                .results(op)
                .all(|v| self.ctx.uses(v).all(|u| self.ctx.is_ancestor(op, u.op))),
            "erasing an operation whose results are still used"
        );
        if self.listener.is_none() {
            self.ctx.erase_op(op);
            return;
        }
        self.erase_tree(op);
    }

    fn erase_tree(&mut self, op: Operation) {
        let regions = self.ctx.op_regions(op).to_vec();
        for &region in regions.iter().rev() {
            let blocks: Vec<Block> = self.ctx.region_blocks(region).collect();
            for &block in blocks.iter().rev() {
                while let Some(last) = self.ctx.block_last_op(block) {
                    self.erase_tree(last);
                }
            }
        }
        if let Some(listener) = self.listener.as_deref_mut() {
            listener.notify_operation_erased(self.ctx, op);
        }
        self.ctx.erase_op(op);
    }
}
