//! One `kernel.func` per group, in one of three forms, chosen by what the
//! group holds:
//!
//! - **elementwise** (maps and reshapes): the flattened iteration space in
//!   blocks of up to 1024 elements (dividing it where they can: no mask),
//!   one block per program; or, where the
//!   group reads its inputs through index maps, N-D tiles of the inner
//!   dims, the other indices scalars per program;
//! - **rows** (a reduction, with the maps before and after it): one program
//!   per output row, a tile over the reduced elements (up to 16,384);
//! - **contraction** (a matmul with the maps after it): an output tile of
//!   `BLOCK_M x BLOCK_N` per program, a loop over K in steps of `BLOCK_K`
//!   accumulating with `kernel.dot` (in f32 for f16/bf16), the epilogue
//!   applied to the accumulator before the store.

use std::collections::HashMap;

use strata_dialects::tensor::ContractOp;
use strata_ir::affine::AffineExpr;
use strata_ir::{Block, Context, Location, Operation, OperationState, Type, Value};

use super::builder::KernelBuilder;
use super::group::{delinearize, err, linearize, Group, RowReduction, R};

/// Tile sizes of the generated kernels, and the kernel selection.
#[derive(Clone, Copy, Debug)]
pub struct TileSizes {
    /// f32 and f64 contractions become library calls (`kernel.gemm`), their
    /// epilogues separate kernels.
    pub library_gemm: bool,
    /// Elements per program of an elementwise kernel.
    pub block: i64,
    pub block_m: i64,
    pub block_n: i64,
    pub block_k: i64,
}

impl Default for TileSizes {
    fn default() -> Self {
        TileSizes {
            library_gemm: false,
            block: 1024,
            block_m: 64,
            block_n: 64,
            block_k: 64,
        }
    }
}

/// The largest reduced extent a row kernel holds in one tile.
const MAX_ROW: i64 = 16384;

/// The ops of one kernel, what they read and what they give.
#[derive(Clone)]
pub(crate) struct GroupIr {
    pub ops: Vec<Operation>,
    pub inputs: Vec<Value>,
    pub outputs: Vec<Value>,
    /// Where errors about the group point.
    pub anchor: Operation,
}

fn next_pow2(n: i64) -> i64 {
    (n.max(1) as u64).next_power_of_two() as i64
}

fn shape(ctx: &Context, v: Value) -> Vec<i64> {
    strata_dialects::tensor::shape_of(ctx, v).unwrap_or_default()
}

fn element(ctx: &Context, v: Value) -> Type {
    strata_dialects::kernel::types::element_of(ctx, ctx.value_type(v))
}

/// A `kernel.func @name` with pointer parameters of `elements`, appended
/// to `module_block`; returns it, its entry block and its parameters.
fn new_kernel(
    ctx: &mut Context,
    module_block: Block,
    loc: Location,
    name: &str,
    elements: &[Type],
    grid_rank: usize,
) -> (Operation, Block, Vec<Value>) {
    let params: Vec<Type> = elements
        .iter()
        .map(|&e| strata_dialects::kernel::types::ptr_type(ctx, e))
        .collect();
    let fn_type = ctx.function_type(params.clone(), vec![]);
    let i32t = ctx.integer_type(32);
    let entries = vec![
        (ctx.ident("sym_name"), ctx.string_attr(name)),
        (ctx.ident("function_type"), ctx.type_attr(fn_type)),
        (ctx.ident("grid"), ctx.integer_attr(i32t, grid_rank as i128)),
        (ctx.ident("num_warps"), ctx.integer_attr(i32t, 4)),
    ];
    let mut state = OperationState::new(ctx.ident("kernel.func"), loc);
    state.properties = Some(ctx.dictionary_attr(entries));
    let region = ctx.create_region();
    state.regions.push(region);
    let op = ctx.create_operation(state);
    let block = ctx.create_block();
    ctx.append_block(region, block);
    let args = params
        .iter()
        .map(|&t| ctx.add_block_argument(block, t, loc))
        .collect();
    ctx.append_op(module_block, op);
    (op, block, args)
}

