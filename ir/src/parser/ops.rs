//! Parsing operations, regions and blocks, with MLIR's SSA name scoping
//! (mlir/lib/AsmParser/Parser.cpp, `OperationParser`).

use rustc_hash::FxHashMap;

use super::lexer::Tok;
use super::{unescape, LocTarget, PResult, Parser};
use crate::attributes::AttrKind;
use crate::context::{Block, Location, Operation, Region, Type};
use crate::diagnostics::Diagnostic;
use crate::ir::{OperationState, Value};

/// A use of a value before its type is known: `%name#number` at `pos`.
#[derive(Clone, Copy, Debug)]
pub struct UnresolvedOperand<'a> {
    pub(super) name: &'a str,
    pub(super) number: u32,
    pub(super) pos: u32,
}

impl<'a> UnresolvedOperand<'a> {
    /// The SSA name, with its `%`.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// Where the use is written.
    pub fn pos(&self) -> super::asm::SourcePos {
        super::asm::SourcePos(self.pos)
    }
}

#[derive(Clone, Copy)]
struct ValueEntry {
    value: Value,
    pos: u32,
}

/// The values named `%name#N`, by result number (sparse: a forward
/// reference may name any number, and must not cost memory for the gap).
#[derive(Default)]
struct ResultEntries(Vec<(u32, ValueEntry)>);

impl ResultEntries {
    fn get(&self, number: u32) -> Option<ValueEntry> {
        self.0.iter().find(|(n, _)| *n == number).map(|(_, e)| *e)
    }

    fn set(&mut self, number: u32, entry: ValueEntry) {
        match self.0.iter_mut().find(|(n, _)| *n == number) {
            Some(slot) => slot.1 = entry,
            None => self.0.push((number, entry)),
        }
    }
}

#[derive(Default)]
struct IsolatedScope<'a> {
    values: FxHashMap<&'a str, ResultEntries>,
    /// Names defined in each nested region scope, erased when it ends.
    definitions: Vec<Vec<&'a str>>,
}

#[derive(Clone, Copy)]
struct BlockDef {
    block: Block,
    /// Position of the first use while the block is only forward-referenced.
    forward_use: Option<u32>,
}

/// The SSA and block naming state of an operation parse.
#[derive(Default)]
pub(crate) struct OpParseState<'a> {
    isolated: Vec<IsolatedScope<'a>>,
    blocks: Vec<FxHashMap<&'a str, BlockDef>>,
    /// Placeholder ops standing for values used before their definition.
    forward_refs: FxHashMap<Operation, u32>,
}

impl<'a> Parser<'a> {
    /// The whole file: alias definitions and operations, wrapped into a module.
    pub(crate) fn parse_top_level(
        &mut self,
        module_loc: (u32, u32),
    ) -> Result<Operation, Vec<Diagnostic>> {
        let top = self.ctx.create_block();
        self.push_scope(true);
        let parsed = self.parse_top_level_items(top);
        if let Err(diag) = parsed {
            return Err(vec![diag]);
        }
        if let Err(diag) = self.pop_scope() {
            return Err(vec![diag]);
        }
        self.finish(top, module_loc)
    }

    fn parse_top_level_items(&mut self, top: Block) -> PResult<()> {
        loop {
            match self.tok.kind {
                Tok::Eof => return Ok(()),
                Tok::HashId => self.parse_attribute_alias_def()?,
                Tok::BangId => self.parse_type_alias_def()?,
                Tok::FileMetadataBegin => self.parse_file_metadata()?,
                _ => {
                    let op = self.parse_operation()?;
                    self.ctx.append_op(top, op);
                }
            }
        }
    }

    fn parse_attribute_alias_def(&mut self) -> PResult<()> {
        let name = &self.spelling()[1..];
        if self.attr_aliases.contains_key(name) {
            return Err(self.error_here(format!("redefinition of attribute alias id '{name}'")));
        }
        if name.contains('.') {
            return Err(self
                .error_here("attribute names with a '.' are reserved for dialect-defined names"));
        }
        self.bump();
        self.expect(Tok::Equal, "'=' in attribute alias definition")?;
        let attr = self.parse_attribute(None)?;
        self.attr_aliases.insert(name, attr);
        Ok(())
    }

