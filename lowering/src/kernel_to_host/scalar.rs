//! `arith` and `math` ops on scalars, as LLVM instructions: the element
//! computation of tile arithmetic and the body of combiners.

use inkwell::builder::Builder;
use inkwell::context::Context as LlvmContext;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{
    BasicMetadataValueEnum, BasicValueEnum, FloatValue, InstructionValue, IntValue,
};
use inkwell::{FloatPredicate, IntPredicate};
use strata_ir::{AttrKind, Context, Operation, Type, TypeKind};

use super::HostError;

/// The LLVM type of a scalar strata type (`index` is `i64`, pointers are
/// opaque `ptr`); `None` for what the host does not compute with yet
/// (f16, bf16).
pub(crate) fn llvm_type<'ctx>(
    ir: &Context,
    llvm: &'ctx LlvmContext,
    ty: Type,
) -> Option<BasicTypeEnum<'ctx>> {
    use strata_ir::float::FloatKind as F;
    Some(match ir.type_kind(ty) {
        TypeKind::Integer { width, .. } => int_type(llvm, *width)?.into(),
        TypeKind::Index => llvm.i64_type().into(),
        // f16 and bf16 live in f32 registers (see `Narrow`).
        TypeKind::Float(F::F32 | F::F16 | F::BF16) => llvm.f32_type().into(),
        TypeKind::Float(F::F64) => llvm.f64_type().into(),
        TypeKind::Opaque { .. } if strata_dialects::kernel::types::is_ptr(ir, ty) => {
            llvm.ptr_type(inkwell::AddressSpace::default()).into()
        }
        _ => return None,
    })
}

/// A float narrower than f32. The host keeps such values in f32 registers
/// and converts at memory: an f16 is an LLVM `half` in memory (F16C's
/// conversions), a bf16 an `i16` (its conversions are integer code, since
/// LLVM's would call compiler-rt routines the JIT cannot resolve). A value
/// is rounded to its type where the IR rounds: a `truncf` or an int to
/// float conversion into it, and a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Narrow {
    F16,
    BF16,
}

/// The narrow float `ty` is, if it is one.
pub(crate) fn narrow_of(ir: &Context, ty: Type) -> Option<Narrow> {
    use strata_ir::float::FloatKind as F;
    match ir.type_kind(ty) {
        TypeKind::Float(F::F16) => Some(Narrow::F16),
        TypeKind::Float(F::BF16) => Some(Narrow::BF16),
        _ => None,
    }
}

/// The LLVM type of a `ty` element in memory (`llvm_type` but for the
/// narrow floats).
pub(crate) fn memory_type<'ctx>(
    ir: &Context,
    llvm: &'ctx LlvmContext,
    ty: Type,
) -> Option<BasicTypeEnum<'ctx>> {
    match narrow_of(ir, ty) {
        Some(Narrow::F16) => Some(llvm.f16_type().into()),
        Some(Narrow::BF16) => Some(llvm.i16_type().into()),
        None => llvm_type(ir, llvm, ty),
    }
}

/// The f32 value of narrow float bits.
pub(crate) fn narrow_value(n: Narrow, bits: u16) -> f32 {
    match n {
        Narrow::F16 => half::f16::from_bits(bits).to_f32(),
        Narrow::BF16 => half::bf16::from_bits(bits).to_f32(),
    }
}

/// The LLVM integer type of `width` bits.
pub(crate) fn int_type(llvm: &LlvmContext, width: u32) -> Option<inkwell::types::IntType<'_>> {
    std::num::NonZeroU32::new(width).and_then(|w| llvm.custom_width_int_type(w).ok())
}

