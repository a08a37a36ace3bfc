//! `convert-tensor-to-kernel`: one `kernel.func` per group of tensor ops
//! and a host plan that runs them.
//!
//! A group is a `tensor.fusion` or a single `tensor.map`, `tensor.reduce`
//! or `tensor.contract` outside one. The function is rewritten into its host
//! plan: the same function on memrefs, whose tensors become buffers. Tensor
//! constants become `kernel.constant` buffers, reshapes `kernel.view`s of
//! their source, and each group a `kernel.launch` on its inputs and on new
//! `kernel.alloc` buffers for its outputs, placed in one arena by
//! [`plan`] (liveness-based reuse). Shapes must be static.

mod builder;
mod chains;
mod group;
mod kernels;
pub mod plan;

use std::collections::HashMap;

pub use kernels::TileSizes;
use kernels::{emit_group, GroupIr};
use strata_ir::pass::{Pass, PassRegistry, Statistics};
use strata_ir::{pass, Block, Context, Diagnostic, Operation, Type, TypeKind, Value};

/// The largest buffer a plan may hold (8 GiB, the interpreter's limit on
/// one tensor): a constant or a result past it is a located error at
/// compile time, never an allocation that aborts the process.
pub const MAX_BUFFER_BYTES: u64 = 1 << 33;

/// `mem` (a memref type) when its bytes are within [`MAX_BUFFER_BYTES`],
/// else an error at `op` naming them.
fn within_budget(ctx: &Context, op: Operation, mem: Type, what: &str) -> Result<Type, Diagnostic> {
    let bytes = strata_dialects::kernel::types::checked_memref_bytes(ctx, mem);
    match bytes.filter(|&b| b <= MAX_BUFFER_BYTES) {
        Some(_) => Ok(mem),
        None => Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "{what} of type '{}' needs {}, more than a plan's limit of {MAX_BUFFER_BYTES} bytes per buffer",
                strata_ir::printer::type_to_string(ctx, mem),
                bytes.map_or("more bytes than 64 bits count".to_string(), |b| format!("{b} bytes")),
            ),
        )),
    }
}

/// Register this conversion's passes.
pub fn register_passes(registry: &mut PassRegistry) {
    registry.register(ConvertTensorToKernel::registration());
}

#[pass(
    name = "convert-tensor-to-kernel",
    required = true,
    display_name = "ConvertTensorToKernel",
    summary = "Lower tensor ops to kernel tile programs and a host plan of launches on arena buffers"
)]
pub(crate) struct ConvertTensorToKernel {
    #[option(
        name = "block",
        default = 1024,
        description = "Elements per program of an elementwise kernel"
    )]
    block: i64,
    #[option(
        name = "block-m",
        default = 64,
        description = "Rows of a contraction's output tile"
    )]
    block_m: i64,
    #[option(
        name = "block-n",
        default = 64,
        description = "Columns of a contraction's output tile"
    )]
    block_n: i64,
    #[option(
        name = "block-k",
        default = 64,
        description = "Depth of a contraction's K step"
    )]
    block_k: i64,
    #[option(
        name = "library-gemm",
        default = false,
        description = "Lower f32/f64 contractions to library matrix products (kernel.gemm), their epilogues to separate kernels"
    )]
    library_gemm: bool,
    #[option(
        name = "memory-reuse",
        default = true,
        description = "Let buffers that are not alive at the same time share the arena's bytes"
    )]
    memory_reuse: bool,
    #[option(
        name = "max-activation-bytes",
        default = 0,
        description = "The largest arena a plan may need (0: no limit); a larger one is an error at the op of the peak"
    )]
    max_activation_bytes: i64,
}

/// How the host plan's arena is laid out and bounded.
#[derive(Clone, Copy, Debug)]
pub struct PlanOptions {
    /// Buffers not alive at the same time share bytes.
    pub memory_reuse: bool,
    /// The largest arena allowed, in bytes (`None`: no limit).
    pub max_activation_bytes: Option<u64>,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            memory_reuse: true,
            max_activation_bytes: None,
        }
    }
}

