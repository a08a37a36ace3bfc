//! Attribute and type aliases (`#loc3 = loc(...)`, `!tuple = tuple<...>`), as
//! MLIR's `AliasInitializer` assigns them.
//!
//! The builtin dialect asks for an alias for every location (`loc`) and every
//! tuple type of more than 16 elements (`tuple`). Everything that will be
//! printed is visited in print order; an alias is defined after the aliases it
//! refers to (by nesting depth), then types before attributes, then by name,
//! then in visit order. Only operation locations may be defined after the
//! operation (deferred); everything else is defined up front.

use rustc_hash::FxHashMap;

use super::PrintOptions;
use crate::attributes::{AttrKind, LocKind};
use crate::context::{Attribute, Context, Operation, Type};
use crate::types::TypeKind;

/// Something that can have an alias.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Item {
    Attr(Attribute),
    Type(Type),
}

struct Entry {
    item: Item,
    prefix: Option<&'static str>,
    depth: usize,
    can_defer: bool,
    children: Vec<usize>,
}

#[derive(Default)]
pub(crate) struct AliasState {
    attr_names: FxHashMap<Attribute, String>,
    type_names: FxHashMap<Type, String>,
    /// (name, item, deferred) in definition order.
    definitions: Vec<(String, Item, bool)>,
}

impl AliasState {
    pub(crate) fn new(ctx: &Context, top: Operation, options: PrintOptions) -> Self {
        let mut init = Initializer {
            ctx,
            options,
            entries: Vec::new(),
            index: FxHashMap::default(),
        };
        init.visit_op(top);
        init.finish()
    }

    pub(crate) fn alias_of_attr(&self, attr: Attribute) -> Option<&str> {
        if self.attr_names.is_empty() {
            return None;
        }
        self.attr_names.get(&attr).map(String::as_str)
    }

    pub(crate) fn alias_of_type(&self, ty: Type) -> Option<&str> {
        if self.type_names.is_empty() {
            return None;
        }
        self.type_names.get(&ty).map(String::as_str)
    }

    /// The definitions printed before (`deferred == false`) or after the operation.
    pub(crate) fn definitions(&self, deferred: bool) -> Vec<(String, Item)> {
        self.definitions
            .iter()
            .filter(|(_, _, d)| *d == deferred)
            .map(|(n, i, _)| (n.clone(), *i))
            .collect()
    }
}

pub(crate) struct Initializer<'c> {
    ctx: &'c Context,
    options: PrintOptions,
    entries: Vec<Entry>,
    index: FxHashMap<Item, usize>,
}

impl<'c> Initializer<'c> {
    pub(crate) fn visit_op(&mut self, op: Operation) {
        let ctx = self.ctx;
        if self.options.debug_info {
            self.visit(Item::Attr(ctx.op_loc(op)), true);
        }
        if !self.options.generic {
            if let Some((_, print)) = ctx.custom_printer(op) {
                self.visit_custom(op, print);
                return;
            }
        }
        let custom_module = !self.options.generic && ctx.op_name_str(op) == "builtin.module";
        if custom_module {
            self.visit_attrs(op);
        }
        for &region in ctx.op_regions(op) {
            for block in ctx.region_blocks(region) {
                for arg in ctx.block_args(block) {
                    self.visit(Item::Type(ctx.value_type(arg)), false);
                    if self.options.debug_info {
                        if let crate::Value::Argument(b, i) = arg {
                            self.visit(Item::Attr(ctx.block_arg_loc(b, i as usize)), false);
                        }
                    }
                }
                for inner in ctx.block_ops(block) {
                    self.visit_op(inner);
                }
            }
        }
        if custom_module {
            return;
        }
        for value in ctx.operands(op) {
            self.visit(Item::Type(ctx.value_type(value)), false);
        }
        for value in ctx.results(op) {
            self.visit(Item::Type(ctx.value_type(value)), false);
        }
        self.visit_attrs(op);
    }

    /// A custom form: run its printer dry, visiting what it prints.
    fn visit_custom(&mut self, op: Operation, print: crate::dialect::PrintFn) {
        let empty = Initializer {
            ctx: self.ctx,
            options: self.options,
            entries: Vec::new(),
            index: FxHashMap::default(),
        };
        let state = std::mem::replace(self, empty);
        let mut printer = super::Printer::detached(self.ctx);
        printer.options = self.options;
        printer.collect = Some(Box::new(state));
        print(&mut super::asm::OpAsmPrinter { p: &mut printer }, op);
        if let Some(state) = printer.collect.take() {
            *self = *state;
        }
    }

    fn visit_attrs(&mut self, op: Operation) {
        let ctx = self.ctx;
        for &(_, value) in ctx.dictionary_entries(ctx.op_attr_dict(op)) {
            self.visit(Item::Attr(value), false);
        }
        if let Some(props) = ctx.op_properties(op) {
            self.visit(Item::Attr(props), false);
        }
    }

    /// Visit an item and what it prints; returns (depth, entry index).
    pub(crate) fn visit(&mut self, item: Item, can_defer: bool) -> (usize, usize) {
        if let Some(&i) = self.index.get(&item) {
            if !can_defer {
                self.mark_non_deferrable(i);
            }
            return (self.entries[i].depth, i);
        }
        let i = self.entries.len();
        self.entries.push(Entry {
            item,
            prefix: self.prefix(item),
            depth: 0,
            can_defer,
            children: Vec::new(),
        });
        self.index.insert(item, i);
        let mut depth = 0;
        let mut children = Vec::new();
        for child in self.children(item) {
            let (d, c) = self.visit(child, can_defer);
            let aliased = self.entries[c].prefix.is_some();
            depth = depth.max(d + usize::from(aliased));
            children.push(c);
        }
        self.entries[i].depth = depth;
        self.entries[i].children = children;
        (depth, i)
    }

