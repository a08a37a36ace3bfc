//! Structural equivalence of operations and regions, locations ignored
//! (MLIR's `OperationEquivalence::isEquivalentTo` and
//! `isRegionEquivalentTo` with `IgnoreLocations`): `cse` merges equivalent
//! ops with regions, `duplicate-function-elimination` equivalent functions.

use rustc_hash::FxHashMap;

use strata_ir::{Block, Context, Operation, Region, Value};

/// The values and blocks of the right-hand side matched so far with the
/// left-hand side's, inside the regions being compared. A value or block
/// outside them corresponds only to itself.
#[derive(Default)]
pub(crate) struct Correspondence {
    values: FxHashMap<Value, Value>,
    blocks: FxHashMap<Block, Block>,
}

impl Correspondence {
    fn value(&self, right: Value) -> Value {
        self.values.get(&right).copied().unwrap_or(right)
    }

    fn block(&self, right: Block) -> Block {
        self.blocks.get(&right).copied().unwrap_or(right)
    }

    /// Whether `a` and `b` are the same operation up to the values and
    /// blocks matched so far: name, properties, attributes, operands,
    /// result types, successors and regions. On success their results
    /// correspond.
    pub(crate) fn ops(&mut self, ctx: &Context, a: Operation, b: Operation) -> bool {
        if ctx.op_name(a) != ctx.op_name(b)
            || ctx.op_properties(a) != ctx.op_properties(b)
            || ctx.op_attr_dict(a) != ctx.op_attr_dict(b)
            || ctx.num_operands(a) != ctx.num_operands(b)
            || ctx.num_results(a) != ctx.num_results(b)
            || ctx.num_successors(a) != ctx.num_successors(b)
            || ctx.op_regions(a).len() != ctx.op_regions(b).len()
        {
            return false;
        }
        let same_operands = ctx
            .operands(a)
            .zip(ctx.operands(b))
            .all(|(x, y)| self.value(y) == x);
        let same_types = ctx
            .results(a)
            .zip(ctx.results(b))
            .all(|(x, y)| ctx.value_type(x) == ctx.value_type(y));
        let same_successors = ctx
            .successors(a)
            .zip(ctx.successors(b))
            .all(|(x, y)| self.block(y) == x);
        if !same_operands || !same_types || !same_successors {
            return false;
        }
        let regions = ctx.op_regions(a).iter().zip(ctx.op_regions(b));
        for (&ra, &rb) in regions {
            if !self.regions(ctx, ra, rb) {
                return false;
            }
        }
        for (x, y) in ctx.results(a).zip(ctx.results(b)) {
            self.values.insert(y, x);
        }
        true
    }

    /// Whether regions `a` and `b` hold equivalent blocks in the same order:
    /// arguments of the same types, equivalent ops, successors that
    /// correspond (blocks are matched first, so a branch may go forward).
    pub(crate) fn regions(&mut self, ctx: &Context, a: Region, b: Region) -> bool {
        let blocks_a: Vec<Block> = ctx.region_blocks(a).collect();
        let blocks_b: Vec<Block> = ctx.region_blocks(b).collect();
        if blocks_a.len() != blocks_b.len() {
            return false;
        }
        for (&x, &y) in blocks_a.iter().zip(&blocks_b) {
            if ctx.num_block_args(x) != ctx.num_block_args(y) {
                return false;
            }
            for (p, q) in ctx.block_args(x).zip(ctx.block_args(y)) {
                if ctx.value_type(p) != ctx.value_type(q) {
                    return false;
                }
                self.values.insert(q, p);
            }
            self.blocks.insert(y, x);
        }
        for (&x, &y) in blocks_a.iter().zip(&blocks_b) {
            let ops_a: Vec<Operation> = ctx.block_ops(x).collect();
            let ops_b: Vec<Operation> = ctx.block_ops(y).collect();
            if ops_a.len() != ops_b.len() {
                return false;
            }
            for (&p, &q) in ops_a.iter().zip(&ops_b) {
                if !self.ops(ctx, p, q) {
                    return false;
                }
            }
        }
        true
    }
}