    fn parse_type_alias_def(&mut self) -> PResult<()> {
        let name = &self.spelling()[1..];
        if self.type_aliases.contains_key(name) {
            return Err(self.error_here(format!("redefinition of type alias id '{name}'")));
        }
        if name.contains('.') {
            return Err(
                self.error_here("type names with a '.' are reserved for dialect-defined names")
            );
        }
        self.bump();
        self.expect(Tok::Equal, "'=' in type alias definition")?;
        let ty = self.parse_type()?;
        self.type_aliases.insert(name, ty);
        Ok(())
    }

    /// Resolve what was left for the end of the file and build the module.
    fn finish(&mut self, top: Block, module_loc: (u32, u32)) -> Result<Operation, Vec<Diagnostic>> {
        if !self.state.forward_refs.is_empty() {
            let mut positions: Vec<u32> = self.state.forward_refs.values().copied().collect();
            positions.sort_unstable();
            let diags = positions
                .into_iter()
                .map(|pos| self.error_at(pos, "use of undeclared SSA value name"))
                .collect();
            return Err(diags);
        }
        for (target, name, pos) in std::mem::take(&mut self.deferred_locs) {
            let loc = match self.attr_aliases.get(name) {
                Some(&attr) if self.ctx.is_location(attr) => attr,
                Some(&attr) => {
                    let printed = crate::printer::attribute_to_string(self.ctx, attr);
                    return Err(vec![self.error_at(
                        pos,
                        format!("expected location, but found '{printed}'"),
                    )]);
                }
                None => {
                    return Err(vec![
                        self.error_at(pos, "operation location alias was never defined")
                    ])
                }
            };
            match target {
                LocTarget::Op(op) => self.ctx.set_op_loc(op, loc),
                LocTarget::Arg(block, index) => {
                    self.ctx.blocks[block.index()].args[index as usize].loc = loc
                }
            }
        }
        let ops: Vec<Operation> = self.ctx.block_ops(top).collect();
        if let [op] = ops[..] {
            if self.ctx.op_name_str(op) == "builtin.module" {
                self.ctx.detach_op(op);
                return Ok(op);
            }
        }
        let name = self.ctx.ident("builtin.module");
        let loc = self
            .ctx
            .file_line_col_loc(self.buffer_name, module_loc.0, module_loc.1);
        let region = self.ctx.create_region();
        self.ctx.append_block(region, top);
        let mut state = OperationState::new(name, loc);
        state.regions.push(region);
        Ok(self.ctx.create_operation(state))
    }

    // ----- scopes -----

    pub(super) fn push_scope(&mut self, isolated: bool) {
        self.state.blocks.push(FxHashMap::default());
        if isolated || self.state.isolated.is_empty() {
            self.state.isolated.push(IsolatedScope::default());
        }
        if let Some(scope) = self.state.isolated.last_mut() {
            scope.definitions.push(Vec::new());
        }
    }

    pub(super) fn pop_scope(&mut self) -> PResult<()> {
        let blocks = self.state.blocks.pop().unwrap_or_default();
        let mut undefined: Vec<u32> = blocks.values().filter_map(|b| b.forward_use).collect();
        if !undefined.is_empty() {
            undefined.sort_unstable();
            return Err(self.error_at(undefined[0], "reference to an undefined block"));
        }
        let Some(scope) = self.state.isolated.last_mut() else {
            return Ok(());
        };
        if scope.definitions.len() <= 1 {
            self.state.isolated.pop();
        } else if let Some(names) = scope.definitions.pop() {
            for name in names {
                scope.values.remove(name);
            }
        }
        Ok(())
    }

    fn value_entries(&mut self, name: &'a str) -> &mut ResultEntries {
        let scope = self
            .state
            .isolated
            .last_mut()
            .expect("an SSA scope is always open while parsing");
        scope.values.entry(name).or_default()
    }

    /// Where `%name#number` was defined or first referenced, if it was.
    pub(super) fn reference_pos(&mut self, use_info: UnresolvedOperand<'a>) -> Option<u32> {
        self.value_entries(use_info.name)
            .get(use_info.number)
            .map(|e| e.pos)
    }

