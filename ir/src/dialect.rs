//! The dialect registry: which operations are known, their traits and verifiers.
//!
//! An operation kind is registered with an `OpDefinition`: its traits and
//! hooks. Most definitions come from a declarative [`OpSpec`](crate::ods::OpSpec)
//! (the `#[op]` macro of `strata-ir-macros`), which supplies the verifier,
//! the assembly format and typed accessors; hand-written definitions remain
//! possible for ops that need it.

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
    /// No memory effects, but not always speculatable (MLIR's
    /// `NoMemoryEffect` without `AlwaysSpeculatable`, e.g. a division that
    /// may trap): removable when unused and mergeable, not hoistable.
    pub no_memory_effect: bool,
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
    /// All operands and results have one type (`SameOperandsAndResultType`).
    pub same_operands_and_result_type: bool,
    /// All operands have one type (`SameTypeOperands`).
    pub same_type_operands: bool,
    /// Operands and results have the same shape (`SameOperandsAndResultShape`).
    pub same_operands_and_result_shape: bool,
    /// Applies element by element to vectors and tensors (`Elementwise`).
    pub elementwise: bool,
    /// Its result's shape is the broadcast of its operands' shapes
    /// (`ResultsBroadcastableShape`). The `graph` dialect gives it to its
    /// elementwise ops (which broadcast, so MLIR's `Elementwise`, which
    /// requires equal shapes, does not fit them); their shape functions
    /// verify the shapes.
    pub results_broadcastable_shape: bool,
    /// Its regions end in a terminator it inserts itself when the text
    /// leaves it out (`SingleBlockImplicitTerminator`).
    pub implicit_terminator: bool,
    /// Its memory effects are those of the ops in its regions
    /// (`RecursiveMemoryEffects`).
    pub recursive_memory_effects: bool,
    /// Fixed operand count, when known (`ZeroOperands`, `OneOperand`, ...).
    pub num_operands: Option<usize>,
    /// Fixed result count, when known.
    pub num_results: Option<usize>,
    /// Fixed region count, when known.
    pub num_regions: Option<usize>,
}

impl OpTraits {
    /// Whether the op itself has no memory effects (`Pure` or `NoMemoryEffect`).
    pub fn memory_effect_free(&self) -> bool {
        self.pure || self.no_memory_effect
    }

    /// No traits (for `..OpTraits::NONE` in constant definitions).
    pub const NONE: OpTraits = OpTraits {
        terminator: false,
        no_terminator: false,
        isolated_from_above: false,
        single_block: false,
        symbol_table: false,
        symbol: false,
        graph_region: false,
        pure: false,
        no_memory_effect: false,
        constant_like: false,
        commutative: false,
        call: false,
        callable: false,
        return_like: false,
        same_operands_and_result_type: false,
        same_type_operands: false,
        same_operands_and_result_shape: false,
        elementwise: false,
        results_broadcastable_shape: false,
        implicit_terminator: false,
        recursive_memory_effects: false,
        num_operands: None,
        num_results: None,
        num_regions: None,
    };
}

/// A custom (pretty) parser: fills `state` from the text after the op name.
pub type ParseFn = for<'p, 'a> fn(
    &mut crate::parser::asm::OpAsmParser<'p, 'a>,
    &mut crate::ir::OperationState,
) -> Result<(), Diagnostic>;

/// A custom (pretty) printer: prints what follows the op name.
pub type PrintFn = fn(&mut crate::printer::asm::OpAsmPrinter<'_, '_>, Operation);

/// Suggested names for an op's results (MLIR's `getAsmResultNames`):
/// `%c0_i32` rather than `%0`.
pub type ResultNamesFn = fn(&Context, Operation) -> Vec<(Value, String)>;

/// Adds an op's canonicalization patterns to a set.
pub type CanonicalizeFn = fn(&mut crate::rewrite::RewritePatternSet);

