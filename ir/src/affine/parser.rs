//! The text inside `affine_map<...>` and `affine_set<...>`: a port of MLIR's
//! `AffineParser` (grammar, precedence, diagnostics and their locations) over
//! a small lexer that tokenizes as MLIR's lexer does.

use super::{AffineExpr, AffineMap, AffineParseError, IntegerSet};

/// Most operators (binary, negation, parentheses) one expression may use;
/// bounds the depth of the built tree, hence recursion over it.
const MAX_OPERATORS: usize = 4096;

/// Deepest nesting of parentheses and negations, which the parser handles
/// recursively.
const MAX_NESTING: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A bare identifier, keyword or integer type (`x`, `mod`, `i32`).
    Ident,
    Integer,
    Float,
    /// `%name`.
    Percent,
    LParen,
    RParen,
    LSquare,
    RSquare,
    Comma,
    Plus,
    Minus,
    Star,
    Arrow,
    Colon,
    Equal,
    Greater,
    Less,
    /// Any other valid MLIR token (`{`, `#x`, a string, ...).
    Other,
    /// Text MLIR's lexer rejects; the message is the lexer's.
    Error(&'static str),
    Eof,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
    /// Where MLIR's lexer reports a `Kind::Error` token.
    error_at: usize,
}

#[derive(Clone, Copy)]
enum LowOp {
    Add,
    Sub,
}

#[derive(Clone, Copy)]
enum HighOp {
    Mul,
    FloorDiv,
    CeilDiv,
    Mod,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.')
}

struct Parser<'a> {
    text: &'a str,
    /// Lexer position: the end of `tok`.
    pos: usize,
    /// The current (lookahead) token.
    tok: Token,
    /// End of the last consumed token.
    prev_end: usize,
    /// Dim and symbol names in definition order.
    names: Vec<(&'a str, AffineExpr)>,
    /// Operators left for the expression being parsed.
    budget: usize,
    /// Current nesting of parentheses and negations.
    nesting: usize,
}

