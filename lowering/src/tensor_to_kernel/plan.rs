//! Memory planning of a host plan: every `kernel.alloc` gets an offset in
//! one arena, reusing the bytes of buffers that are dead (greedy by size, as
//! TFLite's arena planner), and the function records the arena's size.

use std::collections::HashMap;

use strata_ir::{Context, Operation, Value};

/// Alignment of every buffer in the arena, in bytes.
pub const ALIGN: u64 = 64;

/// The sizes the planner found.
#[derive(Clone, Copy, Debug, Default)]
pub struct Planned {
    /// The arena's size with reuse.
    pub arena_bytes: u64,
    /// The sum of the buffers' sizes (no reuse).
    pub unplanned_bytes: u64,
    /// The most bytes alive at once, and the op of the host plan (a launch
    /// or a library call) where they are.
    pub peak_live_bytes: u64,
    pub peak_op: Option<Operation>,
}

pub use strata_dialects::kernel::types::memref_bytes;

/// Plan the arena of the host function `host`: set each `kernel.alloc`'s
/// offset and the function's `kernel.arena_bytes` and
/// `kernel.unplanned_bytes` attributes. With `reuse` false every buffer
/// gets bytes of its own (the arena is then the unplanned size).
pub fn plan_arena(ctx: &mut Context, host: Operation, reuse: bool) -> Planned {
    let Some(block) = ctx
        .op_regions(host)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return Planned::default();
    };
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    // The alloc each value stands for (views alias their source).
    let mut root: HashMap<Value, usize> = HashMap::new();
    let mut allocs: Vec<(Operation, u64, usize, usize)> = Vec::new(); // op, bytes, first, last
    for (i, &op) in ops.iter().enumerate() {
        match ctx.op_name_str(op) {
            "kernel.alloc" => {
                let r = ctx.result(op, 0);
                let bytes = memref_bytes(ctx, ctx.value_type(r));
                root.insert(r, allocs.len());
                allocs.push((op, bytes, i, i));
            }
            "kernel.view" => {
                if let Some(&a) = root.get(&ctx.operand(op, 0)) {
                    root.insert(ctx.result(op, 0), a);
                }
            }
            _ => {}
        }
        let returns = ctx.op_name_str(op) == "func.return";
        for v in ctx.operands(op) {
            if let Some(&a) = root.get(&v) {
                allocs[a].3 = if returns {
                    usize::MAX
                } else {
                    allocs[a].3.max(i)
                };
            }
        }
    }
    let unplanned: u64 = allocs
        .iter()
        .map(|a| a.1.div_ceil(ALIGN).max(1) * ALIGN)
        .sum();
    // The peak of live bytes, at an op that reads or writes a buffer.
    let (mut peak_live_bytes, mut peak_op) = (0u64, None);
    for (i, &op) in ops.iter().enumerate() {
        if !matches!(
            ctx.op_name_str(op),
            "kernel.launch" | "kernel.gemm" | "kernel.custom_call"
        ) {
            continue;
        }
        let live: u64 = allocs
            .iter()
            .filter(|a| a.2 <= i && i <= a.3)
            .map(|a| a.1.div_ceil(ALIGN).max(1) * ALIGN)
            .sum();
        if live > peak_live_bytes {
            (peak_live_bytes, peak_op) = (live, Some(op));
        }
    }
    // Greedy by size: the largest buffers first, each at the lowest offset
    // that overlaps no placed buffer alive at the same time.
    let mut order: Vec<usize> = (0..allocs.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(allocs[i].1), allocs[i].2));
    let mut placed: Vec<(u64, u64, usize, usize)> = Vec::new(); // offset, size, first, last
    let mut offsets = vec![0u64; allocs.len()];
    let mut arena = 0u64;
    for i in order {
        let (_, bytes, first, last) = allocs[i];
        let size = bytes.div_ceil(ALIGN).max(1) * ALIGN;
        let mut live: Vec<(u64, u64)> = placed
            .iter()
            .filter(|p| !reuse || (p.2 <= last && first <= p.3))
            .map(|p| (p.0, p.1))
            .collect();
        live.sort_unstable();
        let mut offset = 0u64;
        for (o, s) in live {
            if offset + size <= o {
                break;
            }
            offset = offset.max(o + s);
        }
        offsets[i] = offset;
        arena = arena.max(offset + size);
        placed.push((offset, size, first, last));
    }
    let i64t = ctx.integer_type(64);
    for (i, &(op, ..)) in allocs.iter().enumerate() {
        let attr = ctx.integer_attr(i64t, i128::from(offsets[i]));
        let key = ctx.ident("offset");
        let props = ctx.dictionary_attr(vec![(key, attr)]);
        ctx.set_op_properties(op, Some(props));
    }
    let attr = ctx.integer_attr(i64t, i128::from(arena));
    ctx.set_op_attr(host, "kernel.arena_bytes", attr);
    let attr = ctx.integer_attr(i64t, i128::from(unplanned));
    ctx.set_op_attr(host, "kernel.unplanned_bytes", attr);
    Planned {
        arena_bytes: arena,
        unplanned_bytes: unplanned,
        peak_live_bytes,
        peak_op,
    }
}
