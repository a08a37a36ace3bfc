//! Compiling a format: its text tokenized, the elements and optional
//! groups checked against the op's spec, and each element's leading space
//! computed as ODS's generated printer does.

use crate::ods::format::{Anchor, Element, Format, Kind, Target};
use crate::ods::OpSpec;

#[derive(Debug, PartialEq)]
enum FTok {
    Literal(&'static str),
    Var(&'static str),
    Word(&'static str),
    LParen,
    RParen,
    Question,
    Caret,
    Comma,
}

fn tokenize(text: &'static str) -> Result<Vec<FTok>, String> {
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b' ' | b'\n' | b'\t' => i += 1,
            b'`' => {
                let end = text[i + 1..]
                    .find('`')
                    .ok_or_else(|| "unterminated literal".to_string())?;
                toks.push(FTok::Literal(&text[i + 1..i + 1 + end]));
                i += end + 2;
            }
            b'$' => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_')
                {
                    end += 1;
                }
                if end == start {
                    return Err("expected a variable name after '$'".into());
                }
                toks.push(FTok::Var(&text[start..end]));
                i = end;
            }
            b'(' => {
                toks.push(FTok::LParen);
                i += 1;
            }
            b')' => {
                toks.push(FTok::RParen);
                i += 1;
            }
            b'?' => {
                toks.push(FTok::Question);
                i += 1;
            }
            b'^' => {
                toks.push(FTok::Caret);
                i += 1;
            }
            b',' => {
                toks.push(FTok::Comma);
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'-' | b'_'))
                {
                    i += 1;
                }
                toks.push(FTok::Word(&text[start..i]));
            }
            _ => return Err(format!("unexpected character '{}'", c as char)),
        }
    }
    Ok(toks)
}

struct Compiler<'s> {
    spec: &'s OpSpec,
    toks: Vec<FTok>,
    pos: usize,
    used_attrs: Vec<&'static str>,
}

impl Compiler<'_> {
    fn next(&mut self) -> Option<&FTok> {
        let t = self.toks.get(self.pos);
        self.pos += 1;
        t
    }

    fn peek(&self) -> Option<&FTok> {
        self.toks.get(self.pos)
    }

    fn expect(&mut self, tok: FTok) -> Result<(), String> {
        match self.next() {
            Some(t) if *t == tok => Ok(()),
            other => Err(format!("expected {tok:?}, found {other:?}")),
        }
    }

    fn elements(&mut self, in_group: bool) -> Result<(Vec<Element>, Option<Anchor>), String> {
        let mut out = Vec::new();
        let mut anchor = None;
        while let Some(tok) = self.peek() {
            if *tok == FTok::RParen && in_group {
                break;
            }
            let kind = match self.next() {
                Some(FTok::Literal(text)) => {
                    let text: &'static str = text;
                    match text {
                        "" => Kind::Space(false),
                        " " => Kind::Space(true),
                        _ => Kind::Literal(text),
                    }
                }
                Some(FTok::Var(name)) => {
                    let name: &'static str = name;
                    let (kind, this_anchor) = self.variable(name)?;
                    if self.peek() == Some(&FTok::Caret) {
                        self.pos += 1;
                        if !in_group {
                            return Err("'^' outside of an optional group".into());
                        }
                        anchor = Some(this_anchor);
                    }
                    kind
                }
                Some(FTok::Word(word)) => {
                    let word: &'static str = word;
                    let (kind, this_anchor) = self.directive(word)?;
                    if self.peek() == Some(&FTok::Caret) {
                        self.pos += 1;
                        anchor = this_anchor;
                    }
                    kind
                }
                Some(FTok::LParen) => {
                    let (then, group_anchor) = self.elements(true)?;
                    self.expect(FTok::RParen)?;
                    self.expect(FTok::Question)?;
                    let anchor = group_anchor.ok_or("optional group has no anchor ('^')")?;
                    if then.is_empty() {
                        return Err("optional group is empty".into());
                    }
                    Kind::Optional { then, anchor }
                }
                other => return Err(format!("unexpected {other:?}")),
            };
            out.push(Element { kind, space: false });
        }
        Ok((out, anchor))
    }

    fn variable(&mut self, name: &'static str) -> Result<(Kind, Anchor), String> {
        let spec = self.spec;
        if let Some(i) = spec.operands.iter().position(|o| o.name == name) {
            return Ok((Kind::Operand(i), Anchor::Operand(i)));
        }
        if let Some(i) = spec.attributes.iter().position(|a| a.name == name) {
            self.used_attrs.push(spec.attributes[i].name);
            return Ok((Kind::Attr(i), Anchor::Attr(i)));
        }
        if let Some(i) = spec.regions.iter().position(|r| r.name == name) {
            return Ok((Kind::Region(i), Anchor::Region(i)));
        }
        if let Some(i) = spec.successors.iter().position(|r| r.name == name) {
            return Ok((Kind::Successor(i), Anchor::Successor(i)));
        }
        if spec.results.iter().any(|r| r.name == name) {
            return Err(format!(
                "result '{name}' can only appear in a type directive"
            ));
        }
        Err(format!(
            "'{name}' is not an operand, attribute, region or successor"
        ))
    }

    fn target(&mut self) -> Result<Target, String> {
        match self.next() {
            Some(FTok::Var(name)) => {
                let name: &'static str = name;
                if let Some(i) = self.spec.operands.iter().position(|o| o.name == name) {
                    Ok(Target::Operand(i))
                } else if let Some(i) = self.spec.results.iter().position(|o| o.name == name) {
                    Ok(Target::Result(i))
                } else {
                    Err(format!("'{name}' is not an operand or result"))
                }
            }
            Some(FTok::Word("operands")) => Ok(Target::Operands),
            Some(FTok::Word("results")) => Ok(Target::Results),
            other => Err(format!("expected a type target, found {other:?}")),
        }
    }

    fn directive(&mut self, word: &'static str) -> Result<(Kind, Option<Anchor>), String> {
        Ok(match word {
            "attr-dict" => (Kind::AttrDict { keyword: false }, None),
            "attr-dict-with-keyword" => (Kind::AttrDict { keyword: true }, None),
            "operands" => (Kind::Operands, Some(Anchor::Operands)),
            "regions" => (Kind::Regions, None),
            "successors" => (Kind::Successors, None),
            "type" => {
                self.expect(FTok::LParen)?;
                let target = self.target()?;
                self.expect(FTok::RParen)?;
                (Kind::Type(target), Some(Anchor::Target(target)))
            }
            "functional-type" => {
                self.expect(FTok::LParen)?;
                let inputs = self.target()?;
                self.expect(FTok::Comma)?;
                let results = self.target()?;
                self.expect(FTok::RParen)?;
                (Kind::FunctionalType(inputs, results), None)
            }
            _ => return Err(format!("unknown directive '{word}'")),
        })
    }
}