impl Pass for ConvertTensorToKernel {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let tiles = TileSizes {
            library_gemm: self.library_gemm,
            block: self.block,
            block_m: self.block_m,
            block_n: self.block_n,
            block_k: self.block_k,
        };
        for (name, v) in [
            ("block", tiles.block),
            ("block-m", tiles.block_m),
            ("block-n", tiles.block_n),
            ("block-k", tiles.block_k),
        ] {
            if v <= 0 || v & (v - 1) != 0 {
                return Err(Diagnostic::op_error(
                    ctx,
                    root,
                    format!("option '{name}' must be a power of two, got {v}"),
                ));
            }
        }
        if self.max_activation_bytes < 0 {
            return Err(Diagnostic::op_error(
                ctx,
                root,
                format!(
                    "option 'max-activation-bytes' must not be negative, got {}",
                    self.max_activation_bytes
                ),
            ));
        }
        let plan = PlanOptions {
            memory_reuse: self.memory_reuse,
            max_activation_bytes: (self.max_activation_bytes > 0)
                .then_some(self.max_activation_bytes as u64),
        };
        let report = convert_module_with(ctx, root, tiles, plan)?;
        stats.add(
            "num-kernels",
            "Number of kernels generated",
            report.kernels as u64,
        );
        stats.add(
            "arena-bytes",
            "Bytes of the planned arena",
            report.arena_bytes,
        );
        stats.add(
            "unplanned-bytes",
            "Bytes of the buffers without reuse",
            report.unplanned_bytes,
        );
        Ok(())
    }
}

/// What a conversion made.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub kernels: usize,
    pub arena_bytes: u64,
    pub unplanned_bytes: u64,
}

/// Convert every `func.func` directly in `module`.
pub fn convert_module(
    ctx: &mut Context,
    module: Operation,
    tiles: TileSizes,
) -> Result<Report, Diagnostic> {
    convert_module_with(ctx, module, tiles, PlanOptions::default())
}

/// [`convert_module`] with the arena laid out and bounded by `plan`.
pub fn convert_module_with(
    ctx: &mut Context,
    module: Operation,
    tiles: TileSizes,
    plan: PlanOptions,
) -> Result<Report, Diagnostic> {
    let Some(&region) = ctx.op_regions(module).first() else {
        return Ok(Report::default());
    };
    let Some(body) = ctx.region_entry_block(region) else {
        return Ok(Report::default());
    };
    let funcs: Vec<Operation> = ctx
        .block_ops(body)
        .filter(|&o| ctx.op_name_str(o) == "func.func")
        .collect();
    let mut report = Report::default();
    for f in funcs {
        let r = convert_function(ctx, body, f, tiles, plan)?;
        report.kernels += r.kernels;
        report.arena_bytes += r.arena_bytes;
        report.unplanned_bytes += r.unplanned_bytes;
    }
    Ok(report)
}

fn memref_of(ctx: &mut Context, ty: Type) -> Option<Type> {
    match ctx.type_kind(ty).clone() {
        TypeKind::RankedTensor { shape, element, .. } if shape.iter().all(|&d| d >= 0) => {
            Some(ctx.intern_type(TypeKind::MemRef {
                shape,
                element,
                layout: None,
                memory_space: None,
            }))
        }
        _ => None,
    }
}

/// Errors of all the ops that do not lower, as one diagnostic.
fn collect_errors(mut errors: Vec<Diagnostic>) -> Result<(), Diagnostic> {
    if errors.is_empty() {
        return Ok(());
    }
    let mut first = errors.remove(0);
    first.notes.extend(errors);
    Err(first)
}