/// The value a call returns, if any.
pub(crate) fn returned(v: inkwell::values::ValueKind<'_>) -> Option<BasicValueEnum<'_>> {
    match v {
        inkwell::values::ValueKind::Basic(b) => Some(b),
        inkwell::values::ValueKind::Instruction(_) => None,
    }
}

/// Whether an `arith` op carries the `nsw` overflow flag (bit 1 of
/// `#arith.overflow<...>`).
fn nsw(ir: &Context, op: Operation) -> bool {
    let Some(a) = strata_ir::ods::inherent_attr(ir, op, "overflowFlags") else {
        return false;
    };
    strata_dialects::arith::OVERFLOW
        .value(ir, a)
        .is_some_and(|v| v & 1 != 0)
}

/// The integer value of an op's integer attribute `name`.
pub(crate) fn int_attr(ir: &Context, op: Operation, name: &str) -> Option<i64> {
    match ir.attr_kind(strata_ir::ods::inherent_attr(ir, op, name)?) {
        AttrKind::Integer { value, .. } => Some(*value as i64),
        _ => None,
    }
}

/// Emits scalar ops.
pub(crate) struct ScalarEmitter<'a, 'ctx> {
    pub ir: &'a Context,
    pub llvm: &'ctx LlvmContext,
    pub module: &'a Module<'ctx>,
    pub builder: &'a Builder<'ctx>,
    /// Mark float ops `reassoc` (inside combiners, whose order is free).
    pub reassoc: bool,
    /// Call libdevice (`__nv_expf`, ...) for the math functions that have
    /// no NVPTX instruction, instead of the host's code and libm.
    pub libdevice: bool,
}

/// The libdevice function of a `math` op, without its `f` suffix (the
/// functions NVPTX has no instruction for).
fn libdevice_base(name: &str) -> Option<&'static str> {
    Some(match name {
        "math.exp" => "exp",
        "math.exp2" => "exp2",
        "math.expm1" => "expm1",
        "math.log" => "log",
        "math.log2" => "log2",
        "math.log10" => "log10",
        "math.log1p" => "log1p",
        "math.sin" => "sin",
        "math.cos" => "cos",
        "math.tan" => "tan",
        "math.asin" => "asin",
        "math.acos" => "acos",
        "math.atan" => "atan",
        "math.atan2" => "atan2",
        "math.sinh" => "sinh",
        "math.cosh" => "cosh",
        "math.tanh" => "tanh",
        "math.asinh" => "asinh",
        "math.acosh" => "acosh",
        "math.atanh" => "atanh",
        "math.erf" => "erf",
        "math.erfc" => "erfc",
        "math.cbrt" => "cbrt",
        "math.powf" => "pow",
        _ => return None,
    })
}

