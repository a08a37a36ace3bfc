//! The `OperationFolder`: folds operations through their `fold` hook and
//! keeps one constant per value (MLIR's `FoldUtils.cpp`).
//!
//! Constants produced by folding are materialized by the dialect of the
//! folded operation, at the start of the entry block of the closest region
//! whose parent is isolated from above (or unregistered, or top-level). The
//! folder remembers them per region, keyed by (dialect, attribute, type), so
//! that each value is materialized once there; `insert_known_constant` adds
//! pre-existing constant ops to that table, moving them there or replacing
//! duplicates. Constants that move or merge lose their location (they no
//! longer come from one place), as in MLIR.
//!
//! The folder's table is checked lazily: an entry whose operation was erased
//! or moved elsewhere behind the folder's back is ignored, so the folder
//! needs no removal notifications.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::context::{Attribute, Block, Context, Ident, Operation, Region, Type};
use crate::dialect::FoldResult;
use crate::ir::Value;
use crate::rewrite::rewriter::{InsertionPoint, PatternRewriter};

/// What [`OperationFolder::try_to_fold`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldOutcome {
    /// Nothing: the operation does not fold.
    Unchanged,
    /// The operation was changed in place (e.g. constants moved to the right
    /// of a commutative operation) and is still there.
    InPlace,
    /// The operation's results were replaced and the operation erased.
    Replaced,
}

/// What [`OperationFolder::insert_known_constant`] did with a constant op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnownConstant {
    /// It is now the folder's constant for its value, where it was.
    Unchanged,
    /// It is now the folder's constant for its value, moved to the start of
    /// the entry block of its insertion region.
    Hoisted,
    /// An equal constant already existed: uses were redirected to it and this
    /// op was erased.
    Deduplicated,
}

type ConstantKey = (Ident, Attribute, Type);

/// Folds operations and uniques the constants it materializes.
#[derive(Default)]
pub struct OperationFolder {
    /// Per insertion region, the constant op for each (dialect, value, type).
    scopes: FxHashMap<Region, FxHashMap<ConstantKey, Operation>>,
    /// The constant ops in `scopes`.
    owned: FxHashSet<Operation>,
    /// The dialect of each op name seen.
    dialects: FxHashMap<Ident, Option<Ident>>,
}

impl OperationFolder {
    /// A folder that knows no constants yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forget every known constant.
    pub fn clear(&mut self) {
        self.scopes.clear();
        self.owned.clear();
    }

    /// Fold `op`: call its `fold` hook with the constant value of each
    /// operand; replace its results by the folded values (materializing
    /// constants as needed) and erase it. When the hook does not fold a
    /// commutative op, its constant operands are moved to the end (MLIR's
    /// `IsCommutative` trait folder). A constant-like op is handed to
    /// [`Self::insert_known_constant`] instead.
    pub fn try_to_fold(
        &mut self,
        rewriter: &mut PatternRewriter<'_>,
        op: Operation,
    ) -> FoldOutcome {
        if rewriter
            .ctx()
            .op_definition(op)
            .is_some_and(|d| d.traits.constant_like)
        {
            return match self.insert_known_constant(rewriter, op, None) {
                KnownConstant::Deduplicated => FoldOutcome::Replaced,
                KnownConstant::Unchanged | KnownConstant::Hoisted => FoldOutcome::Unchanged,
            };
        }
        match run_fold_hooks(rewriter.ctx_mut(), op) {
            Folded::Nothing => FoldOutcome::Unchanged,
            Folded::InPlace => {
                rewriter.modify_op_in_place(op, |_| ());
                FoldOutcome::InPlace
            }
            Folded::Results(results) => self.replace_with_fold_results(rewriter, op, &results),
        }
    }

