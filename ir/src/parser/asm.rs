//! `OpAsmParser`: what an operation's custom (pretty) parser sees of the
//! parser, as MLIR's `OpAsmParser`.
//!
//! A registered op with a custom form has a [`ParseFn`](crate::dialect::ParseFn).
//! The parser reads the op name, resolves it (with the default dialect of the
//! enclosing op), and hands an `OpAsmParser` and an empty `OperationState` to
//! the hook; the hook fills the state in. Results are named by the caller and
//! the trailing location is parsed after the hook returns.

use super::lexer::Tok;
use super::ops::UnresolvedOperand;
use super::{LocTarget, PResult, Parser};
use crate::context::{Attribute, Block, Context, Ident, Location, Region, Type};
use crate::diagnostics::Diagnostic;
use crate::ir::Value;

/// A source position in the text being parsed (for diagnostics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourcePos(pub(crate) u32);

/// A region entry argument as written in a custom form:
/// `%name : type {attrs} loc(...)`.
#[derive(Clone)]
pub struct Argument<'a> {
    /// The SSA name the argument is bound to.
    pub name: UnresolvedOperand<'a>,
    /// Its type (`None` when the form gives it elsewhere).
    pub ty: Option<Type>,
    /// Its attribute dictionary, when written.
    pub attrs: Option<Attribute>,
    /// Its location, when written.
    pub(crate) loc: ArgLoc<'a>,
}

/// An explicit location of an argument, possibly an alias defined later.
#[derive(Clone, Copy)]
pub(crate) enum ArgLoc<'a> {
    None,
    Loc(Location),
    Alias(&'a str, u32),
}

/// Delimiters around a list (MLIR's `OpAsmParser::Delimiter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delimiter {
    /// No delimiter: the list ends where no element starts.
    None,
    /// `(` ... `)`.
    Paren,
    /// `[` ... `]`.
    Square,
    /// `(` ... `)` if the next token is `(`, else an empty list.
    OptionalParen,
    /// `[` ... `]` if the next token is `[`, else an empty list.
    OptionalSquare,
}

/// A punctuation token a custom parser can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Punct {
    LParen,
    RParen,
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Question,
    Star,
    Plus,
    Minus,
    Vertical,
    Ellipsis,
}

impl Punct {
    fn tok(self) -> Tok {
        match self {
            Punct::LParen => Tok::LParen,
            Punct::RParen => Tok::RParen,
            Punct::LSquare => Tok::LSquare,
            Punct::RSquare => Tok::RSquare,
            Punct::LBrace => Tok::LBrace,
            Punct::RBrace => Tok::RBrace,
            Punct::Less => Tok::Less,
            Punct::Greater => Tok::Greater,
            Punct::Comma => Tok::Comma,
            Punct::Colon => Tok::Colon,
            Punct::Equal => Tok::Equal,
            Punct::Arrow => Tok::Arrow,
            Punct::Question => Tok::Question,
            Punct::Star => Tok::Star,
            Punct::Plus => Tok::Plus,
            Punct::Minus => Tok::Minus,
            Punct::Vertical => Tok::Vertical,
            Punct::Ellipsis => Tok::Ellipsis,
        }
    }

    /// The token's spelling, as in MLIR's "expected 'x'" messages.
    pub fn spelling(self) -> &'static str {
        match self {
            Punct::LParen => "(",
            Punct::RParen => ")",
            Punct::LSquare => "[",
            Punct::RSquare => "]",
            Punct::LBrace => "{",
            Punct::RBrace => "}",
            Punct::Less => "<",
            Punct::Greater => ">",
            Punct::Comma => ",",
            Punct::Colon => ":",
            Punct::Equal => "=",
            Punct::Arrow => "->",
            Punct::Question => "?",
            Punct::Star => "*",
            Punct::Plus => "+",
            Punct::Minus => "-",
            Punct::Vertical => "|",
            Punct::Ellipsis => "...",
        }
    }

    /// The punctuation spelled `s`, if any.
    pub fn from_spelling(s: &str) -> Option<Punct> {
        use Punct::*;
        [
            LParen, RParen, LSquare, RSquare, LBrace, RBrace, Less, Greater, Comma, Colon, Equal,
            Arrow, Question, Star, Plus, Minus, Vertical, Ellipsis,
        ]
        .into_iter()
        .find(|p| p.spelling() == s)
    }
}

/// The parser as an op's custom parse hook sees it.
pub struct OpAsmParser<'p, 'a> {
    pub(super) p: &'p mut Parser<'a>,
    pub(super) name_pos: u32,
    pub(super) op_name: &'p str,
}

