//! Op interfaces: behavior a pass can ask an op for without knowing its kind
//! (MLIR's `OpInterface`s and external models).
//!
//! An interface is any `'static` (and `Send + Sync`) type, usually a struct of function
//! pointers. It is attached to an op by its declaration (`#[op(...,
//! interfaces(...))]`), or to a registered op by name, from any crate, at
//! registration time or later (`DialectRegistry::attach_interface`, an
//! error for a name no registered op has), and
//! looked up per op with [`Context::op_interface`]. Traits that are plain
//! flags (`Pure`, `Commutative`, ...) stay in `OpTraits`; interfaces are for
//! behavior with arguments and results, like the control flow between an
//! op's regions below, or the shape function of each `graph` op.
//!
//! ```
//! use strata_ir::interfaces::{RegionBranch, RegionSuccessor};
//! use strata_ir::{Context, Operation};
//!
//! fn successors(_: &Context, _: Operation, _: Option<usize>) -> Vec<RegionSuccessor> {
//!     vec![RegionSuccessor::Parent]
//! }
//! let mut ctx = Context::new();
//! ctx.registry_mut()
//!     .attach_interface("builtin.module", RegionBranch { successors })
//!     .expect("builtin.module is registered");
//! // A name that no op has is an error, not a silent no-op.
//! assert!(ctx
//!     .registry_mut()
//!     .attach_interface("builtin.modul", RegionBranch { successors })
//!     .is_err());
//! ```

use crate::context::{Context, Operation, Type};

/// Result-type inference from a built op (MLIR's `InferTypeOpInterface`,
/// for ops whose inference needs the op itself: its operands' types and
/// its attributes). The `build_inferred` that `#[op]` writes for an op
/// whose declaration attaches an interface of this kind (the `graph`
/// dialect's `ShapeFunction`) creates the op with
/// [`placeholder_type`](Self::placeholder_type) results, runs
/// [`infer_result_types`](Self::infer_result_types) and sets the results'
/// types.
pub trait InferResultTypes {
    /// The result types of `op`, whose results have placeholder types.
    fn infer_result_types(&self, ctx: &mut Context, op: Operation) -> Result<Vec<Type>, String>;

    /// The type results are created with before inference.
    fn placeholder_type(&self, ctx: &mut Context) -> Type;
}

/// Control flow between an op and its regions (MLIR's
/// `RegionBranchOpInterface`): from the op itself (`None`: entering it) or
/// from the end of region `i` (`Some(i)`), where control may go next.
/// Values flow along each edge: the op's forwarded operands or the
/// terminator's operands become the successor region's entry arguments or
/// the op's results.
#[derive(Clone, Copy)]
pub struct RegionBranch {
    /// The successors of a point of the op.
    pub successors: fn(&Context, Operation, Option<usize>) -> Vec<RegionSuccessor>,
}

/// Where control goes next from a region-branch point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionSuccessor {
    /// Into region `i` of the op.
    Region(usize),
    /// Out of the op, to its results.
    Parent,
}

impl Context {
    /// The implementation of interface `I` attached to `op`'s kind, if any.
    pub fn op_interface<I: 'static>(&self, op: Operation) -> Option<&I> {
        let slot = self.op_slot(op)?;
        self.registry.interface_at::<I>(slot)
    }
}