/// Emit the kernel of `group` as `@name` into `module_block`; returns the
/// launch grid.
pub(crate) fn emit_group(
    ctx: &mut Context,
    module_block: Block,
    name: &str,
    group: &GroupIr,
    tiles: TileSizes,
) -> R<Vec<i64>> {
    let loc = ctx.op_loc(group.anchor);
    let mut elements: Vec<Type> = group.inputs.iter().map(|&v| element(ctx, v)).collect();
    elements.extend(group.outputs.iter().map(|&v| element(ctx, v)));
    for &v in group.inputs.iter().chain(&group.outputs) {
        if strata_ir::types::num_elements(&shape(ctx, v)) >= i32::MAX as u64 {
            return Err(err(
                ctx,
                group.anchor,
                "tensors of 2^31 elements or more do not lower yet",
            ));
        }
    }
    let contract = group
        .ops
        .iter()
        .copied()
        .find(|&o| ctx.op_name_str(o) == ContractOp::NAME);
    let reduce = group
        .ops
        .iter()
        .copied()
        .find(|&o| ctx.op_name_str(o) == "tensor.reduce");
    let grid_rank = match contract {
        Some(c) if !contraction_batch(ctx, c)?.is_empty() => 3,
        Some(_) => 2,
        None => 1,
    };
    let (_, block, params) = new_kernel(ctx, module_block, loc, name, &elements, grid_rank);
    let n_in = group.inputs.len();
    let mut g = Group {
        params: HashMap::new(),
        members: group.ops.clone(),
        memo: HashMap::new(),
        gathered: HashMap::new(),
        mask: None,
        rows: None,
        flat: None,
    };
    for (i, &v) in group.inputs.iter().enumerate() {
        let s = shape(ctx, v);
        g.params.insert(v, (params[i], s));
    }
    let outputs: Vec<(Value, Value)> = group
        .outputs
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, params[n_in + i]))
        .collect();
    let mut b = KernelBuilder { ctx, block, loc };
    let grid = match (contract, reduce) {
        (Some(c), _) => contraction(&mut b, &mut g, c, &outputs, group.anchor, tiles)?,
        (None, Some(r)) => rows(&mut b, &mut g, r, &outputs, group.anchor)?,
        (None, None) => elementwise(&mut b, &mut g, &outputs, group.anchor, tiles)?,
    };
    b.op("kernel.return", &[], &[], vec![]);
    Ok(grid)
}

fn elementwise(
    b: &mut KernelBuilder<'_>,
    g: &mut Group,
    outputs: &[(Value, Value)],
    anchor: Operation,
    tiles: TileSizes,
) -> R<Vec<i64>> {
    let domain = shape(b.ctx, outputs[0].0);
    if outputs.iter().any(|(v, _)| shape(b.ctx, *v) != domain) {
        return Err(err(
            b.ctx,
            anchor,
            "the outputs of an elementwise group must have one shape",
        ));
    }
    let total = strata_ir::types::num_elements(&domain) as i64;
    if let Some(tile) = inner_tile(b.ctx, g, &domain, tiles.block.max(1)) {
        return elementwise_tiled(b, g, outputs, &domain, &tile);
    }
    // Blocks that divide the elements need no mask (a masked tail keeps
    // the host's vectorizer from the loop, or makes it use slow masked
    // stores): the whole extent when it fits, else a divisor near the
    // budget where there is one.
    let budget = tiles.block.max(1);
    let block = if total <= budget {
        total.max(1)
    } else {
        part(total, budget)
    };
    let pid = b.program_id(0);
    let bv = b.const_i32(block);
    let base = b.muli(pid, bv);
    let r = b.range(block);
    let flat = b.addi(base, r);
    let mask = (total % block != 0).then(|| {
        let n = b.const_i32(total);
        b.cmp_slt(flat, n)
    });
    g.mask = mask;
    let e = delinearize(b, flat, &domain);
    g.flat = Some((e.clone(), domain.clone(), flat));
    for &(v, ptr) in outputs {
        let x = g.value(b, v, &e)?;
        let x = b.as_tile(x, &[block]);
        let ptrs = b.addptr(ptr, flat);
        b.store(ptrs, x, mask);
    }
    Ok(vec![(total + block - 1) / block])
}