fn convert_function(
    ctx: &mut Context,
    module_block: Block,
    func: Operation,
    tiles: TileSizes,
    plan: PlanOptions,
) -> Result<Report, Diagnostic> {
    let fname = ctx
        .symbol_name(func)
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .unwrap_or_default();
    let Some((inputs, results)) = strata_dialects::func::function_signature(ctx, func) else {
        return Ok(Report::default());
    };
    let Some(entry) = ctx
        .op_regions(func)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return Ok(Report::default()); // a declaration
    };
    // The signature on memrefs.
    let mut errors = Vec::new();
    let mut to_mem = |ctx: &mut Context, what: &str, i: usize, t: Type| match memref_of(ctx, t) {
        Some(m) => m,
        None => {
            errors.push(Diagnostic::op_error(
                ctx,
                func,
                format!(
                    "{what} #{i}: the compiled plan needs static tensor types, got '{}' (specialize the shapes first)",
                    strata_ir::printer::type_to_string(ctx, t)
                ),
            ));
            t
        }
    };
    let in_mem: Vec<Type> = (inputs.iter().enumerate())
        .map(|(i, &t)| to_mem(ctx, "input", i, t))
        .collect();
    let out_mem: Vec<Type> = (results.iter().enumerate())
        .map(|(i, &t)| to_mem(ctx, "result", i, t))
        .collect();
    collect_errors(errors)?;

    let ops: Vec<Operation> = ctx.block_ops(entry).collect();
    let mut errors = Vec::new();
    for &op in &ops {
        let name = ctx.op_name_str(op);
        // Scalar constants are read by bodies (the kernels rebuild them).
        let ok = name == "arith.constant"
            || matches!(
                name,
                "tensor.map"
                    | "tensor.reduce"
                    | "tensor.contract"
                    | "tensor.reshape"
                    | "tensor.fusion"
                    | "tensor.custom"
                    | "tensor.check_indices"
                    | "func.return"
            );
        if !ok {
            errors.push(Diagnostic::op_error(
                ctx,
                op,
                "cannot be lowered to kernels (is convert-graph-to-tensor missing from the pipeline?)",
            ));
        }
    }
    collect_errors(errors)?;

    // The host function.
    let loc = ctx.op_loc(func);
    let host =
        strata_dialects::func::FuncOp::build_with_entry_block(ctx, loc, &fname, &in_mem, &out_mem);
    let host_block = host
        .entry_block(ctx)
        .ok_or_else(|| Diagnostic::op_error(ctx, func, "internal error: no entry block"))?;
    let mut buffers: HashMap<Value, Value> = HashMap::new();
    for (arg, harg) in ctx
        .block_args(entry)
        .collect::<Vec<_>>()
        .into_iter()
        .zip(ctx.block_args(host_block).collect::<Vec<_>>())
    {
        buffers.insert(arg, harg);
    }
    let mut kernels = 0usize;
    let mut placed: Vec<chains::Placed> = Vec::new();
    for op in ops {
        let oloc = ctx.op_loc(op);
        let name = ctx.op_name_str(op).to_string();
        let mut b = builder::KernelBuilder {
            ctx,
            block: host_block,
            loc: oloc,
        };
        match name.as_str() {
            "func.return" => {
                let vals: Vec<Value> = b.ctx.operands(op).map(|v| buffers[&v]).collect();
                b.op("func.return", &vals, &[], vec![]);
            }
            "arith.constant"
                if !matches!(
                    b.ctx.type_kind(b.ctx.value_type(b.ctx.result(op, 0))),
                    TypeKind::RankedTensor { .. }
                ) => {}
            "arith.constant" => {
                let r = b.ctx.result(op, 0);
                let ty = b.ctx.value_type(r);
                let mem = memref_of(b.ctx, ty).ok_or_else(|| {
                    Diagnostic::op_error(b.ctx, op, "a constant of dynamic shape")
                })?;
                let mem = within_budget(b.ctx, op, mem, "a constant")?;
                let value = strata_ir::ods::inherent_attr(b.ctx, op, "value")
                    .ok_or_else(|| Diagnostic::op_error(b.ctx, op, "a constant without a value"))?;
                let v = b.value("kernel.constant", &[], mem, vec![("value", value)]);
                buffers.insert(r, v);
            }
            "tensor.custom" => emit_custom_call(&mut b, op, &mut buffers, &mut placed)?,
            "tensor.check_indices" => emit_check_indices(&mut b, op, &mut buffers)?,
            "tensor.reshape" => {
                let src = buffers[&b.ctx.operand(op, 0)];
                let r = b.ctx.result(op, 0);
                let ty = b.ctx.value_type(r);
                let mem = memref_of(b.ctx, ty)
                    .ok_or_else(|| Diagnostic::op_error(b.ctx, op, "a reshape of dynamic shape"))?;
                let v = b.value("kernel.view", &[src], mem, vec![]);
                buffers.insert(r, v);
            }
            _ => {
                let (group, host_in, host_out) = group_of(b.ctx, op)?;
                // Inner values of the group and the host buffers they stand for.
                let mut host: HashMap<Value, Value> = HashMap::new();
                for (inner, outer) in group.inputs.iter().zip(&host_in) {
                    host.insert(*inner, buffers[outer]);
                }
                let mut emitter = GroupEmitter {
                    module_block,
                    fname: &fname,
                    kernels: &mut kernels,
                    tiles,
                    host: &mut host,
                    placed: &mut placed,
                };
                emitter.emit(&mut b, op, group.clone())?;
                for (inner, outer) in group.outputs.iter().zip(&host_out) {
                    buffers.insert(*outer, host[inner]);
                }
            }
        }
    }
    chains::check(&placed)?;
    ctx.insert_op_before(func, host.op());
    ctx.erase_op(func);
    let planned = plan::plan_arena(ctx, host.op(), plan.memory_reuse);
    if let Some(limit) = plan
        .max_activation_bytes
        .filter(|&l| planned.arena_bytes > l)
    {
        let at = planned.peak_op.unwrap_or(host.op());
        return Err(Diagnostic::op_error(
            ctx,
            at,
            format!(
                "the plan needs {} bytes of activations, more than the limit of {limit} (max-activation-bytes); {} bytes are alive at this op, the peak",
                planned.arena_bytes, planned.peak_live_bytes
            ),
        ));
    }
    Ok(Report {
        kernels,
        arena_bytes: planned.arena_bytes,
        unplanned_bytes: planned.unplanned_bytes,
    })
}