    fn is_forward_ref(&self, value: Value) -> bool {
        matches!(value, Value::Result(op, _) if self.state.forward_refs.contains_key(&op))
    }

    /// Record a definition of `%name#number`.
    pub(super) fn add_definition(
        &mut self,
        use_info: UnresolvedOperand<'a>,
        value: Value,
    ) -> PResult<()> {
        let number = use_info.number;
        let existing = self.value_entries(use_info.name).get(number);
        if let Some(existing) = existing {
            if !self.is_forward_ref(existing.value) {
                let note = self.loc_at(existing.pos);
                return Err(self
                    .error_at(
                        use_info.pos,
                        format!("redefinition of SSA value '{}'", use_info.name),
                    )
                    .with_note(note, "previously defined here"));
            }
            let old_ty = self.ctx.value_type(existing.value);
            let new_ty = self.ctx.value_type(value);
            if old_ty != new_ty {
                let note = self.loc_at(existing.pos);
                let new_s = crate::printer::type_to_string(self.ctx, new_ty);
                let old_s = crate::printer::type_to_string(self.ctx, old_ty);
                return Err(self
                    .error_at(
                        use_info.pos,
                        format!(
                            "definition of SSA value '{}#{}' has type '{new_s}'",
                            use_info.name, use_info.number
                        ),
                    )
                    .with_note(note, format!("previously used here with type '{old_s}'")));
            }
            self.ctx.replace_all_uses_with(existing.value, value);
            if let Value::Result(placeholder, _) = existing.value {
                self.state.forward_refs.remove(&placeholder);
                self.ctx.erase_op(placeholder);
            }
        }
        self.value_entries(use_info.name).set(
            number,
            ValueEntry {
                value,
                pos: use_info.pos,
            },
        );
        if let Some(scope) = self.state.isolated.last_mut() {
            if let Some(defs) = scope.definitions.last_mut() {
                defs.push(use_info.name);
            }
        }
        Ok(())
    }

    /// The value a use refers to, or a forward-reference placeholder of type `ty`.
    pub(super) fn resolve_use(
        &mut self,
        use_info: UnresolvedOperand<'a>,
        ty: Type,
    ) -> PResult<Value> {
        let number = use_info.number;
        let (found, first) = {
            let entries = self.value_entries(use_info.name);
            (entries.get(number), entries.get(0))
        };
        if let Some(entry) = found {
            let actual = self.ctx.value_type(entry.value);
            if actual == ty {
                return Ok(entry.value);
            }
            let note = self.loc_at(entry.pos);
            let want = crate::printer::type_to_string(self.ctx, ty);
            let have = crate::printer::type_to_string(self.ctx, actual);
            return Err(self
                .error_at(
                    use_info.pos,
                    format!(
                        "use of value '{}' expects different type than prior uses: '{want}' vs '{have}'",
                        use_info.name
                    ),
                )
                .with_note(note, "prior use here"));
        }
        if let Some(first) = first {
            if !self.is_forward_ref(first.value) {
                return Err(self.error_at(use_info.pos, "reference to invalid result number"));
            }
        }
        let name = self.ctx.ident("builtin.unrealized_conversion_cast");
        let loc = self.loc_at(use_info.pos);
        let mut state = OperationState::new(name, loc);
        state.result_types.push(ty);
        let placeholder = self.ctx.create_operation(state);
        self.state.forward_refs.insert(placeholder, use_info.pos);
        let value = Value::Result(placeholder, 0);
        self.value_entries(use_info.name).set(
            number,
            ValueEntry {
                value,
                pos: use_info.pos,
            },
        );
        Ok(value)
    }

