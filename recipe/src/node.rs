//! A spanned value tree, the common form of a TOML or JSON recipe before the
//! schema reads it: every value and key keeps its byte range in the input.

use std::ops::Range;

use toml::de::{DeTable, DeValue};

use crate::error::{Problem, Raw, Severity};

/// A value with the byte range it was written at.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub span: Range<usize>,
    pub value: Val,
}

/// A key of a table, with its byte range.
#[derive(Clone, Debug)]
pub(crate) struct Key {
    pub name: String,
    pub span: Range<usize>,
}

#[derive(Clone, Debug)]
pub(crate) enum Val {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<Node>),
    Table(Vec<(Key, Node)>),
    /// A value the schema never accepts (a TOML datetime, a JSON null).
    Other(&'static str),
}

impl Val {
    /// The type of the value, as messages name it.
    pub fn describe(&self) -> &'static str {
        match self {
            Val::Str(_) => "a string",
            Val::Int(_) => "an integer",
            Val::Float(_) => "a float",
            Val::Bool(_) => "a boolean",
            Val::Array(_) => "an array",
            Val::Table(_) => "a table",
            Val::Other(what) => what,
        }
    }
}

fn syntax(span: Range<usize>, message: impl Into<String>) -> Raw {
    Raw {
        span,
        severity: Severity::Error,
        problem: Problem::Syntax(message.into()),
    }
}

/// Parses TOML text into a tree.
pub(crate) fn parse_toml(text: &str) -> Result<Node, Raw> {
    let table = DeTable::parse(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim().to_string();
        syntax(span, format!("invalid TOML: {message}"))
    })?;
    let span = 0..text.len();
    Ok(Node {
        span,
        value: toml_table(table.get_ref())?,
    })
}

fn toml_table(table: &DeTable<'_>) -> Result<Val, Raw> {
    let mut entries = Vec::new();
    for (key, value) in table.iter() {
        let key = Key {
            name: key.get_ref().to_string(),
            span: key.span(),
        };
        entries.push((key, toml_node(value.span(), value.get_ref())?));
    }
    Ok(Val::Table(entries))
}

fn toml_node(span: Range<usize>, value: &DeValue<'_>) -> Result<Node, Raw> {
    let value = match value {
        DeValue::String(s) => Val::Str(s.to_string()),
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            let parsed = i64::from_str_radix(&digits, i.radix())
                .map_err(|_| syntax(span.clone(), "integer does not fit in 64 bits"))?;
            Val::Int(parsed)
        }
        DeValue::Float(f) => {
            let text = f.as_str().replace('_', "");
            let parsed = match text.as_str() {
                "inf" | "+inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" | "+nan" | "-nan" => f64::NAN,
                t => t
                    .parse()
                    .map_err(|_| syntax(span.clone(), "invalid float"))?,
            };
            Val::Float(parsed)
        }
        DeValue::Boolean(b) => Val::Bool(*b),
        DeValue::Datetime(_) => Val::Other("a datetime"),
        DeValue::Array(items) => Val::Array(
            items
                .iter()
                .map(|v| toml_node(v.span(), v.get_ref()))
                .collect::<Result<_, _>>()?,
        ),
        DeValue::Table(t) => toml_table(t)?,
    };
    Ok(Node { span, value })
}

/// Parses JSON text into a tree (a small parser that keeps spans; string
/// and number literals are decoded by `serde_json`).
pub(crate) fn parse_json(text: &str) -> Result<Node, Raw> {
    let mut p = JsonParser { text, pos: 0 };
    p.skip_ws();
    let node = p.value(0)?;
    p.skip_ws();
    if p.pos < text.len() {
        return Err(syntax(p.pos..p.pos, "invalid JSON: trailing characters"));
    }
    Ok(node)
}

/// How deeply arrays and objects may nest (a recipe needs four levels).
const MAX_DEPTH: usize = 64;

struct JsonParser<'t> {
    text: &'t str,
    pos: usize,
}

impl JsonParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn error<T>(&self, message: &str) -> Result<T, Raw> {
        let pos = self.pos.min(self.text.len());
        let what = match self.text.get(pos..).and_then(|rest| rest.chars().next()) {
            None => "end of input".to_string(),
            Some(c) => format!("'{c}'"),
        };
        Err(syntax(
            pos..pos,
            format!("invalid JSON: expected {message}, found {what}"),
        ))
    }

    fn expect(&mut self, byte: u8, message: &str) -> Result<(), Raw> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            self.error(message)
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, Raw> {
        self.skip_ws();
        if depth > MAX_DEPTH {
            return self.error("less nesting");
        }
        let start = self.pos;
        let value = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Val::Str(self.string()?),
            Some(b't') => self.word("true", Val::Bool(true))?,
            Some(b'f') => self.word("false", Val::Bool(false))?,
            Some(b'n') => self.word("null", Val::Other("null"))?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            _ => return self.error("a value"),
        };
        Ok(Node {
            span: start..self.pos,
            value,
        })
    }

    fn word(&mut self, word: &str, value: Val) -> Result<Val, Raw> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            self.error("a value")
        }
    }

    fn string(&mut self) -> Result<String, Raw> {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.peek() {
                None => return self.error("'\"'"),
                Some(b'"') => break,
                Some(b'\\') => self.pos += 2,
                Some(_) => self.pos += 1,
            }
        }
        self.pos += 1;
        let literal = self.text.get(start..self.pos).unwrap_or("");
        serde_json::from_str::<String>(literal).map_err(|e| {
            syntax(
                start..start,
                format!("invalid JSON string: {}", strip_position(&e)),
            )
        })
    }

    fn number(&mut self) -> Result<Val, Raw> {
        let start = self.pos;
        while matches!(
            self.peek(),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.pos += 1;
        }
        let literal = &self.text[start..self.pos];
        let bad = |m: String| syntax(start..start, format!("invalid JSON number: {m}"));
        let number: serde_json::Number =
            serde_json::from_str(literal).map_err(|e| bad(strip_position(&e)))?;
        if let Some(i) = number.as_i64() {
            Ok(Val::Int(i))
        } else if literal.contains(['.', 'e', 'E']) {
            number
                .as_f64()
                .map(Val::Float)
                .ok_or_else(|| bad("not a finite float".into()))
        } else {
            Err(bad("integer does not fit in 64 bits".into()))
        }
    }

    fn array(&mut self, depth: usize) -> Result<Val, Raw> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Val::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Val::Array(items));
                }
                _ => return self.error("',' or ']'"),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Val, Raw> {
        self.pos += 1;
        let mut entries: Vec<(Key, Node)> = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Val::Table(entries));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return self.error("a string key");
            }
            let start = self.pos;
            let name = self.string()?;
            let span = start..self.pos;
            if entries.iter().any(|(k, _)| k.name == name) {
                return Err(Raw {
                    span,
                    severity: Severity::Error,
                    problem: Problem::Duplicate {
                        what: "key",
                        path: name,
                    },
                });
            }
            self.expect(b':', "':'")?;
            let value = self.value(depth + 1)?;
            entries.push((Key { name, span }, value));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Val::Table(entries));
                }
                _ => return self.error("',' or '}'"),
            }
        }
    }
}

/// serde_json's message without its "at line L column C" (the position
/// is given by the diagnostic itself).
fn strip_position(e: &serde_json::Error) -> String {
    let m = e.to_string();
    match m.find(" at line ") {
        Some(i) => m[..i].to_string(),
        None => m,
    }
}