/// `tensor.custom` as a `kernel.custom_call` of the host plan: its inputs'
/// buffers, then new arena buffers for its outputs; name, version and
/// config as the op has them.
fn emit_custom_call(
    b: &mut builder::KernelBuilder<'_>,
    op: Operation,
    buffers: &mut HashMap<Value, Value>,
    placed: &mut Vec<chains::Placed>,
) -> Result<(), Diagnostic> {
    let mut operands: Vec<Value> = b.ctx.operands(op).map(|v| buffers[&v]).collect();
    let num_inputs = operands.len();
    let i64t = b.ctx.integer_type(64);
    for r in b.ctx.results(op).collect::<Vec<_>>() {
        let ty = b.ctx.value_type(r);
        let mem = memref_of(b.ctx, ty).ok_or_else(|| {
            Diagnostic::op_error(b.ctx, op, "a custom op result of dynamic shape")
        })?;
        let mem = within_budget(b.ctx, op, mem, "a custom op result")?;
        let zero = b.ctx.integer_attr(i64t, 0);
        let buf = b.value("kernel.alloc", &[], mem, vec![("offset", zero)]);
        buffers.insert(r, buf);
        operands.push(buf);
    }
    let mut props = vec![("num_inputs", b.ctx.integer_attr(i64t, num_inputs as i128))];
    for key in ["name", "version", "config"] {
        if let Some(a) = strata_ir::ods::inherent_attr(b.ctx, op, key) {
            props.push((key, a));
        }
    }
    let name = strata_dialects::tensor::CustomOp(op)
        .name(b.ctx)
        .unwrap_or_default();
    b.op("kernel.custom_call", &operands, &[], props);
    chains::place(b.ctx, &[op], &format!("custom op {name}"), false, placed);
    Ok(())
}