    pub(super) fn parse_ssa_use(
        &mut self,
        allow_result_number: bool,
    ) -> PResult<UnresolvedOperand<'a>> {
        let name = self.spelling();
        let pos = self.tok.start;
        self.expect(Tok::PercentId, "SSA operand")?;
        let mut number = 0;
        if self.is(Tok::HashId) {
            if !allow_result_number {
                return Err(self.error_here("result number not allowed in argument list"));
            }
            number = self.spelling()[1..]
                .parse::<u32>()
                .map_err(|_| self.error_here("invalid SSA value result number"))?;
            self.bump();
        }
        Ok(UnresolvedOperand { name, number, pos })
    }

    // ----- blocks -----

    pub(super) fn block_named(&mut self, name: &'a str, pos: u32) -> Block {
        if let Some(def) = self.state.blocks.last().and_then(|m| m.get(name)) {
            return def.block;
        }
        let block = self.ctx.create_block();
        if let Some(map) = self.state.blocks.last_mut() {
            map.insert(
                name,
                BlockDef {
                    block,
                    forward_use: Some(pos),
                },
            );
        }
        block
    }

    // ----- operations -----

    /// operation ::= op-result-list? (generic-operation | custom-operation) trailing-location?
    pub(crate) fn parse_operation(&mut self) -> PResult<Operation> {
        let start = self.tok.start;
        let mut result_ids: Vec<(UnresolvedOperand<'a>, u32)> = Vec::new();
        if self.is(Tok::PercentId) {
            loop {
                let name = self.spelling();
                let pos = self.tok.start;
                self.expect(Tok::PercentId, "valid ssa identifier")?;
                let mut count = 1;
                if self.consume_if(Tok::Colon) {
                    if !self.is(Tok::Integer) {
                        return Err(self.wrong_token("expected integer number of results"));
                    }
                    count = match self.spelling().parse::<u32>() {
                        Ok(n) if n >= 1 => n,
                        _ => {
                            return Err(self
                                .error_here("expected named operation to have at least 1 result"))
                        }
                    };
                    self.bump();
                }
                result_ids.push((
                    UnresolvedOperand {
                        name,
                        number: 0,
                        pos,
                    },
                    count,
                ));
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal, "'=' after SSA name")?;
        }
        let op = match self.tok.kind {
            Tok::String => self.parse_generic_operation()?,
            // MLIR's lexer reads `i32`, `si8`, `ui16` as integer types, not
            // as names.
            Tok::BareId if !is_integer_type_spelling(self.spelling()) => {
                self.parse_custom_operation()?
            }
            _ => return Err(self.wrong_token("expected operation name in quotes")),
        };
        if !result_ids.is_empty() {
            let num_results = self.ctx.num_results(op);
            if num_results == 0 {
                return Err(self.error_at(start, "cannot name an operation with no results"));
            }
            let expected: u32 = result_ids.iter().map(|(_, n)| n).sum();
            if expected as usize != num_results {
                return Err(self.error_at(
                    start,
                    format!("operation defines {num_results} results but was provided {expected} to bind"),
                ));
            }
            let mut index = 0;
            for (use_info, count) in result_ids {
                for sub in 0..count {
                    let value = self.ctx.result(op, index);
                    self.add_definition(
                        UnresolvedOperand {
                            number: sub,
                            ..use_info
                        },
                        value,
                    )?;
                    index += 1;
                }
            }
        }
        Ok(op)
    }

    fn parse_generic_operation(&mut self) -> PResult<Operation> {
        let name_pos = self.tok.start;
        let bytes = unescape(self.spelling());
        if bytes.is_empty() {
            return Err(self.error_here("empty operation name is invalid"));
        }
        if bytes.contains(&0) {
            return Err(self.error_here("null character not allowed in operation name"));
        }
        let Ok(name) = String::from_utf8(bytes) else {
            return Err(self.error_here("operation name must be valid UTF-8"));
        };
        self.bump();
        let registered = self.ctx.registry().op(&name).cloned();
        if registered.is_none() {
            let dialect = name.split('.').next().unwrap_or("");
            if !self.ctx.registry().has_dialect(dialect) && !self.ctx.allows_unregistered_dialects()
            {
                return Err(self.error_here(
                    "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
                ));
            }
        }
        let loc = self.loc_at(name_pos);
        let name_id = self.ctx.ident(&name);
        let mut state = OperationState::new(name_id, loc);

        self.expect(Tok::LParen, "'(' to start operand list")?;
        let mut operands = Vec::new();
        if self.is(Tok::PercentId) {
            loop {
                operands.push(self.parse_ssa_use(true)?);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')' to end operand list")?;

        if self.is(Tok::LSquare) {
            if registered.as_ref().is_some_and(|d| !d.traits.terminator) {
                return Err(self.error_here("successors in non-terminator"));
            }
            self.bump();
            loop {
                let pos = self.tok.start;
                let block_name = self.spelling();
                self.expect(Tok::CaretId, "block name")?;
                let block = self.block_named(block_name, pos);
                state.successors.push(block);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "',' or ']'")?;
        }

        let mut properties = None;
        if self.consume_if(Tok::Less) {
            properties = Some(self.parse_attribute(None)?);
            self.expect(Tok::Greater, "'>' to close properties")?;
        }

        if self.consume_if(Tok::LParen) {
            loop {
                let region = self.ctx.create_region();
                self.parse_region(region)?;
                state.regions.push(region);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "')' to end region list")?;
        }

        if self.is(Tok::LBrace) {
            state.attributes = self.parse_dictionary_entries()?;
        }

        self.expect(Tok::Colon, "':' followed by operation type")?;
        let type_pos = self.tok.start;
        let ty = self.parse_type()?;
        let crate::types::TypeKind::Function { inputs, results } = self.ctx.type_kind(ty).clone()
        else {
            return Err(self.error_at(type_pos, "expected function type"));
        };
        state.result_types = results;
        if inputs.len() != operands.len() {
            let plural = if operands.len() == 1 { "" } else { "s" };
            return Err(self.error_at(
                type_pos,
                format!(
                    "expected {} operand type{plural} but had {}",
                    operands.len(),
                    inputs.len()
                ),
            ));
        }
        for (use_info, ty) in operands.into_iter().zip(inputs) {
            state.operands.push(self.resolve_use(use_info, ty)?);
        }

        if let Some(def) = &registered {
            self.split_inherent_attributes(&mut state, properties, def.inherent_attrs, &name, loc)?;
            if let Some(spec) = def.spec {
                // Only the explicit `<{...}>` dictionary goes through MLIR's
                // property conversion; inherent attributes written in the
                // attribute dictionary are left to the verifier.
                if let Some(props) = properties {
                    crate::ods::check_properties(self.ctx, spec, props)
                        .map_err(|message| Diagnostic::error(loc, message))?;
                }
                crate::ods::fill_default_properties(self.ctx, spec, &mut state);
            }
        } else {
            state.properties = properties;
        }
        let op = self.ctx.create_operation(state);
        self.parse_trailing_location(LocTarget::Op(op))?;
        Ok(op)
    }

    /// Registered ops keep inherent attributes as properties; inherent
    /// attributes written in the attribute dictionary move there, as in MLIR.
    pub(super) fn split_inherent_attributes(
        &mut self,
        state: &mut OperationState,
        properties: Option<crate::Attribute>,
        inherent: &[&str],
        name: &str,
        loc: Location,
    ) -> PResult<()> {
        let (mut props, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut state.attributes)
            .into_iter()
            .partition(|(n, _)| inherent.contains(&self.ctx.ident_str(*n)));
        state.attributes = rest;
        if let Some(p) = properties {
            match self.ctx.attr_kind(p) {
                // Explicit properties win over inherent attributes in the dictionary.
                AttrKind::Dictionary(entries) => props.extend(entries.iter().copied()),
                _ => {
                    let printed = crate::printer::attribute_to_string(self.ctx, p);
                    return Err(Diagnostic::error(
                        loc,
                        format!("invalid properties {printed} for op {name}: expected DictionaryAttr to set properties"),
                    ));
                }
            }
        }
        props.retain(|(n, _)| inherent.contains(&self.ctx.ident_str(*n)));
        state.properties = if props.is_empty() && properties.is_none() {
            None
        } else {
            Some(self.ctx.dictionary_attr(props))
        };
        Ok(())
    }

    /// `loc(...)` after an operation or block argument.
    pub(super) fn parse_trailing_location(&mut self, target: LocTarget) -> PResult<()> {
        if !self.consume_keyword("loc") {
            return Ok(());
        }
        self.expect(Tok::LParen, "'(' in location")?;
        let loc = if self.is(Tok::HashId) && !self.spelling().contains('.') {
            let name = &self.spelling()[1..];
            let pos = self.tok.start;
            self.bump();
            match self.attr_aliases.get(name) {
                Some(&attr) if self.ctx.is_location(attr) => Some(attr),
                Some(&attr) => {
                    let printed = crate::printer::attribute_to_string(self.ctx, attr);
                    return Err(
                        self.error_at(pos, format!("expected location, but found '{printed}'"))
                    );
                }
                None => {
                    self.deferred_locs.push((target, name, pos));
                    None
                }
            }
        } else {
            Some(self.parse_location_instance()?)
        };
        self.expect(Tok::RParen, "')' in location")?;
        if let Some(loc) = loc {
            match target {
                LocTarget::Op(op) => self.ctx.set_op_loc(op, loc),
                LocTarget::Arg(block, index) => {
                    self.ctx.blocks[block.index()].args[index as usize].loc = loc
                }
            }
        }
        Ok(())
    }

    // ----- regions -----

    /// region ::= `{` entry-block? block* `}`
    pub(super) fn parse_region(&mut self, region: Region) -> PResult<()> {
        self.enter_nesting()?;
        let result = self.parse_region_inner(region);
        self.depth -= 1;
        result
    }

    pub(super) fn parse_region_inner(&mut self, region: Region) -> PResult<()> {
        self.expect(Tok::LBrace, "'{' to begin a region")?;
        if self.consume_if(Tok::RBrace) {
            return Ok(());
        }
        self.push_scope(false);
        let entry = if self.is(Tok::CaretId) {
            self.parse_block()?
        } else {
            let block = self.ctx.create_block();
            self.parse_block_body(block)?;
            block
        };
        self.ctx.append_block(region, entry);
        while !self.is(Tok::RBrace) {
            let block = self.parse_block()?;
            self.ctx.append_block(region, block);
        }
        self.pop_scope()?;
        self.bump();
        Ok(())
    }

    /// block ::= `^name` (`(` args `)`)? `:` operation*
    pub(super) fn parse_block(&mut self) -> PResult<Block> {
        let pos = self.tok.start;
        let name = self.spelling();
        self.expect(Tok::CaretId, "block name")?;
        let existing = self.state.blocks.last().and_then(|m| m.get(name)).copied();
        let block = match existing {
            None => {
                let block = self.ctx.create_block();
                if let Some(map) = self.state.blocks.last_mut() {
                    map.insert(
                        name,
                        BlockDef {
                            block,
                            forward_use: None,
                        },
                    );
                }
                block
            }
            Some(BlockDef {
                block,
                forward_use: Some(_),
            }) => {
                if let Some(map) = self.state.blocks.last_mut() {
                    map.insert(
                        name,
                        BlockDef {
                            block,
                            forward_use: None,
                        },
                    );
                }
                block
            }
            Some(_) => return Err(self.error_at(pos, format!("redefinition of block '{name}'"))),
        };
        if self.is(Tok::LParen) {
            self.parse_block_args(block)?;
        }
        self.expect(Tok::Colon, "':' after block name")?;
        self.parse_block_body(block)?;
        Ok(block)
    }

    fn parse_block_args(&mut self, block: Block) -> PResult<()> {
        self.bump();
        if self.consume_if(Tok::RParen) {
            return Ok(());
        }
        loop {
            let use_info = self.parse_ssa_use(true)?;
            self.expect(Tok::Colon, "':' and type for SSA operand")?;
            let ty = self.parse_type()?;
            let loc = self.loc_at(use_info.pos);
            let arg = self.ctx.add_block_argument(block, ty, loc);
            let index = self.ctx.num_block_args(block) as u32 - 1;
            self.parse_trailing_location(LocTarget::Arg(block, index))?;
            self.add_definition(use_info, arg)?;
            if !self.consume_if(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "')'")?;
        Ok(())
    }

    pub(super) fn parse_block_body(&mut self, block: Block) -> PResult<()> {
        while !matches!(self.tok.kind, Tok::CaretId | Tok::RBrace) {
            let op = self.parse_operation()?;
            self.ctx.append_op(block, op);
        }
        Ok(())
    }
}

/// Whether `word` is an integer type keyword (`i32`, `si8`, `ui16`), which
/// MLIR's lexer makes a type token.
fn is_integer_type_spelling(word: &str) -> bool {
    let digits = word
        .strip_prefix("si")
        .or_else(|| word.strip_prefix("ui"))
        .or_else(|| word.strip_prefix('i'))
        .unwrap_or("");
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}