type PResult<T> = Result<T, AffineParseError>;

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        let mut p = Parser {
            text,
            pos: 0,
            tok: Token {
                kind: Kind::Eof,
                start: 0,
                end: 0,
                error_at: 0,
            },
            prev_end: 0,
            names: Vec::new(),
            budget: MAX_OPERATORS,
            nesting: 0,
        };
        p.tok = p.lex();
        p
    }

    // ----- Lexer -----

    fn byte(&self, i: usize) -> Option<u8> {
        self.text.as_bytes().get(i).copied()
    }

    fn lex(&mut self) -> Token {
        let bytes = self.text.as_bytes();
        loop {
            match self.byte(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.byte(self.pos + 1) == Some(b'/') => {
                    while !matches!(self.byte(self.pos), None | Some(b'\n' | b'\r')) {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
        let start = self.pos;
        let Some(b) = self.byte(start) else {
            return Token {
                kind: Kind::Eof,
                start,
                end: start,
                error_at: start,
            };
        };
        let mut end = start + 1;
        let mut error_at = start;
        let kind = match b {
            b'(' => Kind::LParen,
            b')' => Kind::RParen,
            b'[' => Kind::LSquare,
            b']' => Kind::RSquare,
            b',' => Kind::Comma,
            b'+' => Kind::Plus,
            b'*' => Kind::Star,
            b':' => Kind::Colon,
            b'=' => Kind::Equal,
            b'>' => Kind::Greater,
            b'<' => Kind::Less,
            b'{' | b'}' | b'?' | b'|' | b'/' => Kind::Other,
            b'-' => {
                if self.byte(end) == Some(b'>') {
                    end += 1;
                    Kind::Arrow
                } else {
                    Kind::Minus
                }
            }
            b'0'..=b'9' => {
                let hex = b == b'0'
                    && self.byte(end) == Some(b'x')
                    && self.byte(end + 1).is_some_and(|c| c.is_ascii_hexdigit());
                if hex {
                    end += 2;
                    while self.byte(end).is_some_and(|c| c.is_ascii_hexdigit()) {
                        end += 1;
                    }
                    Kind::Integer
                } else {
                    while self.byte(end).is_some_and(|c| c.is_ascii_digit()) {
                        end += 1;
                    }
                    if self.byte(end) == Some(b'.') {
                        end += 1;
                        while self.byte(end).is_some_and(|c| c.is_ascii_digit()) {
                            end += 1;
                        }
                        let digit_at = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
                        let exponent = matches!(self.byte(end), Some(b'e' | b'E'))
                            && (digit_at(end + 1)
                                || (matches!(self.byte(end + 1), Some(b'+' | b'-'))
                                    && digit_at(end + 2)));
                        if exponent {
                            end += 2;
                            while digit_at(end) {
                                end += 1;
                            }
                        }
                        Kind::Float
                    } else {
                        Kind::Integer
                    }
                }
            }
            _ if is_ident_start(b) => {
                while self.byte(end).is_some_and(is_ident_char) {
                    end += 1;
                }
                Kind::Ident
            }
            b'%' | b'#' | b'!' | b'^' => {
                // `%`, `#`, `!` or `^` then a suffix-id: digits, or a letter
                // or one of `$._-` followed by those, letters and digits.
                let is_punct = |c: u8| matches!(c, b'$' | b'.' | b'_' | b'-');
                match self.byte(end) {
                    Some(c) if c.is_ascii_digit() => {
                        while self.byte(end).is_some_and(|c| c.is_ascii_digit()) {
                            end += 1;
                        }
                    }
                    Some(c) if c.is_ascii_alphabetic() || is_punct(c) => {
                        while self
                            .byte(end)
                            .is_some_and(|c| c.is_ascii_alphanumeric() || is_punct(c))
                        {
                            end += 1;
                        }
                    }
                    _ => {}
                }
                match (b, end == start + 1) {
                    (b'%', false) => Kind::Percent,
                    (_, false) => Kind::Other,
                    (b'%', true) => Kind::Error("invalid SSA name"),
                    (b'#', true) => Kind::Error("invalid attribute name"),
                    (b'!', true) => Kind::Error("invalid type identifier"),
                    _ => Kind::Error("invalid block name"),
                }
            }
            b'@' => {
                if self.byte(end).is_some_and(is_ident_start) {
                    while self.byte(end).is_some_and(is_ident_char) {
                        end += 1;
                    }
                    Kind::Other
                } else if self.byte(end) == Some(b'"') {
                    Kind::Other
                } else {
                    error_at = end;
                    Kind::Error("@ identifier expected to start with letter or '_'")
                }
            }
            b'"' => {
                // A string literal, as MLIR's `lexString` reads it.
                loop {
                    match self.byte(end) {
                        Some(b'"') => {
                            end += 1;
                            break Kind::Other;
                        }
                        None | Some(b'\n' | 0x0b | 0x0c) => {
                            error_at = end;
                            break Kind::Error("expected '\"' in string literal");
                        }
                        Some(b'\\') => {
                            let next = self.byte(end + 1);
                            let hex =
                                |i: usize| self.byte(i).is_some_and(|c| c.is_ascii_hexdigit());
                            if matches!(next, Some(b'"' | b'\\' | b'n' | b't')) {
                                end += 2;
                            } else if hex(end + 1) && hex(end + 2) {
                                end += 3;
                            } else {
                                error_at = end;
                                end += 1;
                                break Kind::Error("unknown escape in string literal");
                            }
                        }
                        Some(_) => end += 1,
                    }
                }
            }
            b'.' if self.byte(end) == Some(b'.') && self.byte(end + 1) == Some(b'.') => {
                end += 2;
                Kind::Other
            }
            b'.' => {
                error_at = start + 1;
                Kind::Error("expected three consecutive dots for an ellipsis")
            }
            _ => {
                // Step over one whole (possibly multi-byte) character.
                end = start + self.text[start..].chars().next().map_or(1, char::len_utf8);
                Kind::Error("unexpected character")
            }
        };
        self.pos = end;
        Token {
            kind,
            start,
            end,
            error_at,
        }
    }

    // ----- Token helpers -----

    fn spelling(&self) -> &'a str {
        &self.text[self.tok.start..self.tok.end]
    }

    fn consume(&mut self) {
        self.prev_end = self.tok.end;
        self.tok = self.lex();
    }

    fn consume_if(&mut self, kind: Kind) -> bool {
        if self.tok.kind == kind {
            self.consume();
            true
        } else {
            false
        }
    }

    fn parse_token(&mut self, kind: Kind, message: &str) -> PResult<()> {
        if self.consume_if(kind) {
            Ok(())
        } else {
            Err(self.wrong_token(message))
        }
    }

    // ----- Diagnostics -----

    /// An error at `offset`, unless the lookahead is a lexer error: MLIR has
    /// reported that one already and drops the parser's.
    fn error_at(&self, offset: usize, message: impl Into<String>) -> AffineParseError {
        let (offset, message) = match self.tok.kind {
            Kind::Error(lexer_message) => (self.tok.error_at, lexer_message.to_string()),
            _ => (offset, message.into()),
        };
        AffineParseError { offset, message }
    }

    /// An error at the current token.
    fn error_here(&self, message: impl Into<String>) -> AffineParseError {
        self.error_at(self.tok.start, message)
    }

    /// MLIR's `emitWrongTokenError`: reported right after the previous
    /// non-blank text, where the expected token belonged, backing up over
    /// blank lines and `//` comments.
    fn wrong_token(&self, message: impl Into<String>) -> AffineParseError {
        let mut before = &self.text[..self.tok.start];
        loop {
            before = before.trim_end_matches([' ', '\t']);
            match before.as_bytes().last() {
                Some(b'\n' | b'\r') => {}
                _ => break,
            }
            before = &before[..before.len() - 1];
            // A `//` on the line above starts a comment: back up before it.
            let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
            if let Some(comment) = before[line_start..].find("//") {
                before = &before[..line_start + comment];
            }
        }
        self.error_at(before.len(), message)
    }

    // ----- Dim and symbol lists -----

    fn parse_identifier_definition(&mut self, expr: AffineExpr) -> PResult<()> {
        if self.tok.kind != Kind::Ident {
            return Err(self.wrong_token("expected bare identifier"));
        }
        let name = self.spelling();
        if self.names.iter().any(|(n, _)| *n == name) {
            return Err(self.error_here(format!("redefinition of identifier '{name}'")));
        }
        self.consume();
        self.names.push((name, expr));
        Ok(())
    }

    /// `( id, ... )` or `[ id, ... ]`, defining dims or symbols; the count.
    fn parse_id_list(&mut self, symbols: bool) -> PResult<u32> {
        let (open, close, context) = if symbols {
            (Kind::LSquare, Kind::RSquare, "symbol list")
        } else {
            (Kind::LParen, Kind::RParen, "dimensional identifier list")
        };
        let (open_s, close_s) = if symbols { ("[", "]") } else { ("(", ")") };
        self.parse_token(open, &format!("expected '{open_s}' in {context}"))?;
        let mut count = 0u32;
        if self.consume_if(close) {
            return Ok(count);
        }
        loop {
            let expr = if symbols {
                AffineExpr::Symbol(count)
            } else {
                AffineExpr::Dim(count)
            };
            count = count.saturating_add(1);
            self.parse_identifier_definition(expr)?;
            if !self.consume_if(Kind::Comma) {
                break;
            }
        }
        self.parse_token(close, &format!("expected '{close_s}' in {context}"))?;
        Ok(count)
    }

    // ----- Expressions -----

    fn spend(&mut self) -> PResult<()> {
        if self.budget == 0 {
            return Err(self.error_here(format!(
                "affine expression too complex (more than {MAX_OPERATORS} operators)"
            )));
        }
        self.budget -= 1;
        Ok(())
    }

    fn enter(&mut self) -> PResult<()> {
        if self.nesting >= MAX_NESTING {
            return Err(self.error_here(format!(
                "affine expression nested too deeply (more than {MAX_NESTING} levels)"
            )));
        }
        self.nesting += 1;
        Ok(())
    }

    fn consume_if_low(&mut self) -> Option<LowOp> {
        let op = match self.tok.kind {
            Kind::Plus => LowOp::Add,
            Kind::Minus => LowOp::Sub,
            _ => return None,
        };
        self.consume();
        Some(op)
    }

    fn consume_if_high(&mut self) -> Option<HighOp> {
        let op = match self.tok.kind {
            Kind::Star => HighOp::Mul,
            Kind::Ident => match self.spelling() {
                "floordiv" => HighOp::FloorDiv,
                "ceildiv" => HighOp::CeilDiv,
                "mod" => HighOp::Mod,
                _ => return None,
            },
            _ => return None,
        };
        self.consume();
        Some(op)
    }

    fn low_binop(op: LowOp, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        match op {
            LowOp::Add => lhs.add(rhs),
            LowOp::Sub => lhs.sub(rhs),
        }
    }

    /// Builds a multiplicative expression, rejecting non-affine operands with
    /// MLIR's diagnostics at `op_loc`.
    fn high_binop(
        &self,
        op: HighOp,
        lhs: AffineExpr,
        rhs: AffineExpr,
        op_loc: usize,
    ) -> PResult<AffineExpr> {
        let name = match op {
            HighOp::Mul => {
                if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
                    return Err(self.error_at(
                        op_loc,
                        "non-affine expression: at least one of the multiply operands has to \
                         be either a constant or symbolic",
                    ));
                }
                return Ok(lhs.mul(rhs));
            }
            HighOp::FloorDiv => "floordiv",
            HighOp::CeilDiv => "ceildiv",
            HighOp::Mod => "mod",
        };
        if !rhs.is_symbolic_or_constant() {
            return Err(self.error_at(
                op_loc,
                format!(
                    "non-affine expression: right operand of {name} has to be either a \
                     constant or symbolic"
                ),
            ));
        }
        Ok(match op {
            HighOp::FloorDiv => lhs.floor_div(rhs),
            HighOp::CeilDiv => lhs.ceil_div(rhs),
            _ => lhs.modulo(rhs),
        })
    }

    /// A whole expression: `+`/`-` chains of `*`/`floordiv`/`ceildiv`/`mod`
    /// chains, all left-associative (MLIR's `parseAffineLowPrecOpExpr`).
    fn parse_affine_expr(&mut self) -> PResult<AffineExpr> {
        let mut pending: Option<(AffineExpr, LowOp)> = None;
        loop {
            let lhs = self.parse_operand(pending.is_some())?;
            let combine = |pending: Option<(AffineExpr, LowOp)>, rhs: AffineExpr| match pending {
                Some((l, op)) => Self::low_binop(op, l, rhs),
                None => rhs,
            };
            if let Some(op) = self.consume_if_low() {
                self.spend()?;
                pending = Some((combine(pending, lhs), op));
                continue;
            }
            let op_loc = self.tok.start;
            if let Some(op) = self.consume_if_high() {
                self.spend()?;
                let product = self.parse_high_prec(lhs, op, op_loc)?;
                let expr = combine(pending, product);
                if let Some(next) = self.consume_if_low() {
                    self.spend()?;
                    pending = Some((expr, next));
                    continue;
                }
                return Ok(expr);
            }
            return Ok(combine(pending, lhs));
        }
    }

    /// The rest of a multiplicative chain after `lhs op`
    /// (MLIR's `parseAffineHighPrecOpExpr`, including its error locations).
    fn parse_high_prec(
        &mut self,
        lhs: AffineExpr,
        op: HighOp,
        op_loc: usize,
    ) -> PResult<AffineExpr> {
        let (mut acc, mut op, mut op_loc) = (lhs, op, op_loc);
        loop {
            let rhs = self.parse_operand(true)?;
            let next_loc = self.tok.start;
            if let Some(next) = self.consume_if_high() {
                self.spend()?;
                acc = self.high_binop(op, acc, rhs, next_loc)?;
                op = next;
                op_loc = next_loc;
                continue;
            }
            return self.high_binop(op, acc, rhs, op_loc);
        }
    }

    /// An operand: identifier, integer, parenthesized expression or negation
    /// (MLIR's `parseAffineOperandExpr`); `has_lhs` says whether it is the
    /// right operand of a binary operator.
    fn parse_operand(&mut self, has_lhs: bool) -> PResult<AffineExpr> {
        match self.tok.kind {
            Kind::Ident if self.spelling() == "symbol" => {
                self.consume();
                self.parse_token(Kind::LParen, "expected '(' at start of SSA symbol")?;
                Err(self.wrong_token("unexpected ssa identifier"))
            }
            Kind::Ident => self.parse_bare_id(),
            Kind::Percent => Err(self.wrong_token("unexpected ssa identifier")),
            Kind::Integer => self.parse_integer(),
            Kind::LParen => {
                self.spend()?;
                self.enter()?;
                self.consume();
                if self.tok.kind == Kind::RParen {
                    return Err(self.error_here("no expression inside parentheses"));
                }
                let expr = self.parse_affine_expr()?;
                self.parse_token(Kind::RParen, "expected ')'")?;
                self.nesting -= 1;
                Ok(expr)
            }
            Kind::Minus => {
                self.spend()?;
                self.enter()?;
                self.consume();
                // MLIR then also reports "missing operand of negation"; the
                // operand's own diagnostic comes first.
                let operand = self.parse_operand(has_lhs)?;
                self.nesting -= 1;
                Ok(operand.neg())
            }
            Kind::Plus | Kind::Star => Err(self.error_here(if has_lhs {
                "missing right operand of binary operator"
            } else {
                "missing left operand of binary operator"
            })),
            _ => Err(self.error_here(if has_lhs {
                "missing right operand of binary operator"
            } else {
                "expected affine expression"
            })),
        }
    }

    fn parse_bare_id(&mut self) -> PResult<AffineExpr> {
        let name = self.spelling();
        match self.names.iter().find(|(n, _)| *n == name) {
            Some((_, expr)) => {
                let expr = expr.clone();
                self.consume();
                Ok(expr)
            }
            None => Err(self.wrong_token("use of undeclared identifier")),
        }
    }

    fn parse_integer(&mut self) -> PResult<AffineExpr> {
        let spelling = self.spelling();
        let value = match spelling.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => spelling.parse::<u64>().ok(),
        };
        match value.and_then(|v| i64::try_from(v).ok()) {
            Some(v) => {
                self.consume();
                Ok(AffineExpr::Constant(v))
            }
            None => Err(self.error_here("constant too large for index")),
        }
    }

    /// `lhs >= rhs`, `lhs <= rhs` or `lhs == rhs`, as `(expr, is_eq)` with
    /// `expr >= 0` / `expr == 0` (MLIR's `parseAffineConstraint`).
    fn parse_constraint(&mut self) -> PResult<(AffineExpr, bool)> {
        self.budget = MAX_OPERATORS;
        let lhs = self.parse_affine_expr()?;
        if self.consume_if(Kind::Greater) && self.consume_if(Kind::Equal) {
            self.budget = MAX_OPERATORS;
            let rhs = self.parse_affine_expr()?;
            return Ok((lhs.sub(rhs), false));
        }
        if self.consume_if(Kind::Less) && self.consume_if(Kind::Equal) {
            self.budget = MAX_OPERATORS;
            let rhs = self.parse_affine_expr()?;
            return Ok((rhs.sub(lhs), false));
        }
        if self.consume_if(Kind::Equal) && self.consume_if(Kind::Equal) {
            self.budget = MAX_OPERATORS;
            let rhs = self.parse_affine_expr()?;
            return Ok((lhs.sub(rhs), true));
        }
        Err(self.error_here(
            "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
        ))
    }

    /// `( elt, ... )` with MLIR's `parseCommaSeparatedList` diagnostics.
    fn parse_paren_list(
        &mut self,
        context: &str,
        mut elt: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        self.parse_token(Kind::LParen, &format!("expected '(' {context}"))?;
        if self.consume_if(Kind::RParen) {
            return Ok(());
        }
        elt(self)?;
        while self.consume_if(Kind::Comma) {
            elt(self)?;
        }
        self.parse_token(Kind::RParen, &format!("expected ')' {context}"))
    }

    /// MLIR's `parseAffineMapOrIntegerSetInline`.
    fn parse_map_or_set(&mut self) -> PResult<MapOrSet> {
        let num_dims = self.parse_id_list(false)?;
        let num_symbols = if self.tok.kind == Kind::LSquare {
            self.parse_id_list(true)?
        } else {
            0
        };
        if self.consume_if(Kind::Arrow) {
            let mut results = Vec::new();
            self.parse_paren_list("in affine map range", |p| {
                p.budget = MAX_OPERATORS;
                results.push(p.parse_affine_expr()?);
                Ok(())
            })?;
            return Ok(MapOrSet::Map(AffineMap::new(
                num_dims,
                num_symbols,
                results,
            )));
        }
        self.parse_token(Kind::Colon, "expected '->' or ':'")?;
        let mut constraints = Vec::new();
        let mut eq_flags = Vec::new();
        self.parse_paren_list("in integer set constraint list", |p| {
            let (expr, is_eq) = p.parse_constraint()?;
            constraints.push(expr);
            eq_flags.push(is_eq);
            Ok(())
        })?;
        if constraints.is_empty() {
            // No constraints: the degenerate "true" set, `0 == 0`.
            constraints.push(AffineExpr::Constant(0));
            eq_flags.push(true);
        }
        Ok(MapOrSet::Set(IntegerSet::new(
            num_dims,
            num_symbols,
            constraints,
            eq_flags,
        )))
    }
}

