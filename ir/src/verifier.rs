//! The verifier: structural rules, registered-op rules and SSA dominance, in
//! the order and with the messages of MLIR's `OperationVerifier`.
//!
//! Operations are checked depth first (an op, then its blocks and their ops,
//! then the op's region invariants). Ops that are isolated from above are
//! verified on their own, dominance included, so one bad function does not
//! hide an error in another.

use rustc_hash::FxHashMap;

use crate::context::{Block, Context, Operation, Region};
use crate::diagnostics::Diagnostic;
use crate::dominance::DomTree;
use crate::ir::Value;

/// Verify `op` and everything nested in it.
pub fn verify(ctx: &Context, op: Operation) -> Result<(), Vec<Diagnostic>> {
    let mut verifier = Verifier {
        ctx,
        ordinal: vec![0; ctx.ops.len()],
        errors: Vec::new(),
    };
    if let Err(diag) = verifier.verify_op_and_dominance(op) {
        verifier.errors.push(diag);
    }
    if verifier.errors.is_empty() {
        Ok(())
    } else {
        Err(verifier.errors)
    }
}

struct Verifier<'c> {
    ctx: &'c Context,
    /// Position of each op in its block (for same-block dominance).
    ordinal: Vec<u32>,
    /// Errors of isolated ops verified independently.
    errors: Vec<Diagnostic>,
}

type VResult = Result<(), Diagnostic>;

