//! A block's threads run phase by phase (see the module docs): the
//! kernel's body cut at its synchronizations, the values that cross a cut
//! kept per thread in arrays, and the `scf.for` loops that synchronize run
//! by the block as a whole.

use std::collections::{HashMap, HashSet};

use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::BasicValue;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use inkwell::IntPredicate;
use strata_ir::{Block, Context, Operation, Value, WalkOrder};

use super::super::{GpuError, Kernel, R};
use crate::llvm::LlvmError;

/// A piece of a kernel body, as the emulation runs it.
pub(super) enum Step {
    /// Ops every thread runs in turn.
    Phase(Phase),
    /// An `scf.for` whose body synchronizes: the block runs the loop (its
    /// bounds are uniform; thread 0's are used), and the steps of its body
    /// in each iteration.
    Loop { op: Operation, body: Vec<Step> },
}

/// Ops between two synchronizations.
pub(super) struct Phase {
    /// The phase's number, in the order of the body (nested loops' phases
    /// included).
    index: usize,
    ops: Vec<Operation>,
    /// The warp-synchronous op that ends the phase (`shfl_sync`,
    /// `mma_sync`): each thread's operands are kept at the end of the
    /// phase, and its result is the next phase's.
    sync: Option<Operation>,
}

/// Whether `op` synchronizes threads (the block or a warp).
fn syncs(ir: &Context, op: Operation) -> bool {
    matches!(
        ir.op_name_str(op),
        "nvptx.barrier" | "nvptx.shfl_sync" | "nvptx.mma_sync"
    )
}

/// Cuts kernel bodies into steps.
pub(super) struct Cutter<'a> {
    ir: &'a Context,
    /// Phases made so far.
    pub(super) phases: usize,
    /// The `shared_alloc`s met (each one buffer of the block).
    pub(super) shared: Vec<Operation>,
}

impl<'a> Cutter<'a> {
    pub(super) fn new(ir: &'a Context) -> Self {
        Cutter {
            ir,
            phases: 0,
            shared: Vec::new(),
        }
    }

    fn phase(&mut self) -> Step {
        let index = self.phases;
        self.phases += 1;
        Step::Phase(Phase {
            index,
            ops: Vec::new(),
            sync: None,
        })
    }

    /// The steps of `block`'s ops (its terminator left out).
    pub(super) fn cut(&mut self, block: Block) -> R<Vec<Step>> {
        let ir = self.ir;
        let mut steps = vec![self.phase()];
        for op in ir.block_ops(block).collect::<Vec<_>>() {
            let name = ir.op_name_str(op);
            match name {
                "func.return" | "scf.yield" => {}
                "nvptx.shared_alloc" => self.shared.push(op),
                "nvptx.barrier" => steps.push(self.phase()),
                "nvptx.shfl_sync" | "nvptx.mma_sync" => {
                    if let Some(Step::Phase(p)) = steps.last_mut() {
                        p.sync = Some(op);
                    }
                    steps.push(self.phase());
                }
                _ => {
                    let nested = ir
                        .nested_ops(op, WalkOrder::PreOrder)
                        .into_iter()
                        .find(|&o| syncs(ir, o) || ir.op_name_str(o) == "nvptx.shared_alloc");
                    match nested {
                        None => {
                            if let Some(Step::Phase(p)) = steps.last_mut() {
                                p.ops.push(op);
                            }
                        }
                        Some(_) if name == "scf.for" => {
                            let body = ir
                                .op_regions(op)
                                .first()
                                .and_then(|&r| ir.region_entry_block(r))
                                .ok_or_else(|| GpuError::at(ir, op, "has no body"))?;
                            let body = self.cut(body)?;
                            steps.push(Step::Loop { op, body });
                            steps.push(self.phase());
                        }
                        Some(n) => {
                            return Err(GpuError::at(
                                ir,
                                n,
                                "cannot be emulated inside scf.if (the host emulation synchronizes threads in straight code and in scf.for loops only)",
                            ))
                        }
                    }
                }
            }
        }
        Ok(steps)
    }
}

