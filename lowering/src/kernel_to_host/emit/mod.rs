//! The emitter of one `kernel.func`: the program loop, lazy tiles,
//! materialized tiles, and the ops that need loops of their own.

use std::collections::HashMap;

use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context as LlvmContext;
use inkwell::module::Module;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use strata_dialects::kernel::types::{element_of, tile_shape};
use strata_ir::{AttrKind, Block, Context, Operation, Type, TypeKind, Value};

use super::scalar::{
    int_attr, is_elementwise, is_float, llvm_type, narrow_of, narrow_value, ScalarEmitter,
};
use super::{kernel_name, HostError};

mod compute;
mod control;
mod memory;

type R<T> = Result<T, HostError>;

/// A tile in memory: row-major elements at `ptr`.
#[derive(Clone)]
struct Tile<'ctx> {
    ptr: PointerValue<'ctx>,
    shape: Vec<i64>,
    element: BasicTypeEnum<'ctx>,
}

/// How a strata value exists in the LLVM function.
#[derive(Clone)]
enum Repr<'ctx> {
    Scalar(BasicValueEnum<'ctx>),
    Tile(Tile<'ctx>),
    /// A tile computed element by element where it is used.
    Lazy(Operation),
}

pub(super) struct Emitter<'a, 'ctx> {
    ir: &'a Context,
    llvm: &'ctx LlvmContext,
    module: &'a Module<'ctx>,
    builder: Builder<'ctx>,
    function: FunctionValue<'ctx>,
    entry: BasicBlock<'ctx>,
    values: HashMap<Value, Repr<'ctx>>,
    /// Program ids and grid sizes, as i64.
    pid: [IntValue<'ctx>; 3],
    grid: [IntValue<'ctx>; 3],
    /// Where `kernel.return` goes: the next program.
    next_program: BasicBlock<'ctx>,
    reassoc: bool,
    /// Bytes of the tiles on the kernel's stack frame so far.
    frame_bytes: std::cell::Cell<u64>,
}

/// The most bytes a kernel's tiles may take on its stack frame. Kernels
/// run on the caller's thread or the pool's (16 MiB stacks, the main
/// thread's 8 MiB); a frame past this is refused at compile time instead of
/// jumping the guard page. The default tile sizes stay far below it
/// (a 64x64 f32 accumulator is 16 KiB).
pub const MAX_FRAME_BYTES: u64 = 2 << 20;

/// Rows of a `dot` micro-kernel's register block.
const MICRO_ROWS: i64 = 4;

/// Set the alignment of a load (vector loads from tiles of scalars are
/// aligned as their elements only).
fn set_align(v: BasicValueEnum<'_>, align: u32) {
    use inkwell::values::BasicValue;
    if let Some(i) = v.as_instruction_value() {
        let _ = i.set_alignment(align);
    }
}

fn strides(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1].max(1);
    }
    s
}

/// Whether `kernel` reads, writes or computes f16 values.
fn uses_f16(ir: &Context, kernel: Operation) -> bool {
    let f16 = |ty: Type| {
        let element = element_of(ir, ty);
        ir.type_kind(element) == &TypeKind::Float(strata_ir::float::FloatKind::F16)
            || strata_ir::printer::type_to_string(ir, element) == "!kernel.ptr<f16>"
    };
    ir.nested_ops(kernel, strata_ir::WalkOrder::PreOrder)
        .into_iter()
        .any(|op| {
            ir.results(op).any(|v| f16(ir.value_type(v)))
                || ir.op_regions(op).iter().any(|&r| {
                    ir.region_blocks(r)
                        .any(|b| ir.block_args(b).any(|a| f16(ir.value_type(a))))
                })
        })
}

/// Emit `kernel` as the host entry point of its name into `module`.
pub(super) fn emit_kernel<'ctx>(
    ir: &Context,
    kernel: Operation,
    llvm: &'ctx LlvmContext,
    module: &Module<'ctx>,
) -> R<()> {
    emit_kernel_as(ir, kernel, llvm, module, &kernel_name(ir, kernel))
}

