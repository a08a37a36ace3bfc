//! The `ConversionPatternRewriter`: a [`PatternRewriter`] that records
//! every change in a journal so that the conversion can undo it.
//!
//! Changes are applied to the IR right away and the IR stays valid at every
//! step: when a value is replaced by one of another type, the uses of the
//! old value get a source materialization (a `builtin.unrealized_conversion_cast`
//! from the new value to the old type), and patterns see their operands
//! through these casts (see [`ConversionPatternRewriter::remapped_value`]).
//! Erasure only unlinks an operation (and drops the operand uses of
//! everything in it); it is destroyed when the conversion commits. Undoing
//! walks the journal backwards, so a failed pattern, a failed conversion or
//! an analysis leaves the IR exactly as it was (MLIR's rollback).
//!
//! Changes made through [`ConversionPatternRewriter::ctx_mut`] are not
//! recorded: use it to intern types, attributes and names, or to build
//! detached operations handed to [`ConversionPatternRewriter::insert`].

use rustc_hash::{FxHashMap, FxHashSet};

use crate::context::{Attribute, Block, Context, Location, Operation, Region, Type};
use crate::ir::{OperationState, Value};
use crate::rewrite::conversion::type_converter::TypeConverter;
use crate::rewrite::rewriter::{InsertionPoint, PatternRewriter};
use crate::walk::WalkOrder;

/// The name of the cast operation materializations use.
pub(crate) const CAST: &str = "builtin.unrealized_conversion_cast";

/// Where an operation sits, to put it back there.
#[derive(Clone, Copy, Debug)]
enum Position {
    Before(Operation),
    End(Block),
    Detached,
}

/// The state of an operation before an in-place change.
#[derive(Debug)]
struct Snapshot {
    op: Operation,
    operands: Vec<Value>,
    successors: Vec<Block>,
    result_types: Vec<Type>,
    properties: Option<Attribute>,
    attrs: Attribute,
    loc: Location,
}

/// One recorded change, with what is needed to undo it.
#[derive(Debug)]
enum Change {
    Created(Operation),
    Moved {
        op: Operation,
        from: Position,
    },
    OperandSet {
        op: Operation,
        index: usize,
        old: Value,
    },
    Modified(Box<Snapshot>),
    Erased {
        op: Operation,
        from: Position,
        operands: Vec<(Operation, Vec<Value>)>,
    },
    ArgType {
        value: Value,
        old: Type,
    },
}

/// Why the framework created a cast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MaterializationKind {
    /// From converted values back to the original type (for unconverted users).
    Source,
    /// From an original value to its converted type (for a pattern's operands).
    Target {
        /// The type of the value before conversion.
        original: Type,
    },
}

/// The rewriter conversion patterns change the IR through (MLIR's
/// `ConversionPatternRewriter`).
pub struct ConversionPatternRewriter<'a> {
    inner: PatternRewriter<'a>,
    root: Operation,
    type_converter: Option<&'a TypeConverter>,
    journal: Vec<Change>,
    erased: FxHashSet<Operation>,
    /// Casts created by the framework, with their kind.
    materializations: FxHashMap<Operation, MaterializationKind>,
    /// The same casts in creation order (some may have been undone).
    materialization_order: Vec<Operation>,
    /// Target materializations by (value, converted type), to share them.
    target_cache: FxHashMap<(Value, Type), Operation>,
}

impl<'a> ConversionPatternRewriter<'a> {
    /// A rewriter for a conversion of `root` and what is nested in it.
    pub(crate) fn new(
        ctx: &'a mut Context,
        root: Operation,
        type_converter: Option<&'a TypeConverter>,
    ) -> Self {
        ConversionPatternRewriter {
            inner: PatternRewriter::new(ctx),
            root,
            type_converter,
            journal: Vec::new(),
            erased: FxHashSet::default(),
            materializations: FxHashMap::default(),
            materialization_order: Vec::new(),
            target_cache: FxHashMap::default(),
        }
    }

    /// The context, for queries.
    pub fn ctx(&self) -> &Context {
        self.inner.ctx()
    }

    /// The context, mutably: for interning. IR changes made through it are
    /// not recorded and cannot be rolled back.
    pub fn ctx_mut(&mut self) -> &mut Context {
        self.inner.ctx_mut()
    }