impl<'p, 'a> OpAsmParser<'p, 'a> {
    /// The context, to build types and attributes.
    pub fn ctx(&mut self) -> &mut Context {
        self.p.ctx
    }

    /// The full name of the op being parsed.
    pub fn op_name(&self) -> &str {
        self.op_name
    }

    /// Where the next token starts.
    pub fn pos(&self) -> SourcePos {
        SourcePos(self.p.tok.start)
    }

    /// Where the op name starts.
    pub fn name_pos(&self) -> SourcePos {
        SourcePos(self.name_pos)
    }

    /// The file location of `pos`.
    pub fn loc(&mut self, pos: SourcePos) -> Location {
        self.p.loc_at(pos.0)
    }

    /// An error at the next token, prefixed `custom op 'name' ` as MLIR's
    /// `OpAsmParser::emitError` does.
    pub fn error(&mut self, message: impl std::fmt::Display) -> Diagnostic {
        let text = format!("custom op '{}' {message}", self.op_name);
        self.p.error_here(text)
    }

    /// An error at `pos`, prefixed `custom op 'name' `.
    pub fn error_at(&mut self, pos: SourcePos, message: impl std::fmt::Display) -> Diagnostic {
        let text = format!("custom op '{}' {message}", self.op_name);
        self.p.error_at(pos.0, text)
    }

    /// MLIR's "expected ..." error for an unexpected token (the generic
    /// parser's `emitWrongTokenError`): placed right after the preceding
    /// text, without the `custom op` prefix.
    pub fn wrong_token(&mut self, message: &str) -> Diagnostic {
        self.p.wrong_token(message)
    }

    // ----- punctuation and keywords -----

    /// Consume `punct` or fail with "expected 'punct'".
    pub fn parse_punct(&mut self, punct: Punct) -> PResult<()> {
        let what = format!("'{}'", punct.spelling());
        self.p.expect(punct.tok(), &what)
    }

    /// Consume `punct` if it is next.
    pub fn parse_optional_punct(&mut self, punct: Punct) -> bool {
        self.p.consume_if(punct.tok())
    }

    /// Whether `punct` is next.
    pub fn peek_punct(&self, punct: Punct) -> bool {
        self.p.is(punct.tok())
    }

    /// Consume the keyword `word` or fail with "expected 'word'".
    pub fn parse_keyword(&mut self, word: &str) -> PResult<()> {
        if self.p.consume_keyword(word) {
            return Ok(());
        }
        Err(self.error(format!("expected '{word}'")))
    }

    /// Consume the keyword `word` if it is next.
    pub fn parse_optional_keyword(&mut self, word: &str) -> bool {
        self.p.consume_keyword(word)
    }

    /// Whether the keyword `word` is next.
    pub fn peek_keyword(&self, word: &str) -> bool {
        self.p.is_keyword(word)
    }