/// The tile of an elementwise group that reads its inputs through index
/// maps (windows, transposes, broadcasts, reshapes, gathers): each dim from
/// the innermost out, whole while the tile holds at most `block` elements,
/// then part of the next (see [`part`]). Extents are the dims' own sizes,
/// not powers of two: the host loops need no padding lanes (a GPU target
/// will round them up). `None` where the flat form is
/// better, for a group of identity maps, which reads every input at the
/// flat offset.
///
/// In the tiled form the other dims' indices are scalars per program (one
/// division each per program, not per element), so an input read through
/// an affine map of the tiled dims has consecutive (or strided) addresses
/// that the host vectorizer sees, where the flat form's per-element
/// divisions hide them.
fn inner_tile(ctx: &Context, g: &Group, domain: &[i64], block: i64) -> Option<Vec<i64>> {
    let flat_reads = g.members.iter().all(|&op| match ctx.op_name_str(op) {
        "tensor.map" => {
            let m = strata_dialects::tensor::MapOp(op);
            let n = ctx.num_operands(op);
            m.maps(ctx).iter().all(|map| map.is_identity())
                && (0..n).all(|k| !m.is_gathered(ctx, k))
        }
        "arith.constant" => true,
        _ => false,
    });
    if flat_reads || domain.len() < 2 {
        return None;
    }
    let mut tile = vec![1; domain.len()];
    let mut budget = block.max(1);
    for d in (0..domain.len()).rev() {
        let n = domain[d].max(1);
        if n <= budget {
            tile[d] = n;
            budget /= n;
            continue;
        }
        tile[d] = part(n, budget);
        break;
    }
    Some(tile)
}

/// How much of a dim of `n` a tile of at most `budget` (< n) spans: the
/// largest divisor of `n` within the budget when it is at least half of
/// it (no ragged last tile), else the budget.
fn part(n: i64, budget: i64) -> i64 {
    let divisor = (1..=budget).rev().find(|t| n % t == 0).unwrap_or(1);
    if 2 * divisor >= budget {
        divisor
    } else {
        budget
    }
}

/// The elementwise form on tiles of the inner dims (`tile`, from
/// [`inner_tile`]): one program per tile, the indices of the dims a tile
/// does not span scalars; masks only on the dims a tile overhangs.
fn elementwise_tiled(
    b: &mut KernelBuilder<'_>,
    g: &mut Group,
    outputs: &[(Value, Value)],
    domain: &[i64],
    tile: &[i64],
) -> R<Vec<i64>> {
    let grid_shape: Vec<i64> = domain
        .iter()
        .zip(tile)
        .map(|(&n, &t)| (n + t - 1) / t)
        .collect();
    let programs = strata_ir::types::num_elements(&grid_shape) as i64;
    let pid = b.program_id(0);
    let mut e = delinearize(b, pid, &grid_shape);
    // The tile's own shape: the dims it spans (extent > 1), in order.
    let spanned: Vec<usize> = (0..domain.len()).filter(|&d| tile[d] > 1).collect();
    let shape: Vec<i64> = spanned.iter().map(|&d| tile[d]).collect();
    let mut mask: Option<Value> = None;
    for (j, &d) in spanned.iter().enumerate() {
        let mut ix = b.range(tile[d]);
        if grid_shape[d] > 1 {
            let bv = b.const_i32(tile[d]);
            let base = b.muli(e[d], bv);
            ix = b.addi(base, ix);
        }
        for _ in 0..j {
            ix = b.expand_dims(ix, 0);
        }
        for k in j + 1..spanned.len() {
            ix = b.expand_dims(ix, k as i64);
        }
        let ix = b.broadcast(ix, &shape);
        if domain[d] % tile[d] != 0 {
            let n = b.const_i32(domain[d]);
            let ok = b.cmp_slt(ix, n);
            mask = Some(match mask {
                Some(m) => b.andi(m, ok),
                None => ok,
            });
        }
        e[d] = ix;
    }
    g.mask = mask;
    for &(v, ptr) in outputs {
        let x = g.value(b, v, &e)?;
        if shape.is_empty() {
            // A tile of one element: scalars throughout.
            let off = linearize(b, &e, domain);
            let p = b.addptr(ptr, off);
            b.store(p, x, None);
            continue;
        }
        let x = b.as_tile(x, &shape);
        let off = linearize(b, &e, domain);
        let off = b.as_tile(off, &shape);
        let ptrs = b.addptr(ptr, off);
        b.store(ptrs, x, mask);
    }
    Ok(vec![programs])
}