    /// The type converter of the conversion, if it has one.
    pub fn type_converter(&self) -> Option<&'a TypeConverter> {
        self.type_converter
    }

    /// The current insertion point, if any.
    pub fn insertion_point(&self) -> Option<InsertionPoint> {
        self.inner.insertion_point()
    }

    /// Restore a saved insertion point.
    pub fn restore_insertion_point(&mut self, point: Option<InsertionPoint>) {
        self.inner.restore_insertion_point(point);
    }

    /// Insert new operations right before `op`.
    pub fn set_insertion_point(&mut self, op: Operation) {
        self.inner.set_insertion_point(op);
    }

    /// Insert new operations right after `op`.
    pub fn set_insertion_point_after(&mut self, op: Operation) {
        self.inner.set_insertion_point_after(op);
    }

    /// Insert new operations at the start of `block`.
    pub fn set_insertion_point_to_start(&mut self, block: Block) {
        self.inner.set_insertion_point_to_start(block);
    }

    /// Insert new operations at the end of `block`.
    pub fn set_insertion_point_to_end(&mut self, block: Block) {
        self.inner.set_insertion_point_to_end(block);
    }

    /// Create an operation at the insertion point (recorded).
    pub fn create(&mut self, state: OperationState) -> Operation {
        let op = self.inner.create(state);
        self.journal.push(Change::Created(op));
        op
    }

    /// Insert the detached `op` at the insertion point (recorded).
    pub fn insert(&mut self, op: Operation) -> Operation {
        let from = self.position(op);
        self.inner.insert(op);
        self.journal.push(Change::Moved { op, from });
        op
    }

    /// Move `op` right before `before` (recorded).
    pub fn move_op_before(&mut self, op: Operation, before: Operation) {
        let from = self.position(op);
        self.inner.move_op_before(op, before);
        self.journal.push(Change::Moved { op, from });
    }

    /// Move `op` right after `after` (recorded).
    pub fn move_op_after(&mut self, op: Operation, after: Operation) {
        let from = self.position(op);
        self.inner.move_op_after(op, after);
        self.journal.push(Change::Moved { op, from });
    }

    /// Change `op` in place through `f` (its operands, successors, result
    /// types, properties, attributes and location are recorded first).
    pub fn modify_op_in_place<R>(&mut self, op: Operation, f: impl FnOnce(&mut Context) -> R) -> R {
        let ctx = self.inner.ctx();
        let snapshot = Snapshot {
            op,
            operands: ctx.operands(op).collect(),
            successors: ctx.successors(op).collect(),
            result_types: ctx.results(op).map(|v| ctx.value_type(v)).collect(),
            properties: ctx.op_properties(op),
            attrs: ctx.op_attr_dict(op),
            loc: ctx.op_loc(op),
        };
        self.journal.push(Change::Modified(Box::new(snapshot)));
        self.inner.modify_op_in_place(op, f)
    }

    /// Make operand `index` of `op` use `value` (recorded).
    pub fn set_operand(&mut self, op: Operation, index: usize, value: Value) {
        let old = self.ctx().operand(op, index);
        self.journal.push(Change::OperandSet { op, index, old });
        self.ctx_mut().set_operand(op, index, value);
    }

    /// Make every use of `from` use `to`. When their types differ, the uses
    /// get a source materialization of `to` in the type of `from`.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        if from == to || self.ctx().use_empty(from) {
            return;
        }
        let ty = self.ctx().value_type(from);
        let to = if self.ctx().value_type(to) == ty {
            to
        } else {
            let loc = self.value_loc(from);
            let at = point_after_def(self.ctx(), to).or(self.insertion_point());
            self.create_cast(&[to], ty, loc, at, MaterializationKind::Source)
        };
        let uses: Vec<_> = self.ctx().uses(from).collect();
        for user in uses {
            self.set_operand(user.op, user.index as usize, to);
        }
    }

    /// Replace the results of `op` by `values` (one per result) and erase it.
    pub fn replace_op(&mut self, op: Operation, values: &[Value]) {
        debug_assert_eq!(
            values.len(),
            self.ctx().num_results(op),
            "one value per result"
        );
        for (index, &value) in values.iter().enumerate() {
            self.replace_all_uses_with(Value::Result(op, index as u32), value);
        }
        self.erase_op(op);
    }

    /// Create an operation from `state` right before `op`, replace `op` by
    /// its results and erase `op`; returns the new operation.
    pub fn replace_op_with_new(&mut self, op: Operation, state: OperationState) -> Operation {
        let saved = self.insertion_point();
        self.set_insertion_point(op);
        let new_op = self.create(state);
        self.restore_insertion_point(saved);
        let results: Vec<Value> = self.ctx().results(new_op).collect();
        self.replace_op(op, &results);
        new_op
    }

    /// Erase `op` and everything nested in it. Results still used get a
    /// cast without inputs in their place, which fails the conversion if it
    /// is still used at the end (as MLIR).
    pub fn erase_op(&mut self, op: Operation) {
        if self.erased.contains(&op) {
            return;
        }
        let results: Vec<Value> = self.ctx().results(op).collect();
        for result in results {
            let outside: Vec<_> = self
                .ctx()
                .uses(result)
                .filter(|u| !self.ctx().is_ancestor(op, u.op))
                .collect();
            if outside.is_empty() {
                continue;
            }
            let ty = self.ctx().value_type(result);
            let loc = self.ctx().op_loc(op);
            let placeholder = self.create_cast(
                &[],
                ty,
                loc,
                Some(InsertionPoint::Before(op)),
                MaterializationKind::Source,
            );
            for user in outside {
                self.set_operand(user.op, user.index as usize, placeholder);
            }
        }
        let from = self.position(op);
        let ctx = self.ctx();
        let operands: Vec<(Operation, Vec<Value>)> = ctx
            .collect_ops(op, WalkOrder::PreOrder)
            .into_iter()
            .map(|current| (current, ctx.operands(current).collect()))
            .collect();
        let ctx = self.ctx_mut();
        ctx.detach_op(op);
        for (nested, _) in &operands {
            ctx.set_operands(*nested, &[]);
        }
        self.erased.insert(op);
        self.journal.push(Change::Erased { op, from, operands });
    }

    /// Whether `op` was erased (or replaced) by this conversion.
    pub fn is_erased(&self, op: Operation) -> bool {
        self.erased.contains(&op)
    }

    /// Convert the argument types of every block of `region` with
    /// `converter` (one-to-one conversions only); the old uses of a
    /// converted argument get a source materialization at the start of its
    /// block. Returns `false`, changing nothing, when a type cannot be
    /// converted to exactly one type. The values branches pass to converted
    /// blocks are not converted here: the branch operations' own patterns
    /// must do it.
    pub fn convert_region_types(&mut self, region: Region, converter: &TypeConverter) -> bool {
        let mut plan = Vec::new();
        let blocks: Vec<Block> = self.ctx().region_blocks(region).collect();
        for &block in &blocks {
            let args: Vec<Value> = self.ctx().block_args(block).collect();
            for arg in args {
                let ty = self.ctx().value_type(arg);
                match converter.convert_type_one(self.ctx_mut(), ty) {
                    Some(new) if new == ty => {}
                    Some(new) => plan.push((block, arg, new)),
                    None => return false,
                }
            }
        }
        let mut last_cast: Option<(Block, Operation)> = None;
        for (block, arg, new) in plan {
            let old = self.ctx().value_type(arg);
            let uses: Vec<_> = self.ctx().uses(arg).collect();
            self.journal.push(Change::ArgType { value: arg, old });
            self.ctx_mut().set_value_type(arg, new);
            if uses.is_empty() {
                continue;
            }
            let at = match last_cast {
                Some((b, cast)) if b == block => point_after_op(self.ctx(), cast),
                _ => point_after_def(self.ctx(), arg),
            };
            let loc = self.value_loc(arg);
            let cast = self.create_cast(&[arg], old, loc, at, MaterializationKind::Source);
            if let Some(cast_op) = self.ctx().defining_op(cast) {
                last_cast = Some((block, cast_op));
            }
            for user in uses {
                self.set_operand(user.op, user.index as usize, cast);
            }
        }
        true
    }

    /// `value` as the conversion sees it: through the casts the framework
    /// created, the most recent replacement of the converted type (when
    /// the conversion has a type converter), materialized if needed.
    pub fn remapped_value(&mut self, value: Value) -> Option<Value> {
        let desired = match self.type_converter {
            Some(converter) => {
                let ty = self.ctx().value_type(value);
                let types = converter.convert_type(self.ctx_mut(), ty)?;
                match types.as_slice() {
                    [one] => Some(*one),
                    _ => None,
                }
            }
            None => None,
        };
        Some(self.remap(value, desired))
    }

    /// The operands of `op` for a pattern (`None`: a type cannot be converted).
    pub(crate) fn adaptor_operands(&mut self, op: Operation) -> Option<Vec<Value>> {
        let operands: Vec<Value> = self.ctx().operands(op).collect();
        operands
            .into_iter()
            .map(|operand| self.remapped_value(operand))
            .collect()
    }

    fn remap(&mut self, value: Value, desired: Option<Type>) -> Value {
        let ctx = self.ctx();
        let original = ctx.value_type(value);
        let matches = |v: Value| Some(ctx.value_type(v)) == desired;
        let mut found = matches(value).then_some(value);
        let mut current = value;
        while let Some(cast) = ctx.defining_op(current) {
            let is_bridge = self.is_live_materialization(cast)
                && ctx.num_operands(cast) == 1
                && ctx.num_results(cast) == 1;
            if !is_bridge {
                break;
            }
            current = ctx.operand(cast, 0);
            if matches(current) {
                found = Some(current);
            }
        }
        match (found, desired) {
            (Some(v), _) => v,
            (None, None) => current,
            (None, Some(ty)) => self.materialize_target(current, ty, original),
        }
    }

    /// A target materialization of `value` to `ty`, shared by all users.
    fn materialize_target(&mut self, value: Value, ty: Type, original: Type) -> Value {
        if let Some(&cast) = self.target_cache.get(&(value, ty)) {
            let ctx = self.ctx();
            if self.is_live_materialization(cast)
                && ctx.num_operands(cast) == 1
                && ctx.operand(cast, 0) == value
            {
                return Value::Result(cast, 0);
            }
        }
        let loc = self.value_loc(value);
        let at = point_after_def(self.ctx(), value).or(self.insertion_point());
        let result = self.create_cast(
            &[value],
            ty,
            loc,
            at,
            MaterializationKind::Target { original },
        );
        if let Some(cast) = self.ctx().defining_op(result) {
            self.target_cache.insert((value, ty), cast);
        }
        result
    }

    /// Create a framework cast of `inputs` to `ty` at `at`; returns its result.
    fn create_cast(
        &mut self,
        inputs: &[Value],
        ty: Type,
        loc: Location,
        at: Option<InsertionPoint>,
        kind: MaterializationKind,
    ) -> Value {
        let name = self.ctx_mut().ident(CAST);
        let mut state = OperationState::new(name, loc);
        state.operands = inputs.to_vec();
        state.result_types = vec![ty];
        let saved = self.insertion_point();
        self.restore_insertion_point(at);
        let cast = self.create(state);
        self.restore_insertion_point(saved);
        self.materializations.insert(cast, kind);
        self.materialization_order.push(cast);
        Value::Result(cast, 0)
    }

    fn is_live_materialization(&self, op: Operation) -> bool {
        self.materializations.contains_key(&op) && !self.erased.contains(&op)
    }

    /// The kind of a framework cast still in the IR, if `op` is one.
    pub(crate) fn materialization_kind(&self, op: Operation) -> Option<MaterializationKind> {
        if self.erased.contains(&op) {
            return None;
        }
        self.materializations.get(&op).copied()
    }

    /// The framework casts still in the IR, in creation order.
    pub(crate) fn live_materializations(&self) -> Vec<Operation> {
        let mut seen = FxHashSet::default();
        self.materialization_order
            .iter()
            .copied()
            .filter(|&op| self.is_live_materialization(op) && seen.insert(op))
            .collect()
    }

    /// Whether `op` is still part of the IR being converted.
    pub(crate) fn is_live(&self, op: Operation) -> bool {
        let ctx = self.ctx();
        let mut current = op;
        loop {
            if self.erased.contains(&current) {
                return false;
            }
            if current == self.root {
                return true;
            }
            match ctx.op_parent_op(current) {
                Some(parent) => current = parent,
                None => return false,
            }
        }
    }

    /// A mark to roll back to.
    pub(crate) fn checkpoint(&self) -> usize {
        self.journal.len()
    }

    /// The operations created, and those changed in place, since `mark`.
    pub(crate) fn changes_since(&self, mark: usize) -> (Vec<Operation>, Vec<Operation>) {
        let mut created = Vec::new();
        let mut modified = Vec::new();
        for change in &self.journal[mark.min(self.journal.len())..] {
            match change {
                Change::Created(op) => created.push(*op),
                Change::Modified(snapshot) if !modified.contains(&snapshot.op) => {
                    modified.push(snapshot.op)
                }
                _ => {}
            }
        }
        (created, modified)
    }

    /// Undo every change made since `mark`, latest first.
    pub(crate) fn rollback(&mut self, mark: usize) {
        while self.journal.len() > mark {
            let Some(change) = self.journal.pop() else {
                break;
            };
            self.undo(change);
        }
    }

    fn undo(&mut self, change: Change) {
        let ctx = self.inner.ctx_mut();
        match change {
            Change::Created(op) => {
                ctx.erase_op(op);
                self.materializations.remove(&op);
            }
            Change::Moved { op, from } => {
                ctx.detach_op(op);
                put(ctx, op, from);
            }
            Change::OperandSet { op, index, old } => ctx.set_operand(op, index, old),
            Change::Modified(snapshot) => {
                let op = snapshot.op;
                ctx.set_operands(op, &snapshot.operands);
                for (index, &block) in snapshot.successors.iter().enumerate() {
                    if index < ctx.num_successors(op) {
                        ctx.set_successor(op, index, block);
                    }
                }
                for (index, &ty) in snapshot.result_types.iter().enumerate() {
                    if index < ctx.num_results(op) {
                        ctx.set_value_type(Value::Result(op, index as u32), ty);
                    }
                }
                ctx.set_op_properties(op, snapshot.properties);
                ctx.set_op_attr_dict(op, snapshot.attrs);
                ctx.set_op_loc(op, snapshot.loc);
            }
            Change::Erased { op, from, operands } => {
                for (nested, values) in &operands {
                    ctx.set_operands(*nested, values);
                }
                put(ctx, op, from);
                self.erased.remove(&op);
            }
            Change::ArgType { value, old } => ctx.set_value_type(value, old),
        }
    }

    /// Destroy the erased operations for good and forget the journal.
    pub(crate) fn commit(mut self) {
        let journal = std::mem::take(&mut self.journal);
        let ctx = self.inner.ctx_mut();
        for change in journal {
            if let Change::Erased { op, .. } = change {
                ctx.erase_op(op);
            }
        }
    }

    fn position(&self, op: Operation) -> Position {
        let ctx = self.ctx();
        match (ctx.op_next(op), ctx.op_parent_block(op)) {
            (Some(next), _) => Position::Before(next),
            (None, Some(block)) => Position::End(block),
            (None, None) => Position::Detached,
        }
    }

    fn value_loc(&self, value: Value) -> Location {
        let ctx = self.ctx();
        match value {
            Value::Result(op, _) => ctx.op_loc(op),
            Value::Argument(block, index) => ctx.block_arg_loc(block, index as usize),
        }
    }
}

/// Put the detached `op` back at `position`.
fn put(ctx: &mut Context, op: Operation, position: Position) {
    match position {
        Position::Before(next) => ctx.insert_op_before(next, op),
        Position::End(block) => ctx.append_op(block, op),
        Position::Detached => {}
    }
}

/// Right after the definition of `value`: after its op, or at the start of
/// its block for a block argument (MLIR's `computeInsertPoint`).
fn point_after_def(ctx: &Context, value: Value) -> Option<InsertionPoint> {
    match value {
        Value::Result(op, _) => point_after_op(ctx, op),
        Value::Argument(block, _) => Some(match ctx.block_first_op(block) {
            Some(first) => InsertionPoint::Before(first),
            None => InsertionPoint::End(block),
        }),
    }
}

fn point_after_op(ctx: &Context, op: Operation) -> Option<InsertionPoint> {
    match (ctx.op_next(op), ctx.op_parent_block(op)) {
        (Some(next), _) => Some(InsertionPoint::Before(next)),
        (None, Some(block)) => Some(InsertionPoint::End(block)),
        (None, None) => None,
    }
}