/// `tensor.check_indices` as a `kernel.check_indices` step on its input's
/// buffer, which then stands for its result too (checked, not copied).
fn emit_check_indices(
    b: &mut builder::KernelBuilder<'_>,
    op: Operation,
    buffers: &mut HashMap<Value, Value>,
) -> Result<(), Diagnostic> {
    let check = strata_dialects::tensor::CheckIndicesOp(op);
    let (Some(sizes), Some(axes), Some(message)) = (
        check.sizes(b.ctx),
        check.axes(b.ctx),
        strata_ir::ods::inherent_attr(b.ctx, op, "message"),
    ) else {
        return Err(Diagnostic::op_error(
            b.ctx,
            op,
            "needs its sizes, axes and message",
        ));
    };
    let props = vec![
        ("sizes", i64_array(b.ctx, &sizes)),
        ("axes", i64_array(b.ctx, &axes)),
        ("message", message),
    ];
    let buf = buffers[&b.ctx.operand(op, 0)];
    b.op("kernel.check_indices", &[buf], &[], props);
    buffers.insert(b.ctx.result(op, 0), buf);
    Ok(())
}

/// `array<i64: ...>` of `values` (the integer lists of the plan's ops).
fn i64_array(ctx: &mut Context, values: &[i64]) -> strata_ir::Attribute {
    let element = ctx.integer_type(64);
    ctx.intern_attr(strata_ir::AttrKind::DenseArray {
        element,
        values: values
            .iter()
            .map(|&x| x as u64)
            .collect::<Vec<u64>>()
            .into(),
    })
}

/// Emits the kernels (or library calls) and launches of groups into the
/// host function.
struct GroupEmitter<'f> {
    module_block: Block,
    fname: &'f str,
    kernels: &'f mut usize,
    tiles: TileSizes,
    /// The host buffer of each inner value computed so far.
    host: &'f mut HashMap<Value, Value>,
    /// Where each op of a must-fuse chain was placed.
    placed: &'f mut Vec<chains::Placed>,
}

impl GroupEmitter<'_> {
    /// A new arena buffer for `v` in the host function.
    fn alloc(
        &mut self,
        b: &mut builder::KernelBuilder<'_>,
        anchor: Operation,
        v: Value,
    ) -> Result<Value, Diagnostic> {
        let ty = b.ctx.value_type(v);
        let mem = memref_of(b.ctx, ty)
            .ok_or_else(|| Diagnostic::op_error(b.ctx, anchor, "a result of dynamic shape"))?;
        let mem = within_budget(b.ctx, anchor, mem, "a result")?;
        let i64t = b.ctx.integer_type(64);
        let zero = b.ctx.integer_attr(i64t, 0);
        let buf = b.value("kernel.alloc", &[], mem, vec![("offset", zero)]);
        self.host.insert(v, buf);
        Ok(buf)
    }

    fn emit(
        &mut self,
        b: &mut builder::KernelBuilder<'_>,
        anchor: Operation,
        group: GroupIr,
    ) -> Result<(), Diagnostic> {
        if self.tiles.library_gemm {
            if let Some((contract, plan)) = kernels::library_gemm(b.ctx, &group) {
                return self.emit_library_gemm(b, anchor, group, contract, plan);
            }
        }
        let kname = format!(
            "{}_{}_{}",
            self.fname,
            *self.kernels,
            kind_of(b.ctx, &group)
        );
        let grid = emit_group(b.ctx, self.module_block, &kname, &group, self.tiles)?;
        *self.kernels += 1;
        chains::place(b.ctx, &group.ops, &kname, false, self.placed);
        let mut args: Vec<Value> = group.inputs.iter().map(|v| self.host[v]).collect();
        for &out in &group.outputs {
            args.push(self.alloc(b, anchor, out)?);
        }
        if grid.iter().all(|&g| g > 0) {
            let index = b.ctx.index_type();
            let mut sizes = Vec::new();
            for g in grid {
                let a = b.ctx.integer_attr(index, i128::from(g));
                sizes.push(b.constant(a, index));
            }
            let callee = b.ctx.intern_attr(strata_ir::AttrKind::SymbolRef {
                root: kname.as_bytes().into(),
                nested: Box::new([]),
            });
            let seg = strata_dialects::kernel::segment_sizes(
                b.ctx,
                &[sizes.len() as u64, args.len() as u64],
            );
            let mut operands = sizes;
            operands.extend(args);
            b.op(
                "kernel.launch",
                &operands,
                &[],
                vec![("kernel", callee), ("operandSegmentSizes", seg)],
            );
        }
        Ok(())
    }

    /// The contraction as a `kernel.gemm` into its own buffer, then the rest
    /// of the group (its epilogue) as an elementwise kernel reading it.
    fn emit_library_gemm(
        &mut self,
        b: &mut builder::KernelBuilder<'_>,
        anchor: Operation,
        group: GroupIr,
        contract: Operation,
        plan: kernels::GemmPlan,
    ) -> Result<(), Diagnostic> {
        let (lhs, rhs, result) = (
            b.ctx.operand(contract, 0),
            b.ctx.operand(contract, 1),
            b.ctx.result(contract, 0),
        );
        let out = self.alloc(b, anchor, result)?;
        let (l, r) = (self.host[&lhs], self.host[&rhs]);
        let i64t = b.ctx.integer_type(64);
        let props = vec![
            ("batch", i64_array(b.ctx, &plan.batch)),
            ("m", b.ctx.integer_attr(i64t, i128::from(plan.m))),
            ("n", b.ctx.integer_attr(i64t, i128::from(plan.n))),
            ("k", b.ctx.integer_attr(i64t, i128::from(plan.k))),
            ("lhs_strides", i64_array(b.ctx, &plan.lhs_strides)),
            ("rhs_strides", i64_array(b.ctx, &plan.rhs_strides)),
            ("out_strides", i64_array(b.ctx, &plan.out_strides)),
        ];
        b.op("kernel.gemm", &[l, r, out], &[], props);
        let gemm = format!("gemm {}x{}x{} (library)", plan.m, plan.k, plan.n);
        chains::place(b.ctx, &[contract], &gemm, true, self.placed);
        let rest: Vec<Operation> = group
            .ops
            .iter()
            .copied()
            .filter(|&o| o != contract)
            .collect();
        if rest.is_empty() {
            return Ok(());
        }
        let mut inputs: Vec<Value> = Vec::new();
        for &o in &rest {
            for v in b.ctx.operands(o).collect::<Vec<_>>() {
                let inside = b.ctx.defining_op(v).is_some_and(|d| rest.contains(&d));
                if !inside && !inputs.contains(&v) {
                    inputs.push(v);
                }
            }
        }
        let epilogue = GroupIr {
            ops: rest,
            inputs,
            outputs: group
                .outputs
                .iter()
                .copied()
                .filter(|&v| v != result)
                .collect(),
            anchor: group.anchor,
        };
        if epilogue.outputs.is_empty() {
            return Ok(());
        }
        self.emit(b, anchor, epilogue)
    }
}

