//! Walking nested operations, as MLIR's `Operation::walk`.
//!
//! A walk visits every operation nested under a root (an operation, a
//! region or a block), in pre-order (an operation before what its regions
//! hold) or post-order (after), in block order. The callback steers it
//! with a [`WalkResult`]: go on, [skip](WalkResult::Skip) the regions of the
//! operation just visited (pre-order only), or stop the whole walk
//! ([interrupt](WalkResult::Interrupt)).
//!
//! ```
//! use strata_ir::walk::{WalkOrder, WalkResult};
//! use strata_ir::{parser, Context, SourceBuffer};
//!
//! let mut ctx = Context::new();
//! ctx.set_allow_unregistered_dialects(true);
//! let text = r#""t.outer"() ({ "t.inner"() : () -> () }) : () -> ()
//! "t.next"() : () -> ()"#;
//! let module = parser::parse_source(&mut ctx, &SourceBuffer::new("in.mlir", text)).expect("parses");
//!
//! let mut names = Vec::new();
//! ctx.walk(module, WalkOrder::PostOrder, |op| {
//!     names.push(ctx.op_name_str(op).to_string());
//!     WalkResult::Advance
//! });
//! assert_eq!(names, ["t.inner", "t.outer", "t.next", "builtin.module"]);
//!
//! // The first op named `t.inner`, stopping there.
//! let mut found = None;
//! let result = ctx.walk(module, WalkOrder::PreOrder, |op| {
//!     if ctx.op_name_str(op) == "t.inner" {
//!         found = Some(op);
//!         return WalkResult::Interrupt;
//!     }
//!     WalkResult::Advance
//! });
//! assert!(result.was_interrupted() && found.is_some());
//! ```
//!
//! The callback sees the context only through what it captures, so a walk
//! cannot change the IR it is walking; to change it, collect the operations
//! first ([`Context::collect_ops`], [`Context::nested_ops`]) and change them
//! afterwards, as the passes do.

use crate::context::{Block, Context, Operation, Region};

/// What a walk callback asks for next (MLIR's `WalkResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WalkResult {
    /// Go on.
    Advance,
    /// Pre-order: do not visit what the regions of this operation hold, go
    /// on with the next one. Post-order: the same as `Advance` (the nested
    /// operations were visited already).
    Skip,
    /// Stop the walk; it returns `Interrupt`.
    Interrupt,
}

impl WalkResult {
    /// Whether the walk was stopped by its callback.
    pub fn was_interrupted(self) -> bool {
        self == WalkResult::Interrupt
    }
}

/// When a walk visits an operation relative to what its regions hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WalkOrder {
    /// An operation before its nested operations (top-down).
    PreOrder,
    /// An operation after its nested operations (bottom-up; MLIR's
    /// default).
    PostOrder,
}

/// Where a walk starts: an operation (visited itself, with what it
/// nests), a region or a block (what it holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WalkRoot {
    /// An operation and everything nested in it.
    Op(Operation),
    /// The operations of every block of a region, and what they nest.
    Region(Region),
    /// The operations of a block, and what they nest.
    Block(Block),
}

impl From<Operation> for WalkRoot {
    fn from(op: Operation) -> Self {
        WalkRoot::Op(op)
    }
}

impl From<Region> for WalkRoot {
    fn from(region: Region) -> Self {
        WalkRoot::Region(region)
    }
}

impl From<Block> for WalkRoot {
    fn from(block: Block) -> Self {
        WalkRoot::Block(block)
    }
}

/// One step of the explicit walk stack (no recursion: nesting depth is
/// bounded only by memory).
enum Frame {
    /// Visit this op (and then its next sibling, when `siblings`).
    Op { op: Operation, siblings: bool },
    /// The regions of `op` from index `next` on.
    Regions { op: Operation, next: usize },
    /// This block (and then the blocks after it, when `siblings`).
    Block { block: Block, siblings: bool },
    /// Post-order: visit `op`, whose regions are done.
    Exit(Operation),
}

