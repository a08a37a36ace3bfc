//! The `nvptx` dialect to LLVM IR for LLVM's NVPTX back end, and on to PTX.
//!
//! A module with `nvptx.target` holds `func.func` kernels on scalars,
//! vectors and `!nvptx.ptr`s, whose bodies are `arith`, `math`, `scf.for`,
//! `scf.if` and `nvptx` ops. Each becomes an LLVM function with the
//! `ptx_kernel` calling convention:
//!
//! - `!nvptx.ptr<T, global>` is `ptr addrspace(1)`, `shared` is
//!   `addrspace(3)`; `nvptx.shared_alloc` is a module-level `[N x T]` in
//!   address space 3; `nvptx.load` / `store` index with a `getelementptr`
//!   and access scalars or vectors aligned to their size (`ld.v4.f32`);
//! - ids and sizes read the special registers (`llvm.nvvm.read.ptx.sreg.*`),
//!   `nvptx.barrier` is `llvm.nvvm.barrier.cta.sync.aligned.all(0)`,
//!   `shfl_sync` `llvm.nvvm.shfl.sync.*`, `mma_sync`
//!   `llvm.nvvm.mma.m16n8k16.row.col.*`;
//! - `arith` is what the host emits; `math` functions without an NVPTX
//!   instruction call libdevice (`__nv_expf`, ...), which is linked in
//!   (from `scripts/setup-cuda`'s `libdevice.10.bc`) before `default<O3>`;
//! - `scf.for` is a loop whose iteration arguments are `phi`s, `scf.if` a
//!   branch whose results are `phi`s.

mod emulate;
mod ops;

pub use emulate::emulation_bitcode;

use std::collections::HashMap;
use std::path::PathBuf;

use inkwell::builder::Builder;
use inkwell::context::Context as LlvmContext;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicMetadataTypeEnum, BasicTypeEnum};
use inkwell::values::{BasicValueEnum, FunctionValue};
use strata_dialects::nvptx::types::AddressSpace;
use strata_ir::{Context, Diagnostic, Operation, Type, TypeKind, Value};

use crate::llvm::nvptx::GpuTarget;
use crate::llvm::LlvmError;

/// LLVM's calling convention number of `ptx_kernel` (a kernel entry).
const PTX_KERNEL: u32 = 71;

/// Why an `nvptx` module could not become PTX.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// An op or type the GPU translation does not handle, located.
    #[error("{}", .0.message)]
    Unsupported(Diagnostic),
    /// LLVM refused the module or failed to compile it.
    #[error(transparent)]
    Llvm(#[from] LlvmError),
    /// The IR builder failed (an internal error).
    #[error("LLVM builder: {0}")]
    Builder(#[from] inkwell::builder::BuilderError),
}

impl GpuError {
    fn at(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> GpuError {
        GpuError::Unsupported(Diagnostic::op_error(ctx, op, message))
    }

    /// The diagnostic to report, when the error has a location.
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            GpuError::Unsupported(d) => Some(d),
            _ => None,
        }
    }
}

type R<T> = Result<T, GpuError>;

/// The target of an `nvptx` module: its `nvptx.target` and
/// `nvptx.ptx_version`, `None` when it has no `nvptx.target`.
pub fn module_target(ctx: &Context, module: Operation) -> R<Option<GpuTarget>> {
    let Some(first) = ctx
        .nested_ops(module, strata_ir::WalkOrder::PreOrder)
        .first()
        .copied()
    else {
        return Ok(None);
    };
    if ctx.op_attr(module, "nvptx.target").is_none() {
        return Ok(None);
    }
    let t = strata_dialects::nvptx::target_of(ctx, first).map_err(GpuError::Unsupported)?;
    Ok(Some(GpuTarget {
        sm: t.sm,
        ptx: (t.ptx / 10, t.ptx % 10),
    }))
}

/// The module holding the GPU kernels: `module` itself when it has an
/// `nvptx.target`, else a module nested in it that has one (what
/// `convert-kernel-to-nvptx` adds), else `module`.
pub fn gpu_module(ir: &Context, module: Operation) -> Operation {
    if ir.op_attr(module, "nvptx.target").is_some() {
        return module;
    }
    for &region in ir.op_regions(module) {
        for block in ir.region_blocks(region) {
            for op in ir.block_ops(block) {
                if ir.op_name_str(op) == "builtin.module"
                    && ir.op_attr(op, "nvptx.target").is_some()
                {
                    return op;
                }
            }
        }
    }
    module
}

