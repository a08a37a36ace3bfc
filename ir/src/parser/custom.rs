//! The custom (pretty) forms of the builtin operations: `module` and
//! `unrealized_conversion_cast`.

use super::lexer::Tok;
use super::{LocTarget, PResult, Parser};
use crate::context::Operation;
use crate::diagnostics::Diagnostic;
use crate::ir::OperationState;

impl Parser<'_> {
    /// Custom (pretty) forms. Only `builtin.module` has one so far.
    pub(super) fn parse_custom_operation(&mut self) -> PResult<Operation> {
        let name_pos = self.tok.start;
        let word = self.spelling();
        if matches!(word, "module" | "builtin.module") {
            self.bump();
            return self.parse_module_custom(name_pos);
        }
        if matches!(
            word,
            "unrealized_conversion_cast" | "builtin.unrealized_conversion_cast"
        ) {
            self.bump();
            return self.parse_cast_custom(name_pos);
        }
        match word.split_once('.') {
            Some((dialect, _)) if !self.ctx.registry().has_dialect(dialect) => {
                let loc = self.loc_at(name_pos);
                let dialects = self.ctx.registry().dialects().join(", ");
                Err(Diagnostic::error(loc, format!("Dialect `{dialect}' not found for custom op '{word}' ")).with_note(
                    loc,
                    format!("Available dialects: {dialects} ; for more info on dialect registration see https://mlir.llvm.org/getting_started/Faq/#registered-loaded-dependent-whats-up-with-dialects-management"),
                ))
            }
            Some(_) => Err(self.error_here(format!("custom op '{word}' is unknown"))),
            None => Err(self.error_here(format!(
                "custom op '{word}' is unknown (tried 'builtin.{word}' as well)"
            ))),
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
