//! The parser for MLIR's textual format: the generic operation form, builtin
//! types and attributes, locations and aliases.
//!
//! Parsing stops at the first error, as MLIR's parser does, and reports it as
//! a located `Diagnostic`. SSA names are resolved with the same scoping rules
//! as MLIR: forward references inside a region are allowed and resolved when
//! the value is defined; values defined in a region are not visible after it.

pub mod asm;
mod attrs;
mod custom;
mod dense;
mod lexer;
mod locations;
mod metadata;
mod ops;
mod types;

use rustc_hash::FxHashMap;

use crate::context::{Attribute, Context, Location, Type};
use crate::diagnostics::{Diagnostic, SourceBuffer};
use lexer::{Lexer, Tok, Token};

pub(crate) use ops::OpParseState;
pub use ops::UnresolvedOperand;

type PResult<T> = Result<T, Diagnostic>;

/// What to parse and how.
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions {
    /// Byte range of the source text to parse (a `--split-input-file` chunk);
    /// positions are still reported against the whole text.
    pub range: (usize, usize),
    /// Location of the implicit top-level module, as (line, col); MLIR uses
    /// 0:0 for a whole file and the chunk start for later split chunks.
    pub module_loc: (u32, u32),
}

/// Parse `buffer` into a top-level `builtin.module` (an implicit one is created
/// when the text holds anything other than a single module).
pub fn parse_source(
    ctx: &mut Context,
    buffer: &SourceBuffer,
) -> Result<crate::Operation, Vec<Diagnostic>> {
    let options = ParseOptions {
        range: (0, buffer.text.len()),
        module_loc: (0, 0),
    };
    parse_source_range(ctx, buffer, options)
}

/// Parse a byte range of `buffer` (see `ParseOptions`).
pub fn parse_source_range(
    ctx: &mut Context,
    buffer: &SourceBuffer,
    options: ParseOptions,
) -> Result<crate::Operation, Vec<Diagnostic>> {
    let mut parser = Parser::new(ctx, buffer, options.range);
    parser.parse_top_level(options.module_loc)
}

/// Parse a single type from text (e.g. `tensor<4xf32>`).
pub fn parse_type(ctx: &mut Context, text: &str) -> Result<Type, Diagnostic> {
    let buffer = SourceBuffer::new("<type>", text);
    let mut parser = Parser::new(ctx, &buffer, (0, text.len()));
    let ty = parser.parse_type()?;
    parser.expect_eof()?;
    Ok(ty)
}

/// Parse a single attribute from text (e.g. `dense<1.0> : tensor<2xf32>`).
pub fn parse_attribute(ctx: &mut Context, text: &str) -> Result<Attribute, Diagnostic> {
    let buffer = SourceBuffer::new("<attribute>", text);
    let mut parser = Parser::new(ctx, &buffer, (0, text.len()));
    let attr = parser.parse_attribute(None)?;
    parser.expect_eof()?;
    Ok(attr)
}

/// Where a location alias that was not yet defined is used.
#[derive(Clone, Copy)]
enum LocTarget {
    Op(crate::Operation),
    Arg(crate::Block, u32),
}

pub(crate) struct Parser<'a> {
    ctx: &'a mut Context,
    src: &'a [u8],
    /// `src` as text (the source buffer is a `String`).
    src_text: &'a str,
    lexer: Lexer<'a>,
    tok: Token,
    buffer_name: &'a str,
    line_starts: Vec<u32>,
    /// Line/column cache for monotonic lookups.
    last_line: usize,
    attr_aliases: FxHashMap<&'a str, Attribute>,
    type_aliases: FxHashMap<&'a str, Type>,
    /// Trailing `loc(#alias)` references to aliases defined later in the file.
    deferred_locs: Vec<(LocTarget, &'a str, u32)>,
    state: OpParseState<'a>,
    /// Current nesting of regions, attributes, types and locations.
    depth: u32,
    /// `distinct[N]` ids of this file and the attributes they stand for.
    distinct_ids: FxHashMap<u64, (Attribute, Attribute)>,
    /// Dialect tried first for unprefixed custom op names (MLIR's default
    /// dialect stack): `builtin` at the top level, then whatever the
    /// enclosing custom op names.
    default_dialect: Vec<&'static str>,
}

/// Deeper nesting than this is rejected, so that hostile input cannot
/// exhaust the stack of the recursive parser, verifier and printer.
pub const MAX_NESTING: u32 = 1000;

impl<'a> Parser<'a> {
    fn new(ctx: &'a mut Context, buffer: &'a SourceBuffer, range: (usize, usize)) -> Self {
        let src = buffer.text.as_bytes();
        let end = range.1.min(src.len());
        // Lines up to the end of the range: a chunk of a split file needs
        // no more (and scanning the whole file for each chunk is quadratic).
        let mut line_starts = vec![0u32];
        for (i, &b) in src[..end].iter().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        let mut lexer = Lexer::new(&src[..end]);
        lexer.reset(range.0.min(end));
        let tok = lexer.next_token();
        Parser {
            ctx,
            src: &src[..end],
            src_text: buffer.text.get(..end).unwrap_or(""),
            lexer,
            tok,
            buffer_name: &buffer.name,
            line_starts,
            last_line: 0,
            attr_aliases: FxHashMap::default(),
            type_aliases: FxHashMap::default(),
            deferred_locs: Vec::new(),
            state: OpParseState::default(),
            depth: 0,
            distinct_ids: FxHashMap::default(),
            default_dialect: vec!["builtin"],
        }
    }