/// Where libdevice is: `$STRATA_LIBDEVICE`, else the one
/// `scripts/setup-cuda` puts in this checkout's `.local/cuda`.
pub fn libdevice_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("STRATA_LIBDEVICE") {
        return Some(p.into());
    }
    let local = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../.local/cuda/nvvm/libdevice/libdevice.10.bc");
    local.is_file().then_some(local)
}

/// The LLVM IR of the kernels of `module` (not optimized, libdevice not
/// linked).
pub fn translate<'ctx>(
    ir: &Context,
    module: Operation,
    llvm: &'ctx LlvmContext,
) -> R<(Module<'ctx>, GpuTarget)> {
    translate_only(ir, module, llvm, None)
}

/// [`translate`] of the kernel named `only` (all kernels for `None`).
fn translate_only<'ctx>(
    ir: &Context,
    module: Operation,
    llvm: &'ctx LlvmContext,
    only: Option<&str>,
) -> R<(Module<'ctx>, GpuTarget)> {
    let module = gpu_module(ir, module);
    let Some(target) = module_target(ir, module)? else {
        return Err(GpuError::at(
            ir,
            module,
            "has no 'nvptx.target' (an nvptx module names its GPU; kernel modules are not lowered to nvptx yet)",
        ));
    };
    let out = llvm.create_module("strata_gpu");
    for &region in ir.op_regions(module) {
        for block in ir.region_blocks(region) {
            for op in ir.block_ops(block).collect::<Vec<_>>() {
                let named = only.is_none_or(|n| ir.symbol_name(op) == Some(n.as_bytes()));
                if ir.op_name_str(op) == "func.func" && named {
                    Kernel::emit(ir, llvm, &out, op)?;
                }
            }
        }
    }
    Ok((out, target))
}

/// The PTX of `module`'s kernels: translated, libdevice linked where a
/// kernel calls it, `default<O3>` for the target, then the NVPTX back end.
pub fn to_ptx(ir: &Context, module: Operation) -> R<(String, GpuTarget)> {
    let llvm = LlvmContext::create();
    let (m, target) = translate(ir, module, &llvm)?;
    let machine = crate::llvm::nvptx::target_machine(target)?;
    link_libdevice(&llvm, &m)?;
    crate::llvm::optimize(&m, &machine)?;
    Ok((crate::llvm::nvptx::ptx(&m, target)?, target))
}

/// The LLVM IR of `module`'s kernels for NVPTX, as text; `optimize`:
/// libdevice linked and `default<O3>` run first, as for PTX.
pub fn to_llvm_ir(ir: &Context, module: Operation, optimize: bool) -> R<String> {
    let llvm = LlvmContext::create();
    let (m, target) = translate(ir, module, &llvm)?;
    let machine = crate::llvm::nvptx::target_machine(target)?;
    m.set_triple(&machine.get_triple());
    m.set_data_layout(&machine.get_target_data().get_data_layout());
    if optimize {
        link_libdevice(&llvm, &m)?;
        crate::llvm::optimize(&m, &machine)?;
    } else {
        m.verify()
            .map_err(|e| LlvmError(format!("invalid module: {e}")))?;
    }
    Ok(m.print_to_string().to_string())
}

