//! Symbols and symbol tables, as MLIR's `SymbolTable`.
//!
//! An operation defines a symbol when it carries a `sym_name` string (as an
//! inherent attribute or, for unregistered ops, in its properties or
//! attributes). An operation with the `SymbolTable` trait (`builtin.module`)
//! owns the symbols of the ops directly in its region; names are unique there.

use rustc_hash::FxHashMap;

use crate::attributes::AttrKind;
use crate::context::{Attribute, Context, Operation};

/// The attribute that names a symbol.
pub const SYMBOL_ATTR_NAME: &str = "sym_name";
/// The attribute that gives a symbol's visibility (`public`, `private`, `nested`).
pub const VISIBILITY_ATTR_NAME: &str = "sym_visibility";

impl Context {
    /// An inherent attribute (from the properties dictionary) or else a
    /// discardable one, by name (MLIR's `Operation::getAttr`).
    pub fn op_attr_any(&self, op: Operation, name: &str) -> Option<Attribute> {
        if let Some(props) = self.op_properties(op) {
            let found = self
                .dictionary_entries(props)
                .iter()
                .find(|(n, _)| self.ident_str(*n) == name)
                .map(|(_, a)| *a);
            if found.is_some() {
                return found;
            }
        }
        self.op_attr(op, name)
    }

    /// `op`'s `sym_visibility` (`public`, `private`, `nested`), if it has one.
    pub fn symbol_visibility(&self, op: Operation) -> Option<&[u8]> {
        match self.attr_kind(self.op_attr_any(op, VISIBILITY_ATTR_NAME)?) {
            AttrKind::String { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The symbol `op` defines, if any.
    pub fn symbol_name(&self, op: Operation) -> Option<&[u8]> {
        match self.attr_kind(self.op_attr_any(op, SYMBOL_ATTR_NAME)?) {
            AttrKind::String { value, .. } => Some(value),
            _ => None,
        }
    }

    /// Whether `op` is a symbol (a registered op with the `symbol` trait,
    /// MLIR's `SymbolOpInterface`). Any op's `sym_name` is looked up and
    /// checked for uniqueness, but only symbols may be discarded.
    ///
    /// A symbol op without a name (an unnamed `builtin.module`, whose name is
    /// optional) is not one, as in MLIR.
    pub fn is_symbol(&self, op: Operation) -> bool {
        self.op_definition(op).is_some_and(|d| d.traits.symbol) && self.symbol_name(op).is_some()
    }

    /// Whether `op` is a symbol table (has the `SymbolTable` trait).
    pub fn is_symbol_table(&self, op: Operation) -> bool {
        self.op_definition(op)
            .is_some_and(|d| d.traits.symbol_table)
    }
}

/// The symbols directly inside one symbol-table operation.
pub struct SymbolTable {
    symbols: FxHashMap<Box<[u8]>, Operation>,
}

impl SymbolTable {
    /// Index the symbols of `table_op`'s region (the first definition of a
    /// name wins; the verifier reports the others).
    pub fn new(ctx: &Context, table_op: Operation) -> Self {
        let mut symbols = FxHashMap::default();
        for op in symbol_ops(ctx, table_op) {
            if let Some(name) = ctx.symbol_name(op) {
                symbols.entry(Box::from(name)).or_insert(op);
            }
        }
        SymbolTable { symbols }
    }

    /// The operations directly inside `table_op`'s region.
    pub fn ops_of(ctx: &Context, table_op: Operation) -> Vec<Operation> {
        symbol_ops(ctx, table_op)
    }

    /// The operation that defines `name`.
    pub fn lookup(&self, name: &[u8]) -> Option<Operation> {
        self.symbols.get(name).copied()
    }

    /// Resolve a symbol reference (`@a::@b`) starting at `table_op`.
    pub fn lookup_ref(
        ctx: &Context,
        table_op: Operation,
        reference: Attribute,
    ) -> Option<Operation> {
        let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(reference) else {
            return None;
        };
        let mut op = SymbolTable::new(ctx, table_op).lookup(root)?;
        for name in nested.iter() {
            if !ctx.is_symbol_table(op) {
                return None;
            }
            op = SymbolTable::new(ctx, op).lookup(name)?;
        }
        Some(op)
    }
}

/// The ops directly in the (single-block) region of a symbol table.
pub(crate) fn symbol_ops(ctx: &Context, table_op: Operation) -> Vec<Operation> {
    ctx.op_regions(table_op)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r))
        .flat_map(|b| ctx.block_ops(b))
        .collect()
}

/// Symbol tables built on demand and kept for repeated lookups (MLIR's
/// `SymbolTableCollection`): verifying the symbol uses of many calls costs
/// one index per table, not one scan per call.
#[derive(Default)]
pub struct SymbolTableCollection {
    tables: std::cell::RefCell<FxHashMap<Operation, std::rc::Rc<SymbolTable>>>,
}

impl SymbolTableCollection {
    /// An empty collection.
    pub fn new() -> Self {
        Self::default()
    }

    /// The symbol `name` defined directly in `table_op`.
    pub fn lookup_in(&self, ctx: &Context, table_op: Operation, name: &[u8]) -> Option<Operation> {
        let table = self
            .tables
            .borrow_mut()
            .entry(table_op)
            .or_insert_with(|| std::rc::Rc::new(SymbolTable::new(ctx, table_op)))
            .clone();
        table.lookup(name)
    }

    /// The symbol `name` in the symbol table closest to `from` (its nearest
    /// enclosing symbol-table op).
    pub fn lookup_nearest(&self, ctx: &Context, from: Operation, name: &[u8]) -> Option<Operation> {
        let mut table = ctx.op_parent_op(from);
        while let Some(t) = table {
            if ctx.is_symbol_table(t) {
                return self.lookup_in(ctx, t, name);
            }
            table = ctx.op_parent_op(t);
        }
        None
    }
}
