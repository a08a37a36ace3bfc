//! strata-ir: the IR core of strata.
//!
//! A `Context` owns operations, blocks, regions, interned types, attributes and
//! locations; everything else is a small `Copy` handle into it. The text
//! format is MLIR's: `parser` reads it, `printer` writes it character for
//! character as `mlir-opt` does, `verifier` checks structure and dominance, and
//! `diagnostics` reports problems with locations.
//!
//! Start reading at [`Context`], then [`ir`] (operations and values),
//! [`parser::parse_source`] and [`printer::print_operation`].

pub mod attributes;
mod builtin;
pub mod context;
pub mod diagnostics;
pub mod dialect;
pub mod float;
pub mod ir;
pub mod parser;
pub mod printer;
pub mod types;
pub mod verifier;
pub mod verify_diagnostics;
mod wide_int;

pub use attributes::{AttrKind, DenseData, LocKind};
pub use context::{Attribute, Block, Context, Ident, Location, Operation, Region, Type};
pub use diagnostics::{Diagnostic, Severity, SourceBuffer};
pub use ir::{OpOperand, OperationState, Value};
pub use types::TypeKind;