/// The PTX of each kernel of `module` on its own, by name: what
/// `strata compile --emit ptx` writes, one `.ptx` file per kernel.
pub fn kernels_ptx(ir: &Context, module: Operation) -> R<Vec<(String, String)>> {
    let gpu = gpu_module(ir, module);
    let mut names = Vec::new();
    for &region in ir.op_regions(gpu) {
        for block in ir.region_blocks(region) {
            for op in ir.block_ops(block) {
                if ir.op_name_str(op) == "func.func" {
                    if let Some(n) = ir.symbol_name(op) {
                        names.push(String::from_utf8_lossy(n).into_owned());
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for name in names {
        let llvm = LlvmContext::create();
        let (m, target) = translate_only(ir, module, &llvm, Some(&name))?;
        let machine = crate::llvm::nvptx::target_machine(target)?;
        link_libdevice(&llvm, &m)?;
        crate::llvm::optimize(&m, &machine)?;
        out.push((name, crate::llvm::nvptx::ptx(&m, target)?));
    }
    Ok(out)
}

/// Links libdevice into `m` when `m` declares one of its functions, keeping
/// only what is called (the rest becomes internal and is removed by O3).
fn link_libdevice<'ctx>(llvm: &'ctx LlvmContext, m: &Module<'ctx>) -> R<()> {
    let mut needed = false;
    let mut f = m.get_first_function();
    while let Some(func) = f {
        let name = func.get_name().to_string_lossy().into_owned();
        if name.starts_with("__nv_") && func.count_basic_blocks() == 0 {
            needed = true;
        }
        f = func.get_next_function();
    }
    if !needed {
        return Ok(());
    }
    let path = libdevice_path().ok_or_else(|| {
        LlvmError(
            "libdevice.10.bc not found: run scripts/setup-cuda (or set STRATA_LIBDEVICE)".into(),
        )
    })?;
    let lib = Module::parse_bitcode_from_path(&path, llvm)
        .map_err(|e| LlvmError(format!("{}: {e}", path.display())))?;
    lib.set_triple(&inkwell::targets::TargetTriple::create(
        "nvptx64-nvidia-cuda",
    ));
    lib.set_data_layout(&m.get_data_layout());
    m.link_in_module(lib)
        .map_err(|e| LlvmError(format!("linking libdevice: {e}")))?;
    // Everything but the kernels is internal, so O3 drops what no kernel
    // calls.
    let mut f = m.get_first_function();
    while let Some(func) = f {
        if func.count_basic_blocks() > 0 && func.get_call_conventions() != PTX_KERNEL {
            func.set_linkage(Linkage::Internal);
        }
        f = func.get_next_function();
    }
    Ok(())
}

/// The LLVM type of a kernel's scalar, vector or pointer type.
pub(crate) fn gpu_type<'ctx>(
    ir: &Context,
    llvm: &'ctx LlvmContext,
    ty: Type,
) -> Option<BasicTypeEnum<'ctx>> {
    use strata_ir::float::FloatKind as F;
    Some(match ir.type_kind(ty) {
        TypeKind::Integer { width, .. } => {
            crate::kernel_to_host::scalar::int_type(llvm, *width)?.into()
        }
        TypeKind::Index => llvm.i64_type().into(),
        TypeKind::Float(F::F32) => llvm.f32_type().into(),
        TypeKind::Float(F::F64) => llvm.f64_type().into(),
        // f16 and bf16 scalars live in f32 registers, as on the host (see
        // `kernel_to_host::scalar::Narrow`); loads widen, stores round.
        TypeKind::Float(F::F16 | F::BF16) => llvm.f32_type().into(),
        TypeKind::Vector { shape, element, .. } if shape.len() == 1 => {
            let lanes = u32::try_from(shape[0]).ok()?;
            // Vectors (mma_sync's fragments) hold the narrow floats as they are.
            let element_ty: BasicTypeEnum<'ctx> = match ir.type_kind(*element) {
                TypeKind::Float(F::F16) => llvm.f16_type().into(),
                TypeKind::Float(F::BF16) => llvm.bf16_type().into(),
                _ => gpu_type(ir, llvm, *element)?,
            };
            match element_ty {
                BasicTypeEnum::FloatType(f) => f.vec_type(lanes).into(),
                BasicTypeEnum::IntType(i) => i.vec_type(lanes).into(),
                _ => return None,
            }
        }
        TypeKind::Opaque { data, .. } if strata_dialects::nvptx::types::is_ptr(ir, ty) => {
            let space = if data.ends_with(", shared>") {
                AddressSpace::Shared
            } else {
                AddressSpace::Global
            };
            llvm.ptr_type(inkwell::AddressSpace::from(space.llvm() as u16))
                .into()
        }
        _ => return None,
    })
}

/// [`gpu_type`], with pointers in address space 0 when emulating on the
/// host.
fn param_type<'ctx>(
    ir: &Context,
    llvm: &'ctx LlvmContext,
    ty: Type,
    emulate: bool,
) -> Option<BasicTypeEnum<'ctx>> {
    if emulate && strata_dialects::nvptx::types::is_ptr(ir, ty) {
        return Some(llvm.ptr_type(inkwell::AddressSpace::default()).into());
    }
    gpu_type(ir, llvm, ty)
}

