//! `OpAsmPrinter`: what an operation's custom (pretty) printer sees of the
//! printer, as MLIR's `OpAsmPrinter`.
//!
//! The printer writes the result names and the op name (without the prefix
//! of the default dialect), then calls the op's [`PrintFn`](crate::dialect::PrintFn)
//! for the rest; the trailing location follows.

use super::attrs::Elision;
use super::Printer;
use crate::context::{Attribute, Block, Context, Ident, Operation, Region, Type};
use crate::ir::Value;

/// The printer as an op's custom print hook sees it.
pub struct OpAsmPrinter<'p, 'c> {
    pub(super) p: &'p mut Printer<'c>,
}

impl<'c> OpAsmPrinter<'_, 'c> {
    /// The context of the printed IR.
    pub fn ctx(&self) -> &'c Context {
        self.p.ctx
    }

    /// Append raw text.
    pub fn write(&mut self, text: &str) {
        self.p.out.push_str(text);
    }

    /// Append one character.
    pub fn write_char(&mut self, c: char) {
        self.p.out.push(c);
    }

    /// `%name`.
    pub fn print_operand(&mut self, value: Value) {
        self.p.names.write_value(&mut self.p.out, value, true);
    }

    /// `%a, %b, ...`.
    pub fn print_operands(&mut self, values: impl IntoIterator<Item = Value>) {
        for (i, value) in values.into_iter().enumerate() {
            if i > 0 {
                self.p.out.push_str(", ");
            }
            self.print_operand(value);
        }
    }

    /// A type (or its alias).
    pub fn print_type(&mut self, ty: Type) {
        self.p.print_type(ty);
    }

    /// `t1, t2, ...`.
    pub fn print_types(&mut self, types: impl IntoIterator<Item = Type>) {
        for (i, ty) in types.into_iter().enumerate() {
            if i > 0 {
                self.p.out.push_str(", ");
            }
            self.p.print_type(ty);
        }
    }

    /// The types of `values`, comma-separated.
    pub fn print_value_types(&mut self, values: impl IntoIterator<Item = Value>) {
        let ctx = self.p.ctx;
        self.print_types(values.into_iter().map(|v| ctx.value_type(v)));
    }

    /// Result types after an arrow: `t` or `(t1, t2)` (MLIR's `printArrowTypeList`
    /// without the arrow).
    pub fn print_result_types(&mut self, types: &[Type]) {
        self.p.print_result_types(types);
    }

    /// `(inputs) -> results`.
    pub fn print_function_type(&mut self, inputs: &[Type], results: &[Type]) {
        self.p.out.push('(');
        self.p.print_type_list(inputs);
        self.p.out.push_str(") -> ");
        self.p.print_result_types(results);
    }

    /// An attribute with its type (or its alias).
    pub fn print_attribute(&mut self, attr: Attribute) {
        self.p.print_attribute(attr, Elision::Never);
    }

    /// An attribute without its `: type` suffix (MLIR's `printAttributeWithoutType`).
    pub fn print_attribute_without_type(&mut self, attr: Attribute) {
        self.p.print_attribute_impl(attr, Elision::Always);
    }

    /// `@name`, quoted when it is not a bare identifier.
    pub fn print_symbol_name(&mut self, name: &str) {
        self.p.out.push('@');
        super::attrs::write_keyword_or_string(&mut self.p.out, name.as_bytes());
    }

    /// A string literal with MLIR's escapes.
    pub fn print_string(&mut self, bytes: &[u8]) {
        super::attrs::write_string(&mut self.p.out, bytes);
    }

    /// The op's attributes (properties and discardable attributes merged and
    /// sorted by name) except `elided`, as ` {a = 1, b}`; nothing when none
    /// is left.
    pub fn print_optional_attr_dict(&mut self, op: Operation, elided: &[&str]) {
        self.print_attr_dict(op, elided, false);
    }

    /// As [`Self::print_optional_attr_dict`], written ` attributes {...}`.
    pub fn print_optional_attr_dict_with_keyword(&mut self, op: Operation, elided: &[&str]) {
        self.print_attr_dict(op, elided, true);
    }

    fn print_attr_dict(&mut self, op: Operation, elided: &[&str], with_keyword: bool) {
        let entries = merged_attributes(self.p.ctx, op, elided);
        if entries.is_empty() {
            return;
        }
        self.p
            .out
            .push_str(if with_keyword { " attributes {" } else { " {" });
        self.p.print_named_attributes(&entries);
        self.p.out.push('}');
    }

    /// `{a = 1, b}` for a dictionary attribute (nothing when it is empty).
    pub fn print_dictionary_entries(&mut self, dict: Attribute) {
        let entries = self.p.ctx.dictionary_entries(dict);
        self.p.out.push('{');
        self.p.print_named_attributes(entries);
        self.p.out.push('}');
    }

    /// An entry-block argument with its type: `%arg0: i32`, then `attrs` as
    /// ` {..}` when not empty, then its location in debug-info mode.
    pub fn print_region_argument(&mut self, value: Value, attrs: Option<Attribute>) {
        self.print_operand(value);
        self.p.out.push_str(": ");
        self.p.print_type(self.p.ctx.value_type(value));
        if let Some(attrs) = attrs {
            if !self.p.ctx.dictionary_entries(attrs).is_empty() {
                self.p.out.push(' ');
                self.print_dictionary_entries(attrs);
            }
        }
        if let Value::Argument(block, index) = value {
            let loc = self.p.ctx.block_arg_loc(block, index as usize);
            self.p.print_trailing_location(loc, false);
        }
    }

    /// A region: `{`, its blocks, `}`. `print_entry_args` prints the entry
    /// block's header; `print_terminators: false` leaves out the terminator
    /// of each block (for ops that insert it implicitly).
    pub fn print_region(
        &mut self,
        region: Region,
        print_entry_args: bool,
        print_terminators: bool,
    ) {
        self.p
            .print_region_with(region, print_entry_args, print_terminators, false);
    }

    /// A line break, then the indentation of the op being printed and
    /// `extra` spaces more (MLIR's `printNewline` inside an indented block).
    pub fn print_newline(&mut self, extra: usize) {
        self.p.out.push('\n');
        for _ in 0..self.p.indent + extra {
            self.p.out.push(' ');
        }
    }

    /// `^bbN`.
    pub fn print_successor(&mut self, block: Block) {
        self.p.names.write_block(&mut self.p.out, block);
    }
}

/// An op's properties and discardable attributes, merged, without `elided`,
/// sorted by name (MLIR's `Operation::getAttrs` for ops with properties).
pub(crate) fn merged_attributes(
    ctx: &Context,
    op: Operation,
    elided: &[&str],
) -> Vec<(Ident, Attribute)> {
    let mut entries: Vec<(Ident, Attribute)> = Vec::new();
    if let Some(props) = ctx.op_properties(op) {
        entries.extend_from_slice(ctx.dictionary_entries(props));
    }
    entries.extend_from_slice(ctx.dictionary_entries(ctx.op_attr_dict(op)));
    entries.retain(|(name, _)| !elided.contains(&ctx.ident_str(*name)));
    entries.sort_by(|a, b| ctx.ident_str(a.0).cmp(ctx.ident_str(b.0)));
    entries
}
