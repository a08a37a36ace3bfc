//! The lexer for MLIR's textual format (mlir/lib/AsmParser/Lexer.cpp).
//!
//! Tokens are byte ranges into the source; the parser interprets their text.
//! The lexer can be repositioned, which the shape parser needs to split
//! `4x?xf32` into dimensions.

/// A token kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Eof,
    /// An invalid character or unterminated construct; the parser reports it.
    Error,
    BareId,
    /// `@name` or `@"name"`.
    AtId,
    /// `%name`.
    PercentId,
    /// `^name`.
    CaretId,
    /// `#name`.
    HashId,
    /// `!name`.
    BangId,
    Integer,
    Float,
    String,
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
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
}

/// A token: its kind and its byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) kind: Tok,
    pub(crate) start: u32,
    pub(crate) end: u32,
}

/// Splits a source buffer into tokens.
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    /// Why the last `Tok::Error` token was produced.
    pub(crate) error: &'static str,
}

fn is_id_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-')
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(src: &'a [u8]) -> Self {
        Lexer {
            src,
            pos: 0,
            error: "",
        }
    }

    /// Continue lexing at byte offset `pos`.
    pub(crate) fn reset(&mut self, pos: usize) {
        self.pos = pos;
    }

    fn peek(&self, offset: usize) -> u8 {
        self.src.get(self.pos + offset).copied().unwrap_or(0)
    }

    fn token(&self, kind: Tok, start: usize) -> Token {
        Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
        }
    }

    fn error(&mut self, start: usize, why: &'static str) -> Token {
        self.error = why;
        Token {
            kind: Tok::Error,
            start: start as u32,
            end: self.pos.max(start + 1).min(self.src.len()) as u32,
        }
    }

    /// The next token.
    pub(crate) fn next_token(&mut self) -> Token {
        loop {
            let start = self.pos;
            let Some(&c) = self.src.get(self.pos) else {
                return self.token(Tok::Eof, start);
            };
            self.pos += 1;
            let kind = match c {
                // A NUL inside the buffer is skipped, as MLIR's lexer does.
                b' ' | b'\t' | b'\n' | b'\r' | 0 => continue,
                b'/' if self.peek(0) == b'/' => {
                    while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                    continue;
                }
                b'(' => Tok::LParen,
                b')' => Tok::RParen,
                b'[' => Tok::LSquare,
                b']' => Tok::RSquare,
                b'{' => {
                    if self.peek(0) == b'-' && self.peek(1) == b'#' {
                        self.pos += 2;
                        Tok::FileMetadataBegin
                    } else {
                        Tok::LBrace
                    }
                }
                b'}' => Tok::RBrace,
                b'<' => Tok::Less,
                b'>' => Tok::Greater,
                b',' => Tok::Comma,
                b':' => Tok::Colon,
                b'=' => Tok::Equal,
                b'?' => Tok::Question,
                b'*' => Tok::Star,
                b'+' => Tok::Plus,
                b'|' => Tok::Vertical,
                b'-' => {
                    if self.peek(0) == b'>' {
                        self.pos += 1;
                        Tok::Arrow
                    } else {
                        Tok::Minus
                    }
                }
                b'.' if self.peek(0) == b'.' && self.peek(1) == b'.' => {
                    self.pos += 2;
                    Tok::Ellipsis
                }
                b'.' => {
                    return self.error(self.pos, "expected three consecutive dots for an ellipsis")
                }
                b'"' => return self.lex_string(start),
                b'@' => return self.lex_at(start),
                b'%' | b'^' | b'!' | b'#' => return self.lex_prefixed(c, start),
                b'0'..=b'9' => return self.lex_number(start),
                c if is_id_start(c) => {
                    while self.pos < self.src.len() && is_id_char(self.src[self.pos]) {
                        self.pos += 1;
                    }
                    Tok::BareId
                }
                _ => return self.error(start, "unexpected character"),
            };
            return self.token(kind, start);
        }
    }

    fn lex_string(&mut self, start: usize) -> Token {
        loop {
            let Some(&c) = self.src.get(self.pos) else {
                // Reported where the string stops, as MLIR does.
                return self.error(self.pos, "expected '\"' in string literal");
            };
            self.pos += 1;
            match c {
                b'"' => return self.token(Tok::String, start),
                b'\n' | b'\r' => {
                    self.pos -= 1;
                    return self.error(self.pos, "expected '\"' in string literal");
                }
                b'\\' => {
                    let e = self.peek(0);
                    if matches!(e, b'"' | b'\\' | b'n' | b't') {
                        self.pos += 1;
                    } else if e.is_ascii_hexdigit() && self.peek(1).is_ascii_hexdigit() {
                        self.pos += 2;
                    } else {
                        return self.error(self.pos - 1, "unknown escape in string literal");
                    }
                }
                _ => {}
            }
        }
    }

    fn lex_at(&mut self, start: usize) -> Token {
        let c = self.peek(0);
        if c == b'"' {
            self.pos += 1;
            let tok = self.lex_string(self.pos - 1);
            if tok.kind == Tok::Error {
                return tok;
            }
            return self.token(Tok::AtId, start);
        }
        if !is_id_start(c) {
            return self.error(
                start + 1,
                "@ identifier expected to start with letter or '_'",
            );
        }
        while self.pos < self.src.len()
            && (is_id_char(self.src[self.pos]) || self.src[self.pos] == b'-')
        {
            self.pos += 1;
        }
        self.token(Tok::AtId, start)
    }

    fn lex_prefixed(&mut self, prefix: u8, start: usize) -> Token {
        let kind = match prefix {
            b'%' => Tok::PercentId,
            b'^' => Tok::CaretId,
            b'!' => Tok::BangId,
            _ => {
                if self.peek(0) == b'-' && self.peek(1) == b'}' {
                    self.pos += 2;
                    return self.token(Tok::FileMetadataEnd, start);
                }
                Tok::HashId
            }
        };
        let c = self.peek(0);
        if c.is_ascii_digit() {
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        } else if is_suffix_char(c) {
            while self.pos < self.src.len() && is_suffix_char(self.src[self.pos]) {
                self.pos += 1;
            }
        } else {
            return self.error(
                start,
                match prefix {
                    b'%' => "invalid SSA name",
                    b'^' => "invalid block name",
                    b'!' => "invalid type identifier",
                    _ => "invalid attribute name",
                },
            );
        }
        self.token(kind, start)
    }

    fn lex_number(&mut self, start: usize) -> Token {
        // Hexadecimal: `0x` followed by at least one hex digit.
        if self.src[start] == b'0' && self.peek(0) == b'x' && self.peek(1).is_ascii_hexdigit() {
            self.pos += 1;
            while self.peek(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return self.token(Tok::Integer, start);
        }
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek(0) != b'.' {
            return self.token(Tok::Integer, start);
        }
        self.pos += 1;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if matches!(self.peek(0), b'e' | b'E') {
            let sign = usize::from(matches!(self.peek(1), b'+' | b'-'));
            if self.peek(1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                while self.peek(0).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        self.token(Tok::Float, start)
    }
}
