//! The host kernels' entry point ([`crate::llvm::HostKernel`]): its LLVM
//! type, and reading a parameter from its 8-byte slot of the argument
//! array. Shared by the host kernels and the GPU kernels emulated on the
//! host.

use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context as LlvmContext;
use inkwell::types::{BasicTypeEnum, FunctionType};
use inkwell::values::{BasicValueEnum, PointerValue};
use inkwell::AddressSpace;

/// `void (u64 *args, i64 gx, i64 gy, i64 gz, i64 begin, i64 end)`.
pub(crate) fn entry_type(llvm: &LlvmContext) -> FunctionType<'_> {
    let i64t = llvm.i64_type();
    let ptr = llvm.ptr_type(AddressSpace::default());
    llvm.void_type().fn_type(
        &[
            ptr.into(),
            i64t.into(),
            i64t.into(),
            i64t.into(),
            i64t.into(),
            i64t.into(),
        ],
        false,
    )
}

/// Parameter `i` of type `lt` from the argument array `args`: a pointer,
/// an integer (sign-extended to 64 bits in its slot) or a float (widened
/// to `f64`); `None` for another type.
pub(crate) fn load_arg<'ctx>(
    builder: &Builder<'ctx>,
    llvm: &'ctx LlvmContext,
    args: PointerValue<'ctx>,
    i: u64,
    lt: BasicTypeEnum<'ctx>,
) -> Result<Option<BasicValueEnum<'ctx>>, BuilderError> {
    let i64t = llvm.i64_type();
    // SAFETY: slot i of the argument array (the runtime passes one per parameter).
    let slot = unsafe { builder.build_in_bounds_gep(i64t, args, &[i64t.const_int(i, false)], "")? };
    Ok(Some(match lt {
        BasicTypeEnum::PointerType(p) => builder.build_load(p, slot, "")?,
        BasicTypeEnum::IntType(t) => {
            let raw = builder.build_load(i64t, slot, "")?.into_int_value();
            builder.build_int_truncate_or_bit_cast(raw, t, "")?.into()
        }
        BasicTypeEnum::FloatType(t) => {
            let raw = builder
                .build_load(llvm.f64_type(), slot, "")?
                .into_float_value();
            builder.build_float_cast(raw, t, "")?.into()
        }
        _ => return Ok(None),
    }))
}