/// Verifies the symbol references of an op, looking symbols up through a
/// shared collection.
pub type VerifySymbolUsesFn =
    fn(&Context, Operation, &crate::symbol_table::SymbolTableCollection) -> Result<(), Diagnostic>;

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
    /// Verification that needs the nested ops verified first (MLIR's
    /// `verifyRegions`), run when the verifier leaves the op.
    pub verify_regions: Option<VerifyFn>,
    /// Checks of the symbols the op refers to (MLIR's
    /// `SymbolUserOpInterface::verifySymbolUses`), run when the verifier
    /// leaves the enclosing symbol table.
    pub verify_symbol_uses: Option<VerifySymbolUsesFn>,
    /// Custom-form parser, if the op has a custom form.
    pub parse: Option<ParseFn>,
    /// Custom-form printer; an op with a parser has one too.
    pub print: Option<PrintFn>,
    /// Result name suggestions for the printer.
    pub result_names: Option<ResultNamesFn>,
    /// Dialect whose prefix may be left out of op names in its regions
    /// (`OpAsmOpInterface::getDefaultDialect`).
    pub default_dialect: Option<&'static str>,
    /// Canonicalization patterns of the op.
    pub canonicalize: Option<CanonicalizeFn>,
    /// The declarative definition it came from, if any.
    pub spec: Option<&'static crate::ods::OpSpec>,
}

impl OpDefinition {
    /// No name, traits or hooks: the base of `..OpDefinition::EMPTY`.
    pub const EMPTY: OpDefinition = OpDefinition::new("", "");

    /// A definition with no traits and no hooks.
    pub const fn new(name: &'static str, summary: &'static str) -> Self {
        OpDefinition {
            name,
            summary,
            traits: OpTraits::NONE,
            inherent_attrs: &[],
            verify: None,
            fold: None,
            verify_regions: None,
            verify_symbol_uses: None,
            parse: None,
            print: None,
            result_names: None,
            default_dialect: None,
            canonicalize: None,
            spec: None,
        }
    }
}

/// Parses the body of a dialect attribute (`fastmath<fast>` of
/// `#arith.fastmath<fast>`, the text after the dialect prefix) into an
/// attribute. Errors are (byte offset in the body, message); the first is
/// the error, the others follow it.
pub type AttrParseFn = fn(&mut Context, &str) -> Result<Attribute, Vec<(usize, String)>>;

/// The alias prefix a dialect asks for one of its attributes, given the
/// attribute's body (`blocked<...>` of `#nvptx.blocked<...>`): the printer
/// defines `#prefix = ...` (numbered `#prefix1`, ... after the first) at
/// the top and prints the alias where the attribute is used, as MLIR's
/// `OpAsmDialectInterface::getAlias`.
pub type AttrAliasFn = fn(&str) -> Option<&'static str>;

/// Parses the body of a dialect type (`tensor_list<f32>` of
/// `!mydialect.tensor_list<f32>`) into a type, with errors as for
/// [`AttrParseFn`]. A dialect type is stored as `TypeKind::Opaque` with its
/// canonical body text, which the printer writes back as `!dialect.body`.
pub type TypeParseFn = fn(&mut Context, &str) -> Result<Type, Vec<(usize, String)>>;

/// [`DialectRegistry::attach_interface`] named an op that is not
/// registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot attach an interface to '{op}': no such op is registered")]
pub struct UnknownOpError {
    /// The name that was given.
    pub op: String,
}

/// A just-registered op (see [`DialectRegistry::register_op`]): attaching
/// interfaces to it cannot fail.
pub struct RegisteredOp<'r> {
    registry: &'r mut DialectRegistry,
    slot: usize,
}

impl RegisteredOp<'_> {
    /// Attach an implementation of interface `I` to the op (replacing an
    /// earlier one).
    pub fn attach_interface<I: Send + Sync + 'static>(&mut self, implementation: I) -> &mut Self {
        self.registry.attach_at(self.slot, implementation);
        self
    }
}