/// [`emit_kernel`] under the symbol `name` instead of the kernel's own.
pub(super) fn emit_kernel_as<'ctx>(
    ir: &Context,
    kernel: Operation,
    llvm: &'ctx LlvmContext,
    module: &Module<'ctx>,
    name: &str,
) -> R<()> {
    if uses_f16(ir, kernel) && !crate::llvm::host_converts_f16() {
        return Err(HostError::at(
            ir,
            kernel,
            "f16 needs a CPU that converts f16 in hardware (on x86, F16C), which this one lacks",
        ));
    }
    let i64t = llvm.i64_type();
    let fn_type = super::abi::entry_type(llvm);
    let function = module.add_function(name, fn_type, None);
    let entry = llvm.append_basic_block(function, "entry");
    let header = llvm.append_basic_block(function, "program");
    let body_bb = llvm.append_basic_block(function, "body");
    let next = llvm.append_basic_block(function, "next");
    let exit = llvm.append_basic_block(function, "exit");
    let builder = llvm.create_builder();
    let p = |i: u32| function.get_nth_param(i).map(|v| v.into_int_value());
    let (Some(gx), Some(gy), Some(gz), Some(begin), Some(end)) = (p(1), p(2), p(3), p(4), p(5))
    else {
        return Err(HostError::at(
            ir,
            kernel,
            "internal error: entry parameters",
        ));
    };
    let args_ptr = function
        .get_nth_param(0)
        .map(|v| v.into_pointer_value())
        .ok_or_else(|| HostError::at(ir, kernel, "internal error: entry parameters"))?;

    builder.position_at_end(entry);
    let Some(block) = ir
        .op_regions(kernel)
        .first()
        .and_then(|&r| ir.region_entry_block(r))
    else {
        return Err(HostError::at(ir, kernel, "a kernel needs a body"));
    };
    let mut values = HashMap::new();
    for (i, arg) in ir.block_args(block).enumerate() {
        let ty = ir.value_type(arg);
        let Some(lt) = llvm_type(ir, llvm, ty) else {
            return Err(HostError::at(
                ir,
                kernel,
                format!("parameter #{i} has no host type"),
            ));
        };
        let Some(v) = super::abi::load_arg(&builder, llvm, args_ptr, i as u64, lt)? else {
            return Err(HostError::at(
                ir,
                kernel,
                format!("parameter #{i} has no host type"),
            ));
        };
        values.insert(arg, Repr::Scalar(v));
    }
    builder.build_unconditional_branch(header)?;

    builder.position_at_end(header);
    let pid = builder.build_phi(i64t, "pid")?;
    pid.add_incoming(&[(&begin, entry)]);
    let pidv = pid.as_basic_value().into_int_value();
    let more = builder.build_int_compare(inkwell::IntPredicate::SLT, pidv, end, "")?;
    builder.build_conditional_branch(more, body_bb, exit)?;

    builder.position_at_end(body_bb);
    let x = builder.build_int_signed_rem(pidv, gx, "pid_x")?;
    let q = builder.build_int_signed_div(pidv, gx, "")?;
    let y = builder.build_int_signed_rem(q, gy, "pid_y")?;
    let z = builder.build_int_signed_div(q, gy, "pid_z")?;

    let mut e = Emitter {
        ir,
        llvm,
        module,
        builder,
        function,
        entry,
        values,
        pid: [x, y, z],
        grid: [gx, gy, gz],
        next_program: next,
        reassoc: false,
        frame_bytes: std::cell::Cell::new(0),
    };
    e.emit_block(block)?;
    // The block after the last `kernel.return` (unreachable) falls through.
    if let Some(tail) = e.builder.get_insert_block() {
        if tail.get_terminator().is_none() {
            e.builder.build_unconditional_branch(next)?;
        }
    }

    e.builder.position_at_end(next);
    let inc = e
        .builder
        .build_int_add(pidv, i64t.const_int(1, false), "")?;
    pid.add_incoming(&[(&inc, next)]);
    e.builder.build_unconditional_branch(header)?;
    e.builder.position_at_end(exit);
    e.builder.build_return(None)?;
    Ok(())
}