/// Where each value of a cut body is defined and used.
#[derive(Default)]
struct Survey {
    /// The phase that defines a value (a warp-synchronous op's result: the
    /// phase after it).
    defined: HashMap<Value, usize>,
    /// The values each phase's ops use (nested ops' included).
    used: Vec<HashSet<Value>>,
    /// Values the block itself uses: synchronizing loops' bounds, initial
    /// and yielded values.
    outside: HashSet<Value>,
}

impl Survey {
    fn of(ir: &Context, steps: &[Step], phases: usize) -> Survey {
        let mut s = Survey {
            used: vec![HashSet::new(); phases],
            ..Survey::default()
        };
        s.walk(ir, steps);
        s
    }

    fn walk(&mut self, ir: &Context, steps: &[Step]) {
        for step in steps {
            match step {
                Step::Phase(p) => {
                    for &op in &p.ops {
                        for r in ir.results(op) {
                            self.defined.insert(r, p.index);
                        }
                        self.used[p.index].extend(ir.operands(op));
                        for o in ir.nested_ops(op, WalkOrder::PreOrder) {
                            self.used[p.index].extend(ir.operands(o));
                        }
                    }
                    if let Some(s) = p.sync {
                        self.used[p.index].extend(ir.operands(s));
                        self.defined.insert(ir.result(s, 0), p.index + 1);
                    }
                }
                Step::Loop { op, body } => {
                    self.outside.extend(ir.operands(*op));
                    if let Some(b) = loop_body(ir, *op) {
                        if let Some(t) = ir.block_ops(b).last() {
                            self.outside.extend(ir.operands(t));
                        }
                    }
                    self.walk(ir, body);
                }
            }
        }
    }
}

fn loop_body(ir: &Context, op: Operation) -> Option<Block> {
    ir.op_regions(op)
        .first()
        .and_then(|&r| ir.region_entry_block(r))
}

/// What a warp-synchronous op keeps between its phases.
enum SyncMemory<'ctx> {
    /// Each thread's value and source lane.
    Shuffle {
        values: PointerValue<'ctx>,
        sources: PointerValue<'ctx>,
        ty: BasicTypeEnum<'ctx>,
    },
    /// Each thread's fragments of `A` (8 elements), `B` (4) and `C` (4
    /// f32s), the `D` the warp computes, and the accumulator of one sum.
    Mma {
        a: PointerValue<'ctx>,
        b: PointerValue<'ctx>,
        c: PointerValue<'ctx>,
        d: PointerValue<'ctx>,
        sum: PointerValue<'ctx>,
        bf16: bool,
    },
}

/// The block's memory for a cut body.
pub(super) struct Memory<'ctx> {
    /// The kernel, where diagnostics without a better place point.
    anchor: Operation,
    /// A per-thread array for each value that crosses phases.
    arrays: HashMap<Value, (PointerValue<'ctx>, BasicTypeEnum<'ctx>)>,
    /// By phase: the arrayed values it reads (defined elsewhere).
    live_in: Vec<Vec<Value>>,
    /// By phase: the arrayed values it defines.
    stored: Vec<Vec<Value>>,
    syncs: HashMap<Operation, SyncMemory<'ctx>>,
}

