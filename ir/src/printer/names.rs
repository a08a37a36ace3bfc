//! SSA value and block numbering, as MLIR's `SSANameState`.
//!
//! A region numbers its own blocks (`^bb0`, ...), entry-block arguments
//! (`%argN`) and values (`%N`: other block arguments and op results, one
//! number per op); the regions nested in its ops then continue from where it
//! stopped, each sibling starting from the same counters.

use std::fmt::Write;

use crate::context::{Block, Context, Operation, Region};
use crate::ir::Value;

const NONE: u32 = u32::MAX;

#[derive(Default)]
pub(crate) struct NameState {
    /// Number of each op's first result, indexed by op.
    op_ids: Vec<u32>,
    /// Per block: (number of its first argument, whether they are `%argN`).
    block_args: Vec<(u32, bool)>,
    /// Per block: its number within its region.
    block_ids: Vec<u32>,
    /// Per op: result count (to know when `#N` is needed).
    multi_result: Vec<bool>,
    /// Results named by their op (`%c0_i32`), already made unique.
    named: rustc_hash::FxHashMap<Value, String>,
}

/// Names in use in the current region and its ancestors (MLIR's scoped
/// `usedNames`): a set plus an undo log to leave a region's scope.
#[derive(Default)]
struct UsedNames {
    set: rustc_hash::FxHashSet<String>,
    log: Vec<String>,
}

impl UsedNames {
    fn truncate(&mut self, mark: usize) {
        for name in self.log.drain(mark..) {
            self.set.remove(&name);
        }
    }

    /// `name`, or `name_K` with the next free conflict id (MLIR's
    /// `uniqueValueName`).
    fn unique(&mut self, name: &str, next_conflict: &mut u32) -> String {
        let name = sanitize_identifier(name);
        let unique = if !self.set.contains(&name) {
            name
        } else {
            loop {
                let probe = format!("{name}_{next_conflict}");
                *next_conflict += 1;
                if !self.set.contains(&probe) {
                    break probe;
                }
            }
        };
        self.set.insert(unique.clone());
        self.log.push(unique.clone());
        unique
    }
}

/// MLIR's `sanitizeIdentifier`: a leading digit gets a `_`, characters that
/// cannot appear in an SSA name become `_`.
fn sanitize_identifier(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 1);
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        out.push('_');
    }
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '$' | '.' | '_' | '-') {
            out.push(c);
        } else {
            out.push('_');
        }
    }
    out
}

impl NameState {
    /// Number everything under `top`. With `unique` (the generic form), the
    /// counters run on across sibling regions so that every name is unique,
    /// as MLIR's `shouldPrintUniqueSSAIDs`.
    pub(crate) fn new(ctx: &Context, top: Operation, unique: bool) -> Self {
        let mut state = NameState {
            op_ids: vec![NONE; ctx.ops.len()],
            block_args: vec![(NONE, false); ctx.blocks.len()],
            block_ids: vec![NONE; ctx.blocks.len()],
            multi_result: vec![false; ctx.ops.len()],
            named: rustc_hash::FxHashMap::default(),
        };
        let mut used = UsedNames::default();
        // An explicit stack instead of recursion: nesting depth is user
        // controlled. Each entry: the region, the counters to start from and
        // the used-name scope of its parent.
        let mut stack: Vec<(Region, u32, u32, u32, usize)> = ctx
            .op_regions(top)
            .iter()
            .map(|&r| (r, 0, 0, 0, 0))
            .collect();
        let (mut next_value, mut next_arg, mut next_conflict) = (0u32, 0u32, 0u32);
        while let Some((region, saved_value, saved_arg, saved_conflict, mark)) = stack.pop() {
            if !unique {
                next_value = saved_value;
                next_arg = saved_arg;
                next_conflict = saved_conflict;
                used.truncate(mark);
            }
            for (block_id, block) in ctx.region_blocks(region).enumerate() {
                state.block_ids[block.index()] = block_id as u32;
                let entry = block_id == 0;
                let num_args = ctx.num_block_args(block) as u32;
                if entry {
                    state.block_args[block.index()] = (next_arg, true);
                    next_arg += num_args;
                } else {
                    state.block_args[block.index()] = (next_value, false);
                    next_value += num_args;
                }
                for op in ctx.block_ops(block) {
                    let n = ctx.num_results(op);
                    let hints = match ctx.op_definition(op).and_then(|d| d.result_names) {
                        Some(names) if !unique && n >= 1 => names(ctx, op),
                        _ => Vec::new(),
                    };
                    // A name for every result (one, or each of several, as
                    // `%sin, %cos = math.sincos`); otherwise numbers.
                    if !hints.is_empty() && hints.len() == n {
                        for (value, hint) in hints {
                            let name = used.unique(&hint, &mut next_conflict);
                            state.named.insert(value, name);
                        }
                        continue;
                    }
                    if n > 0 {
                        state.op_ids[op.index()] = next_value;
                        state.multi_result[op.index()] = n > 1;
                        next_value += 1;
                    }
                }
            }
            let mut nested = Vec::new();
            for block in ctx.region_blocks(region) {
                for op in ctx.block_ops(block) {
                    for &r in ctx.op_regions(op) {
                        nested.push((r, next_value, next_arg, next_conflict, used.log.len()));
                    }
                }
            }
            // A stack: the last region pushed is numbered first, as in MLIR.
            stack.extend(nested);
        }
        state
    }

    /// Whether `value` has a name of its own (from its op's result names).
    pub(crate) fn is_named(&self, value: Value) -> bool {
        self.named.contains_key(&value)
    }

    /// `%N`, `%N#k` or `%argN`.
    pub(crate) fn write_value(&self, out: &mut String, value: Value, print_result_no: bool) {
        if let Some(name) = self.named.get(&value) {
            out.push('%');
            out.push_str(name);
            return;
        }
        match value {
            Value::Result(op, index) => match self.op_ids.get(op.index()).copied() {
                Some(id) if id != NONE => {
                    let _ = write!(out, "%{id}");
                    if print_result_no && self.multi_result[op.index()] {
                        let _ = write!(out, "#{index}");
                    }
                }
                _ => out.push_str("<<UNKNOWN SSA VALUE>>"),
            },
            Value::Argument(block, index) => match self.block_args.get(block.index()).copied() {
                Some((base, entry)) if base != NONE => {
                    let prefix = if entry { "arg" } else { "" };
                    let _ = write!(out, "%{prefix}{}", base + index);
                }
                _ => out.push_str("<<UNKNOWN SSA VALUE>>"),
            },
        }
    }

    /// `^bbN`.
    pub(crate) fn write_block(&self, out: &mut String, block: Block) {
        match self.block_ids.get(block.index()).copied() {
            Some(id) if id != NONE => {
                let _ = write!(out, "^bb{id}");
            }
            _ => out.push_str("<<UNKNOWN BLOCK>>"),
        }
    }

    /// The number of a block within its region (for sorting predecessors).
    pub(crate) fn block_id(&self, block: Block) -> u32 {
        self.block_ids.get(block.index()).copied().unwrap_or(NONE)
    }
}