impl<'a, 'ctx> Emitter<'a, 'ctx> {
    fn i64(&self, v: i64) -> IntValue<'ctx> {
        self.llvm.i64_type().const_int(v as u64, true)
    }

    fn scalar_emitter(&self) -> ScalarEmitter<'_, 'ctx> {
        ScalarEmitter {
            ir: self.ir,
            llvm: self.llvm,
            module: self.module,
            builder: &self.builder,
            reassoc: self.reassoc,
            libdevice: false,
        }
    }

    fn host_type(&self, op: Operation, ty: Type) -> R<BasicTypeEnum<'ctx>> {
        llvm_type(self.ir, self.llvm, ty).ok_or_else(|| {
            HostError::at(
                self.ir,
                op,
                format!(
                    "type '{}' has no host representation",
                    strata_ir::printer::type_to_string(self.ir, ty)
                ),
            )
        })
    }

    /// A stack buffer for a tile (allocated once, in the entry block).
    /// A stack slot of `ty` at the start of the entry block (so that it is
    /// allocated once per call, not once per program or loop iteration).
    fn entry_alloca(&self, ty: BasicTypeEnum<'ctx>, name: &str) -> R<PointerValue<'ctx>> {
        let b = self.llvm.create_builder();
        match self.entry.get_first_instruction() {
            Some(first) => b.position_before(&first),
            None => b.position_at_end(self.entry),
        }
        Ok(b.build_alloca(ty, name)?)
    }

    fn alloc_tile(&self, op: Operation, shape: &[i64], element: Type) -> R<Tile<'ctx>> {
        let lt = self.host_type(op, element)?;
        let count = strata_ir::types::num_elements(shape).max(1);
        let Ok(count32) = u32::try_from(count) else {
            return Err(HostError::at(self.ir, op, "tile too large for the host"));
        };
        let width = match lt {
            BasicTypeEnum::IntType(t) => {
                u64::from(t.get_bit_width()).div_ceil(8).next_power_of_two()
            }
            BasicTypeEnum::FloatType(t) if t == self.llvm.f64_type() => 8,
            BasicTypeEnum::FloatType(_) => 4,
            _ => 8,
        };
        let frame = self
            .frame_bytes
            .get()
            .saturating_add(count.saturating_mul(width));
        self.frame_bytes.set(frame);
        if frame > MAX_FRAME_BYTES {
            return Err(HostError::at(
                self.ir,
                op,
                format!(
                    "the kernel's tiles need more than {MAX_FRAME_BYTES} bytes of stack (a tile of {shape:?} brings them to {frame}): use smaller tile sizes (the recipe's codegen block sizes)"
                ),
            ));
        }
        let ptr = self.entry_alloca(lt.array_type(count32).into(), "tile")?;
        Ok(Tile {
            ptr,
            shape: shape.to_vec(),
            element: lt,
        })
    }

    fn element_ptr(&self, tile: &Tile<'ctx>, idx: &[IntValue<'ctx>]) -> R<PointerValue<'ctx>> {
        let s = strides(&tile.shape);
        let mut lin = self.i64(0);
        for (i, &ix) in idx.iter().enumerate() {
            let term = self.builder.build_int_mul(ix, self.i64(s[i]), "")?;
            lin = self.builder.build_int_add(lin, term, "")?;
        }
        // SAFETY: the index is inside the tile (loops run over its shape).
        Ok(unsafe {
            self.builder
                .build_in_bounds_gep(tile.element, tile.ptr, &[lin], "")?
        })
    }

    /// Run `body` for every index of `shape` (nested loops, innermost last).
    fn nd_loop(
        &mut self,
        shape: &[i64],
        body: &mut dyn FnMut(&mut Self, &[IntValue<'ctx>]) -> R<()>,
    ) -> R<()> {
        let mut idx = Vec::with_capacity(shape.len());
        self.nd_loop_at(shape, &mut idx, body)
    }

    fn nd_loop_at(
        &mut self,
        shape: &[i64],
        idx: &mut Vec<IntValue<'ctx>>,
        body: &mut dyn FnMut(&mut Self, &[IntValue<'ctx>]) -> R<()>,
    ) -> R<()> {
        let Some(&n) = shape.get(idx.len()) else {
            return body(self, idx);
        };
        self.counted_loop(self.i64(0), self.i64(n), &mut |e, i| {
            idx.push(i);
            let r = e.nd_loop_at(shape, idx, body);
            idx.pop();
            r
        })
    }

    /// `for i in lo..hi { body(i) }` with i64 bounds.
    fn counted_loop(
        &mut self,
        lo: IntValue<'ctx>,
        hi: IntValue<'ctx>,
        body: &mut dyn FnMut(&mut Self, IntValue<'ctx>) -> R<()>,
    ) -> R<()> {
        let pre = self.current_block()?;
        let header = self.llvm.append_basic_block(self.function, "loop");
        let inner = self.llvm.append_basic_block(self.function, "loop.body");
        let exit = self.llvm.append_basic_block(self.function, "loop.exit");
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(header);
        let i = self.builder.build_phi(self.llvm.i64_type(), "i")?;
        i.add_incoming(&[(&lo, pre)]);
        let iv = i.as_basic_value().into_int_value();
        let more = self
            .builder
            .build_int_compare(inkwell::IntPredicate::SLT, iv, hi, "")?;
        self.builder.build_conditional_branch(more, inner, exit)?;
        self.builder.position_at_end(inner);
        body(self, iv)?;
        let latch = self.current_block()?;
        let next = self.builder.build_int_add(iv, self.i64(1), "")?;
        i.add_incoming(&[(&next, latch)]);
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(exit);
        Ok(())
    }

    fn current_block(&self) -> R<BasicBlock<'ctx>> {
        self.builder
            .get_insert_block()
            .ok_or_else(|| HostError::Llvm(crate::llvm::LlvmError("builder not positioned".into())))
    }

    fn repr(&self, op: Operation, v: Value) -> R<Repr<'ctx>> {
        self.values
            .get(&v)
            .cloned()
            .ok_or_else(|| HostError::at(self.ir, op, "internal error: an operand was not emitted"))
    }

    fn scalar(&self, op: Operation, v: Value) -> R<BasicValueEnum<'ctx>> {
        match self.repr(op, v)? {
            Repr::Scalar(s) => Ok(s),
            _ => Err(HostError::at(self.ir, op, "expected a scalar operand")),
        }
    }

    /// Element `idx` of tile value `v` (emitted at the builder's position).
    fn element(
        &mut self,
        user: Operation,
        v: Value,
        idx: &[IntValue<'ctx>],
    ) -> R<BasicValueEnum<'ctx>> {
        match self.repr(user, v)? {
            Repr::Scalar(s) => Ok(s),
            Repr::Tile(t) => {
                let p = self.element_ptr(&t, idx)?;
                Ok(self.builder.build_load(t.element, p, "")?)
            }
            Repr::Lazy(op) => self.lazy_element(op, idx),
        }
    }

    fn lazy_element(&mut self, op: Operation, idx: &[IntValue<'ctx>]) -> R<BasicValueEnum<'ctx>> {
        let ir = self.ir;
        let name = ir.op_name_str(op);
        let operands: Vec<Value> = ir.operands(op).collect();
        match name {
            "kernel.splat" => self.scalar(op, operands[0]),
            "kernel.convert_layout" => self.element(op, operands[0], idx),
            "kernel.range" => {
                let start = int_attr(ir, op, "start").unwrap_or(0);
                let v = self.builder.build_int_add(idx[0], self.i64(start), "")?;
                Ok(self
                    .builder
                    .build_int_truncate(v, self.llvm.i32_type(), "")?
                    .into())
            }
            "kernel.broadcast" => {
                let src = tile_shape(ir, ir.value_type(operands[0]));
                let zero = self.i64(0);
                let mapped: Vec<IntValue<'ctx>> = idx
                    .iter()
                    .zip(&src)
                    .map(|(&i, &d)| if d == 1 { zero } else { i })
                    .collect();
                self.element(op, operands[0], &mapped)
            }
            "kernel.expand_dims" => {
                let axis = int_attr(ir, op, "axis").unwrap_or(0) as usize;
                let mut mapped = idx.to_vec();
                if axis < mapped.len() {
                    mapped.remove(axis);
                }
                self.element(op, operands[0], &mapped)
            }
            "kernel.addptr" => {
                let base = self.element(op, operands[0], idx)?.into_pointer_value();
                let off = self.element(op, operands[1], idx)?.into_int_value();
                let pointee = self.pointee_type(op)?;
                // SAFETY: the program computes in-bounds addresses; masks guard the rest.
                Ok(unsafe { self.builder.build_gep(pointee, base, &[off], "")? }.into())
            }
            "arith.constant" => self.constant_element(op, idx),
            "kernel.load" => self.load_element(op, idx),
            _ if is_elementwise(name) => {
                let mut args = Vec::with_capacity(operands.len());
                for &o in &operands {
                    args.push(self.element(op, o, idx)?);
                }
                let result = element_of(ir, ir.value_type(ir.result(op, 0)));
                self.scalar_emitter().emit(op, &args, result)
            }
            _ => Err(HostError::at(
                ir,
                op,
                format!("'{name}' is not elementwise"),
            )),
        }
    }

    /// The LLVM type `addptr`'s pointers point to.
    fn pointee_type(&self, op: Operation) -> R<BasicTypeEnum<'ctx>> {
        let ty = element_of(self.ir, self.ir.value_type(self.ir.result(op, 0)));
        let text = strata_ir::printer::type_to_string(self.ir, ty);
        let inner = text
            .strip_prefix("!kernel.ptr<")
            .and_then(|t| t.strip_suffix('>'))
            .unwrap_or("");
        let lt = match inner {
            "f32" => self.llvm.f32_type().into(),
            "f64" => self.llvm.f64_type().into(),
            // Narrow floats as they are in memory (see `Narrow`).
            "f16" => self.llvm.f16_type().into(),
            "bf16" => self.llvm.i16_type().into(),
            "index" => self.llvm.i64_type().into(),
            _ => match inner.strip_prefix('i').and_then(|w| w.parse::<u32>().ok()) {
                Some(w) => crate::kernel_to_host::scalar::int_type(self.llvm, w)
                    .ok_or_else(|| HostError::at(self.ir, op, "bad integer width"))?
                    .into(),
                None => {
                    return Err(HostError::at(
                        self.ir,
                        op,
                        format!("pointee '{inner}' has no host type"),
                    ))
                }
            },
        };
        Ok(lt)
    }

    /// An element of an `arith.constant` tile (a splat, or a global array).
    fn constant_element(
        &mut self,
        op: Operation,
        idx: &[IntValue<'ctx>],
    ) -> R<BasicValueEnum<'ctx>> {
        let ir = self.ir;
        let ty = ir.value_type(ir.result(op, 0));
        let element = element_of(ir, ty);
        let lt = self.host_type(op, element)?;
        let Some(AttrKind::DenseElements { data, .. }) =
            strata_ir::ods::inherent_attr(ir, op, "value").map(|a| ir.attr_kind(a))
        else {
            return Err(HostError::at(ir, op, "expected a dense constant"));
        };
        if data.splat {
            return self.const_from_bytes(op, element, lt, &data.raw);
        }
        // Narrow floats are f32 in registers: so is the table.
        let raw: std::borrow::Cow<'_, [u8]> = match narrow_of(ir, element) {
            Some(n) => data
                .raw
                .chunks_exact(2)
                .flat_map(|c| narrow_value(n, u16::from_le_bytes([c[0], c[1]])).to_le_bytes())
                .collect::<Vec<u8>>()
                .into(),
            None => (&data.raw[..]).into(),
        };
        let bytes = self.llvm.const_string(&raw, false);
        let global = self.module.add_global(bytes.get_type(), None, "const");
        global.set_initializer(&bytes);
        global.set_constant(true);
        // Private: kernels linked into one shared library each keep their own.
        global.set_linkage(inkwell::module::Linkage::Private);
        let tile = Tile {
            ptr: global.as_pointer_value(),
            shape: tile_shape(ir, ty),
            element: lt,
        };
        let p = self.element_ptr(&tile, idx)?;
        Ok(self.builder.build_load(lt, p, "")?)
    }

    /// A scalar constant from its little-endian bytes.
    fn const_from_bytes(
        &self,
        op: Operation,
        ty: Type,
        lt: BasicTypeEnum<'ctx>,
        raw: &[u8],
    ) -> R<BasicValueEnum<'ctx>> {
        let mut bits = 0u64;
        for (i, &byte) in raw.iter().take(8).enumerate() {
            bits |= u64::from(byte) << (8 * i);
        }
        if let Some(n) = narrow_of(self.ir, ty) {
            let value = narrow_value(n, bits as u16);
            return Ok(self.llvm.f32_type().const_float(f64::from(value)).into());
        }
        Ok(match lt {
            BasicTypeEnum::IntType(t) => t.const_int(bits, false).into(),
            BasicTypeEnum::FloatType(t) => {
                let width = (raw.len() * 8) as u32;
                let as_int = crate::kernel_to_host::scalar::int_type(self.llvm, width)
                    .ok_or_else(|| HostError::at(self.ir, op, "bad constant width"))?
                    .const_int(bits, false);
                self.builder.build_bit_cast(as_int, t, "")?
            }
            _ => return Err(HostError::at(self.ir, op, "unsupported constant type")),
        })
    }

    /// Make `v` a tile in memory (evaluating a lazy tile once).
    fn materialize(&mut self, user: Operation, v: Value) -> R<Tile<'ctx>> {
        match self.repr(user, v)? {
            Repr::Tile(t) => Ok(t),
            Repr::Scalar(_) => Err(HostError::at(self.ir, user, "expected a tile operand")),
            Repr::Lazy(_) => {
                let ty = self.ir.value_type(v);
                let shape = tile_shape(self.ir, ty);
                let tile = self.alloc_tile(user, &shape, element_of(self.ir, ty))?;
                let t = tile.clone();
                self.nd_loop(&shape, &mut |e, idx| {
                    let x = e.element(user, v, idx)?;
                    let p = e.element_ptr(&t, idx)?;
                    e.builder.build_store(p, x)?;
                    Ok(())
                })?;
                self.values.insert(v, Repr::Tile(tile.clone()));
                Ok(tile)
            }
        }
    }

    fn emit_block(&mut self, block: Block) -> R<()> {
        let ops: Vec<Operation> = self.ir.block_ops(block).collect();
        for op in ops {
            self.emit_op(op)?;
        }
        Ok(())
    }

    fn emit_op(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let name = ir.op_name_str(op);
        let results: Vec<Value> = ir.results(op).collect();
        let is_tile = |v: &Value| {
            matches!(
                ir.type_kind(ir.value_type(*v)),
                TypeKind::RankedTensor { .. }
            )
        };
        let tile_result = results.first().is_some_and(is_tile);
        match name {
            "kernel.return" => {
                self.builder.build_unconditional_branch(self.next_program)?;
                // Code after a return is unreachable; give it a block.
                let dead = self.llvm.append_basic_block(self.function, "dead");
                self.builder.position_at_end(dead);
                return Ok(());
            }
            "kernel.program_id" | "kernel.num_programs" => {
                let axis = int_attr(ir, op, "axis").unwrap_or(0).clamp(0, 2) as usize;
                let v = if name == "kernel.program_id" {
                    self.pid[axis]
                } else {
                    self.grid[axis]
                };
                let t = self
                    .builder
                    .build_int_truncate(v, self.llvm.i32_type(), "")?;
                self.values.insert(results[0], Repr::Scalar(t.into()));
                return Ok(());
            }
            "kernel.load" => return self.emit_load(op),
            "kernel.store" => return self.emit_store(op),
            "kernel.reduce" => return self.emit_reduce(op),
            "kernel.dot" => return self.emit_dot(op),
            "scf.for" => return self.emit_for(op),
            "kernel.yield" | "scf.yield" => {
                return Err(HostError::at(
                    ir,
                    op,
                    "internal error: a terminator outside its parent",
                ))
            }
            _ => {}
        }
        let lazy_kind = matches!(
            name,
            "kernel.splat"
                | "kernel.convert_layout"
                | "kernel.range"
                | "kernel.broadcast"
                | "kernel.expand_dims"
                | "kernel.addptr"
                | "arith.constant"
        ) || is_elementwise(name);
        if !lazy_kind {
            return Err(HostError::at(ir, op, "is not compiled for the host yet"));
        }
        if tile_result {
            self.values.insert(results[0], Repr::Lazy(op));
            // A float tile used more than once is computed once.
            let uses = ir.uses(results[0]).count();
            // (Not splats, ranges and shape ops: they cost nothing to recompute.)
            if uses > 1 && is_float(ir, ir.value_type(results[0])) && is_elementwise(name) {
                self.materialize(op, results[0])?;
            }
            return Ok(());
        }
        // Scalars.
        let v = if name == "arith.constant" {
            self.scalar_constant(op)?
        } else if name == "kernel.addptr" {
            let base = self.scalar(op, ir.operand(op, 0))?.into_pointer_value();
            let off = self.scalar(op, ir.operand(op, 1))?.into_int_value();
            let pointee = self.pointee_type(op)?;
            // SAFETY: as for tiles of pointers.
            unsafe { self.builder.build_gep(pointee, base, &[off], "")? }.into()
        } else {
            let mut args = Vec::new();
            for o in ir.operands(op) {
                args.push(self.scalar(op, o)?);
            }
            let result = ir.value_type(results[0]);
            self.scalar_emitter().emit(op, &args, result)?
        };
        self.values.insert(results[0], Repr::Scalar(v));
        Ok(())
    }

    fn scalar_constant(&self, op: Operation) -> R<BasicValueEnum<'ctx>> {
        let ir = self.ir;
        let ty = ir.value_type(ir.result(op, 0));
        let lt = self.host_type(op, ty)?;
        match strata_ir::ods::inherent_attr(ir, op, "value").map(|a| ir.attr_kind(a)) {
            Some(AttrKind::Integer { value, .. }) => {
                Ok(lt.into_int_type().const_int(*value as u64, false).into())
            }
            Some(AttrKind::Float { bits, .. }) => {
                // The width from the IR type: LLVM's `size_of` is a constant
                // expression that need not fold (an f64 read as 4 bytes was 0).
                let width = ir.int_or_float_bit_width(ty).unwrap_or(32);
                let raw = (*bits as u64).to_le_bytes();
                self.const_from_bytes(op, ty, lt, &raw[..(width as usize).div_ceil(8).min(8)])
            }
            _ => Err(HostError::at(ir, op, "unsupported constant")),
        }
    }
}
