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
//! use strata_ir::{Attribute, Context, Operation, Value};
//!
//! fn successors(_: &Context, _: Operation, _: Option<usize>, _: &[Option<Attribute>]) -> Vec<RegionSuccessor> {
//!     vec![RegionSuccessor::Parent]
//! }
//! let branch = RegionBranch {
//!     successors,
//!     entry_operands: |_, _| Vec::<Value>::new(),
//!     leading_arguments: |_, _, _| 0,
//! };
//! let mut ctx = Context::new();
//! ctx.registry_mut()
//!     .attach_interface("builtin.module", branch)
//!     .expect("builtin.module is registered");
//! // A name that no op has is an error, not a silent no-op.
//! assert!(ctx
//!     .registry_mut()
//!     .attach_interface("builtin.modul", branch)
//!     .is_err());
//! ```

use crate::context::{Attribute, Context, Operation, Type};
use crate::ir::Value;

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

/// [`RegionBranch::successors`]: from `None` (entering) or `Some(i)` (the
/// end of region `i`), given the known constants among the operands.
pub type RegionSuccessorsFn =
    fn(&Context, Operation, Option<usize>, &[Option<Attribute>]) -> Vec<RegionSuccessor>;

/// Control flow between an op and its regions (MLIR's
/// `RegionBranchOpInterface`): from the op itself (`None`: entering it) or
/// from the end of region `i` (`Some(i)`), where control may go next.
/// Values flow along each edge: the op's forwarded operands
/// ([`entry_operands`](Self::entry_operands)) or the terminator's
/// ([`RegionTerminator`], all of a `ReturnLike` one's) become the successor
/// region's entry arguments after its
/// [`leading_arguments`](Self::leading_arguments), or the op's results.
#[derive(Clone, Copy)]
pub struct RegionBranch {
    /// The successors of a point of the op, given the constant values of
    /// the op's operands (entering) or of the terminator's operands (from a
    /// region) where known: `None` for a value not known to be constant
    /// (a short or empty slice knows nothing).
    pub successors: RegionSuccessorsFn,
    /// The operands forwarded on entry, to a region's arguments or (when
    /// the op may skip its regions) to its results; the others only steer
    /// control (MLIR's `getEntrySuccessorOperands`).
    pub entry_operands: fn(&Context, Operation) -> Vec<Value>,
    /// How many leading entry arguments of region `i` receive no forwarded
    /// value (a loop's induction variables).
    pub leading_arguments: fn(&Context, Operation, usize) -> usize,
}

/// A terminator of a region of a [`RegionBranch`] op that forwards only
/// some of its operands to the successor (MLIR's
/// `RegionBranchTerminatorOpInterface`: `scf.condition` forwards all but
/// its condition). A `ReturnLike` terminator without it forwards all.
#[derive(Clone, Copy)]
pub struct RegionTerminator {
    /// The forwarded operands.
    pub forwarded: fn(&Context, Operation) -> Vec<Value>,
}

/// How many times each region of an op runs, at most, each time the op runs
/// (the upper bounds of MLIR's `getRegionInvocationBounds`), given the
/// constant values of its operands where known (`None` in the slice: not
/// known). `control-flow-sink` moves computations into the regions that
/// run at most once.
#[derive(Clone, Copy)]
pub struct RegionInvocationBounds {
    /// One upper bound per region (`None`: unknown).
    pub upper_bounds: UpperBoundsFn,
}

/// [`RegionInvocationBounds::upper_bounds`]: given the known constants among
/// the operands, each region's upper bound.
pub type UpperBoundsFn = fn(&Context, Operation, &[Option<Attribute>]) -> Vec<Option<u64>>;

/// A loop (MLIR's `LoopLikeOpInterface`): the regions that run repeatedly.
/// `loop-invariant-code-motion` moves an op whose operands come from
/// outside the loop, and that may run speculatively, to just before it.
#[derive(Clone, Copy)]
pub struct LoopLike {
    /// The regions of the loop's body (both of `scf.while`'s).
    pub loop_regions: fn(&Context, Operation) -> Vec<crate::Region>,
}

/// Whether an op may run where its program would not run it (MLIR's
/// `Speculation::Speculatability`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speculatability {
    /// Running it could trap or misbehave (a division by a value that may
    /// be zero).
    NotSpeculatable,
    /// It may run anywhere its operands are available.
    Speculatable,
    /// It may, when every op in its regions may (`scf.if`).
    RecursivelySpeculatable,
}

/// An op whose speculatability depends on the op itself (MLIR's
/// `ConditionallySpeculatable`); a `Pure` op is always speculatable, an op
/// with neither is not.
#[derive(Clone, Copy)]
pub struct Speculation {
    /// How far this op may be run speculatively.
    pub speculatability: fn(&Context, Operation) -> Speculatability,
}

/// Control flow to successor blocks (MLIR's `BranchOpInterface`).
#[derive(Clone, Copy)]
pub struct Branch {
    /// Where, among the op's operands, those passed to the arguments of
    /// successor `i` are (MLIR's `getSuccessorOperands`).
    pub successor_operands: fn(&Context, Operation, usize) -> std::ops::Range<usize>,
    /// The successor index the constant values of the operands select
    /// (`None` in the slice for a value not known to be constant), if they
    /// decide it (MLIR's `getSuccessorForOperands`).
    pub taken_successor: fn(&Context, Operation, &[Option<Attribute>]) -> Option<usize>,
    /// Remove operand `index` of those passed to successor `i` (the
    /// caller removes the block argument it fed).
    pub erase_successor_operand: fn(&mut Context, Operation, usize, usize),
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