    /// Make the constant op `op` (whose value is `value`, computed when
    /// `None`) the folder's constant for its value: if an equal one is
    /// already known in its insertion region, `op` is replaced by it and
    /// erased; otherwise `op` moves to the start of that region's entry block
    /// (unless it already sits among the folder's constants there).
    pub fn insert_known_constant(
        &mut self,
        rewriter: &mut PatternRewriter<'_>,
        op: Operation,
        value: Option<Attribute>,
    ) -> KnownConstant {
        let ctx = rewriter.ctx_mut();
        let Some(block) = ctx.op_parent_block(op) else {
            return KnownConstant::Unchanged;
        };
        if self.is_folder_owned(ctx, op) {
            return match self.rehoist_within_block(ctx, op, block) {
                true => KnownConstant::Hoisted,
                false => KnownConstant::Unchanged,
            };
        }
        let value = match value {
            Some(value) => Some(value),
            None if ctx.num_results(op) > 0 => constant_value(ctx, Value::Result(op, 0)),
            None => None,
        };
        let (Some(value), Some(region)) = (value, insertion_region(ctx, block)) else {
            return KnownConstant::Unchanged;
        };
        let Some(dialect) = self.dialect_of(ctx, op) else {
            return KnownConstant::Unchanged;
        };
        let key = (dialect, value, ctx.value_type(Value::Result(op, 0)));
        if let Some(existing) = self.lookup(ctx, region, key) {
            let unknown = ctx.unknown_loc();
            ctx.set_op_loc(existing, unknown);
            rewriter.replace_op(op, &[Value::Result(existing, 0)]);
            return KnownConstant::Deduplicated;
        }
        let Some(entry) = ctx.region_entry_block(region) else {
            return KnownConstant::Unchanged;
        };
        let hoisted = if block != entry {
            move_to_start(ctx, op, entry);
            let unknown = ctx.unknown_loc();
            ctx.set_op_loc(op, unknown);
            true
        } else {
            self.rehoist_within_block(ctx, op, block)
        };
        self.record(region, key, op);
        match hoisted {
            true => KnownConstant::Hoisted,
            false => KnownConstant::Unchanged,
        }
    }

    /// The folder's constant for `value` of type `ty` in the insertion
    /// region of `block`, materialized by `dialect` if needed (at the start
    /// of that region's entry block).
    pub fn get_or_create_constant(
        &mut self,
        rewriter: &mut PatternRewriter<'_>,
        block: Block,
        dialect: &str,
        value: Attribute,
        ty: Type,
    ) -> Option<Value> {
        let ctx = rewriter.ctx_mut();
        let region = insertion_region(ctx, block)?;
        let anchor = entry_start(ctx, region)?;
        let dialect = ctx.ident(dialect);
        let saved = rewriter.insertion_point();
        rewriter.restore_insertion_point(Some(anchor));
        let constant = self.get_or_create_in(rewriter, region, dialect, value, ty, &mut Vec::new());
        rewriter.restore_insertion_point(saved);
        constant.map(|c| Value::Result(c, 0))
    }

    /// Whether `op` is one of the constants this folder created or adopted.
    pub fn is_folder_owned(&self, ctx: &Context, op: Operation) -> bool {
        self.owned.contains(&op) && ctx.op_parent_block(op).is_some()
    }

    /// Replace `op`'s results by its fold results (see [`apply_fold_values`]);
    /// no change when a constant cannot be materialized or a value has the
    /// wrong type.
    fn replace_with_fold_results(
        &mut self,
        rewriter: &mut PatternRewriter<'_>,
        op: Operation,
        results: &[FoldResult],
    ) -> FoldOutcome {
        let ctx = rewriter.ctx_mut();
        // A folder returning the wrong number of results is ignored.
        if results.len() != ctx.num_results(op) {
            return FoldOutcome::Unchanged;
        }
        let Some(block) = ctx.op_parent_block(op) else {
            return FoldOutcome::Unchanged;
        };
        let Some(dialect) = self.dialect_of(ctx, op) else {
            return FoldOutcome::Unchanged;
        };
        let Some(region) = insertion_region(ctx, block) else {
            return FoldOutcome::Unchanged;
        };
        let Some(anchor) = entry_start(ctx, region) else {
            return FoldOutcome::Unchanged;
        };
        let saved = rewriter.insertion_point();
        rewriter.restore_insertion_point(Some(anchor));
        let mut created = Vec::new();
        let mut values = Vec::with_capacity(results.len());
        for (index, result) in results.iter().enumerate() {
            let ty = rewriter.ctx().value_type(Value::Result(op, index as u32));
            let value = match *result {
                FoldResult::Value(value) if rewriter.ctx().value_type(value) == ty => Some(value),
                FoldResult::Value(_) => None,
                FoldResult::Attr(attr) => self
                    .get_or_create_in(rewriter, region, dialect, attr, ty, &mut created)
                    .map(|constant| {
                        // The op may sit in the entry block before the
                        // constants inserted so far: keep dominance.
                        let ctx = rewriter.ctx_mut();
                        if ctx.op_parent_block(constant) == Some(block)
                            && ctx.block_first_op(block) != Some(constant)
                        {
                            move_to_start(ctx, constant, block);
                        }
                        Value::Result(constant, 0)
                    }),
            };
            match value {
                Some(value) => values.push(value),
                None => {
                    values.clear();
                    break;
                }
            }
        }
        rewriter.restore_insertion_point(saved);
        let outcome = match values.is_empty() {
            true => FoldOutcome::Unchanged,
            false => apply_fold_values(rewriter, op, &values),
        };
        if outcome == FoldOutcome::Unchanged {
            for constant in created {
                rewriter.erase_op(constant);
            }
        }
        outcome
    }

