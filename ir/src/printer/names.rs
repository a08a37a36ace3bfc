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
        };
        // An explicit stack instead of recursion: nesting depth is user controlled.
        let mut stack: Vec<(Region, u32, u32)> =
            ctx.op_regions(top).iter().map(|&r| (r, 0, 0)).collect();
        let (mut next_value, mut next_arg) = (0u32, 0u32);
        while let Some((region, saved_value, saved_arg)) = stack.pop() {
            if !unique {
                next_value = saved_value;
                next_arg = saved_arg;
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
                        nested.push((r, next_value, next_arg));
                    }
                }
            }
            // A stack: the last region pushed is numbered first, as in MLIR.
            stack.extend(nested);
        }
        state
    }

    /// `%N`, `%N#k` or `%argN`.
    pub(crate) fn write_value(&self, out: &mut String, value: Value, print_result_no: bool) {
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
