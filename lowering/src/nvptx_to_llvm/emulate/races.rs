//! A static check of a kernel's shared memory, run before it is emulated:
//! the emulation runs each phase for every thread before the next starts,
//! so a missing barrier would go unseen there and race on a GPU.
//!
//! The check is conservative in one direction and trusting in another. Any
//! load from a shared buffer may read what any thread stored, so a store
//! and a load of the same buffer (in either order, around loops too) must
//! have a barrier between them on every path. Stores to one buffer between
//! two barriers are taken to write distinct elements (each thread its own,
//! as the conversion deals them out), and loads never conflict. A barrier
//! under `scf.if` is an error: every thread must reach it.

use std::collections::HashSet;

use strata_ir::{Block, Context, Operation, Value};

use super::super::{GpuError, R};

/// The shared buffers read and written since the last barrier.
#[derive(Clone, Default, PartialEq, Eq)]
struct Pending {
    reads: HashSet<Value>,
    writes: HashSet<Value>,
}

impl Pending {
    fn union(&self, other: &Pending) -> Pending {
        Pending {
            reads: self.reads.union(&other.reads).copied().collect(),
            writes: self.writes.union(&other.writes).copied().collect(),
        }
    }
}

/// Checks kernel body `entry` (see the module docs).
pub(super) fn check_barriers(ir: &Context, entry: Block) -> R<()> {
    walk(ir, entry, Pending::default(), false).map(|_| ())
}

/// The shared buffer `ptr` is, when it is one (an `nvptx.shared_alloc`).
fn shared_buffer(ir: &Context, ptr: Value) -> Option<Value> {
    let def = ir.defining_op(ptr)?;
    (ir.op_name_str(def) == "nvptx.shared_alloc").then_some(ptr)
}

fn walk(ir: &Context, block: Block, mut state: Pending, conditional: bool) -> R<Pending> {
    for op in ir.block_ops(block).collect::<Vec<Operation>>() {
        state = step(ir, op, state, conditional)?;
    }
    Ok(state)
}

fn step(ir: &Context, op: Operation, mut state: Pending, conditional: bool) -> R<Pending> {
    match ir.op_name_str(op) {
        "nvptx.barrier" if conditional => Err(GpuError::at(
            ir,
            op,
            "is a barrier inside scf.if: every thread of the block must reach it",
        )),
        "nvptx.barrier" => Ok(Pending::default()),
        "nvptx.load" => {
            if let Some(buf) = shared_buffer(ir, ir.operand(op, 0)) {
                if state.writes.contains(&buf) {
                    return Err(GpuError::at(
                        ir,
                        op,
                        "may read shared memory that another thread stored since the last barrier (a race on a GPU: a barrier is missing between the store and this load)",
                    ));
                }
                state.reads.insert(buf);
            }
            Ok(state)
        }
        "nvptx.store" => {
            if let Some(buf) = shared_buffer(ir, ir.operand(op, 1)) {
                if state.reads.contains(&buf) {
                    return Err(GpuError::at(
                        ir,
                        op,
                        "may overwrite shared memory that another thread loaded since the last barrier (a race on a GPU: a barrier is missing between the load and this store)",
                    ));
                }
                state.writes.insert(buf);
            }
            Ok(state)
        }
        "scf.for" => {
            // Any number of iterations: the state at the body's entry is
            // what reaches it before the loop or from its end, to a fixpoint.
            let Some(body) = ir
                .op_regions(op)
                .first()
                .and_then(|&r| ir.region_entry_block(r))
            else {
                return Ok(state);
            };
            let mut entry = state;
            loop {
                let out = walk(ir, body, entry.clone(), conditional)?;
                let next = entry.union(&out);
                if next == entry {
                    return Ok(entry);
                }
                entry = next;
            }
        }
        _ => {
            // Other regions (scf.if's): each may run or not, in any thread.
            let regions = ir.op_regions(op).to_vec();
            if regions.is_empty() {
                return Ok(state);
            }
            let mut out = state.clone();
            for r in regions {
                for b in ir.region_blocks(r).collect::<Vec<_>>() {
                    let s = walk(ir, b, state.clone(), true)?;
                    out = out.union(&s);
                }
            }
            Ok(out)
        }
    }
}
