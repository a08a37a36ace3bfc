//! The printer: MLIR's textual format, character for character as `mlir-opt`
//! prints it (generic form, `--mlir-print-debuginfo` location aliases, value
//! and block numbering, predecessor comments).

mod aliases;
pub mod asm;
mod attrs;
mod names;

use crate::context::{Attribute, Block, Context, Operation, Region, Type};
use crate::ir::Value;
use aliases::AliasState;
use attrs::Elision;
use names::NameState;

/// How to print, with mlir-opt's flag names in mind.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// `--mlir-print-op-generic`: every operation in the generic form.
    pub generic: bool,
    /// `--mlir-print-debuginfo`: print locations (as `#loc` aliases).
    pub debug_info: bool,
}

/// Print `op` (usually a module) as a top-level operation, with its alias
/// definitions, followed by a newline.
pub fn print_operation(ctx: &Context, op: Operation, options: PrintOptions) -> String {
    let mut bytes = Vec::new();
    // Writing into a Vec cannot fail, and the printer only writes UTF-8.
    let _ = print_operation_to(ctx, op, options, &mut bytes);
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Like [`print_operation`], streaming the text to `sink` as it is produced
/// (large modules are never held in memory as a whole string).
pub fn print_operation_to(
    ctx: &Context,
    op: Operation,
    options: PrintOptions,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let names = NameState::new(ctx, op, options.generic);
    let aliases = AliasState::new(ctx, op, options);
    let mut printer = Printer {
        ctx,
        out: String::with_capacity(FLUSH_THRESHOLD + (1 << 16)),
        options,
        names,
        aliases,
        indent: 0,
        used_resources: Vec::new(),
        distinct_ids: rustc_hash::FxHashMap::default(),
        default_dialect: vec!["builtin"],
        sink: Some(sink),
        sink_error: None,
        collect: None,
    };
    printer.print_alias_definitions(false);
    printer.print_op_with_loc(op);
    printer.out.push('\n');
    printer.print_alias_definitions(true);
    printer.print_file_metadata();
    printer.flush();
    match printer.sink_error.take() {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// Printed text is handed to the sink in pieces of about this size.
const FLUSH_THRESHOLD: usize = 1 << 20;

/// One operation in the generic form on a single logical line, without
/// locations (for diagnostics such as "see current operation").
pub fn print_op_generic_inline(ctx: &Context, op: Operation) -> String {
    let mut printer = Printer::detached(ctx);
    // Values are named as in the whole IR the op belongs to, as mlir-opt does.
    let mut root = op;
    while let Some(parent) = ctx.op_parent_op(root) {
        root = parent;
    }
    printer.names = NameState::new(ctx, root, true);
    printer.options.generic = true;
    printer.print_op(op);
    printer.out
}

/// A quoted, escaped string literal, as MLIR prints string attributes.
pub fn write_string_literal(out: &mut String, bytes: &[u8]) {
    attrs::write_string(out, bytes);
}

/// A type as text (for diagnostics).
pub fn type_to_string(ctx: &Context, ty: Type) -> String {
    let mut printer = Printer::detached(ctx);
    printer.print_type(ty);
    printer.out
}

/// An attribute as text (for diagnostics).
pub fn attribute_to_string(ctx: &Context, attr: Attribute) -> String {
    let mut printer = Printer::detached(ctx);
    printer.print_attribute(attr, Elision::Never);
    printer.out
}

/// A location as `loc(...)` text (for diagnostics).
pub fn location_to_string(ctx: &Context, loc: Attribute) -> String {
    let mut printer = Printer::detached(ctx);
    printer.out.push_str("loc(");
    printer.print_location_inner(loc, true);
    printer.out.push(')');
    printer.out
}

/// A group of the metadata section and its printed (key, value) entries.
type ResourceGroup = (String, Vec<(String, String)>);

pub(crate) struct Printer<'c> {
    ctx: &'c Context,
    out: String,
    options: PrintOptions,
    names: NameState,
    aliases: AliasState,
    indent: usize,
    /// `dense_resource` keys in the order they were printed.
    used_resources: Vec<crate::Ident>,
    /// Printed ids of `distinct` attributes, in order of first print.
    distinct_ids: rustc_hash::FxHashMap<Attribute, u64>,
    /// Dialect whose prefix is left out of custom op names in the current
    /// region (MLIR's default dialect): `builtin` in a module, none elsewhere.
    default_dialect: Vec<&'static str>,
    /// Where finished text goes; `None` keeps it all in `out`.
    sink: Option<&'c mut dyn std::io::Write>,
    /// The first write error of the sink.
    sink_error: Option<std::io::Error>,
    /// Dry run for alias collection: types, attributes and locations are
    /// visited instead of printed (MLIR's `DummyAliasOperationPrinter`), so
    /// that custom forms define exactly the aliases of what they print.
    collect: Option<Box<aliases::Initializer<'c>>>,
}

impl<'c> Printer<'c> {
    fn detached(ctx: &'c Context) -> Self {
        Printer {
            ctx,
            out: String::new(),
            options: PrintOptions::default(),
            names: NameState::default(),
            aliases: AliasState::default(),
            indent: 0,
            used_resources: Vec::new(),
            distinct_ids: rustc_hash::FxHashMap::default(),
            default_dialect: vec!["builtin"],
            sink: None,
            sink_error: None,
            collect: None,
        }
    }

    fn print_alias_definitions(&mut self, deferred: bool) {
        let defs = self.aliases.definitions(deferred);
        for (name, item) in defs {
            self.out.push_str(&name);
            self.out.push_str(" = ");
            match item {
                aliases::Item::Attr(attr) => self.print_attribute_impl(attr, Elision::Never),
                aliases::Item::Type(ty) => self.print_type_impl(ty),
            }
            self.out.push('\n');
        }
    }

    /// The `{-# dialect_resources ... #-}` section for the blobs that were printed.
    fn print_file_metadata(&mut self) {
        use std::fmt::Write;
        let ctx = self.ctx;
        let hex = |blob: &[u8]| {
            let mut text = String::from("\"0x");
            for b in blob {
                let _ = write!(text, "{b:02X}");
            }
            text.push('"');
            text
        };
        let mut sections: Vec<(&str, Vec<ResourceGroup>)> = Vec::new();
        let blobs: Vec<(String, String)> = self
            .used_resources
            .iter()
            .filter_map(|&key| {
                ctx.resource_blob(key)
                    .map(|b| (ctx.ident_str(key).to_string(), hex(b)))
            })
            .collect();
        if !blobs.is_empty() {
            sections.push(("dialect_resources", vec![("builtin".to_string(), blobs)]));
        }
        let external: Vec<ResourceGroup> = ctx
            .external_resources()
            .iter()
            .filter(|(_, entries)| !entries.is_empty())
            .map(|(group, entries)| {
                let entries = entries
                    .iter()
                    .map(|(key, value)| {
                        let text = match value {
                            crate::context::ResourceValue::Bool(b) => b.to_string(),
                            crate::context::ResourceValue::Blob(blob) => hex(blob),
                            crate::context::ResourceValue::String(bytes) => {
                                let mut text = String::new();
                                attrs::write_string(&mut text, bytes);
                                text
                            }
                        };
                        (key.clone(), text)
                    })
                    .collect();
                (group.clone(), entries)
            })
            .collect();
        if !external.is_empty() {
            sections.push(("external_resources", external));
        }
        if sections.is_empty() {
            return;
        }
        self.out.push_str("\n{-#\n");
        for (s, (section, groups)) in sections.iter().enumerate() {
            let _ = writeln!(self.out, "  {section}: {{");
            for (g, (group, entries)) in groups.iter().enumerate() {
                self.out.push_str("    ");
                attrs::write_keyword_or_string(&mut self.out, group.as_bytes());
                self.out.push_str(": {\n");
                for (e, (key, value)) in entries.iter().enumerate() {
                    self.out.push_str("      ");
                    attrs::write_keyword_or_string(&mut self.out, key.as_bytes());
                    self.out.push_str(": ");
                    self.out.push_str(value);
                    self.out
                        .push_str(if e + 1 < entries.len() { ",\n" } else { "\n" });
                }
                self.out.push_str(if g + 1 < groups.len() {
                    "    },\n"
                } else {
                    "    }\n"
                });
            }
            self.out.push_str(if s + 1 < sections.len() {
                "  },\n"
            } else {
                "  }\n"
            });
        }
        self.out.push_str("#-}\n");
    }

    /// Hand the text printed so far to the sink.
    fn flush(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            if self.sink_error.is_none() {
                if let Err(error) = sink.write_all(self.out.as_bytes()) {
                    self.sink_error = Some(error);
                }
            }
            self.out.clear();
        }
    }

    fn push_indent(&mut self) {
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    fn print_op_with_loc(&mut self, op: Operation) {
        if let Some(collect) = self.collect.as_mut() {
            collect.visit_op(op);
            return;
        }
        self.push_indent();
        self.print_op(op);
        self.print_trailing_location(self.ctx.op_loc(op), true);
    }

    fn print_trailing_location(&mut self, loc: Attribute, allow_alias: bool) {
        if !self.options.debug_info {
            return;
        }
        if let Some(collect) = self.collect.as_mut() {
            // Op locations may be defined after the op; argument locations not.
            collect.visit(aliases::Item::Attr(loc), allow_alias);
            return;
        }
        self.out.push_str(" loc(");
        match self.aliases.alias_of_attr(loc).filter(|_| allow_alias) {
            Some(alias) => self.out.push_str(alias),
            None => self.print_location_inner(loc, true),
        }
        self.out.push(')');
    }

    fn print_op(&mut self, op: Operation) {
        let ctx = self.ctx;
        let num_results = ctx.num_results(op);
        if num_results > 1 && self.names.is_named(Value::Result(op, 1)) {
            // Results named one by one: `%sin, %cos = ...`.
            for i in 0..num_results as u32 {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.names
                    .write_value(&mut self.out, Value::Result(op, i), false);
            }
            self.out.push_str(" = ");
        } else if num_results > 0 {
            self.names
                .write_value(&mut self.out, Value::Result(op, 0), false);
            if num_results > 1 {
                self.out.push(':');
                self.out.push_str(&num_results.to_string());
            }
            self.out.push_str(" = ");
        }
        if !self.options.generic {
            match ctx.op_name_str(op) {
                "builtin.module" => return self.print_module_custom(op),
                "builtin.unrealized_conversion_cast" => return self.print_cast_custom(op),
                _ => {}
            }
            if let Some((def, print)) = ctx.custom_printer(op) {
                self.print_custom_name(def.name);
                self.default_dialect.push(def.default_dialect.unwrap_or(""));
                print(&mut asm::OpAsmPrinter { p: self }, op);
                self.default_dialect.pop();
                return;
            }
        }
        self.print_generic_op(op);
    }

    /// A custom op name, without the prefix of the default dialect.
    fn print_custom_name(&mut self, name: &str) {
        let default = self.default_dialect.last().copied().unwrap_or("");
        match name.split_once('.') {
            Some((dialect, rest)) if !default.is_empty() && dialect == default => {
                self.out.push_str(rest)
            }
            _ => self.out.push_str(name),
        }
    }

    /// `unrealized_conversion_cast %a, %b : i32, i64 to f32 {attrs}`
    fn print_cast_custom(&mut self, op: Operation) {
        let ctx = self.ctx;
        self.print_custom_name("builtin.unrealized_conversion_cast");
        if ctx.num_operands(op) > 0 {
            self.out.push(' ');
            for (i, value) in ctx.operands(op).enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.names.write_value(&mut self.out, value, true);
            }
            self.out.push_str(" : ");
            let types: Vec<Type> = ctx.operands(op).map(|v| ctx.value_type(v)).collect();
            self.print_type_list(&types);
        }
        self.out.push_str(" to ");
        let types: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
        self.print_type_list(&types);
        self.print_optional_attr_dict(ctx.op_attr_dict(op), false);
    }

    fn print_generic_op(&mut self, op: Operation) {
        let ctx = self.ctx;
        attrs::write_string(&mut self.out, ctx.op_name_str(op).as_bytes());
        self.out.push('(');
        for (i, value) in ctx.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.names.write_value(&mut self.out, value, true);
        }
        self.out.push(')');
        if ctx.num_successors(op) > 0 {
            self.out.push('[');
            for (i, block) in ctx.successors(op).enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.names.write_block(&mut self.out, block);
            }
            self.out.push(']');
        }
        if let Some(props) = ctx.op_properties(op) {
            let registered = ctx.op_definition(op).is_some();
            if !(registered && ctx.dictionary_entries(props).is_empty()) {
                self.out.push_str(" <");
                self.print_attribute(props, Elision::Never);
                self.out.push('>');
            }
        }
        let regions = ctx.op_regions(op);
        if !regions.is_empty() {
            self.out.push_str(" (");
            self.default_dialect.push("");
            for (i, &region) in regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_region(region, true, true);
            }
            self.default_dialect.pop();
            self.out.push(')');
        }
        self.print_optional_attr_dict(ctx.op_attr_dict(op), false);
        self.out.push_str(" : (");
        let mut first = true;
        for value in ctx.operands(op) {
            if !first {
                self.out.push_str(", ");
            }
            first = false;
            self.print_type(ctx.value_type(value));
        }
        self.out.push_str(") -> ");
        let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
        self.print_result_types(&results);
    }

    fn print_optional_attr_dict(&mut self, dict: Attribute, with_keyword: bool) {
        let entries = self.ctx.dictionary_entries(dict);
        if entries.is_empty() {
            return;
        }
        self.out
            .push_str(if with_keyword { " attributes {" } else { " {" });
        self.print_named_attributes(entries);
        self.out.push('}');
    }

    /// `module @name attributes {...} {...}`
    fn print_module_custom(&mut self, op: Operation) {
        let ctx = self.ctx;
        self.print_custom_name("builtin.module");
        let mut extra: Vec<(crate::Ident, Attribute)> = Vec::new();
        if let Some(props) = ctx.op_properties(op) {
            for &(name, value) in ctx.dictionary_entries(props) {
                match (ctx.ident_str(name), ctx.attr_kind(value)) {
                    ("sym_name", crate::AttrKind::String { value, .. }) => {
                        self.out.push_str(" @");
                        attrs::write_keyword_or_string(&mut self.out, value);
                    }
                    _ => extra.push((name, value)),
                }
            }
        }
        extra.extend_from_slice(ctx.dictionary_entries(ctx.op_attr_dict(op)));
        if !extra.is_empty() {
            extra.sort_by(|a, b| ctx.ident_str(a.0).cmp(ctx.ident_str(b.0)));
            self.out.push_str(" attributes {");
            self.print_named_attributes(&extra);
            self.out.push('}');
        }
        self.out.push(' ');
        if let Some(&region) = ctx.op_regions(op).first() {
            self.default_dialect.push("builtin");
            self.print_region(region, false, false);
            self.default_dialect.pop();
        }
    }

    fn print_region(&mut self, region: Region, print_entry_args: bool, print_empty_block: bool) {
        self.print_region_with(region, print_entry_args, true, print_empty_block);
    }

    fn print_region_with(
        &mut self,
        region: Region,
        print_entry_args: bool,
        print_terminators: bool,
        print_empty_block: bool,
    ) {
        let ctx = self.ctx;
        self.out.push_str("{\n");
        let mut blocks = ctx.region_blocks(region);
        if let Some(entry) = blocks.next() {
            let always_header = (print_empty_block && ctx.block_first_op(entry).is_none())
                || (print_entry_args && ctx.num_block_args(entry) != 0);
            self.print_block(entry, always_header, print_terminators);
            for block in blocks {
                self.print_block(block, true, print_terminators);
            }
        }
        self.push_indent();
        self.out.push('}');
    }

    fn print_block(&mut self, block: Block, print_header: bool, print_terminator: bool) {
        let ctx = self.ctx;
        if print_header {
            self.push_indent();
            self.names.write_block(&mut self.out, block);
            let num_args = ctx.num_block_args(block);
            if num_args > 0 {
                self.out.push('(');
                for i in 0..num_args {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.names
                        .write_value(&mut self.out, Value::Argument(block, i as u32), true);
                    self.out.push_str(": ");
                    self.print_type(ctx.value_type(Value::Argument(block, i as u32)));
                    self.print_trailing_location(ctx.block_arg_loc(block, i), false);
                }
                self.out.push(')');
            }
            self.out.push(':');
            self.print_predecessor_comment(block);
            self.out.push('\n');
        }
        self.indent += 2;
        let skip = if print_terminator {
            None
        } else {
            ctx.block_last_op(block)
                .filter(|&last| ctx.op_definition(last).is_some_and(|d| d.traits.terminator))
        };
        for op in ctx.block_ops(block) {
            if Some(op) == skip {
                continue;
            }
            self.print_op_with_loc(op);
            self.out.push('\n');
            if self.out.len() >= FLUSH_THRESHOLD {
                self.flush();
            }
        }
        self.indent -= 2;
    }

    fn print_predecessor_comment(&mut self, block: Block) {
        let ctx = self.ctx;
        let preds: Vec<Block> = ctx
            .block_predecessors(block)
            .filter_map(|use_| ctx.op_parent_block(use_.op))
            .collect();
        match preds.len() {
            0 => {
                if !ctx.is_entry_block(block) {
                    self.out.push_str("  // no predecessors");
                }
            }
            1 => {
                self.out.push_str("  // pred: ");
                self.names.write_block(&mut self.out, preds[0]);
            }
            n => {
                let mut ids: Vec<(u32, Block)> =
                    preds.iter().map(|&b| (self.names.block_id(b), b)).collect();
                ids.sort_by_key(|&(id, _)| id);
                self.out.push_str(&format!("  // {n} preds: "));
                for (i, (_, b)) in ids.into_iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.names.write_block(&mut self.out, b);
                }
            }
        }
    }
}