/// ODS's `shouldEmitSpaceBefore` for a literal.
fn space_before_literal(value: &str, last_was_punct: bool) -> bool {
    if value.len() != 1 && value != "->" {
        return true;
    }
    let first = value.as_bytes()[0];
    if last_was_punct {
        !b">)}],".contains(&first)
    } else {
        !b"<>(){}[],".contains(&first)
    }
}

/// Computes each element's leading space as ODS's generated printer does.
fn assign_spaces(elements: &mut [Element], emit_space: &mut bool, last_punct: &mut bool) {
    for element in elements {
        match &mut element.kind {
            Kind::Literal(text) => {
                element.space = *emit_space && space_before_literal(text, *last_punct);
                let first = text.as_bytes()[0];
                *emit_space = text.len() != 1 || !b"<({[".contains(&first);
                *last_punct = first != b'_' && !first.is_ascii_alphabetic();
            }
            Kind::Space(value) => {
                element.space = *value;
                *last_punct = !*value;
                *emit_space = false;
            }
            Kind::AttrDict { .. } => {
                *last_punct = false;
            }
            Kind::Optional { then, .. } => assign_spaces(then, emit_space, last_punct),
            _ => {
                element.space = *emit_space || !*last_punct;
                *last_punct = false;
                *emit_space = true;
            }
        }
    }
}

impl Format {
    /// Compile `text` for `spec`, or say why it is not a valid format.
    pub fn compile(spec: &OpSpec, text: &'static str) -> Result<Format, String> {
        let toks = tokenize(text)?;
        let mut compiler = Compiler {
            spec,
            toks,
            pos: 0,
            used_attrs: Vec::new(),
        };
        let (mut elements, anchor) = compiler.elements(false)?;
        if anchor.is_some() {
            return Err("'^' outside of an optional group".into());
        }
        if compiler.pos < compiler.toks.len() {
            return Err("unbalanced ')'".into());
        }
        let (mut emit_space, mut last_punct) = (true, false);
        assign_spaces(&mut elements, &mut emit_space, &mut last_punct);
        Ok(Format {
            elements,
            used_attrs: compiler.used_attrs,
        })
    }
}