fn kind_of(ctx: &Context, g: &GroupIr) -> &'static str {
    let has = |n: &str| g.ops.iter().any(|&o| ctx.op_name_str(o) == n);
    if has("tensor.contract") {
        "contract"
    } else if has("tensor.reduce") {
        "reduce"
    } else {
        "map"
    }
}

/// The group of a top-level op, with the host values it reads and writes.
fn group_of(ctx: &Context, op: Operation) -> Result<(GroupIr, Vec<Value>, Vec<Value>), Diagnostic> {
    if ctx.op_name_str(op) == "tensor.fusion" {
        let Some(block) = ctx
            .op_regions(op)
            .first()
            .and_then(|&r| ctx.region_entry_block(r))
        else {
            return Err(Diagnostic::op_error(ctx, op, "a fusion group needs a body"));
        };
        let body: Vec<Operation> = ctx.block_ops(block).collect();
        let Some((&term, members)) = body.split_last() else {
            return Err(Diagnostic::op_error(ctx, op, "a fusion group needs a body"));
        };
        let group = GroupIr {
            ops: members.to_vec(),
            inputs: ctx.block_args(block).collect(),
            outputs: ctx.operands(term).collect(),
            anchor: op,
        };
        return Ok((group, ctx.operands(op).collect(), ctx.results(op).collect()));
    }
    let inputs: Vec<Value> = ctx.operands(op).collect();
    let outputs: Vec<Value> = ctx.results(op).collect();
    let group = GroupIr {
        ops: vec![op],
        inputs: inputs.clone(),
        outputs: outputs.clone(),
        anchor: op,
    };
    Ok((group, inputs, outputs))
}