fn rows(
    b: &mut KernelBuilder<'_>,
    g: &mut Group,
    reduce: Operation,
    outputs: &[(Value, Value)],
    anchor: Operation,
) -> R<Vec<i64>> {
    let red = strata_dialects::tensor::ReduceOp(reduce);
    let input = red.input(b.ctx);
    let dims = red.dimensions(b.ctx).unwrap_or_default();
    let in_shape = shape(b.ctx, input);
    let row_shape: Vec<i64> = (0..in_shape.len())
        .filter(|d| !dims.contains(&(*d as i64)))
        .map(|d| in_shape[d])
        .collect();
    let red_shape: Vec<i64> = dims.iter().map(|&d| in_shape[d as usize]).collect();
    let extent = strata_ir::types::num_elements(&red_shape) as i64;
    if extent > MAX_ROW {
        return Err(err(
            b.ctx,
            reduce,
            format!("reductions over more than {MAX_ROW} elements do not lower yet (this one: {extent})"),
        ));
    }
    let block = next_pow2(extent);
    let programs = strata_ir::types::num_elements(&row_shape) as i64;
    let pid = b.program_id(0);
    let row_index = delinearize(b, pid, &row_shape);
    let t = b.range(block);
    let n = b.const_i32(extent);
    let mask = b.cmp_slt(t, n);
    let reduced_index = delinearize(b, t, &red_shape);
    let mut full = Vec::with_capacity(in_shape.len());
    let (mut ri, mut ki) = (0, 0);
    for d in 0..in_shape.len() as i64 {
        if dims.contains(&d) {
            full.push(reduced_index[ri]);
            ri += 1;
        } else {
            full.push(row_index[ki]);
            ki += 1;
        }
    }
    g.mask = Some(mask);
    g.rows = Some(RowReduction {
        dims,
        input_shape: in_shape.clone(),
        reduced_index,
        row_index: row_index.clone(),
        mask,
    });
    for &(v, ptr) in outputs {
        let s = shape(b.ctx, v);
        if s == row_shape {
            let x = g.value(b, v, &row_index)?;
            let p = b.addptr(ptr, pid);
            b.store(p, x, None);
        } else if s == in_shape {
            let x = g.value(b, v, &full)?;
            let x = b.as_tile(x, &[block]);
            // A tile of offsets even when the reduced extent is 1 (the
            // index is then the constant 0).
            let off = linearize(b, &full, &in_shape);
            let off = b.as_tile(off, &[block]);
            let ptrs = b.addptr(ptr, off);
            b.store(ptrs, x, Some(mask));
        } else {
            return Err(err(
                b.ctx,
                anchor,
                "an output of a reduction group must have the reduction's input or output shape",
            ));
        }
    }
    Ok(vec![programs])
}