/// What the body of an `affine_map<...>` or `affine_set<...>` held.
enum MapOrSet {
    Map(AffineMap),
    Set(IntegerSet),
}

const NOT_A_MAP: &str = "expected AffineMap, but got IntegerSet";
const NOT_A_SET: &str = "expected IntegerSet, but got AffineMap";

impl Parser<'_> {
    /// After the structure: the closing `>` when `closing` (its end is
    /// returned), else the end of the text.
    fn finish(&mut self, what: &str, closing: bool) -> PResult<usize> {
        let message = format!("expected '>' in {what}");
        if closing {
            self.parse_token(Kind::Greater, &message)?;
        } else if self.tok.kind != Kind::Eof {
            return Err(self.wrong_token(message));
        }
        Ok(self.prev_end)
    }

    fn parse_map_body(&mut self, closing: bool) -> PResult<(AffineMap, usize)> {
        let start = self.tok.start;
        match self.parse_map_or_set()? {
            MapOrSet::Map(map) => Ok((map, self.finish("affine map", closing)?)),
            MapOrSet::Set(_) => Err(self.error_at(start, NOT_A_MAP)),
        }
    }

    fn parse_set_body(&mut self, closing: bool) -> PResult<(IntegerSet, usize)> {
        let start = self.tok.start;
        match self.parse_map_or_set()? {
            MapOrSet::Set(set) => Ok((set, self.finish("integer set", closing)?)),
            MapOrSet::Map(_) => Err(self.error_at(start, NOT_A_SET)),
        }
    }
}

/// Parse the text inside `affine_map<...>` (dims with any identifier names,
/// optional symbol list, `->`, result list).
pub fn parse_affine_map(text: &str) -> Result<AffineMap, AffineParseError> {
    Ok(Parser::new(text).parse_map_body(false)?.0)
}

/// Parse the text inside `affine_set<...>`.
pub fn parse_integer_set(text: &str) -> Result<IntegerSet, AffineParseError> {
    Ok(Parser::new(text).parse_set_body(false)?.0)
}

/// Parses what follows `affine_map<` in a longer text, through the closing
/// `>`; returns the map and the byte offset just past the `>`.
pub fn parse_affine_map_prefix(text: &str) -> Result<(AffineMap, usize), AffineParseError> {
    Parser::new(text).parse_map_body(true)
}

/// Parses what follows `affine_set<` in a longer text, through the closing
/// `>`; returns the set and the byte offset just past the `>`.
pub fn parse_integer_set_prefix(text: &str) -> Result<(IntegerSet, usize), AffineParseError> {
    Parser::new(text).parse_set_body(true)
}