/// The registered dialects and operations.
#[derive(Default)]
pub struct DialectRegistry {
    ops: Vec<OpDefinition>,
    by_name: FxHashMap<String, usize>,
    dialects: Vec<&'static str>,
    /// Dialects whose unregistered ops verify (MLIR's
    /// `allowUnknownOperations`).
    open_dialects: Vec<&'static str>,
    materializers: FxHashMap<&'static str, MaterializeFn>,
    attr_parsers: FxHashMap<&'static str, AttrParseFn>,
    attr_aliases: FxHashMap<&'static str, AttrAliasFn>,
    type_parsers: FxHashMap<&'static str, TypeParseFn>,
    /// Parsed default values of declared attributes, by their MLIR text.
    defaults: FxHashMap<&'static str, Attribute>,
    /// Interfaces attached to ops: by interface type and op slot.
    interfaces: FxHashMap<(std::any::TypeId, usize), Box<dyn std::any::Any + Send + Sync>>,
    /// State that dialects keep in the context, one value per type.
    extensions: FxHashMap<std::any::TypeId, Box<dyn std::any::Any + Send + Sync>>,
}

impl DialectRegistry {
    /// The attribute a default-value text parsed to, if parsed before.
    pub fn cached_default(&self, text: &str) -> Option<Attribute> {
        self.defaults.get(text).copied()
    }

    /// Remember what a default-value text parses to.
    pub fn cache_default(&mut self, text: &'static str, value: Attribute) {
        self.defaults.insert(text, value);
    }

    /// Let ops of dialect `name` that are not registered verify, as
    /// unregistered ops do (MLIR's `Dialect::allowUnknownOperations`; its
    /// `test` dialect does this).
    pub fn allow_unknown_operations(&mut self, name: &'static str) {
        self.register_dialect(name);
        if !self.open_dialects.contains(&name) {
            self.open_dialects.push(name);
        }
    }

    /// Whether dialect `name` lets its unregistered ops verify.
    pub fn allows_unknown_operations(&self, name: &str) -> bool {
        self.open_dialects.contains(&name)
    }

    /// Register a dialect namespace.
    pub fn register_dialect(&mut self, name: &'static str) {
        if !self.dialects.contains(&name) {
            self.dialects.push(name);
        }
    }