/// The roles of a contraction's domain dims.
struct Roles {
    m: Option<u32>,
    n: Option<u32>,
    k: u32,
    batch: Vec<u32>,
}

fn dims_of(map: &strata_ir::affine::AffineMap) -> Vec<u32> {
    map.results
        .iter()
        .filter_map(|r| match r {
            AffineExpr::Dim(d) => Some(*d),
            _ => None,
        })
        .collect()
}

fn roles(ctx: &Context, c: Operation) -> R<Roles> {
    let op = ContractOp(c);
    let maps = op.maps(ctx);
    let red = op.reduction_dims(ctx);
    let [k] = red[..] else {
        return Err(err(
            ctx,
            c,
            "contractions over other than one dimension do not lower yet",
        ));
    };
    let (l, r, o) = (dims_of(&maps[0]), dims_of(&maps[1]), dims_of(&maps[2]));
    // The innermost output dim that only the lhs reads is M, the innermost
    // only the rhs reads is N; the other output dims are batch dims (a
    // size-1 leading dim read by one operand alone is a batch dim too).
    let m = o
        .iter()
        .copied()
        .rev()
        .find(|d| l.contains(d) && !r.contains(d));
    let n = o
        .iter()
        .copied()
        .rev()
        .find(|d| r.contains(d) && !l.contains(d));
    let batch = o
        .iter()
        .copied()
        .filter(|d| Some(*d) != m && Some(*d) != n)
        .collect();
    Ok(Roles { m, n, k, batch })
}

fn contraction_batch(ctx: &Context, c: Operation) -> R<Vec<u32>> {
    Ok(roles(ctx, c)?.batch)
}

/// Offsets and mask of an operand tile: `operand[map(idx)]` for each domain
/// dim's index value in `idx` (a scalar for batch dims, tiles otherwise).
/// An operand of a contraction: its pointer, shape and indexing map.
struct OperandRef<'m> {
    ptr: Value,
    shape: &'m [i64],
    map: &'m strata_ir::affine::AffineMap,
}

fn operand_tile(
    b: &mut KernelBuilder<'_>,
    operand: OperandRef<'_>,
    idx: &HashMap<u32, Value>,
    tile: &[i64],
    mask: Value,
    element: Type,
) -> Value {
    let mut e = Vec::new();
    for d in dims_of(operand.map) {
        e.push(idx[&d]);
    }
    let off = linearize(b, &e, operand.shape);
    let off = b.as_tile(off, tile);
    let ptrs = b.addptr(operand.ptr, off);
    let ty = b.ctx.tensor_type(tile.to_vec(), element);
    let zero_attr = if strata_ir::ods::constraints::is_float(b.ctx, element) {
        b.ctx.float_attr(element, 0.0)
    } else {
        b.ctx.integer_attr(element, 0)
    };
    let zero = b.constant(zero_attr, element);
    let other = b.splat(zero, tile);
    b.load(ptrs, Some(mask), Some(other), ty)
}