impl<'ctx> Kernel<'_, 'ctx> {
    /// Allocates (at the builder's position, the function's entry) the
    /// shared buffers and the block's arrays for `steps`.
    pub(super) fn memory(
        &mut self,
        anchor: Operation,
        cutter: &Cutter<'_>,
        steps: &[Step],
        threads: u32,
    ) -> R<Memory<'ctx>> {
        let ir = self.ir;
        let i32t = self.llvm.i32_type();
        let n = i32t.const_int(u64::from(threads), false);
        for &op in &cutter.shared {
            let elements = strata_dialects::nvptx::SharedAllocOp(op)
                .elements(ir)
                .unwrap_or(1)
                .clamp(1, i64::from(u32::MAX)) as u32;
            let element = self.pointee(op, ir.value_type(ir.result(op, 0)))?;
            let buf = self.builder.build_array_alloca(
                element,
                i32t.const_int(u64::from(elements), false),
                "shared",
            )?;
            self.values.insert(ir.result(op, 0), buf.into());
        }
        let survey = Survey::of(ir, steps, cutter.phases);
        let mut mem = Memory {
            anchor,
            arrays: HashMap::new(),
            live_in: vec![Vec::new(); cutter.phases],
            stored: vec![Vec::new(); cutter.phases],
            syncs: HashMap::new(),
        };
        // Values that cross phases, sorted for a deterministic module.
        let mut crossing: Vec<(usize, Value)> = Vec::new();
        for (&v, &p) in &survey.defined {
            let elsewhere = survey.outside.contains(&v)
                || survey
                    .used
                    .iter()
                    .enumerate()
                    .any(|(q, u)| q != p && u.contains(&v));
            if elsewhere {
                crossing.push((p, v));
            }
        }
        crossing.sort_by_key(|&(p, v)| (p, format!("{v:?}")));
        for (p, v) in crossing {
            let ty = self.ty(ir.defining_op(v).unwrap_or(anchor), ir.value_type(v))?;
            let a = self.builder.build_array_alloca(ty, n, "")?;
            mem.arrays.insert(v, (a, ty));
            mem.stored[p].push(v);
        }
        self.loop_arrays(anchor, steps, &mut mem, n)?;
        for (q, used) in survey.used.iter().enumerate() {
            let mut live: Vec<Value> = used
                .iter()
                .copied()
                .filter(|v| mem.arrays.contains_key(v) && survey.defined.get(v) != Some(&q))
                .collect();
            live.sort_by_key(|v| format!("{v:?}"));
            mem.live_in[q] = live;
        }
        self.sync_memory(steps, &mut mem, threads)?;
        Ok(mem)
    }

    /// The arrays of synchronizing loops' iteration arguments, which their
    /// results share.
    fn loop_arrays(
        &mut self,
        anchor: Operation,
        steps: &[Step],
        mem: &mut Memory<'ctx>,
        n: IntValue<'ctx>,
    ) -> R<()> {
        let ir = self.ir;
        for step in steps {
            let Step::Loop { op, body } = step else {
                continue;
            };
            let b = loop_body(ir, *op).ok_or_else(|| GpuError::at(ir, *op, "has no body"))?;
            for (arg, r) in ir.block_args(b).skip(1).zip(ir.results(*op)) {
                let ty = self.ty(anchor, ir.value_type(arg))?;
                let a = self.builder.build_array_alloca(ty, n, "")?;
                mem.arrays.insert(arg, (a, ty));
                mem.arrays.insert(r, (a, ty));
            }
            self.loop_arrays(anchor, body, mem, n)?;
        }
        Ok(())
    }

    fn sync_memory(&mut self, steps: &[Step], mem: &mut Memory<'ctx>, threads: u32) -> R<()> {
        let ir = self.ir;
        let i32t = self.llvm.i32_type();
        let count = |k: u64| i32t.const_int(u64::from(threads) * k, false);
        for step in steps {
            match step {
                Step::Loop { body, .. } => self.sync_memory(body, mem, threads)?,
                Step::Phase(Phase { sync: Some(s), .. }) => {
                    let s = *s;
                    let m = if ir.op_name_str(s) == "nvptx.mma_sync" {
                        let a_ty = ir.value_type(ir.operand(s, 0));
                        let bf16 = matches!(ir.type_kind(a_ty), strata_ir::TypeKind::Vector { element, .. }
                            if strata_ir::printer::type_to_string(ir, *element) == "bf16");
                        let half: BasicTypeEnum<'ctx> = if bf16 {
                            self.llvm.i16_type().into()
                        } else {
                            self.llvm.f16_type().into()
                        };
                        let f32t = self.llvm.f32_type();
                        SyncMemory::Mma {
                            a: self.builder.build_array_alloca(half, count(8), "mma.a")?,
                            b: self.builder.build_array_alloca(half, count(4), "mma.b")?,
                            c: self.builder.build_array_alloca(f32t, count(4), "mma.c")?,
                            d: self.builder.build_array_alloca(f32t, count(4), "mma.d")?,
                            sum: self.builder.build_alloca(f32t, "mma.sum")?,
                            bf16,
                        }
                    } else {
                        let ty = self.ty(s, ir.value_type(ir.result(s, 0)))?;
                        SyncMemory::Shuffle {
                            values: self.builder.build_array_alloca(ty, count(1), "")?,
                            sources: self.builder.build_array_alloca(i32t, count(1), "")?,
                            ty,
                        }
                    };
                    mem.syncs.insert(s, m);
                }
                Step::Phase(_) => {}
            }
        }
        Ok(())
    }

    /// `&base[i]` for an array of `ty`.
    fn at(
        &self,
        base: PointerValue<'ctx>,
        ty: BasicTypeEnum<'ctx>,
        i: IntValue<'ctx>,
    ) -> R<PointerValue<'ctx>> {
        // SAFETY: `i` indexes the block's own array within its length
        // (threads, or a thread's fragment within threads times its size).
        Ok(unsafe { self.builder.build_in_bounds_gep(ty, base, &[i], "")? })
    }

    /// Runs `steps` at the builder's position.
    pub(super) fn run_steps(&mut self, steps: &[Step], mem: &Memory<'ctx>, threads: u32) -> R<()> {
        let mut pending: Option<Operation> = None;
        for step in steps {
            match step {
                Step::Phase(p) => {
                    self.thread_loop(threads, |k, tid| {
                        for v in &mem.live_in[p.index] {
                            let (a, ty) = mem.arrays[v];
                            let ptr = k.at(a, ty, tid)?;
                            let x = k.builder.build_load(ty, ptr, "")?;
                            k.values.insert(*v, x);
                        }
                        if let Some(s) = pending {
                            k.sync_result(s, tid, mem)?;
                        }
                        for &op in &p.ops {
                            k.op(op)?;
                        }
                        for v in &mem.stored[p.index] {
                            let (a, ty) = mem.arrays[v];
                            let x = k.value(mem.anchor, *v)?;
                            let ptr = k.at(a, ty, tid)?;
                            k.builder.build_store(ptr, x)?;
                        }
                        if let Some(s) = p.sync {
                            k.sync_operands(s, tid, mem)?;
                        }
                        Ok(())
                    })?;
                    if let Some(s) = p.sync {
                        if let Some(SyncMemory::Mma { .. }) = mem.syncs.get(&s) {
                            self.warp_mma(s, mem, threads)?;
                        }
                    }
                    pending = p.sync;
                }
                Step::Loop { op, body } => {
                    self.block_loop(*op, body, mem, threads)?;
                    pending = None;
                }
            }
        }
        Ok(())
    }

    /// A synchronizing `scf.for` run by the block: the iteration arrays
    /// filled from the initial values, then per iteration the body's steps
    /// and the yielded values copied back.
    fn block_loop(
        &mut self,
        op: Operation,
        body: &[Step],
        mem: &Memory<'ctx>,
        threads: u32,
    ) -> R<()> {
        let ir = self.ir;
        let operands: Vec<Value> = ir.operands(op).collect();
        let lb = self.uniform(op, operands[0], mem)?;
        let ub = self.uniform(op, operands[1], mem)?;
        let step = self.uniform(op, operands[2], mem)?;
        let b = loop_body(ir, op).ok_or_else(|| GpuError::at(ir, op, "has no body"))?;
        let args: Vec<Value> = ir.block_args(b).collect();
        let yielded: Vec<Value> = ir
            .block_ops(b)
            .last()
            .map(|t| ir.operands(t).collect())
            .unwrap_or_default();
        // Copies `from` (per thread) into the iteration arrays.
        let copy = |k: &mut Self, from: &[Value], tid: IntValue<'ctx>| -> R<()> {
            let mut xs = Vec::new();
            for &v in from {
                xs.push(k.per_thread(op, v, tid, mem)?);
            }
            for (x, arg) in xs.into_iter().zip(&args[1..]) {
                let (a, ty) = mem.arrays[arg];
                let ptr = k.at(a, ty, tid)?;
                k.builder.build_store(ptr, x)?;
            }
            Ok(())
        };
        self.thread_loop(threads, |k, tid| copy(k, &operands[3..], tid))?;
        let pre = self
            .builder
            .get_insert_block()
            .ok_or_else(|| LlvmError("no insertion block".into()))?;
        let header = self.llvm.append_basic_block(self.function, "block_for");
        let body_bb = self
            .llvm
            .append_basic_block(self.function, "block_for.body");
        let exit = self.llvm.append_basic_block(self.function, "block_for.end");
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(header);
        let iv = self.builder.build_phi(lb.get_type(), "iv")?;
        iv.add_incoming(&[(&lb, pre)]);
        let i = iv.as_basic_value().into_int_value();
        let more = self
            .builder
            .build_int_compare(IntPredicate::SLT, i, ub, "")?;
        self.builder.build_conditional_branch(more, body_bb, exit)?;
        self.builder.position_at_end(body_bb);
        self.values.insert(args[0], i.into());
        self.run_steps(body, mem, threads)?;
        self.thread_loop(threads, |k, tid| copy(k, &yielded, tid))?;
        let latch = self
            .builder
            .get_insert_block()
            .ok_or_else(|| LlvmError("no insertion block".into()))?;
        let next = self.builder.build_int_add(i, step, "")?;
        iv.add_incoming(&[(&next, latch)]);
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(exit);
        Ok(())
    }

    /// A value the block uses (a loop bound): thread 0's when it is kept
    /// per thread.
    fn uniform(&mut self, op: Operation, v: Value, mem: &Memory<'ctx>) -> R<IntValue<'ctx>> {
        let zero = self.llvm.i32_type().const_zero();
        Ok(self.per_thread(op, v, zero, mem)?.into_int_value())
    }

    /// Thread `tid`'s `v`: from its array when it is kept per thread.
    fn per_thread(
        &mut self,
        op: Operation,
        v: Value,
        tid: IntValue<'ctx>,
        mem: &Memory<'ctx>,
    ) -> R<BasicValueEnum<'ctx>> {
        match mem.arrays.get(&v) {
            Some(&(a, ty)) => {
                let ptr = self.at(a, ty, tid)?;
                Ok(self.builder.build_load(ty, ptr, "")?)
            }
            None => self.value(op, v),
        }
    }

    /// At the end of a phase: what thread `tid` gives warp-synchronous op
    /// `s`.
    fn sync_operands(&mut self, s: Operation, tid: IntValue<'ctx>, mem: &Memory<'ctx>) -> R<()> {
        let ir = self.ir;
        let i32t = self.llvm.i32_type();
        match mem.syncs.get(&s) {
            Some(&SyncMemory::Shuffle {
                values,
                sources,
                ty,
            }) => {
                let x = self.value(s, ir.operand(s, 0))?;
                let off = self.value(s, ir.operand(s, 1))?.into_int_value();
                let src = self.shuffle_source(s, tid, off)?;
                let vp = self.at(values, ty, tid)?;
                self.builder.build_store(vp, x)?;
                let sp = self.at(sources, i32t.into(), tid)?;
                self.builder.build_store(sp, src)?;
            }
            Some(&SyncMemory::Mma { a, b, c, bf16, .. }) => {
                let half: BasicTypeEnum<'ctx> = if bf16 {
                    self.llvm.i16_type().into()
                } else {
                    self.llvm.f16_type().into()
                };
                let f32t = self.llvm.f32_type().as_basic_type_enum();
                for (i, (base, ty, size)) in [(a, half, 8u64), (b, half, 4), (c, f32t, 4)]
                    .into_iter()
                    .enumerate()
                {
                    let x = self.value(s, ir.operand(s, i))?;
                    let first = self
                        .builder
                        .build_int_mul(tid, i32t.const_int(size, false), "")?;
                    let ptr = self.at(base, ty, first)?;
                    let st = self.builder.build_store(ptr, x)?;
                    let _ = st.set_alignment(if i == 2 { 4 } else { 2 });
                }
            }
            None => return Err(GpuError::at(ir, s, "internal error: no memory for this op")),
        }
        Ok(())
    }

    /// At the start of the phase after warp-synchronous op `s`: its result
    /// for thread `tid`.
    fn sync_result(&mut self, s: Operation, tid: IntValue<'ctx>, mem: &Memory<'ctx>) -> R<()> {
        let ir = self.ir;
        let i32t = self.llvm.i32_type();
        let x = match mem.syncs.get(&s) {
            Some(&SyncMemory::Shuffle {
                values,
                sources,
                ty,
            }) => {
                let sp = self.at(sources, i32t.into(), tid)?;
                let src = self.builder.build_load(i32t, sp, "")?.into_int_value();
                let vp = self.at(values, ty, src)?;
                self.builder.build_load(ty, vp, "")?
            }
            Some(&SyncMemory::Mma { d, .. }) => {
                let f32t = self.llvm.f32_type();
                let first = self
                    .builder
                    .build_int_mul(tid, i32t.const_int(4, false), "")?;
                let ptr = self.at(d, f32t.into(), first)?;
                let x = self.builder.build_load(f32t.vec_type(4), ptr, "")?;
                if let Some(i) = x.as_instruction_value() {
                    let _ = i.set_alignment(4);
                }
                x
            }
            None => return Err(GpuError::at(ir, s, "internal error: no memory for this op")),
        };
        self.values.insert(ir.result(s, 0), x);
        Ok(())
    }

    /// Each warp's `D = A * B + C` of `mma_sync` `s` (m16n8k16, row-major
    /// `A`, column-major `B`), from its lanes' fragments as PTX lays them
    /// out: lane `l` holds, with `g = l / 4` and `t = l % 4`, `A[g + 8 *
    /// (e / 2 % 2)][2t + e % 2 + 8 * (e / 4)]` as its element `e`,
    /// `B[2t + e % 2 + 8 * (e / 2)][g]`, and `C[g + 8 * (e / 2)][2t + e %
    /// 2]`.
    fn warp_mma(&mut self, s: Operation, mem: &Memory<'ctx>, threads: u32) -> R<()> {
        let Some(&SyncMemory::Mma {
            a,
            b,
            c,
            d,
            sum,
            bf16,
        }) = mem.syncs.get(&s)
        else {
            return Err(GpuError::at(
                self.ir,
                s,
                "internal error: no memory for this op",
            ));
        };
        let i32t = self.llvm.i32_type();
        let f32t = self.llvm.f32_type();
        let k = |v: u64| i32t.const_int(v, false);
        self.range_loop(threads / 32, |kk, warp| {
            kk.range_loop(32, |kk, lane| {
                kk.range_loop(4, |kk, e| {
                    let bld = &kk.builder;
                    let base = bld.build_int_mul(warp, k(32), "")?;
                    let g = bld.build_right_shift(lane, k(2), false, "")?;
                    let t = bld.build_and(lane, k(3), "")?;
                    let row = bld.build_int_add(
                        g,
                        bld.build_int_mul(bld.build_right_shift(e, k(1), false, "")?, k(8), "")?,
                        "",
                    )?;
                    let col = bld.build_int_add(
                        bld.build_int_mul(t, k(2), "")?,
                        bld.build_and(e, k(1), "")?,
                        "",
                    )?;
                    let me = bld.build_int_add(base, lane, "")?;
                    let ci = bld.build_int_add(bld.build_int_mul(me, k(4), "")?, e, "")?;
                    let cp = kk.at(c, f32t.into(), ci)?;
                    let c0 = kk.builder.build_load(f32t, cp, "")?;
                    kk.builder.build_store(sum, c0)?;
                    kk.range_loop(16, |kk, i| {
                        let bld = &kk.builder;
                        // A[row][i]: lane (row % 8) * 4 + (i % 8) / 2,
                        // element i % 2 + 2 (row / 8) + 4 (i / 8).
                        let pair =
                            bld.build_right_shift(bld.build_and(i, k(7), "")?, k(1), false, "")?;
                        let a_lane = bld.build_int_add(
                            bld.build_int_mul(bld.build_and(row, k(7), "")?, k(4), "")?,
                            pair,
                            "",
                        )?;
                        let a_e = bld.build_int_add(
                            bld.build_int_add(
                                bld.build_and(i, k(1), "")?,
                                bld.build_int_mul(
                                    bld.build_right_shift(row, k(3), false, "")?,
                                    k(2),
                                    "",
                                )?,
                                "",
                            )?,
                            bld.build_int_mul(
                                bld.build_right_shift(i, k(3), false, "")?,
                                k(4),
                                "",
                            )?,
                            "",
                        )?;
                        let ai = bld.build_int_add(
                            bld.build_int_mul(bld.build_int_add(base, a_lane, "")?, k(8), "")?,
                            a_e,
                            "",
                        )?;
                        // B[i][col]: lane col * 4 + (i % 8) / 2, element
                        // 2 (i / 8) + i % 2.
                        let b_lane =
                            bld.build_int_add(bld.build_int_mul(col, k(4), "")?, pair, "")?;
                        let b_e = bld.build_int_add(
                            bld.build_int_mul(
                                bld.build_right_shift(i, k(3), false, "")?,
                                k(2),
                                "",
                            )?,
                            bld.build_and(i, k(1), "")?,
                            "",
                        )?;
                        let bi = bld.build_int_add(
                            bld.build_int_mul(bld.build_int_add(base, b_lane, "")?, k(4), "")?,
                            b_e,
                            "",
                        )?;
                        let x = kk.fragment_element(a, ai, bf16)?;
                        let y = kk.fragment_element(b, bi, bf16)?;
                        let bld = &kk.builder;
                        let p = bld.build_float_mul(x, y, "")?;
                        let acc = bld.build_load(f32t, sum, "")?.into_float_value();
                        let acc = bld.build_float_add(acc, p, "")?;
                        bld.build_store(sum, acc)?;
                        Ok(())
                    })?;
                    let total = kk.builder.build_load(f32t, sum, "")?;
                    let dp = kk.at(d, f32t.into(), ci)?;
                    kk.builder.build_store(dp, total)?;
                    Ok(())
                })
            })
        })
    }

    /// Element `i` of a fragment array of f16 (or bf16 bits) as an f32.
    fn fragment_element(
        &self,
        base: PointerValue<'ctx>,
        i: IntValue<'ctx>,
        bf16: bool,
    ) -> R<inkwell::values::FloatValue<'ctx>> {
        let f32t = self.llvm.f32_type();
        let b = &self.builder;
        if bf16 {
            let i16t = self.llvm.i16_type();
            let p = self.at(base, i16t.into(), i)?;
            let bits = b.build_load(i16t, p, "")?.into_int_value();
            let i32t = self.llvm.i32_type();
            let wide = b.build_int_z_extend(bits, i32t, "")?;
            let high = b.build_left_shift(wide, i32t.const_int(16, false), "")?;
            return Ok(b.build_bit_cast(high, f32t, "")?.into_float_value());
        }
        let f16t = self.llvm.f16_type();
        let p = self.at(base, f16t.into(), i)?;
        let h = b.build_load(f16t, p, "")?.into_float_value();
        Ok(b.build_float_ext(h, f32t, "")?)
    }
}