/// One kernel being emitted.
pub(crate) struct Kernel<'a, 'ctx> {
    ir: &'a Context,
    llvm: &'ctx LlvmContext,
    module: &'a Module<'ctx>,
    builder: Builder<'ctx>,
    function: FunctionValue<'ctx>,
    values: HashMap<Value, BasicValueEnum<'ctx>>,
    /// Emulating on the host CPU: the thread's coordinates, parameters of
    /// the function (`tid.x`, `ctaid.x/y/z`, `nctaid.x/y/z`, `ntid.x`)
    /// instead of special registers; pointers in address space 0.
    emulated: Option<[inkwell::values::IntValue<'ctx>; 8]>,
}

impl<'a, 'ctx> Kernel<'a, 'ctx> {
    fn emit(
        ir: &'a Context,
        llvm: &'ctx LlvmContext,
        module: &'a Module<'ctx>,
        func: Operation,
    ) -> R<()> {
        Kernel::emit_as(ir, llvm, module, func, false).map(|_| ())
    }

    /// Emits `func` as a GPU kernel, or (`emulate`) as the host function
    /// of one block, named `<kernel>.block`, taking the block's coordinates
    /// after the kernel's parameters and running its threads phase by
    /// phase (`emulate::phases`).
    pub(crate) fn emit_as(
        ir: &'a Context,
        llvm: &'ctx LlvmContext,
        module: &'a Module<'ctx>,
        func: Operation,
        emulate: bool,
    ) -> R<FunctionValue<'ctx>> {
        let name = ir
            .symbol_name(func)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let Some((inputs, results)) = strata_dialects::func::function_signature(ir, func) else {
            return Err(GpuError::at(ir, func, "has no function type"));
        };
        if !results.is_empty() {
            return Err(GpuError::at(
                ir,
                func,
                "returns values: a GPU kernel returns nothing (write results through pointers)",
            ));
        }
        let mut params: Vec<BasicMetadataTypeEnum<'ctx>> = Vec::new();
        for &t in &inputs {
            let lt = param_type(ir, llvm, t, emulate).ok_or_else(|| {
                GpuError::at(
                    ir,
                    func,
                    format!(
                        "has an argument of type '{}', which the GPU translation does not handle",
                        strata_ir::printer::type_to_string(ir, t)
                    ),
                )
            })?;
            params.push(lt.into());
        }
        let n_params = params.len() as u32;
        // Emulated: the block's coordinates follow the parameters (`ctaid`,
        // `nctaid`, `ntid`); the thread id is each phase's loop variable.
        if emulate {
            params.extend(std::iter::repeat_n(
                BasicMetadataTypeEnum::from(llvm.i32_type()),
                7,
            ));
        }
        let symbol = if emulate {
            format!("{name}.block")
        } else {
            name.clone()
        };
        let function = module.add_function(&symbol, llvm.void_type().fn_type(&params, false), None);
        if emulate {
            function.set_linkage(Linkage::Internal);
        } else {
            function.set_call_conventions(PTX_KERNEL);
            // The block size the kernel was made for (`.reqntid`): ptxas
            // allocates registers for it, and a launch with another fails.
            if let Some(t) = ir
                .op_attr(func, "nvptx.threads")
                .and_then(|a| match ir.attr_kind(a) {
                    strata_ir::AttrKind::Integer { value, .. } => Some(*value as i64),
                    _ => None,
                })
            {
                let attr = llvm.create_string_attribute("nvvm.reqntid", &t.to_string());
                function.add_attribute(inkwell::attributes::AttributeLoc::Function, attr);
            }
            // The alignment a pointer parameter promises (`llvm.align`),
            // which lets LLVM merge a thread's consecutive accesses into
            // vector ones (`ld.global.v4.f32`). Not in the emulation: host
            // buffers promise only their elements' alignment.
            let align_kind = inkwell::attributes::Attribute::get_named_enum_kind_id("align");
            for (i, align) in param_aligns(ir, func).into_iter().enumerate() {
                if let Some(a) = align {
                    let attr = llvm.create_enum_attribute(align_kind, a);
                    function
                        .add_attribute(inkwell::attributes::AttributeLoc::Param(i as u32), attr);
                }
            }
        }
        let emulated = if emulate {
            let reg = |i: u32| {
                function
                    .get_nth_param(n_params + i)
                    .map(|v| v.into_int_value())
            };
            let regs: Option<Vec<_>> = (0..7).map(reg).collect();
            let regs = regs.ok_or_else(|| GpuError::at(ir, func, "internal error: parameters"))?;
            // tid: set by each phase's loop (zero until then).
            let tid = llvm.i32_type().const_zero();
            Some([
                tid, regs[0], regs[1], regs[2], regs[3], regs[4], regs[5], regs[6],
            ])
        } else {
            None
        };
        let mut k = Kernel {
            ir,
            llvm,
            module,
            builder: llvm.create_builder(),
            function,
            values: HashMap::new(),
            emulated,
        };
        let Some(&region) = ir.op_regions(func).first() else {
            return Err(GpuError::at(
                ir,
                func,
                "is a declaration: a kernel needs a body",
            ));
        };
        let Some(entry) = ir.region_entry_block(region) else {
            return Err(GpuError::at(ir, func, "has no body"));
        };
        if ir.region_blocks(region).count() != 1 {
            return Err(GpuError::at(
                ir,
                func,
                "has more than one block: write control flow with scf.for and scf.if",
            ));
        }
        let bb = llvm.append_basic_block(function, "entry");
        k.builder.position_at_end(bb);
        for (i, arg) in ir.block_args(entry).enumerate() {
            if let Some(p) = function.get_nth_param(i as u32) {
                k.values.insert(arg, p);
            }
        }
        if emulate {
            let threads = ir
                .op_attr(func, "nvptx.threads")
                .and_then(|a| match ir.attr_kind(a) {
                    strata_ir::AttrKind::Integer { value, .. } => u32::try_from(*value).ok(),
                    _ => None,
                })
                .unwrap_or(128);
            k.phases(entry, threads)?;
        } else {
            k.block(entry)?;
        }
        Ok(function)
    }