    /// Register an operation (its dialect is registered too); the returned
    /// handle attaches interfaces to it.
    pub fn register_op(&mut self, def: OpDefinition) -> RegisteredOp<'_> {
        if let Some((dialect, _)) = def.name.split_once('.') {
            let dialect: &'static str = &def.name[..dialect.len()];
            self.register_dialect(dialect);
        }
        let slot = match self.by_name.get(def.name) {
            Some(&index) => {
                self.ops[index] = def;
                index
            }
            None => {
                let index = self.ops.len();
                self.by_name.insert(def.name.to_string(), index);
                self.ops.push(def);
                index
            }
        };
        RegisteredOp {
            registry: self,
            slot,
        }
    }

    /// Attach an implementation of interface `I` to the registered op
    /// `op_name` (replacing an earlier one); an error names the op when no
    /// op of that name is registered.
    pub fn attach_interface<I: Send + Sync + 'static>(
        &mut self,
        op_name: &str,
        implementation: I,
    ) -> Result<(), UnknownOpError> {
        let slot = self.index_of(op_name).ok_or_else(|| UnknownOpError {
            op: op_name.to_string(),
        })?;
        self.attach_at(slot, implementation);
        Ok(())
    }

    fn attach_at<I: Send + Sync + 'static>(&mut self, slot: usize, implementation: I) {
        self.interfaces.insert(
            (std::any::TypeId::of::<I>(), slot),
            Box::new(implementation),
        );
    }

    /// The implementation of interface `I` attached to `op_name`.
    pub fn interface<I: 'static>(&self, op_name: &str) -> Option<&I> {
        self.interface_at(self.index_of(op_name)?)
    }

    /// The dialect state of type `T`, if a dialect created one (see
    /// [`DialectRegistry::extension_mut`]).
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.extensions
            .get(&std::any::TypeId::of::<T>())
            .and_then(|b| b.downcast_ref::<T>())
    }

    /// The dialect state of type `T`, created with `T::default()` on first
    /// use: where a dialect keeps what users register with it at run time
    /// (the `graph` dialect's custom ops), as MLIR dialects keep state in
    /// the context.
    pub fn extension_mut<T: Default + Send + Sync + 'static>(&mut self) -> &mut T {
        let entry = self
            .extensions
            .entry(std::any::TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::default()));
        match entry.downcast_mut::<T>() {
            Some(t) => t,
            None => unreachable!("extensions are keyed by their TypeId"),
        }
    }

    /// The declarative spec of the op named `name`, when it is registered
    /// and declared with `#[op]`.
    pub fn op_spec(&self, name: &str) -> Option<&'static crate::ods::OpSpec> {
        self.index_of(name).and_then(|i| self.ops[i].spec)
    }

    pub(crate) fn interface_at<I: 'static>(&self, slot: usize) -> Option<&I> {
        self.interfaces
            .get(&(std::any::TypeId::of::<I>(), slot))
            .and_then(|b| b.downcast_ref::<I>())
    }

    /// The slot of a registered operation (stable while the registry lives).
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Let `dialect` materialize constants (for folding).
    pub fn register_constant_materializer(&mut self, dialect: &'static str, f: MaterializeFn) {
        self.register_dialect(dialect);
        self.materializers.insert(dialect, f);
    }

    /// Let `dialect` parse its attributes (`#dialect.xxx`).
    pub fn register_attr_parser(&mut self, dialect: &'static str, f: AttrParseFn) {
        self.register_dialect(dialect);
        self.attr_parsers.insert(dialect, f);
    }

    /// Let `dialect` name aliases for its attributes (see [`AttrAliasFn`]).
    pub fn register_attr_alias(&mut self, dialect: &'static str, f: AttrAliasFn) {
        self.register_dialect(dialect);
        self.attr_aliases.insert(dialect, f);
    }

    /// The alias function of a dialect's attributes.
    pub fn attr_alias(&self, dialect: &str) -> Option<AttrAliasFn> {
        self.attr_aliases.get(dialect).copied()
    }

    /// Let `dialect` parse its types (`!dialect.xxx`).
    pub fn register_type_parser(&mut self, dialect: &'static str, f: TypeParseFn) {
        self.register_dialect(dialect);
        self.type_parsers.insert(dialect, f);
    }

    /// The type parser of a dialect.
    pub fn type_parser(&self, dialect: &str) -> Option<TypeParseFn> {
        self.type_parsers.get(dialect).copied()
    }

    /// The attribute parser of a dialect.
    pub fn attr_parser(&self, dialect: &str) -> Option<AttrParseFn> {
        self.attr_parsers.get(dialect).copied()
    }

    /// The constant materializer of a dialect.
    pub fn constant_materializer(&self, dialect: &str) -> Option<MaterializeFn> {
        self.materializers.get(dialect).copied()
    }

    /// The definition of a registered operation.
    pub fn op(&self, name: &str) -> Option<&OpDefinition> {
        self.by_name.get(name).map(|&i| &self.ops[i])
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
        let mut ops: Vec<_> = self.ops.iter().collect();
        ops.sort_by_key(|d| d.name);
        ops
    }
}

impl Context {
    /// The registry slot of `op`'s kind, when it is registered.
    pub(crate) fn op_slot(&self, op: Operation) -> Option<usize> {
        let name = self.op_name(op);
        if self.ident_ops_epoch == self.registry_epoch {
            if let Some(&slot) = self.ident_ops.get(name.index()) {
                return (slot != u32::MAX).then_some(slot as usize);
            }
        }
        self.registry.index_of(self.ident_str(name))
    }

    /// The custom printer of `op`, when it has one and `op` has the shape
    /// its definition declares (else it prints in the generic form).
    pub fn custom_printer(&self, op: Operation) -> Option<(&OpDefinition, PrintFn)> {
        let def = self.op_definition(op)?;
        let print = def.print?;
        if let Some(spec) = def.spec {
            if !crate::ods::has_declared_shape(self, op, spec) {
                return None;
            }
        }
        Some((def, print))
    }

    /// The definition of `op`'s kind, when it is registered.
    pub fn op_definition(&self, op: Operation) -> Option<&OpDefinition> {
        self.op_slot(op).map(|slot| &self.registry.ops[slot])
    }
}