impl Verifier<'_> {
    fn is_isolated(&self, op: Operation) -> bool {
        self.ctx
            .op_definition(op)
            .is_some_and(|d| d.traits.isolated_from_above)
    }

    fn verify_op_and_dominance(&mut self, op: Operation) -> VResult {
        self.verify_operation(op)?;
        if !self.ctx.op_regions(op).is_empty() {
            self.verify_dominance_in(op)?;
        }
        Ok(())
    }

    /// Depth-first: entry checks, blocks and nested ops, exit checks.
    fn verify_operation(&mut self, op: Operation) -> VResult {
        enum Item {
            Op(Operation),
            Block(Block),
        }
        let mut worklist = vec![(Item::Op(op), false)];
        while let Some((item, exit)) = worklist.pop() {
            match item {
                Item::Op(o) if exit => self.verify_on_exit(o)?,
                Item::Op(o) => {
                    self.verify_on_entry(o)?;
                    worklist.push((Item::Op(o), true));
                    for &region in self.ctx.op_regions(o).iter().rev() {
                        let blocks: Vec<Block> = self.ctx.region_blocks(region).collect();
                        for block in blocks.into_iter().rev() {
                            worklist.push((Item::Block(block), false));
                        }
                    }
                }
                // As MLIR: the block's terminator is checked on exit, after
                // the ops in it (their own errors come first).
                Item::Block(b) if exit => self.verify_block_exit(b)?,
                Item::Block(b) => {
                    self.verify_block_entry(b)?;
                    worklist.push((Item::Block(b), true));
                    let ops: Vec<Operation> = self.ctx.block_ops(b).collect();
                    for (i, &inner) in ops.iter().enumerate() {
                        self.ordinal[inner.index()] = i as u32;
                    }
                    for &inner in ops.iter().rev() {
                        if self.ctx.op_regions(inner).is_empty() || !self.is_isolated(inner) {
                            worklist.push((Item::Op(inner), false));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn verify_on_entry(&mut self, op: Operation) -> VResult {
        let ctx = self.ctx;
        if let Some(def) = ctx.op_definition(op) {
            let traits = def.traits;
            let count = |n: usize| match n {
                0 => "zero".to_string(),
                1 => "one".to_string(),
                n => n.to_string(),
            };
            if let Some(n) = traits.num_operands {
                if ctx.num_operands(op) != n {
                    return Err(Diagnostic::op_error(
                        ctx,
                        op,
                        format!(
                            "requires {} operand{}",
                            count(n),
                            if n == 1 { "" } else { "s" }
                        ),
                    ));
                }
            }
            if let Some(n) = traits.num_results {
                if ctx.num_results(op) != n {
                    return Err(Diagnostic::op_error(
                        ctx,
                        op,
                        format!(
                            "requires {} result{}",
                            count(n),
                            if n == 1 { "" } else { "s" }
                        ),
                    ));
                }
            }
            if let Some(n) = traits.num_regions {
                if ctx.op_regions(op).len() != n {
                    let message = match n {
                        0 => "requires zero regions".to_string(),
                        1 => "requires one region".to_string(),
                        n => format!("expected {n} regions"),
                    };
                    return Err(Diagnostic::op_error(ctx, op, message));
                }
            }
            if !traits.terminator && ctx.num_successors(op) != 0 {
                return Err(Diagnostic::op_error(ctx, op, "requires zero successors"));
            }
            if traits.single_block {
                for (i, &region) in ctx.op_regions(op).iter().enumerate() {
                    if ctx.region_blocks(region).nth(1).is_some() {
                        return Err(Diagnostic::op_error(
                            ctx,
                            op,
                            format!("expects region #{i} to have 0 or 1 blocks"),
                        ));
                    }
                    let empty = ctx
                        .region_entry_block(region)
                        .is_some_and(|b| ctx.block_last_op(b).is_none());
                    if empty && !traits.no_terminator {
                        return Err(Diagnostic::op_error(ctx, op, "expects a non-empty block"));
                    }
                }
            }
            if let Some(verify) = def.verify {
                verify(ctx, op)?;
            }
        }
        for &region in ctx.op_regions(op) {
            if let Some(entry) = ctx.region_entry_block(region) {
                if ctx.block_predecessors(entry).next().is_some() {
                    return Err(Diagnostic::error(
                        ctx.op_loc(op),
                        "entry block of region may not have predecessors",
                    ));
                }
            }
        }
        Ok(())
    }

    fn verify_on_exit(&mut self, op: Operation) -> VResult {
        let ctx = self.ctx;
        let isolated: Vec<Operation> = ctx
            .op_regions(op)
            .iter()
            .flat_map(|&r| ctx.region_blocks(r))
            .flat_map(|b| ctx.block_ops(b))
            .filter(|&o| !ctx.op_regions(o).is_empty() && self.is_isolated(o))
            .collect();
        let mut failed = false;
        for inner in isolated {
            if let Err(diag) = self.verify_op_and_dominance(inner) {
                self.errors.push(diag);
                failed = true;
            }
        }
        if failed {
            return Err(self
                .errors
                .pop()
                .unwrap_or_else(|| Diagnostic::op_error(ctx, op, "failed to verify")));
        }
        if let Some(def) = ctx.op_definition(op) {
            if let Some(verify_regions) = def.verify_regions {
                verify_regions(ctx, op)?;
            }
            if self.is_isolated(op) {
                self.verify_isolated_from_above(op)?;
            }
            if ctx.is_symbol_table(op) {
                self.verify_symbol_table(op)?;
            }
            return Ok(());
        }
        let name = ctx.op_name_str(op);
        let dialect = name.split('.').next().unwrap_or("");
        if ctx.registry().allows_unknown_operations(dialect) {
            return Ok(());
        }
        if ctx.registry().has_dialect(dialect) {
            return Err(Diagnostic::error(
                ctx.op_loc(op),
                format!("unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"),
            )
            .on_op(op));
        }
        if !ctx.allows_unregistered_dialects() {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                "created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR tool used",
            ));
        }
        Ok(())
    }

    fn may_be_valid_without_terminator(&self, block: Block) -> bool {
        let ctx = self.ctx;
        let Some(region) = ctx.block_parent_region(block) else {
            return true;
        };
        if ctx.region_blocks(region).nth(1).is_some() {
            return false;
        }
        match ctx.region_parent_op(region) {
            None => true,
            Some(op) => ctx.op_definition(op).is_none_or(|d| d.traits.no_terminator),
        }
    }

    /// On entering a block: it is not empty (unless it may be), and only its
    /// last op has successors.
    fn verify_block_entry(&mut self, block: Block) -> VResult {
        let ctx = self.ctx;
        let Some(last) = ctx.block_last_op(block) else {
            if self.may_be_valid_without_terminator(block) {
                return Ok(());
            }
            return match ctx.block_parent_op(block) {
                Some(parent) => Err(Diagnostic::error(
                    ctx.op_loc(parent),
                    "empty block: expect at least a terminator",
                )),
                None => Ok(()),
            };
        };
        for op in ctx.block_ops(block) {
            if ctx.num_successors(op) != 0 && op != last {
                return Err(Diagnostic::error(
                    ctx.op_loc(op),
                    "operation with block successors must terminate its parent block",
                )
                .on_op(op));
            }
        }
        Ok(())
    }

    /// On leaving a block (its ops verified): it branches within its region
    /// and ends in a terminator (unless it may do without).
    fn verify_block_exit(&mut self, block: Block) -> VResult {
        let ctx = self.ctx;
        let Some(last) = ctx.block_last_op(block) else {
            return Ok(());
        };
        let region = ctx.block_parent_region(block);
        if ctx
            .successors(last)
            .any(|s| ctx.block_parent_region(s) != region)
        {
            return Err(Diagnostic::op_error(
                ctx,
                last,
                "branching to block of a different region",
            ));
        }
        if self.may_be_valid_without_terminator(block) {
            return Ok(());
        }
        let might_terminate = ctx.op_definition(last).is_none_or(|d| d.traits.terminator);
        if !might_terminate {
            let printed = crate::printer::print_op_generic_inline(ctx, last);
            return Err(Diagnostic::error(
                ctx.op_loc(last),
                format!("block with no terminator, has {printed}"),
            )
            .on_op(last));
        }
        Ok(())
    }

    fn verify_isolated_from_above(&mut self, isolated: Operation) -> VResult {
        let ctx = self.ctx;
        for &region in ctx.op_regions(isolated) {
            let mut pending = vec![region];
            while let Some(r) = pending.pop() {
                for block in ctx.region_blocks(r) {
                    for op in ctx.block_ops(block) {
                        for value in ctx.operands(op) {
                            let inside = self
                                .value_region(value)
                                .is_some_and(|vr| self.region_is_ancestor(region, vr));
                            if !inside {
                                return Err(Diagnostic::op_error(
                                    ctx,
                                    op,
                                    "using value defined outside the region",
                                )
                                .with_note(
                                    ctx.op_loc(isolated),
                                    "required by region isolation constraints",
                                ));
                            }
                        }
                        if !self.is_isolated(op) {
                            pending.extend(ctx.op_regions(op).iter().copied());
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Symbol names are unique among the ops of a symbol table.
    fn verify_symbol_table(&self, table: Operation) -> VResult {
        let ctx = self.ctx;
        let mut seen: FxHashMap<&[u8], Operation> = FxHashMap::default();
        for op in crate::symbol_table::symbol_ops(ctx, table) {
            let Some(name) = ctx.symbol_name(op) else {
                continue;
            };
            if let Some(&first) = seen.get(name) {
                let name = String::from_utf8_lossy(name);
                return Err(Diagnostic::error(
                    ctx.op_loc(op),
                    format!("redefinition of symbol named '{name}'"),
                )
                .on_op(op)
                .with_note(ctx.op_loc(first), "see existing symbol definition here"));
            }
            seen.insert(name, op);
        }
        // The symbol uses of the ops in the table, not inside nested tables
        // (MLIR's `walkSymbolTable`).
        let symbols = crate::symbol_table::SymbolTableCollection::new();
        let mut stack: Vec<Operation> = crate::symbol_table::symbol_ops(ctx, table);
        stack.reverse();
        while let Some(op) = stack.pop() {
            if let Some(verify) = ctx.op_definition(op).and_then(|d| d.verify_symbol_uses) {
                verify(ctx, op, &symbols)?;
            }
            if ctx.is_symbol_table(op) {
                continue;
            }
            let nested: Vec<Operation> = ctx
                .op_regions(op)
                .iter()
                .flat_map(|&r| ctx.region_blocks(r))
                .flat_map(|b| ctx.block_ops(b))
                .collect();
            stack.extend(nested.into_iter().rev());
        }
        Ok(())
    }

    fn value_region(&self, value: Value) -> Option<Region> {
        self.ctx
            .block_parent_region(self.ctx.value_parent_block(value)?)
    }

    /// Whether `ancestor` is `region` or encloses it.
    fn region_is_ancestor(&self, ancestor: Region, mut region: Region) -> bool {
        loop {
            if region == ancestor {
                return true;
            }
            let Some(op) = self.ctx.region_parent_op(region) else {
                return false;
            };
            let Some(parent) = self
                .ctx
                .op_parent_block(op)
                .and_then(|b| self.ctx.block_parent_region(b))
            else {
                return false;
            };
            region = parent;
        }
    }

    // ----- dominance -----

    fn verify_dominance_in(&mut self, op: Operation) -> VResult {
        let ctx = self.ctx;
        let mut dom = Dominance::default();
        let mut stack: Vec<Operation> = vec![op];
        while let Some(parent) = stack.pop() {
            for &region in ctx.op_regions(parent) {
                for block in ctx.region_blocks(region) {
                    let reachable = dom.is_reachable(ctx, block);
                    for user in ctx.block_ops(block) {
                        if reachable {
                            for (i, value) in ctx.operands(user).enumerate() {
                                if !self.properly_dominates(&mut dom, value, user) {
                                    return Err(self.invalid_dominance(user, i));
                                }
                            }
                        }
                        if !ctx.op_regions(user).is_empty() && !self.is_isolated(user) {
                            stack.push(user);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The op enclosing `op` whose block is in `region` (or `op` itself).
    fn ancestor_in_region(&self, region: Region, mut op: Operation) -> Option<Operation> {
        loop {
            let block = self.ctx.op_parent_block(op)?;
            if self.ctx.block_parent_region(block) == Some(region) {
                return Some(op);
            }
            op = self.ctx.block_parent_op(block)?;
        }
    }

    fn properly_dominates(&self, dom: &mut Dominance, value: Value, user: Operation) -> bool {
        let ctx = self.ctx;
        match value {
            Value::Result(def, _) => {
                let Some(def_block) = ctx.op_parent_block(def) else {
                    return false;
                };
                let Some(region) = ctx.block_parent_region(def_block) else {
                    return false;
                };
                let Some(user) = self.ancestor_in_region(region, user) else {
                    return false;
                };
                let Some(user_block) = ctx.op_parent_block(user) else {
                    return false;
                };
                if def_block == user_block {
                    if !self.has_ssa_dominance(region) {
                        return true;
                    }
                    return def != user && self.ordinal[def.index()] < self.ordinal[user.index()];
                }
                dom.properly_dominates(ctx, region, def_block, user_block)
            }
            Value::Argument(block, _) => {
                let Some(region) = ctx.block_parent_region(block) else {
                    return false;
                };
                let Some(user) = self.ancestor_in_region(region, user) else {
                    return false;
                };
                let Some(user_block) = ctx.op_parent_block(user) else {
                    return false;
                };
                block == user_block || dom.properly_dominates(ctx, region, block, user_block)
            }
        }
    }

    /// Whether uses in `region` must follow their definitions. Multi-block
    /// regions always have SSA dominance; a single block is a graph region
    /// when its op is `builtin.module` or an unregistered op (as in MLIR).
    fn has_ssa_dominance(&self, region: Region) -> bool {
        let ctx = self.ctx;
        if ctx.region_blocks(region).nth(1).is_some() {
            return true;
        }
        match ctx.region_parent_op(region) {
            Some(op) => match ctx.op_definition(op) {
                Some(def) => !def.traits.graph_region,
                None => false,
            },
            None => true,
        }
    }

    fn invalid_dominance(&self, op: Operation, index: usize) -> Diagnostic {
        let ctx = self.ctx;
        let diag = Diagnostic::error(
            ctx.op_loc(op),
            format!("operand #{index} does not dominate this use"),
        )
        .on_op(op);
        let value = ctx.operand(op, index);
        let user_region = ctx
            .op_parent_block(op)
            .and_then(|b| ctx.block_parent_region(b));
        let relation = |def_region: Option<Region>| -> &'static str {
            match (user_region, def_region) {
                (Some(u), Some(d)) if u == d => "same region",
                (Some(u), Some(d)) if u != d && self.region_is_ancestor(d, u) => "parent region",
                (Some(u), Some(d)) if u != d && self.region_is_ancestor(u, d) => "child region",
                _ => "",
            }
        };
        match value {
            Value::Result(def, _) => {
                let def_block = ctx.op_parent_block(def);
                let def_region = def_block.and_then(|b| ctx.block_parent_region(b));
                let detail = if def_block == ctx.op_parent_block(op) {
                    " (op in the same block)".to_string()
                } else {
                    match relation(def_region) {
                        "" => " (op is neither in a parent nor in a child region)".to_string(),
                        "same region" => " (op in the same region)".to_string(),
                        r => format!(" (op in a {r})"),
                    }
                };
                diag.with_note(ctx.op_loc(def), format!("operand defined here{detail}"))
            }
            Value::Argument(block, _) => {
                let region = ctx.block_parent_region(block);
                let loc = ctx
                    .block_parent_op(block)
                    .map(|o| ctx.op_loc(o))
                    .unwrap_or(ctx.op_loc(op));
                let index = region.map_or(0, |r| {
                    ctx.region_blocks(r).position(|b| b == block).unwrap_or(0)
                });
                let detail = match relation(region) {
                    "" => "neither in a parent nor in a child region".to_string(),
                    "same region" => "in the same region".to_string(),
                    r => format!("in a {r}"),
                };
                diag.with_note(
                    loc,
                    format!("operand defined as a block argument (block #{index} {detail})"),
                )
            }
        }
    }
}

/// Dominator trees of multi-block regions, computed on demand.
#[derive(Default)]
struct Dominance {
    trees: FxHashMap<Region, DomTree>,
}

impl Dominance {
    fn tree(&mut self, ctx: &Context, region: Region) -> &DomTree {
        self.trees
            .entry(region)
            .or_insert_with(|| DomTree::new(ctx, region))
    }

    fn is_reachable(&mut self, ctx: &Context, block: Block) -> bool {
        let Some(region) = ctx.block_parent_region(block) else {
            return false;
        };
        if ctx.region_entry_block(region) == Some(block) {
            return true;
        }
        self.tree(ctx, region).is_reachable(block)
    }

    fn properly_dominates(&mut self, ctx: &Context, region: Region, a: Block, b: Block) -> bool {
        // Anything dominates an unreachable block: uses nested in one are
        // not checked against outer definitions.
        self.tree(ctx, region).properly_dominates(a, b)
    }
}
