//! The dialect registry: which operations are known, their traits and verifiers.
//!
//! The declarative op-definition mechanism arrives with the core dialects; for
//! now an operation is registered with an `OpDefinition` value.

use rustc_hash::FxHashMap;

use crate::context::{Attribute, Context, Location, Operation, Type};
use crate::diagnostics::Diagnostic;
use crate::ir::Value;

/// Structural properties of an operation kind, as MLIR's op traits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpTraits {
    /// Ends a block (`IsTerminator`).
    pub terminator: bool,
    /// Its single-block regions need no terminator (`NoTerminator`).
    pub no_terminator: bool,
    /// Values from enclosing regions are not visible inside (`IsolatedFromAbove`).
    pub isolated_from_above: bool,
    /// Its regions hold at most one block (`SingleBlock`).
    pub single_block: bool,
    /// It defines a symbol table (`SymbolTable`).
    pub symbol_table: bool,
    /// It is a symbol (`SymbolOpInterface`): its `sym_name` names it and
    /// its `sym_visibility` says who may reference it.
    pub symbol: bool,
    /// Its regions are graph regions: no SSA dominance inside a block (`RegionKindInterface`).
    pub graph_region: bool,
    /// No memory effects and no undefined behavior (`Pure`): such an op may
    /// be removed when unused and merged with an identical one.
    pub pure: bool,
    /// Produces a constant from an attribute (`ConstantLike`); its folder
    /// returns that attribute.
    pub constant_like: bool,
    /// Operand order does not matter (`Commutative`).
    pub commutative: bool,
    /// Calls the symbol in its `callee` property with all its operands as
    /// arguments (`CallOpInterface`).
    pub call: bool,
    /// Can be called: its first region is the body, whose entry block
    /// arguments are the parameters (`CallableOpInterface`).
    pub callable: bool,
    /// Returns its operands to the caller of the enclosing callable
    /// (`ReturnLike`).
    pub return_like: bool,
    /// Fixed operand count, when known (`ZeroOperands`, `OneOperand`, ...).
    pub num_operands: Option<usize>,
    /// Fixed result count, when known.
    pub num_results: Option<usize>,
    /// Fixed region count, when known.
    pub num_regions: Option<usize>,
}

/// A verifier hook: returns the diagnostics for an invalid operation.
pub type VerifyFn = fn(&Context, Operation) -> Result<(), Diagnostic>;

/// One folded result: a constant attribute or an existing value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldResult {
    /// The result is this constant (materialized by the dialect when needed).
    Attr(Attribute),
    /// The result is this existing value.
    Value(Value),
}

/// A folder (MLIR's `fold`): given the op and the constant value of each
/// operand (when known), the folded results, or `None` when it does not
/// fold. The context is mutable only to intern attributes: a folder never
/// creates or changes operations.
pub type FoldFn = fn(&mut Context, Operation, &[Option<Attribute>]) -> Option<Vec<FoldResult>>;

/// Creates a constant op of `ty` holding `value` (MLIR's
/// `Dialect::materializeConstant`); returns `None` when it cannot.
pub type MaterializeFn = fn(&mut Context, Attribute, Type, Location) -> Option<Operation>;

/// What the context knows about one registered operation kind.
#[derive(Clone, Debug)]
pub struct OpDefinition {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Structural traits.
    pub traits: OpTraits,
    /// Names of inherent attributes: stored as properties (`<{...}>`).
    pub inherent_attrs: &'static [&'static str],
    /// Op-specific verification, run after the structural checks.
    pub verify: Option<VerifyFn>,
    /// Folder, if the op folds.
    pub fold: Option<FoldFn>,
}

/// The registered dialects and operations.
#[derive(Default)]
pub struct DialectRegistry {
    ops: FxHashMap<String, OpDefinition>,
    dialects: Vec<&'static str>,
    materializers: FxHashMap<&'static str, MaterializeFn>,
}

impl DialectRegistry {
    /// Register a dialect namespace.
    pub fn register_dialect(&mut self, name: &'static str) {
        if !self.dialects.contains(&name) {
            self.dialects.push(name);
        }
    }

    /// Register an operation (its dialect is registered too).
    pub fn register_op(&mut self, def: OpDefinition) {
        if let Some((dialect, _)) = def.name.split_once('.') {
            let dialect: &'static str = &def.name[..dialect.len()];
            self.register_dialect(dialect);
        }
        self.ops.insert(def.name.to_string(), def);
    }

    /// Let `dialect` materialize constants (for folding).
    pub fn register_constant_materializer(&mut self, dialect: &'static str, f: MaterializeFn) {
        self.register_dialect(dialect);
        self.materializers.insert(dialect, f);
    }

    /// The constant materializer of a dialect.
    pub fn constant_materializer(&self, dialect: &str) -> Option<MaterializeFn> {
        self.materializers.get(dialect).copied()
    }

    /// The definition of a registered operation.
    pub fn op(&self, name: &str) -> Option<&OpDefinition> {
        self.ops.get(name)
    }

    /// Whether a dialect namespace is registered.
    pub fn has_dialect(&self, name: &str) -> bool {
        self.dialects.contains(&name)
    }

    /// Registered dialect names, sorted.
    pub fn dialects(&self) -> Vec<&'static str> {
        let mut names = self.dialects.clone();
        names.sort_unstable();
        names
    }

    /// Registered operations, sorted by name.
    pub fn ops(&self) -> Vec<&OpDefinition> {
        let mut ops: Vec<_> = self.ops.values().collect();
        ops.sort_by_key(|d| d.name);
        ops
    }
}

impl Context {
    /// The definition of `op`'s kind, when it is registered.
    pub fn op_definition(&self, op: Operation) -> Option<&OpDefinition> {
        self.registry.op(self.op_name_str(op))
    }
}
