//! The custom (pretty) forms of the builtin operations: `module` and
//! `unrealized_conversion_cast`.

use super::asm::OpAsmParser;
use super::lexer::Tok;
use super::{LocTarget, PResult, Parser};
use crate::context::Operation;
use crate::diagnostics::Diagnostic;
use crate::ir::OperationState;

impl Parser<'_> {
    /// A custom (pretty) operation: the name, resolved with the default
    /// dialect, then the op's own parse hook.
    pub(super) fn parse_custom_operation(&mut self) -> PResult<Operation> {
        let name_pos = self.tok.start;
        let word = self.spelling();
        let default = self.default_dialect.last().copied().unwrap_or("");
        let Some(def) = self.resolve_custom_op_name(word, default) else {
            return Err(self.unknown_custom_op(word, default, name_pos));
        };
        let name = def.name;
        self.bump();
        match name {
            "builtin.module" => return self.parse_module_custom(name_pos),
            "builtin.unrealized_conversion_cast" => return self.parse_cast_custom(name_pos),
            _ => {}
        }
        let Some(parse) = def.parse else {
            return Err(self.error_at(
                name_pos,
                format!("'{name}' op has no custom assembly form; use the generic form"),
            ));
        };
        let loc = self.loc_at(name_pos);
        let name_id = self.ctx.ident(name);
        let mut state = OperationState::new(name_id, loc);
        self.default_dialect.push(def.default_dialect.unwrap_or(""));
        let result = {
            let mut asm = OpAsmParser {
                p: self,
                name_pos,
                op_name: name,
            };
            parse(&mut asm, &mut state)
        };
        self.default_dialect.pop();
        result?;
        let properties = state.properties.take();
        self.split_inherent_attributes(&mut state, properties, def.inherent_attrs, name, loc)?;
        if let Some(spec) = def.spec {
            crate::ods::fill_default_properties(self.ctx, spec, &mut state);
        }
        let op = self.ctx.create_operation(state);
        self.parse_trailing_location(LocTarget::Op(op))?;
        Ok(op)
    }

    /// The registered op `word` names: itself, or prefixed with the default
    /// dialect, `builtin` or `func` (MLIR's lookup order).
    fn resolve_custom_op_name(
        &self,
        word: &str,
        default: &str,
    ) -> Option<crate::dialect::OpDefinition> {
        let registry = self.ctx.registry();
        if let Some(def) = registry.op(word) {
            return Some(def.clone());
        }
        if word.contains('.') || default.is_empty() {
            return None;
        }
        registry.op(&format!("{default}.{word}")).cloned()
    }

    fn unknown_custom_op(&mut self, word: &str, default: &str, name_pos: u32) -> Diagnostic {
        match word.split_once('.') {
            Some((dialect, _)) if !self.ctx.registry().has_dialect(dialect) => {
                let loc = self.loc_at(name_pos);
                let dialects = self.ctx.registry().dialects().join(", ");
                Diagnostic::error(loc, format!("Dialect `{dialect}' not found for custom op '{word}' ")).with_note(
                    loc,
                    format!("Available dialects: {dialects} ; for more info on dialect registration see https://mlir.llvm.org/getting_started/Faq/#registered-loaded-dependent-whats-up-with-dialects-management"),
                )
            }
            Some(_) => self.error_here(format!("custom op '{word}' is unknown")),
            None if default.is_empty() => {
                let loc = self.loc_at(name_pos);
                let dialects = self.ctx.registry().dialects().join(", ");
                Diagnostic::error(
                    loc,
                    format!("Dialect `' not found for custom op '{word}'  (tried '.{word}' as well)"),
                )
                .with_note(
                    loc,
                    format!("Available dialects: {dialects} ; for more info on dialect registration see https://mlir.llvm.org/getting_started/Faq/#registered-loaded-dependent-whats-up-with-dialects-management"),
                )
            }
            None => self.error_here(format!(
                "custom op '{word}' is unknown (tried '{default}.{word}' as well)"
            )),
        }
    }

    /// `unrealized_conversion_cast (%a, %b : i32, i64)? to f32 {attrs}`
    fn parse_cast_custom(&mut self, name_pos: u32) -> PResult<Operation> {
        let loc = self.loc_at(name_pos);
        let name = self.ctx.ident("builtin.unrealized_conversion_cast");
        let mut state = OperationState::new(name, loc);
        let mut operands = Vec::new();
        if self.is(Tok::PercentId) {
            loop {
                operands.push(self.parse_ssa_use(true)?);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Colon, "':'")?;
            let types_pos = self.tok.start;
            let types = self.parse_type_list_no_parens()?;
            if types.len() != operands.len() {
                return Err(self.error_at(
                    types_pos,
                    format!(
                        "{} operands present, but expected {}",
                        operands.len(),
                        types.len()
                    ),
                ));
            }
            for (use_info, ty) in operands.into_iter().zip(types) {
                state.operands.push(self.resolve_use(use_info, ty)?);
            }
        }
        self.expect_keyword("to", "expected 'to'")?;
        state.result_types = self.parse_type_list_no_parens()?;
        if self.is(Tok::LBrace) {
            state.attributes = self.parse_dictionary_entries()?;
        }
        let op = self.ctx.create_operation(state);
        self.parse_trailing_location(LocTarget::Op(op))?;
        Ok(op)
    }

    /// `module (@name)? (attributes {...})? { ... }`
    fn parse_module_custom(&mut self, name_pos: u32) -> PResult<Operation> {
        let loc = self.loc_at(name_pos);
        let module = self.ctx.ident("builtin.module");
        let mut state = OperationState::new(module, loc);
        let mut props = Vec::new();
        if self.is(Tok::AtId) {
            let sym = String::from_utf8_lossy(&self.symbol_name()).into_owned();
            self.bump();
            let key = self.ctx.ident("sym_name");
            let value = self.ctx.string_attr(&sym);
            props.push((key, value));
        }
        if self.consume_keyword("attributes") {
            let entries = self.parse_dictionary_entries()?;
            let (inh, rest): (Vec<_>, Vec<_>) = entries.into_iter().partition(|(n, _)| {
                matches!(self.ctx.ident_str(*n), "sym_name" | "sym_visibility")
            });
            props.extend(inh);
            state.attributes = rest;
        }
        if !props.is_empty() {
            state.properties = Some(self.ctx.dictionary_attr(props));
        }
        let region = self.ctx.create_region();
        self.parse_region(region)?;
        if self.ctx.region_is_empty(region) {
            let block = self.ctx.create_block();
            self.ctx.append_block(region, block);
        }
        state.regions.push(region);
        let op = self.ctx.create_operation(state);
        self.parse_trailing_location(LocTarget::Op(op))?;
        Ok(op)
    }
}