    fn mark_non_deferrable(&mut self, i: usize) {
        let mut stack = vec![i];
        while let Some(i) = stack.pop() {
            if self.entries[i].can_defer {
                self.entries[i].can_defer = false;
                stack.extend(self.entries[i].children.iter().copied());
            }
        }
    }

    fn prefix(&self, item: Item) -> Option<&'static str> {
        match item {
            Item::Attr(a) => match self.ctx.attr_kind(a) {
                AttrKind::Location(_) => Some("loc"),
                AttrKind::AffineMap(_) => Some("map"),
                AttrKind::IntegerSet(_) => Some("set"),
                AttrKind::Opaque { dialect, data, .. } => self
                    .ctx
                    .registry()
                    .attr_alias(self.ctx.ident_str(*dialect))
                    .and_then(|f| f(data)),
                AttrKind::Distinct { referenced, .. }
                    if !matches!(self.ctx.attr_kind(*referenced), AttrKind::Unit) =>
                {
                    Some("distinct")
                }
                _ => None,
            },
            Item::Type(t) => match self.ctx.type_kind(t) {
                TypeKind::Tuple(elements) if elements.len() > 16 => Some("tuple"),
                _ => None,
            },
        }
    }

    /// The attributes and types printed inside `item`, in print order.
    fn children(&self, item: Item) -> Vec<Item> {
        let ctx = self.ctx;
        let mut out = Vec::new();
        match item {
            Item::Type(ty) => match ctx.type_kind(ty) {
                TypeKind::Complex(e) => out.push(Item::Type(*e)),
                TypeKind::Tuple(es) => out.extend(es.iter().map(|&e| Item::Type(e))),
                TypeKind::Function { inputs, results } => {
                    out.extend(inputs.iter().chain(results).map(|&e| Item::Type(e)))
                }
                TypeKind::RankedTensor {
                    element, encoding, ..
                } => {
                    out.push(Item::Type(*element));
                    out.extend(encoding.map(Item::Attr));
                }
                TypeKind::UnrankedTensor { element } | TypeKind::Vector { element, .. } => {
                    out.push(Item::Type(*element))
                }
                TypeKind::MemRef {
                    element,
                    layout,
                    memory_space,
                    ..
                } => {
                    out.push(Item::Type(*element));
                    out.extend(layout.map(Item::Attr));
                    out.extend(memory_space.map(Item::Attr));
                }
                TypeKind::UnrankedMemRef {
                    element,
                    memory_space,
                } => {
                    out.push(Item::Type(*element));
                    out.extend(memory_space.map(Item::Attr));
                }
                _ => {}
            },
            Item::Attr(attr) => match ctx.attr_kind(attr) {
                AttrKind::Integer { ty, .. }
                | AttrKind::WideInteger { ty, .. }
                | AttrKind::Float { ty, .. } => out.push(Item::Type(*ty)),
                AttrKind::String { ty, .. } | AttrKind::Opaque { ty, .. } => {
                    out.extend(ty.map(Item::Type))
                }
                AttrKind::Array(es) => out.extend(es.iter().map(|&e| Item::Attr(e))),
                AttrKind::Dictionary(es) => out.extend(es.iter().map(|&(_, e)| Item::Attr(e))),
                AttrKind::Type(ty)
                | AttrKind::DenseElements { ty, .. }
                | AttrKind::DenseResource { ty, .. }
                | AttrKind::DenseStrings { ty, .. } => out.push(Item::Type(*ty)),
                AttrKind::DenseArray { element, .. } => out.push(Item::Type(*element)),
                AttrKind::Distinct { referenced, .. } => out.push(Item::Attr(*referenced)),
                AttrKind::Sparse {
                    ty,
                    indices,
                    values,
                } => {
                    out.push(Item::Attr(*indices));
                    out.push(Item::Attr(*values));
                    out.push(Item::Type(*ty));
                }
                AttrKind::Location(LocKind::Name { child, .. }) => {
                    out.extend(child.map(Item::Attr))
                }
                AttrKind::Location(LocKind::CallSite { callee, caller }) => {
                    out.push(Item::Attr(*callee));
                    out.push(Item::Attr(*caller));
                }
                AttrKind::Location(LocKind::Fused { locs, metadata }) => {
                    out.extend(metadata.map(Item::Attr));
                    out.extend(locs.iter().map(|&l| Item::Attr(l)));
                }
                _ => {}
            },
        }
        out
    }

    fn finish(self) -> AliasState {
        let mut aliased: Vec<&Entry> = self.entries.iter().filter(|e| e.prefix.is_some()).collect();
        // Stable: ties keep visit order.
        aliased.sort_by(|a, b| {
            let a_type = matches!(a.item, Item::Type(_));
            let b_type = matches!(b.item, Item::Type(_));
            a.depth
                .cmp(&b.depth)
                .then(b_type.cmp(&a_type))
                .then(a.prefix.cmp(&b.prefix))
        });
        let mut state = AliasState::default();
        let mut counts: FxHashMap<&'static str, usize> = FxHashMap::default();
        for entry in aliased {
            let prefix = entry.prefix.unwrap_or("");
            let n = counts.entry(prefix).or_insert(0);
            let sigil = if matches!(entry.item, Item::Type(_)) {
                '!'
            } else {
                '#'
            };
            let name = if *n == 0 {
                format!("{sigil}{prefix}")
            } else {
                format!("{sigil}{prefix}{n}")
            };
            *n += 1;
            match entry.item {
                Item::Attr(a) => state.attr_names.insert(a, name.clone()),
                Item::Type(t) => state.type_names.insert(t, name.clone()),
            };
            state.definitions.push((name, entry.item, entry.can_defer));
        }
        state
    }
}