    fn enter_nesting(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            self.depth -= 1;
            return Err(self.error_here(format!(
                "nesting is too deep: more than {MAX_NESTING} levels of regions, attributes or types"
            )));
        }
        Ok(())
    }

    // ----- tokens -----

    fn bump(&mut self) {
        self.tok = self.lexer.next_token();
    }

    fn spelling(&self) -> &'a str {
        self.text(self.tok.start, self.tok.end)
    }

    fn text(&self, start: u32, end: u32) -> &'a str {
        // The lexer only splits at ASCII boundaries, so token ranges are
        // character boundaries of the source text (checked, not validated).
        self.src_text
            .get(start as usize..end as usize)
            .unwrap_or("")
    }

    fn is(&self, kind: Tok) -> bool {
        self.tok.kind == kind
    }

    fn is_keyword(&self, word: &str) -> bool {
        self.tok.kind == Tok::BareId && self.spelling() == word
    }

    fn consume_if(&mut self, kind: Tok) -> bool {
        if self.tok.kind == kind {
            self.bump();
            true
        } else {
            false
        }
    }

    fn consume_keyword(&mut self, word: &str) -> bool {
        if self.is_keyword(word) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, kind: Tok, what: &str) -> PResult<()> {
        if self.tok.kind == kind {
            self.bump();
            Ok(())
        } else {
            Err(self.wrong_token(&format!("expected {what}")))
        }
    }

    fn expect_keyword(&mut self, word: &str, message: &str) -> PResult<()> {
        if self.consume_keyword(word) {
            Ok(())
        } else {
            Err(self.wrong_token(message))
        }
    }

    fn expect_eof(&mut self) -> PResult<()> {
        if self.is(Tok::Eof) {
            Ok(())
        } else {
            Err(self.error_here("expected end of input"))
        }
    }

    // ----- locations and errors -----

    /// 1-based line and column of a byte offset.
    fn line_col(&mut self, pos: u32) -> (u32, u32) {
        let line = if self.last_line < self.line_starts.len()
            && self.line_starts[self.last_line] <= pos
            && self
                .line_starts
                .get(self.last_line + 1)
                .is_none_or(|&next| pos < next)
        {
            self.last_line
        } else {
            match self.line_starts.binary_search(&pos) {
                Ok(i) => i,
                Err(i) => i - 1,
            }
        };
        self.last_line = line;
        (line as u32 + 1, pos - self.line_starts[line] + 1)
    }

    /// The file location of a byte offset.
    fn loc_at(&mut self, pos: u32) -> Location {
        let (line, col) = self.line_col(pos);
        let name = self.buffer_name;
        self.ctx.file_line_col_loc(name, line, col)
    }

    fn error_at(&mut self, pos: u32, message: impl Into<String>) -> Diagnostic {
        let loc = self.loc_at(pos);
        Diagnostic::error(loc, message)
    }

    fn error_here(&mut self, message: impl Into<String>) -> Diagnostic {
        if self.tok.kind == Tok::Error {
            let why = self.lexer.error;
            return self.error_at(self.tok.start, why);
        }
        let pos = if self.tok.kind == Tok::Eof {
            self.tok.start.saturating_sub(1)
        } else {
            self.tok.start
        };
        self.error_at(pos, message)
    }

    /// MLIR's `emitWrongTokenError`: an unexpected token is reported right
    /// after the preceding source text, skipping blank lines and `//` comments.
    fn wrong_token(&mut self, message: &str) -> Diagnostic {
        if self.tok.kind == Tok::Error {
            let why = self.lexer.error;
            return self.error_at(self.tok.start, why);
        }
        let mut original = self.tok.start as usize;
        if self.tok.kind == Tok::Eof {
            original = original.saturating_sub(1);
        }
        let src = self.src;
        let mut end = original;
        loop {
            while end > 0 && matches!(src[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            if end == 0 {
                return self.error_at(original as u32, message);
            }
            if !matches!(src[end - 1], b'\n' | b'\r') {
                return self.error_at(end as u32, message);
            }
            end -= 1;
            let line_start = src[..end]
                .iter()
                .rposition(|&b| b == b'\n' || b == b'\r')
                .unwrap_or(0);
            if let Some(comment) = find_comment(&src[line_start..end]) {
                end = line_start + comment;
            }
        }
    }
}

/// Byte index of the first `//` in a line (MLIR assumes it starts a comment).
fn find_comment(line: &[u8]) -> Option<usize> {
    line.windows(2).position(|w| w == b"//")
}

/// Decode the escapes of a string literal token (with its quotes).
pub(crate) fn unescape(spelling: &str) -> Vec<u8> {
    let body = spelling.as_bytes();
    let body = &body[1..body.len().saturating_sub(1).max(1)];
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != b'\\' || i + 1 >= body.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let e = body[i + 1];
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'"' | b'\\' => out.push(e),
            _ => {
                let hex = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                if i + 2 < body.len() {
                    out.push(hex(e) * 16 + hex(body[i + 2]));
                    i += 1;
                }
            }
        }
        i += 2;
    }
    out
}
