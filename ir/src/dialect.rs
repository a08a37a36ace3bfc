//! The dialect registry: which operations are known, their traits and verifiers.
//!
//! The declarative op-definition mechanism arrives with the core dialects; for
//! now an operation is registered with an `OpDefinition` value.

use rustc_hash::FxHashMap;

use crate::context::{Context, Operation};
use crate::diagnostics::Diagnostic;

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
    /// Its regions are graph regions: no SSA dominance inside a block (`RegionKindInterface`).
    pub graph_region: bool,
    /// Fixed operand count, when known (`ZeroOperands`, `OneOperand`, ...).
    pub num_operands: Option<usize>,
    /// Fixed result count, when known.
    pub num_results: Option<usize>,
    /// Fixed region count, when known.
    pub num_regions: Option<usize>,
}

/// A verifier hook: returns the diagnostics for an invalid operation.
pub type VerifyFn = fn(&Context, Operation) -> Result<(), Diagnostic>;

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
}

/// The registered dialects and operations.
#[derive(Default)]
pub struct DialectRegistry {
    ops: FxHashMap<String, OpDefinition>,
    dialects: Vec<&'static str>,
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