    /// Any bare keyword.
    pub fn parse_keyword_any(&mut self, what: &str) -> PResult<&'a str> {
        match self.parse_optional_keyword_any() {
            Some(word) => Ok(word),
            None => Err(self.error(format!("expected {what}"))),
        }
    }

    /// Any bare keyword, if one is next.
    pub fn parse_optional_keyword_any(&mut self) -> Option<&'a str> {
        if self.p.is(Tok::BareId) {
            let word = self.p.spelling();
            self.p.bump();
            Some(word)
        } else {
            None
        }
    }

    /// A string literal's bytes, as UTF-8.
    pub fn parse_optional_string(&mut self) -> PResult<Option<String>> {
        if !self.p.is(Tok::String) {
            return Ok(None);
        }
        let bytes = super::unescape(self.p.spelling());
        let Ok(s) = String::from_utf8(bytes) else {
            return Err(self.p.error_here("expected valid UTF-8 string"));
        };
        self.p.bump();
        Ok(Some(s))
    }

    /// A (possibly negative) integer literal.
    pub fn parse_optional_integer(&mut self) -> PResult<Option<i128>> {
        let negative = self.p.is(Tok::Minus);
        if negative {
            self.p.bump();
            if !self.p.is(Tok::Integer) {
                return Err(self.p.wrong_token("expected integer value"));
            }
        } else if !self.p.is(Tok::Integer) {
            return Ok(None);
        }
        let spelling = self.p.spelling();
        let value = match spelling.strip_prefix("0x") {
            Some(hex) => i128::from_str_radix(hex, 16),
            None => spelling.parse::<i128>(),
        };
        let Ok(value) = value else {
            return Err(self.p.error_here("integer value too large"));
        };
        self.p.bump();
        Ok(Some(if negative { -value } else { value }))
    }

    /// An integer literal.
    pub fn parse_integer(&mut self) -> PResult<i128> {
        match self.parse_optional_integer()? {
            Some(v) => Ok(v),
            None => Err(self.p.wrong_token("expected integer value")),
        }
    }

    // ----- symbols -----

    /// `@name`, or `None` when no symbol is next.
    pub fn parse_optional_symbol_name(&mut self) -> PResult<Option<String>> {
        if !self.p.is(Tok::AtId) {
            return Ok(None);
        }
        let bytes = self.p.symbol_name();
        self.p.bump();
        match String::from_utf8(bytes) {
            Ok(s) => Ok(Some(s)),
            Err(_) => Err(self.p.error_here("symbol names must be valid UTF-8")),
        }
    }

    /// `@name`.
    pub fn parse_symbol_name(&mut self) -> PResult<String> {
        match self.parse_optional_symbol_name()? {
            Some(name) => Ok(name),
            None => Err(self.error("expected valid '@'-identifier for symbol name")),
        }
    }

    // ----- operands -----

    /// `%name` or `%name#N`.
    pub fn parse_operand(&mut self) -> PResult<UnresolvedOperand<'a>> {
        self.p.parse_ssa_use(true)
    }

    /// An operand if one is next.
    pub fn parse_optional_operand(&mut self) -> PResult<Option<UnresolvedOperand<'a>>> {
        if self.p.is(Tok::PercentId) {
            self.parse_operand().map(Some)
        } else {
            Ok(None)
        }
    }

    /// Whether an operand (`%...`) is next.
    pub fn peek_operand(&self) -> bool {
        self.p.is(Tok::PercentId)
    }

    /// A comma-separated operand list within `delimiter`.
    pub fn parse_operand_list(
        &mut self,
        delimiter: Delimiter,
    ) -> PResult<Vec<UnresolvedOperand<'a>>> {
        self.parse_list(
            delimiter,
            "operand",
            |p| p.peek_operand(),
            |p| p.parse_operand(),
        )
    }

    /// The value `operand` names, which must have type `ty`.
    pub fn resolve_operand(&mut self, operand: UnresolvedOperand<'a>, ty: Type) -> PResult<Value> {
        self.p.resolve_use(operand, ty)
    }

    /// Resolve `operands` with `types`; `pos` locates a count mismatch.
    pub fn resolve_operands(
        &mut self,
        operands: &[UnresolvedOperand<'a>],
        types: &[Type],
        pos: SourcePos,
    ) -> PResult<Vec<Value>> {
        if operands.len() != types.len() {
            return Err(self.p.error_at(
                pos.0,
                format!(
                    "{} operands present, but expected {}",
                    operands.len(),
                    types.len()
                ),
            ));
        }
        operands
            .iter()
            .zip(types)
            .map(|(&operand, &ty)| self.p.resolve_use(operand, ty))
            .collect()
    }

    // ----- types -----

    /// A type.
    pub fn parse_type(&mut self) -> PResult<Type> {
        self.p.parse_type()
    }

    /// Whether a type can start at the next token.
    pub fn peek_type(&self) -> bool {
        match self.p.tok.kind {
            Tok::BangId | Tok::LParen => true,
            Tok::BareId => is_builtin_type_keyword(self.p.spelling()),
            _ => false,
        }
    }

    /// A type if one can start at the next token.
    pub fn parse_optional_type(&mut self) -> PResult<Option<Type>> {
        if self.peek_type() {
            self.parse_type().map(Some)
        } else {
            Ok(None)
        }
    }

    /// `type (`,` type)*`, non-empty.
    pub fn parse_type_list(&mut self) -> PResult<Vec<Type>> {
        self.p.parse_type_list_no_parens()
    }

    /// `:` type-list.
    pub fn parse_colon_type_list(&mut self) -> PResult<Vec<Type>> {
        self.parse_punct(Punct::Colon)?;
        self.parse_type_list()
    }

    /// `(` types `)` or a single non-function type, as in function results.
    pub fn parse_function_result_types(&mut self) -> PResult<Vec<Type>> {
        if self.p.is(Tok::LParen) {
            self.p.parse_type_list_parens()
        } else {
            Ok(vec![self.p.parse_non_function_type()?])
        }
    }

    /// `(` types `)`, possibly empty.
    pub fn parse_type_list_parens(&mut self) -> PResult<Vec<Type>> {
        self.p.parse_type_list_parens()
    }

    /// `(inputs) -> results`.
    pub fn parse_function_type(&mut self) -> PResult<(Vec<Type>, Vec<Type>)> {
        let pos = self.p.tok.start;
        let ty = self.p.parse_type()?;
        match self.p.ctx.type_kind(ty) {
            crate::TypeKind::Function { inputs, results } => Ok((inputs.clone(), results.clone())),
            _ => Err(self.p.error_at(pos, "invalid kind of type specified")),
        }
    }

    // ----- attributes -----

    /// An attribute; `ty` is the type of an untyped literal.
    pub fn parse_attribute(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        self.p.parse_attribute(ty)
    }

    /// `{name = value, ...}` if a `{` is next.
    pub fn parse_optional_attr_dict(&mut self) -> PResult<Vec<(Ident, Attribute)>> {
        if self.p.is(Tok::LBrace) {
            self.p.parse_dictionary_entries()
        } else {
            Ok(Vec::new())
        }
    }

    /// `attributes {name = value, ...}` if the keyword is next.
    pub fn parse_optional_attr_dict_with_keyword(&mut self) -> PResult<Vec<(Ident, Attribute)>> {
        if self.p.consume_keyword("attributes") {
            if !self.p.is(Tok::LBrace) {
                return Err(self.p.wrong_token("expected '{' in attribute dictionary"));
            }
            self.p.parse_dictionary_entries()
        } else {
            Ok(Vec::new())
        }
    }

    /// A dialect attribute in its stripped form (`<fast>` for
    /// `#arith.fastmath<fast>`): the verbatim `<...>` text after `mnemonic`.
    pub fn parse_dialect_attr_body(&mut self) -> PResult<&'a str> {
        if !self.p.is(Tok::Less) {
            return Err(self.p.wrong_token("expected '<'"));
        }
        self.p.parse_dialect_symbol_body()
    }

    // ----- regions and blocks -----

    /// `%name (: type)? ({attrs})? (loc(...))?`.
    pub fn parse_argument(&mut self, allow_type: bool, allow_attrs: bool) -> PResult<Argument<'a>> {
        let name = self.p.parse_ssa_use(false)?;
        let ty = if allow_type {
            self.parse_punct(Punct::Colon)?;
            Some(self.parse_type()?)
        } else {
            None
        };
        let attrs = if allow_attrs && self.p.is(Tok::LBrace) {
            let entries = self.p.parse_dictionary_entries()?;
            Some(self.p.ctx.dictionary_attr(entries))
        } else {
            None
        };
        let loc = self.parse_optional_arg_location()?;
        Ok(Argument {
            name,
            ty,
            attrs,
            loc,
        })
    }

    fn parse_optional_arg_location(&mut self) -> PResult<ArgLoc<'a>> {
        if !self.p.consume_keyword("loc") {
            return Ok(ArgLoc::None);
        }
        self.p.expect(Tok::LParen, "'(' in location")?;
        let loc = if self.p.is(Tok::HashId) && !self.p.spelling().contains('.') {
            let name = &self.p.spelling()[1..];
            let pos = self.p.tok.start;
            self.p.bump();
            match self.p.attr_aliases.get(name) {
                Some(&attr) => ArgLoc::Loc(attr),
                None => ArgLoc::Alias(name, pos),
            }
        } else {
            ArgLoc::Loc(self.p.parse_location_instance()?)
        };
        self.p.expect(Tok::RParen, "')' in location")?;
        Ok(loc)
    }

    /// A comma-separated argument list within `delimiter`.
    pub fn parse_argument_list(
        &mut self,
        delimiter: Delimiter,
        allow_type: bool,
        allow_attrs: bool,
    ) -> PResult<Vec<Argument<'a>>> {
        self.parse_list(
            delimiter,
            "argument",
            |p| p.peek_operand(),
            |p| p.parse_argument(allow_type, allow_attrs),
        )
    }

    /// A region `{ ... }` whose entry block gets `arguments` (each with a
    /// type). With arguments the entry block may not be labeled.
    pub fn parse_region(&mut self, region: Region, arguments: &[Argument<'a>]) -> PResult<()> {
        self.p.enter_nesting()?;
        let result = self.parse_region_with_args(region, arguments);
        self.p.depth -= 1;
        result
    }

    fn parse_region_with_args(
        &mut self,
        region: Region,
        arguments: &[Argument<'a>],
    ) -> PResult<()> {
        if arguments.is_empty() {
            return self.p.parse_region_inner(region);
        }
        self.p.expect(Tok::LBrace, "'{' to begin a region")?;
        self.p.push_scope(false);
        if self.p.is(Tok::CaretId) {
            return Err(self
                .p
                .error_here("invalid block name in region with named arguments"));
        }
        let block = self.p.ctx.create_block();
        for argument in arguments {
            let Some(ty) = argument.ty else {
                return Err(self
                    .p
                    .error_at(argument.name.pos, "region argument without a type"));
            };
            let loc = match argument.loc {
                ArgLoc::Loc(loc) => loc,
                _ => self.p.loc_at(argument.name.pos),
            };
            let value = self.p.ctx.add_block_argument(block, ty, loc);
            if let ArgLoc::Alias(name, pos) = argument.loc {
                let index = self.p.ctx.num_block_args(block) as u32 - 1;
                self.p
                    .deferred_locs
                    .push((LocTarget::Arg(block, index), name, pos));
            }
            if let Some(previous) = self.p.reference_pos(argument.name) {
                let note = self.p.loc_at(previous);
                return Err(self
                    .p
                    .error_at(
                        argument.name.pos,
                        format!(
                            "region entry argument '{}' is already in use",
                            argument.name.name
                        ),
                    )
                    .with_note(note, "previously referenced here"));
            }
            self.p.add_definition(argument.name, value)?;
        }
        self.p.parse_block_body(block)?;
        self.p.ctx.append_block(region, block);
        while !self.p.is(Tok::RBrace) {
            let block = self.p.parse_block()?;
            self.p.ctx.append_block(region, block);
        }
        self.p.pop_scope()?;
        self.p.bump();
        Ok(())
    }

    /// A region if a `{` is next.
    pub fn parse_optional_region(
        &mut self,
        region: Region,
        arguments: &[Argument<'a>],
    ) -> PResult<bool> {
        if !self.p.is(Tok::LBrace) {
            return Ok(false);
        }
        self.parse_region(region, arguments)?;
        Ok(true)
    }

    /// `^name`: a successor block.
    pub fn parse_successor(&mut self) -> PResult<Block> {
        let pos = self.p.tok.start;
        let name = self.p.spelling();
        self.p.expect(Tok::CaretId, "block name")?;
        Ok(self.p.block_named(name, pos))
    }

    // ----- helpers -----

    fn parse_list<T>(
        &mut self,
        delimiter: Delimiter,
        what: &str,
        starts: impl Fn(&Self) -> bool,
        mut element: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let close = match delimiter {
            Delimiter::None => None,
            Delimiter::Paren => {
                self.parse_punct(Punct::LParen)?;
                Some(Punct::RParen)
            }
            Delimiter::Square => {
                self.parse_punct(Punct::LSquare)?;
                Some(Punct::RSquare)
            }
            Delimiter::OptionalParen => {
                if !self.parse_optional_punct(Punct::LParen) {
                    return Ok(Vec::new());
                }
                Some(Punct::RParen)
            }
            Delimiter::OptionalSquare => {
                if !self.parse_optional_punct(Punct::LSquare) {
                    return Ok(Vec::new());
                }
                Some(Punct::RSquare)
            }
        };
        let mut items = Vec::new();
        let empty = match close {
            Some(close) => self.peek_punct(close),
            None => !starts(self),
        };
        if !empty {
            loop {
                items.push(element(self)?);
                if !self.parse_optional_punct(Punct::Comma) {
                    break;
                }
            }
        }
        if let Some(close) = close {
            if !self.parse_optional_punct(close) {
                return Err(self.p.wrong_token(&format!(
                    "expected ',' or '{}' in {what} list",
                    close.spelling()
                )));
            }
        }
        Ok(items)
    }
}

/// Bare words that start a builtin type.
fn is_builtin_type_keyword(word: &str) -> bool {
    let int_width = |rest: &str| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit());
    matches!(
        word,
        "index"
            | "none"
            | "bf16"
            | "f16"
            | "tf32"
            | "f32"
            | "f64"
            | "f80"
            | "f128"
            | "tensor"
            | "memref"
            | "vector"
            | "complex"
            | "tuple"
    ) || word.starts_with("f8E")
        || word.starts_with("f4E")
        || word.starts_with("f6E")
        || word
            .strip_prefix('i')
            .or_else(|| word.strip_prefix("si"))
            .or_else(|| word.strip_prefix("ui"))
            .is_some_and(int_width)
}