fn contraction(
    b: &mut KernelBuilder<'_>,
    g: &mut Group,
    c: Operation,
    outputs: &[(Value, Value)],
    anchor: Operation,
    tiles: TileSizes,
) -> R<Vec<i64>> {
    let op = ContractOp(c);
    let maps = op.maps(b.ctx);
    let sizes = op
        .domain_sizes(b.ctx)
        .ok_or_else(|| err(b.ctx, c, "a contraction with inconsistent sizes"))?;
    let ro = roles(b.ctx, c)?;
    let (lhs, rhs) = (op.lhs(b.ctx), op.rhs(b.ctx));
    let (Some(&(pa, ref sa)), Some(&(pb, ref sb))) = (g.params.get(&lhs), g.params.get(&rhs))
    else {
        return Err(err(
            b.ctx,
            c,
            "the operands of a contraction must be inputs of its kernel",
        ));
    };
    let (sa, sb) = (sa.clone(), sb.clone());
    let size = |d: Option<u32>| d.map_or(1, |d| sizes[d as usize]);
    let (m, n, k) = (size(ro.m), size(ro.n), sizes[ro.k as usize]);
    let (bm, bn, bk) = (
        next_pow2(m).min(tiles.block_m),
        next_pow2(n).min(tiles.block_n),
        next_pow2(k).min(tiles.block_k),
    );
    let batch_shape: Vec<i64> = ro.batch.iter().map(|&d| sizes[d as usize]).collect();
    let grid_m = (m + bm - 1) / bm;
    let grid_n = (n + bn - 1) / bn;
    let batches = strata_ir::types::num_elements(&batch_shape) as i64;

    let pm = b.program_id(0);
    let pn = b.program_id(1);
    let mut idx: HashMap<u32, Value> = HashMap::new();
    if !ro.batch.is_empty() {
        let pz = b.program_id(2);
        for (d, v) in ro.batch.iter().zip(delinearize(b, pz, &batch_shape)) {
            idx.insert(*d, v);
        }
    }
    let tile_index = |b: &mut KernelBuilder<'_>, pid: Value, block: i64| {
        let bv = b.const_i32(block);
        let base = b.muli(pid, bv);
        let r = b.range(block);
        b.addi(base, r)
    };
    let mi = tile_index(b, pm, bm);
    let ni = tile_index(b, pn, bn);
    let (mv, nv, kv) = (b.const_i32(m), b.const_i32(n), b.const_i32(k));
    let m_ok = b.cmp_slt(mi, mv);
    let n_ok = b.cmp_slt(ni, nv);
    let mcol = b.expand_dims(mi, 1);
    let nrow = b.expand_dims(ni, 0);

    // The accumulator: f32 for f16/bf16, else the element type.
    let elem = element(b.ctx, lhs);
    let acc_elem = match b.ctx.float_kind(elem) {
        Some(strata_ir::float::FloatKind::F16 | strata_ir::float::FloatKind::BF16) => {
            b.ctx.float_type(strata_ir::float::FloatKind::F32)
        }
        _ => elem,
    };
    let acc_ty = b.ctx.tensor_type(vec![bm, bn], acc_elem);
    let zero_attr = if strata_ir::ods::constraints::is_float(b.ctx, acc_elem) {
        b.ctx.float_attr(acc_elem, 0.0)
    } else {
        b.ctx.integer_attr(acc_elem, 0)
    };
    let zero = b.constant(zero_attr, acc_elem);
    let acc0 = b.splat(zero, &[bm, bn]);

    // scf.for %k0 = 0 to K step BK iter_args(%acc = %acc0)
    let (lo, step) = (b.const_i32(0), b.const_i32(bk));
    let i32t = b.i32_type();
    let for_op = b.op_with_regions("scf.for", &[lo, kv, step, acc0], &[acc_ty], vec![], 1);
    let body = b.ctx.create_block();
    let region = b.ctx.op_regions(for_op)[0];
    b.ctx.append_block(region, body);
    let loc = b.loc;
    let k0 = b.ctx.add_block_argument(body, i32t, loc);
    let acc = b.ctx.add_block_argument(body, acc_ty, loc);
    let outer = b.block;
    b.block = body;
    let ki = {
        let r = b.range(bk);
        b.addi(k0, r)
    };
    let k_ok = b.cmp_slt(ki, kv);
    // A: [BM, BK]
    let a_shape = [bm, bk];
    let mut aidx = idx.clone();
    let mb = b.broadcast(mcol, &[bm, 1]);
    let mb = b.broadcast(mb, &a_shape);
    let krow = b.expand_dims(ki, 0);
    let kb_ = b.broadcast(krow, &a_shape);
    if let Some(d) = ro.m {
        aidx.insert(d, mb);
    }
    aidx.insert(ro.k, kb_);
    let am = b.expand_dims(m_ok, 1);
    let am = b.broadcast(am, &a_shape);
    let ak = b.expand_dims(k_ok, 0);
    let ak = b.broadcast(ak, &a_shape);
    let amask = b.andi(am, ak);
    let a = operand_tile(
        b,
        OperandRef {
            ptr: pa,
            shape: &sa,
            map: &maps[0],
        },
        &aidx,
        &a_shape,
        amask,
        elem,
    );
    // B: [BK, BN]
    let b_shape = [bk, bn];
    let mut bidx = idx.clone();
    let kcol = b.expand_dims(ki, 1);
    let kcb = b.broadcast(kcol, &b_shape);
    let nb = b.broadcast(nrow, &b_shape);
    bidx.insert(ro.k, kcb);
    if let Some(d) = ro.n {
        bidx.insert(d, nb);
    }
    let bk_ = b.expand_dims(k_ok, 1);
    let bk_ = b.broadcast(bk_, &b_shape);
    let bnm = b.expand_dims(n_ok, 0);
    let bnm = b.broadcast(bnm, &b_shape);
    let bmask = b.andi(bk_, bnm);
    let bt = operand_tile(
        b,
        OperandRef {
            ptr: pb,
            shape: &sb,
            map: &maps[1],
        },
        &bidx,
        &b_shape,
        bmask,
        elem,
    );
    let next = b.value("kernel.dot", &[a, bt, acc], acc_ty, vec![]);
    b.op("scf.yield", &[next], &[], vec![]);
    b.block = outer;
    let mut result = b.ctx.result(for_op, 0);
    if acc_elem != elem {
        let ty = b.ctx.tensor_type(vec![bm, bn], elem);
        result = b.value("arith.truncf", &[result], ty, vec![]);
    }

    // The epilogue at the output tile.
    let out_shape = [bm, bn];
    let mfull = b.broadcast(mcol, &out_shape);
    let nfull = b.broadcast(nrow, &out_shape);
    let mut oidx = idx.clone();
    if let Some(d) = ro.m {
        oidx.insert(d, mfull);
    }
    if let Some(d) = ro.n {
        oidx.insert(d, nfull);
    }
    let om = b.expand_dims(m_ok, 1);
    let om = b.broadcast(om, &out_shape);
    let on = b.expand_dims(n_ok, 0);
    let on = b.broadcast(on, &out_shape);
    let omask = b.andi(om, on);
    g.mask = Some(omask);
    let e: Vec<Value> = dims_of(&maps[2]).iter().map(|d| oidx[d]).collect();
    g.memo.insert((b.ctx.result(c, 0), e.clone()), result);
    let out_domain = shape(b.ctx, b.ctx.result(c, 0));
    for &(v, ptr) in outputs {
        if shape(b.ctx, v) != out_domain {
            return Err(err(
                b.ctx,
                anchor,
                "the outputs of a contraction group must have its output shape",
            ));
        }
        let x = g.value(b, v, &e)?;
        let x = b.as_tile(x, &out_shape);
        let off = linearize(b, &e, &out_domain);
        let off = b.as_tile(off, &out_shape);
        let ptrs = b.addptr(ptr, off);
        b.store(ptrs, x, Some(omask));
    }
    let mut grid = vec![grid_m, grid_n];
    if !ro.batch.is_empty() {
        grid.push(batches);
    }
    Ok(grid)
}

