//! The must-fuse check: every op of a chain marked by
//! `graph-mark-fusion-chains` (a recipe's `optimize.fusion.must_fuse`) must
//! end in one kernel. A chain that does not is an error at its first op,
//! naming the chain, where each of its ops ended, and why.

use std::collections::BTreeMap;

use strata_ir::{Context, Diagnostic, Location, Operation};
use strata_passes::fusion_chains::{marks, ChainMark};

/// A marked tensor op and the kernel (or library call) that computes it.
pub(crate) struct Placed {
    marks: Vec<ChainMark>,
    op: String,
    loc: Location,
    kernel: String,
    library: bool,
}

/// Records where the marked ones of `ops` were placed: `kernel`, a
/// library call when `library`.
pub(crate) fn place(
    ctx: &Context,
    ops: &[Operation],
    kernel: &str,
    library: bool,
    out: &mut Vec<Placed>,
) {
    for &op in ops {
        let marks = marks(ctx, op);
        if marks.is_empty() {
            continue;
        }
        out.push(Placed {
            marks,
            op: ctx.op_name_str(op).to_string(),
            loc: ctx.op_loc(op),
            kernel: kernel.to_string(),
            library,
        });
    }
}

/// Fails on the first chain occurrence (in program order) whose ops ended
/// in more than one kernel.
pub(crate) fn check(placed: &[Placed]) -> Result<(), Diagnostic> {
    // (chain, occurrence) -> the placed ops with their position.
    let mut chains: BTreeMap<(i64, String), Vec<(i64, &Placed)>> = BTreeMap::new();
    for p in placed {
        for m in &p.marks {
            chains
                .entry((m.occurrence, m.chain.clone()))
                .or_default()
                .push((m.position, p));
        }
    }
    for ((_, chain), mut members) in chains {
        members.sort_by_key(|(position, _)| *position);
        let mut kernels: Vec<&str> = Vec::new();
        for (_, p) in &members {
            if !kernels.contains(&p.kernel.as_str()) {
                kernels.push(&p.kernel);
            }
        }
        if kernels.len() <= 1 {
            continue;
        }
        let names: Vec<&str> = chain.split('+').collect();
        let Some((_, first)) = members.first() else {
            continue;
        };
        let mut d = Diagnostic::error(
            first.loc,
            format!(
                "must_fuse chain '{}' ends in {} kernels, not one: {}",
                names.join(", "),
                kernels.len(),
                kernels.join(", ")
            ),
        );
        for (position, p) in &members {
            let member = names.get(*position as usize).copied().unwrap_or("?");
            d = d.with_note(
                p.loc,
                format!("'{member}' computes a {} in {}", p.op, p.kernel),
            );
        }
        let why = if members.iter().any(|(_, p)| p.library) {
            "a library matrix product (codegen.kernel_selection = \"library\") runs alone: \
             its epilogue is a kernel of its own; kernel_selection = \"generated\" lets maps \
             on the contraction's output join its kernel"
        } else {
            "tensor-fuse joins an op to its producer's kernel only as a map on an elementwise \
             group's domain, a reduction of its values, a map of a row group, or a map on a \
             contraction's own output; a gather (im2col, padding, a transposed read) or a \
             second contraction starts a new kernel, as do never_fuse and max_fused_ops"
        };
        d = d.with_note(first.loc, format!("why: {why}"));
        return Err(d);
    }
    Ok(())
}