    /// Look up or materialize a constant in `region` at the rewriter's
    /// insertion point; new ops are pushed on `created`.
    fn get_or_create_in(
        &mut self,
        rewriter: &mut PatternRewriter<'_>,
        region: Region,
        dialect: Ident,
        value: Attribute,
        ty: Type,
        created: &mut Vec<Operation>,
    ) -> Option<Operation> {
        let ctx = rewriter.ctx_mut();
        let unknown = ctx.unknown_loc();
        if let Some(existing) = self.lookup(ctx, region, (dialect, value, ty)) {
            ctx.set_op_loc(existing, unknown);
            return Some(existing);
        }
        let materialize = ctx
            .registry()
            .constant_materializer(ctx.ident_str(dialect))?;
        let constant = materialize(ctx, value, ty, unknown)?;
        // A materializer returning something else than one value of `ty`
        // is not used.
        if ctx.num_results(constant) == 0 || ctx.value_type(Value::Result(constant, 0)) != ty {
            ctx.erase_op(constant);
            return None;
        }
        let new_dialect = self.dialect_of(ctx, constant).unwrap_or(dialect);
        if new_dialect != dialect {
            // A dialect may materialize its constants with another dialect's
            // op: reuse an existing constant of that dialect.
            if let Some(existing) = self.lookup(ctx, region, (new_dialect, value, ty)) {
                ctx.erase_op(constant);
                self.record(region, (dialect, value, ty), existing);
                return Some(existing);
            }
            self.record(region, (new_dialect, value, ty), constant);
        }
        rewriter.insert(constant);
        created.push(constant);
        self.record(region, (dialect, value, ty), constant);
        Some(constant)
    }

    /// A known constant for `key` in `region`, if it is still there.
    fn lookup(&self, ctx: &Context, region: Region, key: ConstantKey) -> Option<Operation> {
        let op = *self.scopes.get(&region)?.get(&key)?;
        let block = ctx.op_parent_block(op)?;
        (ctx.region_entry_block(region) == Some(block)).then_some(op)
    }

    /// The dialect of `op` (the prefix of its name), interned once per op name.
    fn dialect_of(&mut self, ctx: &mut Context, op: Operation) -> Option<Ident> {
        let name = ctx.op_name(op);
        if let Some(&dialect) = self.dialects.get(&name) {
            return dialect;
        }
        let dialect = match ctx.ident_str(name).split_once('.') {
            Some((prefix, _)) => {
                let prefix = prefix.to_string();
                Some(ctx.ident(&prefix))
            }
            None => None,
        };
        self.dialects.insert(name, dialect);
        dialect
    }

    fn record(&mut self, region: Region, key: ConstantKey, op: Operation) {
        self.scopes.entry(region).or_default().insert(key, op);
        self.owned.insert(op);
    }

    /// Move a folder constant to the start of its block unless it already
    /// sits in the run of folder constants there (a non-constant op was
    /// inserted before it); returns whether it moved.
    fn rehoist_within_block(&self, ctx: &mut Context, op: Operation, block: Block) -> bool {
        match ctx.op_prev(op) {
            Some(prev) if !self.is_folder_owned(ctx, prev) => {
                move_to_start(ctx, op, block);
                true
            }
            _ => false,
        }
    }
}

/// What the fold hooks of an op produced.
pub(crate) enum Folded {
    /// The op does not fold.
    Nothing,
    /// The op was changed in place (not yet notified).
    InPlace,
    /// The op's results fold to these, one per result.
    Results(Vec<FoldResult>),
}

/// Run `op`'s `fold` hook with the constant value of each operand; when it
/// does not fold, or folds in place (to nothing, or to its own results), run
/// the trait folders too: a commutative op gets its constant operands moved
/// last (MLIR's `foldSingleResultHook` and `foldCommutative`). The in-place
/// change is made here; notifying it is the caller's job.
pub(crate) fn run_fold_hooks(ctx: &mut Context, op: Operation) -> Folded {
    let Some(def) = ctx.op_definition(op) else {
        return Folded::Nothing;
    };
    let (fold, commutative) = (def.fold, def.traits.commutative);
    if fold.is_none() && !commutative {
        return Folded::Nothing;
    }
    let constants: Vec<Option<Attribute>> = (0..ctx.num_operands(op))
        .map(|index| {
            let operand = ctx.operand(op, index);
            constant_value(ctx, operand)
        })
        .collect();
    let folded = fold.and_then(|f| f(ctx, op, &constants));
    let in_place = match folded {
        Some(results) => {
            let own =
                |(i, r): (usize, &FoldResult)| *r == FoldResult::Value(Value::Result(op, i as u32));
            if !results.iter().enumerate().all(own) {
                return Folded::Results(results);
            }
            true
        }
        None => false,
    };
    if (commutative && move_constants_last(ctx, op, &constants)) || in_place {
        return Folded::InPlace;
    }
    Folded::Nothing
}

