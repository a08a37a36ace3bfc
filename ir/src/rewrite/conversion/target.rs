//! The conversion target: which operations are legal after a conversion
//! (MLIR's `ConversionTarget`).
//!
//! Legality is declared per operation name or per dialect namespace, as
//! legal, illegal or dynamically legal (a closure decides for each
//! operation). An operation's own entry wins over its dialect's; without
//! either, the fallback set by
//! [`ConversionTarget::mark_unknown_operations_dynamically_legal`] decides,
//! and without it the operation's legality is [`Legality::Unknown`].

use rustc_hash::{FxHashMap, FxHashSet};

use crate::context::{Context, Operation};

/// A closure deciding whether one operation is legal.
pub type LegalityFn = Box<dyn Fn(&Context, Operation) -> bool>;

/// What a target says about one operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legality {
    /// Legal: the conversion leaves it alone.
    Legal,
    /// Explicitly illegal: it must be converted.
    Illegal,
    /// Nothing is known: the conversion tries patterns on it, and a partial
    /// conversion tolerates it when none applies.
    Unknown,
}

/// How one operation name or dialect is declared.
enum Action {
    Legal,
    Illegal,
    Dynamic(LegalityFn),
}

/// The operations and dialects a conversion must produce (MLIR's
/// `ConversionTarget`).
#[derive(Default)]
pub struct ConversionTarget {
    ops: FxHashMap<String, Action>,
    dialects: FxHashMap<String, Action>,
    recursively_legal: FxHashSet<String>,
    unknown: Option<LegalityFn>,
}

impl ConversionTarget {
    /// A target with no legality information.
    pub fn new() -> Self {
        Self::default()
    }

    /// Mark the operation named `name` (`dialect.op`) legal.
    pub fn add_legal_op(&mut self, name: &str) -> &mut Self {
        self.ops.insert(name.to_string(), Action::Legal);
        self
    }

    /// Mark the operation named `name` illegal: it must be converted.
    pub fn add_illegal_op(&mut self, name: &str) -> &mut Self {
        self.ops.insert(name.to_string(), Action::Illegal);
        self
    }

    /// Let `is_legal` decide, for each operation named `name`, whether it is
    /// legal (`false`: illegal).
    pub fn add_dynamically_legal_op(
        &mut self,
        name: &str,
        is_legal: impl Fn(&Context, Operation) -> bool + 'static,
    ) -> &mut Self {
        self.ops
            .insert(name.to_string(), Action::Dynamic(Box::new(is_legal)));
        self
    }

    /// Mark every operation of `dialect` (a namespace such as `arith`) legal.
    pub fn add_legal_dialect(&mut self, dialect: &str) -> &mut Self {
        self.dialects.insert(dialect.to_string(), Action::Legal);
        self
    }

    /// Mark every operation of `dialect` illegal.
    pub fn add_illegal_dialect(&mut self, dialect: &str) -> &mut Self {
        self.dialects.insert(dialect.to_string(), Action::Illegal);
        self
    }

    /// Let `is_legal` decide for the operations of `dialect`.
    pub fn add_dynamically_legal_dialect(
        &mut self,
        dialect: &str,
        is_legal: impl Fn(&Context, Operation) -> bool + 'static,
    ) -> &mut Self {
        self.dialects
            .insert(dialect.to_string(), Action::Dynamic(Box::new(is_legal)));
        self
    }

    /// When an operation named `name` is legal, so is everything nested in
    /// it: the conversion does not look inside (MLIR's
    /// `markOpRecursivelyLegal`). `name` must also be marked legal (or
    /// dynamically legal) for this to apply.
    pub fn mark_op_recursively_legal(&mut self, name: &str) -> &mut Self {
        self.recursively_legal.insert(name.to_string());
        self
    }

    /// Let `is_legal` decide for operations with no entry of their own or
    /// of their dialect (MLIR's `markUnknownOpDynamicallyLegal`).
    pub fn mark_unknown_operations_dynamically_legal(
        &mut self,
        is_legal: impl Fn(&Context, Operation) -> bool + 'static,
    ) -> &mut Self {
        self.unknown = Some(Box::new(is_legal));
        self
    }

    /// The entry that decides for `op`: its own, its dialect's, or the
    /// unknown-operation fallback.
    fn action(&self, ctx: &Context, op: Operation) -> Option<&Action> {
        let name = ctx.op_name_str(op);
        if let Some(action) = self.ops.get(name) {
            return Some(action);
        }
        let dialect = name.split_once('.').map_or(name, |(dialect, _)| dialect);
        if let Some(action) = self.dialects.get(dialect) {
            return Some(action);
        }
        None
    }

    /// Whether `op` is legal, explicitly illegal, or unknown to the target.
    pub fn legality(&self, ctx: &Context, op: Operation) -> Legality {
        let verdict = match self.action(ctx, op) {
            Some(Action::Legal) => return Legality::Legal,
            Some(Action::Illegal) => return Legality::Illegal,
            Some(Action::Dynamic(is_legal)) => is_legal(ctx, op),
            None => match &self.unknown {
                Some(is_legal) => is_legal(ctx, op),
                None => return Legality::Unknown,
            },
        };
        if verdict {
            Legality::Legal
        } else {
            Legality::Illegal
        }
    }

    /// Whether `op` is legal and its regions need not be looked at.
    pub fn is_recursively_legal(&self, ctx: &Context, op: Operation) -> bool {
        self.recursively_legal.contains(ctx.op_name_str(op))
            && self.legality(ctx, op) == Legality::Legal
    }
}