fn float(v: BasicValueEnum<'_>) -> FloatValue<'_> {
    v.into_float_value()
}

fn int(v: BasicValueEnum<'_>) -> IntValue<'_> {
    v.into_int_value()
}

impl<'a, 'ctx> ScalarEmitter<'a, 'ctx> {
    fn is_f32(&self, ty: BasicTypeEnum<'ctx>) -> bool {
        ty == self.llvm.f32_type().into()
    }

    fn fast_math(&self) -> super::fastmath::FastMath<'_, 'ctx> {
        super::fastmath::FastMath {
            llvm: self.llvm,
            module: self.module,
            builder: self.builder,
        }
    }

    fn fast(&self, inst: Option<InstructionValue<'ctx>>) {
        if self.reassoc {
            if let Some(i) = inst {
                let _ = i.set_fast_math_flags(inkwell::values::FastMathFlags::AllowReassoc);
            }
        }
    }

    fn intrinsic(
        &self,
        op: Operation,
        name: &str,
        ty: BasicTypeEnum<'ctx>,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>, HostError> {
        let Some(intrinsic) = Intrinsic::find(name) else {
            return Err(HostError::at(
                self.ir,
                op,
                format!("LLVM has no intrinsic {name}"),
            ));
        };
        let Some(decl) = intrinsic.get_declaration(self.module, &[ty]) else {
            return Err(HostError::at(
                self.ir,
                op,
                format!("no declaration of {name}"),
            ));
        };
        let args: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|&a| a.into()).collect();
        let call = self.builder.build_call(decl, &args, "")?;
        returned(call.try_as_basic_value())
            .ok_or_else(|| HostError::at(self.ir, op, format!("{name} returned nothing")))
    }

    /// A call of the C math library's `name` (`f32` uses the `f`-suffixed
    /// function), for functions LLVM has no intrinsic for.
    fn libm(
        &self,
        op: Operation,
        name: &str,
        ty: BasicTypeEnum<'ctx>,
        arg: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, HostError> {
        let f32 = ty == self.llvm.f32_type().into();
        let f64 = ty == self.llvm.f64_type().into();
        if !f32 && !f64 {
            return Err(HostError::at(
                self.ir,
                op,
                format!("'{name}' is compiled for f32 and f64 only on the host"),
            ));
        }
        let symbol = if f32 {
            format!("{name}f")
        } else {
            name.to_string()
        };
        let function = self.module.get_function(&symbol).unwrap_or_else(|| {
            let fn_type = ty.fn_type(&[ty.into()], false);
            self.module.add_function(&symbol, fn_type, None)
        });
        let call = self.builder.build_call(function, &[arg.into()], "")?;
        returned(call.try_as_basic_value())
            .ok_or_else(|| HostError::at(self.ir, op, format!("{symbol} returned nothing")))
    }

    /// A call of libdevice's `__nv_<base>f` (f32) or `__nv_<base>` (f64).
    fn libdevice_call(
        &self,
        op: Operation,
        base: &str,
        result: Type,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>, HostError> {
        let width = self.ir.int_or_float_bit_width(result);
        let (symbol, ty) = match width {
            Some(32) if is_float(self.ir, result) => {
                (format!("__nv_{base}f"), self.llvm.f32_type())
            }
            Some(64) if is_float(self.ir, result) => (format!("__nv_{base}"), self.llvm.f64_type()),
            _ => {
                return Err(HostError::at(
                    self.ir,
                    op,
                    format!("'{base}' is compiled for f32 and f64 only on the GPU"),
                ))
            }
        };
        let function = self.module.get_function(&symbol).unwrap_or_else(|| {
            let params: Vec<inkwell::types::BasicMetadataTypeEnum<'ctx>> =
                args.iter().map(|_| ty.into()).collect();
            self.module
                .add_function(&symbol, ty.fn_type(&params, false), None)
        });
        let args: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|&a| a.into()).collect();
        let call = self.builder.build_call(function, &args, "")?;
        returned(call.try_as_basic_value())
            .ok_or_else(|| HostError::at(self.ir, op, format!("{symbol} returned nothing")))
    }

    /// An integer division or remainder that never traps: tiles compute
    /// their masked-off lanes too (on `other` values, zero by default), and
    /// the CPU's division traps where the GPU's does not. A zero divisor
    /// divides by one instead, and a signed division by `-1` negates
    /// (wrapping: `MIN / -1` is `MIN`, its remainder `0`). Where the divisor
    /// is a constant (index arithmetic), the guards fold away.
    fn guarded_division(
        &self,
        name: &str,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, HostError> {
        let b = self.builder;
        let t = y.get_type();
        let zero = t.const_zero();
        let one = t.const_int(1, false);
        let is_zero = b.build_int_compare(IntPredicate::EQ, y, zero, "")?;
        let y = b.build_select(is_zero, one, y, "")?.into_int_value();
        Ok(match name {
            "arith.divui" => b.build_int_unsigned_div(x, y, "")?.into(),
            "arith.remui" => b.build_int_unsigned_rem(x, y, "")?.into(),
            _ => {
                let minus_one = t.const_all_ones();
                let is_m1 = b.build_int_compare(IntPredicate::EQ, y, minus_one, "")?;
                let safe = b.build_select(is_m1, one, y, "")?.into_int_value();
                let (exact, special) = if name == "arith.divsi" {
                    let q = b.build_int_signed_div(x, safe, "")?;
                    (q, b.build_int_sub(zero, x, "")?)
                } else {
                    (b.build_int_signed_rem(x, safe, "")?, zero)
                };
                b.build_select(is_m1, special, exact, "")?
            }
        })
    }

    /// The value of `op` (an `arith` or `math` op) applied to `args`, the
    /// elements of its operands; `result` is the result's element type.
    pub fn emit(
        &self,
        op: Operation,
        args: &[BasicValueEnum<'ctx>],
        result: Type,
    ) -> Result<BasicValueEnum<'ctx>, HostError> {
        let ir = self.ir;
        let b = self.builder;
        let name = ir.op_name_str(op);
        if self.libdevice {
            if let Some(base) = libdevice_base(name) {
                return self.libdevice_call(op, base, result, args);
            }
        }
        let Some(rt) = llvm_type(ir, self.llvm, result) else {
            return Err(HostError::at(
                ir,
                op,
                "unsupported element type on the host",
            ));
        };
        let unsupported = || HostError::at(ir, op, "is not compiled for the host yet");
        let a = |i: usize| args.get(i).copied().ok_or_else(unsupported);
        let v: BasicValueEnum<'ctx> = match name {
            "arith.addf" => {
                let v = b.build_float_add(float(a(0)?), float(a(1)?), "")?;
                self.fast(v.as_instruction());
                v.into()
            }
            "arith.subf" => b.build_float_sub(float(a(0)?), float(a(1)?), "")?.into(),
            "arith.mulf" => {
                let v = b.build_float_mul(float(a(0)?), float(a(1)?), "")?;
                self.fast(v.as_instruction());
                v.into()
            }
            "arith.divf" => b.build_float_div(float(a(0)?), float(a(1)?), "")?.into(),
            "arith.remf" => b.build_float_rem(float(a(0)?), float(a(1)?), "")?.into(),
            "arith.negf" => b.build_float_neg(float(a(0)?), "")?.into(),
            "arith.maximumf" => self.intrinsic(op, "llvm.maximum", rt, &[a(0)?, a(1)?])?,
            "arith.minimumf" => self.intrinsic(op, "llvm.minimum", rt, &[a(0)?, a(1)?])?,
            "arith.maxnumf" => self.intrinsic(op, "llvm.maxnum", rt, &[a(0)?, a(1)?])?,
            "arith.minnumf" => self.intrinsic(op, "llvm.minnum", rt, &[a(0)?, a(1)?])?,
            "arith.addi" if nsw(ir, op) => b.build_int_nsw_add(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.addi" => b.build_int_add(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.subi" => b.build_int_sub(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.muli" if nsw(ir, op) => b.build_int_nsw_mul(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.muli" => b.build_int_mul(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.divsi" | "arith.divui" | "arith.remsi" | "arith.remui" => {
                self.guarded_division(name, int(a(0)?), int(a(1)?))?
            }
            "arith.andi" => b.build_and(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.ori" => b.build_or(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.xori" => b.build_xor(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.shli" => b.build_left_shift(int(a(0)?), int(a(1)?), "")?.into(),
            "arith.shrsi" => b
                .build_right_shift(int(a(0)?), int(a(1)?), true, "")?
                .into(),
            "arith.shrui" => b
                .build_right_shift(int(a(0)?), int(a(1)?), false, "")?
                .into(),
            "arith.maxsi" => self.intrinsic(op, "llvm.smax", rt, &[a(0)?, a(1)?])?,
            "arith.minsi" => self.intrinsic(op, "llvm.smin", rt, &[a(0)?, a(1)?])?,
            "arith.maxui" => self.intrinsic(op, "llvm.umax", rt, &[a(0)?, a(1)?])?,
            "arith.minui" => self.intrinsic(op, "llvm.umin", rt, &[a(0)?, a(1)?])?,
            "arith.cmpi" => {
                let p = match int_attr(ir, op, "predicate") {
                    Some(0) => IntPredicate::EQ,
                    Some(1) => IntPredicate::NE,
                    Some(2) => IntPredicate::SLT,
                    Some(3) => IntPredicate::SLE,
                    Some(4) => IntPredicate::SGT,
                    Some(5) => IntPredicate::SGE,
                    Some(6) => IntPredicate::ULT,
                    Some(7) => IntPredicate::ULE,
                    Some(8) => IntPredicate::UGT,
                    Some(9) => IntPredicate::UGE,
                    _ => return Err(unsupported()),
                };
                b.build_int_compare(p, int(a(0)?), int(a(1)?), "")?.into()
            }
            "arith.cmpf" => {
                use FloatPredicate as P;
                const PREDICATES: [FloatPredicate; 16] = [
                    P::PredicateFalse,
                    P::OEQ,
                    P::OGT,
                    P::OGE,
                    P::OLT,
                    P::OLE,
                    P::ONE,
                    P::ORD,
                    P::UEQ,
                    P::UGT,
                    P::UGE,
                    P::ULT,
                    P::ULE,
                    P::UNE,
                    P::UNO,
                    P::PredicateTrue,
                ];
                let p = int_attr(ir, op, "predicate")
                    .and_then(|i| PREDICATES.get(i as usize).copied())
                    .ok_or_else(unsupported)?;
                b.build_float_compare(p, float(a(0)?), float(a(1)?), "")?
                    .into()
            }
            "arith.select" => b.build_select(int(a(0)?), a(1)?, a(2)?, "")?,
            // A narrow float is an f32 in registers: extending one to f32,
            // or truncating into one from f32, keeps the register type (the
            // rounding follows below).
            "arith.extf" | "arith.truncf" => {
                let (x, t) = (float(a(0)?), rt.into_float_type());
                if x.get_type() == t {
                    x.into()
                } else if name == "arith.extf" {
                    b.build_float_ext(x, t, "")?.into()
                } else {
                    b.build_float_trunc(x, t, "")?.into()
                }
            }
            "arith.extsi" => b
                .build_int_s_extend(int(a(0)?), rt.into_int_type(), "")?
                .into(),
            "arith.extui" => b
                .build_int_z_extend(int(a(0)?), rt.into_int_type(), "")?
                .into(),
            "arith.trunci" => b
                .build_int_truncate(int(a(0)?), rt.into_int_type(), "")?
                .into(),
            "arith.index_cast" => b
                .build_int_cast_sign_flag(int(a(0)?), rt.into_int_type(), true, "")?
                .into(),
            "arith.index_castui" => b
                .build_int_cast_sign_flag(int(a(0)?), rt.into_int_type(), false, "")?
                .into(),
            "arith.sitofp" => b
                .build_signed_int_to_float(int(a(0)?), rt.into_float_type(), "")?
                .into(),
            "arith.uitofp" => b
                .build_unsigned_int_to_float(int(a(0)?), rt.into_float_type(), "")?
                .into(),
            "arith.fptosi" => b
                .build_float_to_signed_int(float(a(0)?), rt.into_int_type(), "")?
                .into(),
            "arith.fptoui" => b
                .build_float_to_unsigned_int(float(a(0)?), rt.into_int_type(), "")?
                .into(),
            "arith.bitcast" if narrow_of(ir, result).is_some() || self.narrow_operand(op) => {
                return Err(unsupported())
            }
            "arith.bitcast" => b.build_bit_cast(a(0)?, rt, "")?,
            "math.exp" if self.is_f32(rt) => self.fast_math().exp(float(a(0)?))?.into(),
            "math.exp" => self.intrinsic(op, "llvm.exp", rt, &[a(0)?])?,
            "math.exp2" => self.intrinsic(op, "llvm.exp2", rt, &[a(0)?])?,
            "math.log" => self.intrinsic(op, "llvm.log", rt, &[a(0)?])?,
            "math.log2" => self.intrinsic(op, "llvm.log2", rt, &[a(0)?])?,
            "math.sqrt" => self.intrinsic(op, "llvm.sqrt", rt, &[a(0)?])?,
            "math.rsqrt" => {
                let s = self.intrinsic(op, "llvm.sqrt", rt, &[a(0)?])?;
                let one = rt.into_float_type().const_float(1.0);
                b.build_float_div(one, float(s), "")?.into()
            }
            "math.absf" => self.intrinsic(op, "llvm.fabs", rt, &[a(0)?])?,
            "math.floor" => self.intrinsic(op, "llvm.floor", rt, &[a(0)?])?,
            "math.ceil" => self.intrinsic(op, "llvm.ceil", rt, &[a(0)?])?,
            "math.round" => self.intrinsic(op, "llvm.round", rt, &[a(0)?])?,
            "math.roundeven" => self.intrinsic(op, "llvm.roundeven", rt, &[a(0)?])?,
            "math.trunc" => self.intrinsic(op, "llvm.trunc", rt, &[a(0)?])?,
            "math.sin" => self.intrinsic(op, "llvm.sin", rt, &[a(0)?])?,
            "math.cos" => self.intrinsic(op, "llvm.cos", rt, &[a(0)?])?,
            "math.powf" => self.intrinsic(op, "llvm.pow", rt, &[a(0)?, a(1)?])?,
            "math.fma" => self.intrinsic(op, "llvm.fma", rt, &[a(0)?, a(1)?, a(2)?])?,
            "math.copysign" => self.intrinsic(op, "llvm.copysign", rt, &[a(0)?, a(1)?])?,
            "math.absi" => self.intrinsic(
                op,
                "llvm.abs",
                rt,
                &[a(0)?, self.llvm.bool_type().const_zero().into()],
            )?,
            "math.tanh" if self.is_f32(rt) => self.fast_math().tanh(float(a(0)?))?.into(),
            "math.tanh" => self.libm(op, "tanh", rt, a(0)?)?,
            "math.erf" if self.is_f32(rt) => self.fast_math().erf(float(a(0)?))?.into(),
            "math.erf" => self.libm(op, "erf", rt, a(0)?)?,
            "math.tan" => self.libm(op, "tan", rt, a(0)?)?,
            "math.atan" => self.libm(op, "atan", rt, a(0)?)?,
            "math.asin" => self.libm(op, "asin", rt, a(0)?)?,
            "math.acos" => self.libm(op, "acos", rt, a(0)?)?,
            "math.sinh" => self.libm(op, "sinh", rt, a(0)?)?,
            "math.cosh" => self.libm(op, "cosh", rt, a(0)?)?,
            "math.asinh" => self.libm(op, "asinh", rt, a(0)?)?,
            "math.acosh" => self.libm(op, "acosh", rt, a(0)?)?,
            "math.atanh" => self.libm(op, "atanh", rt, a(0)?)?,
            "math.log1p" => self.libm(op, "log1p", rt, a(0)?)?,
            "math.expm1" => self.libm(op, "expm1", rt, a(0)?)?,
            _ => return Err(unsupported()),
        };
        self.round_result(name, v, result)
    }

    /// `v`, the value of op `name` with result type `result`, rounded to
    /// it when it is a narrow float the exact value may not be one of.
    fn round_result(
        &self,
        name: &str,
        v: BasicValueEnum<'ctx>,
        result: Type,
    ) -> Result<BasicValueEnum<'ctx>, HostError> {
        // A narrow float result is rounded to its type where the op's exact
        // value may not be one: conversions into it and arithmetic (`addf`
        // of two f16 is computed in f32, then rounded, as IEEE f16 addition
        // gives). Selects, negation, min and max give values of the type
        // already. (The bodies `convert-graph-to-tensor` writes compute f16
        // and bf16 in f32 and truncate once per op, as eager mode rounds
        // each op's result.)
        let rounds =
            matches!(
                name,
                "arith.truncf"
                    | "arith.sitofp"
                    | "arith.uitofp"
                    | "arith.addf"
                    | "arith.subf"
                    | "arith.mulf"
                    | "arith.divf"
                    | "arith.remf"
            ) || (name.starts_with("math.") && name != "math.absf" && name != "math.copysign");
        match narrow_of(self.ir, result) {
            Some(n) if rounds => Ok(self.round_to(float(v), n)?.into()),
            _ => Ok(v),
        }
    }

    /// Whether an operand of `op` is a narrow float.
    fn narrow_operand(&self, op: Operation) -> bool {
        self.ir.operands(op).any(|v| {
            let ty = strata_dialects::kernel::types::element_of(self.ir, self.ir.value_type(v));
            narrow_of(self.ir, ty).is_some()
        })
    }

    /// `x` (an f32) rounded to the nearest value of `n` (ties to even).
    pub fn round_to(&self, x: FloatValue<'ctx>, n: Narrow) -> Result<FloatValue<'ctx>, HostError> {
        let b = self.builder;
        let f32t = self.llvm.f32_type();
        Ok(match n {
            Narrow::F16 => {
                let h = b.build_float_trunc(x, self.llvm.f16_type(), "")?;
                b.build_float_ext(h, f32t, "")?
            }
            Narrow::BF16 => {
                let bits = self.bf16_bits(x)?;
                self.bf16_from_bits(bits)?
            }
        })
    }

    /// The bf16 bits (in the high half of an i32, the low half zero) of `x`
    /// rounded to nearest even; a NaN stays a (quiet) NaN.
    fn bf16_bits(&self, x: FloatValue<'ctx>) -> Result<IntValue<'ctx>, HostError> {
        let b = self.builder;
        let i32t = self.llvm.i32_type();
        let c = |v: u64| i32t.const_int(v, false);
        let bits = b.build_bit_cast(x, i32t, "")?.into_int_value();
        let lsb = b.build_and(b.build_right_shift(bits, c(16), false, "")?, c(1), "")?;
        let bias = b.build_int_add(c(0x7fff), lsb, "")?;
        let rounded = b.build_and(b.build_int_add(bits, bias, "")?, c(0xffff_0000), "")?;
        let quiet = b.build_and(b.build_or(bits, c(0x0040_0000), "")?, c(0xffff_0000), "")?;
        let nan = b.build_float_compare(FloatPredicate::UNO, x, x, "")?;
        Ok(b.build_select(nan, quiet, rounded, "")?.into_int_value())
    }

    fn bf16_from_bits(&self, high: IntValue<'ctx>) -> Result<FloatValue<'ctx>, HostError> {
        let f32t = self.llvm.f32_type();
        Ok(self
            .builder
            .build_bit_cast(high, f32t, "")?
            .into_float_value())
    }

    /// A narrow float loaded from memory (`half` or `i16` bits) as its f32.
    pub fn widen_loaded(
        &self,
        v: BasicValueEnum<'ctx>,
        n: Narrow,
    ) -> Result<BasicValueEnum<'ctx>, HostError> {
        let b = self.builder;
        Ok(match n {
            Narrow::F16 => b
                .build_float_ext(v.into_float_value(), self.llvm.f32_type(), "")?
                .into(),
            Narrow::BF16 => {
                let i32t = self.llvm.i32_type();
                let wide = b.build_int_z_extend(v.into_int_value(), i32t, "")?;
                let high = b.build_left_shift(wide, i32t.const_int(16, false), "")?;
                self.bf16_from_bits(high)?.into()
            }
        })
    }

    /// An f32 rounded to narrow float `n`, as it is stored (`half` or `i16`
    /// bits).
    pub fn narrow_for_store(
        &self,
        v: BasicValueEnum<'ctx>,
        n: Narrow,
    ) -> Result<BasicValueEnum<'ctx>, HostError> {
        let b = self.builder;
        let x = v.into_float_value();
        Ok(match n {
            Narrow::F16 => b.build_float_trunc(x, self.llvm.f16_type(), "")?.into(),
            Narrow::BF16 => {
                let i32t = self.llvm.i32_type();
                let high = self.bf16_bits(x)?;
                let low = b.build_right_shift(high, i32t.const_int(16, false), false, "")?;
                b.build_int_truncate(low, self.llvm.i16_type(), "")?.into()
            }
        })
    }
}

/// Whether the host target computes `name` element by element.
pub(crate) fn is_elementwise(name: &str) -> bool {
    (name.starts_with("arith.") && name != "arith.constant") || name.starts_with("math.")
}

/// Whether `ty` (a scalar or a tile) has a float element type.
pub(crate) fn is_float(ir: &Context, ty: Type) -> bool {
    let element = strata_dialects::kernel::types::element_of(ir, ty);
    matches!(ir.type_kind(element), TypeKind::Float(_))
}