/// Replace the results of `op` by `values` (one per result). A result
/// folded to itself stays: `op` is then kept and only the other results'
/// uses move (a partial fold, `InPlace`), and when none of those has a use
/// nothing changes (`Unchanged`). Otherwise `op` is replaced and erased.
pub(crate) fn apply_fold_values(
    rewriter: &mut PatternRewriter<'_>,
    op: Operation,
    values: &[Value],
) -> FoldOutcome {
    let own = |index: usize| Value::Result(op, index as u32);
    if values.iter().enumerate().all(|(i, &v)| v != own(i)) {
        rewriter.replace_op(op, values);
        return FoldOutcome::Replaced;
    }
    let ctx = rewriter.ctx();
    let moves = |(i, &v): (usize, &Value)| v != own(i) && !ctx.use_empty(own(i));
    if !values.iter().enumerate().any(moves) {
        return FoldOutcome::Unchanged;
    }
    for (index, &value) in values.iter().enumerate() {
        rewriter.replace_all_uses_with(own(index), value);
    }
    FoldOutcome::InPlace
}

/// The constant value of `value`: the folded attribute of its defining op
/// when that op is constant-like (MLIR's `m_Constant`).
pub fn constant_value(ctx: &mut Context, value: Value) -> Option<Attribute> {
    let Value::Result(op, index) = value else {
        return None;
    };
    let def = ctx.op_definition(op)?;
    if !def.traits.constant_like {
        return None;
    }
    let fold = def.fold?;
    let operands = vec![None; ctx.num_operands(op)];
    match fold(ctx, op, &operands)?.get(index as usize)? {
        FoldResult::Attr(attr) => Some(*attr),
        FoldResult::Value(_) => None,
    }
}

/// The `value` attribute of a constant-like op that defines `value`,
/// without folding (for callers that only read the IR).
pub fn constant_attr(ctx: &Context, value: Value) -> Option<Attribute> {
    let Value::Result(op, 0) = value else {
        return None;
    };
    if !ctx.op_definition(op)?.traits.constant_like {
        return None;
    }
    crate::ods::inherent_attr(ctx, op, "value")
}

/// The region folded constants of ops in `block` go to: the closest one
/// whose parent op is isolated from above, unregistered, or top-level.
pub fn insertion_region(ctx: &Context, mut block: Block) -> Option<Region> {
    loop {
        let region = ctx.block_parent_region(block)?;
        let Some(parent) = ctx.region_parent_op(region) else {
            return Some(region);
        };
        let isolated = ctx
            .op_definition(parent)
            .is_none_or(|d| d.traits.isolated_from_above);
        match ctx.op_parent_block(parent) {
            Some(outer) if !isolated => block = outer,
            _ => return Some(region),
        }
    }
}

/// The insertion point at the start of `region`'s entry block.
fn entry_start(ctx: &Context, region: Region) -> Option<InsertionPoint> {
    let entry = ctx.region_entry_block(region)?;
    Some(match ctx.block_first_op(entry) {
        Some(first) => InsertionPoint::Before(first),
        None => InsertionPoint::End(entry),
    })
}

/// Move `op` to the start of `block` (no notification, as MLIR's folder).
fn move_to_start(ctx: &mut Context, op: Operation, block: Block) {
    if ctx.block_first_op(block) == Some(op) {
        return;
    }
    ctx.detach_op(op);
    match ctx.block_first_op(block) {
        Some(first) => ctx.insert_op_before(first, op),
        None => ctx.append_op(block, op),
    }
}

/// Stable-partition the operands of a commutative op so that constants come
/// last (MLIR's `foldCommutative`); returns whether any operand moved.
fn move_constants_last(ctx: &mut Context, op: Operation, constants: &[Option<Attribute>]) -> bool {
    if constants.len() < 2 {
        return false;
    }
    let Some(first_constant) = constants.iter().position(Option::is_some) else {
        return false;
    };
    if constants[first_constant..].iter().all(Option::is_some) {
        return false;
    }
    let operands: Vec<Value> = ctx.operands(op).collect();
    let pick = |constant: bool| {
        operands
            .iter()
            .zip(constants)
            .filter(move |(_, c)| c.is_some() == constant)
            .map(|(v, _)| *v)
    };
    let reordered: Vec<Value> = pick(false).chain(pick(true)).collect();
    ctx.set_operands(op, &reordered);
    true
}