/// Walk the operations under `root` in `order`, calling `f` on each; see
/// the [module documentation](self). Returns `Interrupt` when `f` stopped
/// the walk, `Advance` otherwise.
pub fn walk(
    ctx: &Context,
    root: impl Into<WalkRoot>,
    order: WalkOrder,
    mut f: impl FnMut(Operation) -> WalkResult,
) -> WalkResult {
    let mut stack: Vec<Frame> = Vec::new();
    match root.into() {
        WalkRoot::Op(op) => stack.push(Frame::Op {
            op,
            siblings: false,
        }),
        WalkRoot::Region(region) => {
            if let Some(block) = ctx.region_entry_block(region) {
                stack.push(Frame::Block {
                    block,
                    siblings: true,
                });
            }
        }
        WalkRoot::Block(block) => stack.push(Frame::Block {
            block,
            siblings: false,
        }),
    }
    while let Some(frame) = stack.pop() {
        match frame {
            Frame::Op { op, siblings } => {
                if siblings {
                    if let Some(next) = ctx.op_next(op) {
                        stack.push(Frame::Op {
                            op: next,
                            siblings: true,
                        });
                    }
                }
                match order {
                    WalkOrder::PreOrder => match f(op) {
                        WalkResult::Interrupt => return WalkResult::Interrupt,
                        WalkResult::Skip => {}
                        WalkResult::Advance => stack.push(Frame::Regions { op, next: 0 }),
                    },
                    WalkOrder::PostOrder => {
                        stack.push(Frame::Exit(op));
                        stack.push(Frame::Regions { op, next: 0 });
                    }
                }
            }
            Frame::Regions { op, next } => {
                let regions = ctx.op_regions(op);
                if let Some(&region) = regions.get(next) {
                    stack.push(Frame::Regions { op, next: next + 1 });
                    if let Some(block) = ctx.region_entry_block(region) {
                        stack.push(Frame::Block {
                            block,
                            siblings: true,
                        });
                    }
                }
            }
            Frame::Block { block, siblings } => {
                if siblings {
                    if let Some(next) = ctx.block_next(block) {
                        stack.push(Frame::Block {
                            block: next,
                            siblings: true,
                        });
                    }
                }
                if let Some(first) = ctx.block_first_op(block) {
                    stack.push(Frame::Op {
                        op: first,
                        siblings: true,
                    });
                }
            }
            Frame::Exit(op) => {
                if f(op) == WalkResult::Interrupt {
                    return WalkResult::Interrupt;
                }
            }
        }
    }
    WalkResult::Advance
}

impl Context {
    /// Walk the operations under `root` (an [`Operation`], itself
    /// included, a [`Region`] or a [`Block`]) in `order`; see
    /// [`walk`](crate::walk).
    pub fn walk(
        &self,
        root: impl Into<WalkRoot>,
        order: WalkOrder,
        f: impl FnMut(Operation) -> WalkResult,
    ) -> WalkResult {
        walk(self, root, order, f)
    }

    /// Every operation under `root` (an operation itself included), in
    /// `order`.
    pub fn collect_ops(&self, root: impl Into<WalkRoot>, order: WalkOrder) -> Vec<Operation> {
        let mut out = Vec::new();
        walk(self, root, order, |op| {
            out.push(op);
            WalkResult::Advance
        });
        out
    }

