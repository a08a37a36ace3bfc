//! strata-ir: the IR core of strata.
//!
//! A `Context` owns operations, blocks, regions, interned types, attributes and
//! locations; everything else is a small `Copy` handle into it. The text
//! format is MLIR's: `parser` reads it, `printer` writes it character for
//! character as `mlir-opt` does, `verifier` checks structure and dominance, and
//! `diagnostics` reports problems with locations.
//!
//! Start reading at [`Context`], then [`ir`] (operations and values),
//! [`walk`] (visiting nested operations), [`parser::parse_source`] and
//! [`printer::print_operation`].
//!
//! ```
//! use strata_ir::{parser, printer, verifier, Context, SourceBuffer};
//!
//! let mut ctx = Context::new();
//! ctx.set_allow_unregistered_dialects(true);
//! let text = r#"%0 = "toy.constant"() {value = 1.5 : f32} : () -> f32"#;
//! let module = parser::parse_source(&mut ctx, &SourceBuffer::new("input.mlir", text))
//!     .expect("valid IR");
//! verifier::verify(&ctx, module).expect("verifies");
//!
//! // Walk the IR: the module's single block holds the constant.
//! let body = ctx.region_entry_block(ctx.op_regions(module)[0]).expect("a block");
//! let constant = ctx.block_first_op(body).expect("an op");
//! assert_eq!(ctx.op_name_str(constant), "toy.constant");
//!
//! let options = printer::PrintOptions { generic: true, ..Default::default() };
//! assert_eq!(
//!     printer::print_operation(&ctx, module, options),
//!     "\"builtin.module\"() ({\n  %0 = \"toy.constant\"() {value = 1.500000e+00 : f32} : () -> f32\n}) : () -> ()\n"
//! );
//! ```

extern crate self as strata_ir;

pub mod affine;
pub mod attributes;
mod builtin;
pub mod context;
pub mod diagnostics;
pub mod dialect;
pub mod dominance;
pub mod float;
pub mod interfaces;
pub mod ir;
pub mod ods;
pub mod parser;
pub mod pass;
pub mod printer;
pub mod rewrite;
pub mod symbol_table;
pub mod testing;
pub mod types;
pub mod verifier;
pub mod verify_diagnostics;
pub mod walk;
mod wide_int;

pub use attributes::{AttrKind, DenseData, LocKind};
pub use builtin::ModuleOp;
pub use context::{
    Attribute, Block, Context, Ident, Location, Operation, Region, ResourceValue, Type,
};
pub use diagnostics::{Diagnostic, Severity, SourceBuffer};
/// The registry of declared ops (`ods::DeclaredOp`) is an `inventory`
/// collection; re-exported so that the code `#[op]` generates needs no
/// direct dependency in the crate that declares the op.
#[doc(hidden)]
pub use inventory;
pub use ir::{IrMapping, OpOperand, OperationState, Value};
pub use strata_ir_macros::{op, pass, pattern};
pub use types::TypeKind;
pub use walk::{WalkOrder, WalkResult};