    fn value(&self, op: Operation, v: Value) -> R<BasicValueEnum<'ctx>> {
        self.values
            .get(&v)
            .copied()
            .ok_or_else(|| GpuError::at(self.ir, op, "uses a value defined outside the kernel"))
    }

    fn ty(&self, op: Operation, ty: Type) -> R<BasicTypeEnum<'ctx>> {
        param_type(self.ir, self.llvm, ty, self.emulated.is_some()).ok_or_else(|| {
            GpuError::at(
                self.ir,
                op,
                format!(
                    "has type '{}', which the GPU translation does not handle",
                    strata_ir::printer::type_to_string(self.ir, ty)
                ),
            )
        })
    }

    /// Emits the ops of `block` at the builder's position; returns the
    /// operands of its terminator when it is an `scf.yield`.
    fn block(&mut self, block: strata_ir::Block) -> R<Vec<BasicValueEnum<'ctx>>> {
        for op in self.ir.block_ops(block).collect::<Vec<_>>() {
            match self.ir.op_name_str(op) {
                "func.return" => {
                    self.builder.build_return(None)?;
                }
                "scf.yield" => {
                    let ops: Vec<Value> = self.ir.operands(op).collect();
                    return ops.iter().map(|&v| self.value(op, v)).collect();
                }
                _ => self.op(op)?,
            }
        }
        Ok(Vec::new())
    }
}

/// The alignment in bytes that each parameter of `func` promises: its
/// `llvm.align` argument attribute (MLIR's LLVM-dialect spelling), a power
/// of two; `None` without one.
fn param_aligns(ir: &Context, func: Operation) -> Vec<Option<u64>> {
    let Some(arg_attrs) = strata_ir::ods::inherent_attr(ir, func, "arg_attrs") else {
        return Vec::new();
    };
    let strata_ir::AttrKind::Array(dicts) = ir.attr_kind(arg_attrs) else {
        return Vec::new();
    };
    dicts
        .iter()
        .map(|&d| {
            let strata_ir::AttrKind::Dictionary(_) = ir.attr_kind(d) else {
                return None;
            };
            ir.dictionary_entries(d)
                .iter()
                .find(|(k, _)| ir.ident_str(*k) == "llvm.align")
                .and_then(|&(_, v)| match ir.attr_kind(v) {
                    strata_ir::AttrKind::Integer { value, .. } => u64::try_from(*value).ok(),
                    _ => None,
                })
                .filter(|a| a.is_power_of_two())
        })
        .collect()
}