/// A contraction as a batched strided matrix product (`kernel.gemm`).
pub(crate) struct GemmPlan {
    pub batch: Vec<i64>,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub lhs_strides: Vec<i64>,
    pub rhs_strides: Vec<i64>,
    pub out_strides: Vec<i64>,
}

/// The contraction of `group` as a library call, when it is one: an f32 or
/// f64 contraction over one dimension whose operands are inputs of the
/// group, and whose result the rest of the group (if any) reads through
/// identity maps at the same shape.
pub(crate) fn library_gemm(ctx: &Context, group: &GroupIr) -> Option<(Operation, GemmPlan)> {
    let contracts: Vec<Operation> = group
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op_name_str(o) == ContractOp::NAME)
        .collect();
    let [c] = contracts[..] else {
        return None;
    };
    let op = ContractOp(c);
    let (lhs, rhs) = (op.lhs(ctx), op.rhs(ctx));
    if !group.inputs.contains(&lhs) || !group.inputs.contains(&rhs) {
        return None;
    }
    let element = element(ctx, lhs);
    if !matches!(
        ctx.float_kind(element),
        Some(strata_ir::float::FloatKind::F32 | strata_ir::float::FloatKind::F64)
    ) {
        return None;
    }
    let ro = roles(ctx, c).ok()?;
    let maps = op.maps(ctx);
    let sizes = op.domain_sizes(ctx)?;
    // The element stride of each domain dim in an operand (0 where the
    // operand does not read the dim: a broadcast).
    let stride_of = |map: &strata_ir::affine::AffineMap, shape: &[i64], d: Option<u32>| -> i64 {
        let Some(d) = d else {
            return 0;
        };
        let strides = super::group::row_major_strides(shape);
        map.results
            .iter()
            .position(|r| *r == AffineExpr::Dim(d))
            .map_or(0, |p| strides[p])
    };
    let (sl, sr, so) = (
        shape(ctx, lhs),
        shape(ctx, rhs),
        shape(ctx, ctx.result(c, 0)),
    );
    let mut plan = GemmPlan {
        batch: ro.batch.iter().map(|&d| sizes[d as usize]).collect(),
        m: ro.m.map_or(1, |d| sizes[d as usize]),
        n: ro.n.map_or(1, |d| sizes[d as usize]),
        k: sizes[ro.k as usize],
        lhs_strides: Vec::new(),
        rhs_strides: Vec::new(),
        out_strides: Vec::new(),
    };
    for &d in &ro.batch {
        plan.lhs_strides.push(stride_of(&maps[0], &sl, Some(d)));
        plan.rhs_strides.push(stride_of(&maps[1], &sr, Some(d)));
        plan.out_strides.push(stride_of(&maps[2], &so, Some(d)));
    }
    plan.lhs_strides.extend([
        stride_of(&maps[0], &sl, ro.m),
        stride_of(&maps[0], &sl, Some(ro.k)),
    ]);
    plan.rhs_strides.extend([
        stride_of(&maps[1], &sr, Some(ro.k)),
        stride_of(&maps[1], &sr, ro.n),
    ]);
    plan.out_strides.extend([
        stride_of(&maps[2], &so, ro.m),
        stride_of(&maps[2], &so, ro.n),
    ]);
    merge_rows(&mut plan);
    Some((c, plan))
}

/// Folds batch dims into the rows where the right operand does not vary
/// along them and the rows of the left operand and the result continue
/// across them (`[B, M, K] x [K, N]`, a linear layer on tokens): one
/// product of `B·M` rows reads the right operand once instead of `B`
/// times, and fills its tiles.
fn merge_rows(plan: &mut GemmPlan) {
    while let Some(&b) = plan.batch.last() {
        let nb = plan.batch.len();
        let (l, r, o) = (&plan.lhs_strides, &plan.rhs_strides, &plan.out_strides);
        let continues = |s: &[i64]| s[nb - 1] == plan.m * s[nb] || plan.m == 1 && s[nb] == 0;
        if r[nb - 1] != 0 || !continues(l) || !continues(o) {
            return;
        }
        // With one row the row stride is free: make it the batch's.
        if plan.m == 1 {
            plan.lhs_strides[nb] = plan.lhs_strides[nb - 1];
            plan.out_strides[nb] = plan.out_strides[nb - 1];
        }
        plan.m *= b;
        plan.batch.pop();
        for s in [
            &mut plan.lhs_strides,
            &mut plan.rhs_strides,
            &mut plan.out_strides,
        ] {
            s.remove(nb - 1);
        }
    }
}