    /// Every operation nested in the regions of `op` (`op` excluded), in
    /// `order`.
    pub fn nested_ops(&self, op: Operation, order: WalkOrder) -> Vec<Operation> {
        let mut out = Vec::new();
        for &region in self.op_regions(op) {
            walk(self, region, order, |inner| {
                out.push(inner);
                WalkResult::Advance
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parser, SourceBuffer};

    const TEXT: &str = r#"
"t.a"() ({
  "t.b"() ({
    "t.c"() : () -> ()
  }, {
    "t.d"() : () -> ()
  }) : () -> ()
  "t.e"() : () -> ()
^bb1:
  "t.f"() : () -> ()
}) : () -> ()
"t.g"() : () -> ()
"#;

    fn parse() -> (Context, Operation) {
        let mut ctx = Context::new();
        ctx.set_allow_unregistered_dialects(true);
        let module =
            parser::parse_source(&mut ctx, &SourceBuffer::new("in.mlir", TEXT)).expect("parses");
        (ctx, module)
    }

    fn names(ctx: &Context, ops: &[Operation]) -> Vec<String> {
        ops.iter()
            .map(|&op| ctx.op_name_str(op).trim_start_matches("t.").to_string())
            .collect()
    }

    #[test]
    fn pre_order_visits_parents_first_in_block_order() {
        let (ctx, module) = parse();
        let ops = ctx.collect_ops(module, WalkOrder::PreOrder);
        assert_eq!(
            names(&ctx, &ops),
            ["builtin.module", "a", "b", "c", "d", "e", "f", "g"]
        );
    }

    #[test]
    fn post_order_visits_parents_last() {
        let (ctx, module) = parse();
        let ops = ctx.collect_ops(module, WalkOrder::PostOrder);
        assert_eq!(
            names(&ctx, &ops),
            ["c", "d", "b", "e", "f", "a", "g", "builtin.module"]
        );
    }

    #[test]
    fn nested_ops_leave_the_root_out() {
        let (ctx, module) = parse();
        assert_eq!(
            names(&ctx, &ctx.nested_ops(module, WalkOrder::PreOrder)),
            ["a", "b", "c", "d", "e", "f", "g"]
        );
        let body = ctx.op_regions(module)[0];
        assert_eq!(
            names(&ctx, &ctx.collect_ops(body, WalkOrder::PostOrder)),
            ["c", "d", "b", "e", "f", "a", "g"]
        );
    }

    #[test]
    fn block_roots_walk_that_block_only() {
        let (ctx, module) = parse();
        let a = ctx.nested_ops(module, WalkOrder::PreOrder)[0];
        let blocks: Vec<Block> = ctx.region_blocks(ctx.op_regions(a)[0]).collect();
        assert_eq!(
            names(&ctx, &ctx.collect_ops(blocks[1], WalkOrder::PreOrder)),
            ["f"]
        );
        assert_eq!(
            names(&ctx, &ctx.collect_ops(blocks[0], WalkOrder::PreOrder)),
            ["b", "c", "d", "e"]
        );
    }

    #[test]
    fn skip_leaves_out_the_regions_in_pre_order() {
        let (ctx, module) = parse();
        let mut seen = Vec::new();
        let result = ctx.walk(module, WalkOrder::PreOrder, |op| {
            seen.push(op);
            if ctx.op_name_str(op) == "t.b" {
                WalkResult::Skip
            } else {
                WalkResult::Advance
            }
        });
        assert_eq!(result, WalkResult::Advance);
        assert_eq!(
            names(&ctx, &seen),
            ["builtin.module", "a", "b", "e", "f", "g"]
        );
    }

    #[test]
    fn skip_is_advance_in_post_order() {
        let (ctx, module) = parse();
        let mut seen = Vec::new();
        ctx.walk(module, WalkOrder::PostOrder, |op| {
            seen.push(op);
            WalkResult::Skip
        });
        assert_eq!(seen.len(), 8);
    }

    #[test]
    fn interrupt_stops_the_walk() {
        let (ctx, module) = parse();
        for (order, expected) in [
            (WalkOrder::PreOrder, vec!["builtin.module", "a", "b", "c"]),
            (WalkOrder::PostOrder, vec!["c"]),
        ] {
            let mut seen = Vec::new();
            let result = ctx.walk(module, order, |op| {
                seen.push(op);
                if ctx.op_name_str(op) == "t.c" {
                    WalkResult::Interrupt
                } else {
                    WalkResult::Advance
                }
            });
            assert!(result.was_interrupted());
            assert_eq!(names(&ctx, &seen), expected);
        }
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let mut ctx = Context::new();
        ctx.set_allow_unregistered_dialects(true);
        let loc = ctx.unknown_loc();
        let name = ctx.ident("t.nest");
        // 100000 levels: a recursive walk would overflow the stack.
        let mut inner = ctx.create_operation(crate::OperationState::new(name, loc));
        for _ in 0..100_000 {
            let region = ctx.create_region();
            let block = ctx.create_block();
            ctx.append_block(region, block);
            ctx.append_op(block, inner);
            let mut state = crate::OperationState::new(name, loc);
            state.regions.push(region);
            inner = ctx.create_operation(state);
        }
        assert_eq!(ctx.collect_ops(inner, WalkOrder::PostOrder).len(), 100_001);
    }
}
