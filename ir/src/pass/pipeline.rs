//! MLIR's textual pass-pipeline grammar: parsing, option splitting, printing.
//!
//! This mirrors `mlir/lib/Pass/PassRegistry.cpp` (MLIR 22): `parsePassPipeline`
//! strips the `anchor(...)` wrapper, `TextualPipeline::parsePipelineText`
//! splits the body into passes (`name` or `name{options}`) and nested
//! pipelines (`op-name(...)`), and `PassOptions::parseFromString` splits a
//! pass's option text into `key=value` pairs. Only the *syntax* lives here:
//! resolving names against a pass registry (MLIR's
//! `'NAME' does not refer to a registered pass or pass pipeline`, including
//! for an empty name) and interpreting option values is the caller's job; see
//! [`unknown_pass_error`] and [`render_error`] for reporting those exactly as
//! `mlir-opt` does.
//!
//! All offsets are byte offsets into the text given to the parse function.
//!
//! Printing takes option text already rendered by the caller. MLIR renders a
//! pass's options (`PassOptions::print`) as `{` + every option sorted by
//! name, each `key=value`, joined by single spaces + `}`; a list option that
//! was never set prints as nothing (so canonicalize's two unset pattern lists
//! give `{  max-iterations=10 ...}`), a set one as `key={a,b}`; string values
//! go through [`format_string_option`]; a pass without options prints no
//! braces at all.

use std::fmt;

/// The message of the (location-less) error for a pipeline without its
/// `anchor(...)` wrapper.
pub const ANCHOR_ERROR: &str = "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'";

/// The buffer name MLIR gives the pipeline text in located errors.
const SOURCE_NAME: &str = "MLIR Textual PassPipeline Parser";

/// One element of a pipeline: a pass with its raw option text, or a nested pipeline anchored on an op name (or `any`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PipelineElement {
    /// A pass (or registered pipeline) name, trimmed, with the raw text between its braces.
    Pass {
        /// The name, trimmed of whitespace; may be empty (`cse,,dce`).
        name: String,
        /// The raw text between `{` and the matching `}`, verbatim.
        options: Option<String>,
        /// Byte offset of the name (for an empty name: where it would start).
        offset: usize,
    },
    /// `anchor(elements)`; never has an empty element list when parsed.
    Nested {
        /// The op name, trimmed; empty for `(...)`, which MLIR treats as `any`.
        anchor: String,
        /// The nested pipeline.
        elements: Vec<PipelineElement>,
        /// Byte offset of the anchor name.
        offset: usize,
    },
}

/// A located syntax error: `offset` into the text, and MLIR's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineError {
    /// Byte offset into the parsed text (0 for [`ANCHOR_ERROR`], which MLIR reports without location).
    pub offset: usize,
    /// MLIR's message, without location.
    pub message: String,
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for PipelineError {}

fn err<T>(offset: usize, message: &str) -> Result<T, PipelineError> {
    Err(PipelineError {
        offset,
        message: message.to_string(),
    })
}

/// `llvm::StringRef::trim`'s default set.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn skip_space(bytes: &[u8], mut pos: usize, end: usize) -> usize {
    while pos < end && is_space(bytes[pos]) {
        pos += 1;
    }
    pos
}

/// The trimmed sub-range of `[start, end)`; all-space collapses to `end`.
fn trim_range(bytes: &[u8], start: usize, mut end: usize) -> (usize, usize) {
    let start = skip_space(bytes, start, end);
    while end > start && is_space(bytes[end - 1]) {
        end -= 1;
    }
    (start, end)
}

/// Where the anchored body lies: `(anchor start, anchor end, body start, body end)`.
fn anchor_split(text: &str) -> Option<(usize, usize, usize, usize)> {
    let bytes = text.as_bytes();
    let (start, end) = trim_range(bytes, 0, bytes.len());
    let open = start + text[start..end].find('(')?;
    if open == start || bytes[end - 1] != b')' {
        return None;
    }
    let (_, anchor_end) = trim_range(bytes, start, open);
    Some((start, anchor_end, open + 1, end - 1))
}

/// `builtin.module(func.func(canonicalize{max-iterations=3},cse),symbol-dce)` -> elements.
///
/// Returns exactly one [`PipelineElement::Nested`] for the anchor. An empty
/// body (`builtin.module()`) gives an empty nested pipeline, as in MLIR.
pub fn parse_pipeline(text: &str) -> Result<Vec<PipelineElement>, PipelineError> {
    let Some((start, anchor_end, body_start, body_end)) = anchor_split(text) else {
        return err(0, ANCHOR_ERROR);
    };
    let elements = parse_range(text, body_start, body_end)?;
    let anchor = text[start..anchor_end].to_string();
    Ok(vec![PipelineElement::Nested {
        anchor,
        elements,
        offset: start,
    }])
}

/// Parse an unanchored element list (`cse,func.func(cse)`), as MLIR's
/// `parsePassPipeline(text, pm)` does for pipeline-valued pass options.
pub fn parse_pipeline_list(text: &str) -> Result<Vec<PipelineElement>, PipelineError> {
    parse_range(text, 0, text.len())
}

/// `TextualPipeline::parsePipelineText` over `text[start..end]`.
fn parse_range(
    text: &str,
    start: usize,
    end: usize,
) -> Result<Vec<PipelineElement>, PipelineError> {
    if start == end {
        return Ok(Vec::new());
    }
    let bytes = text.as_bytes();
    // Frames of open nested pipelines: (anchor, offset, elements so far).
    let mut stack: Vec<(String, usize, Vec<PipelineElement>)> =
        vec![(String::new(), 0, Vec::new())];
    let mut pos = start;
    let final_pos = loop {
        let seg_start = pos;
        let sep = bytes[pos..end]
            .iter()
            .position(|b| b",(){".contains(b))
            .map(|i| pos + i);
        let (name_start, name_end) = trim_range(bytes, pos, sep.unwrap_or(end));
        let name = text[name_start..name_end].to_string();
        let mut options = None;
        match sep.map(|i| (i, bytes[i])) {
            Some((i, b'(')) => {
                stack.push((name, name_start, Vec::new()));
                pos = i + 1;
                continue;
            }
            Some((i, b'{')) => {
                let mut depth = 1usize;
                let close = (i + 1..end).find(|&j| match bytes[j] {
                    b'{' => {
                        depth += 1;
                        false
                    }
                    b'}' => {
                        depth -= 1;
                        depth == 0
                    }
                    _ => false,
                });
                let Some(close) = close else {
                    return err(i, "missing closing '}' while processing pass options");
                };
                options = Some(text[i + 1..close].to_string());
                pos = skip_space(bytes, close + 1, end);
            }
            Some((i, _)) => pos = i,
            None => pos = end,
        }
        let element = PipelineElement::Pass {
            name,
            options,
            offset: name_start,
        };
        if let Some(top) = stack.last_mut() {
            top.2.push(element);
        }
        if sep.is_none() {
            break seg_start;
        }
        while pos < end && bytes[pos] == b')' {
            if stack.len() == 1 {
                return err(
                    pos,
                    "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline",
                );
            }
            pos = skip_space(bytes, pos + 1, end);
            if let Some((anchor, offset, elements)) = stack.pop() {
                if let Some(top) = stack.last_mut() {
                    top.2.push(PipelineElement::Nested {
                        anchor,
                        elements,
                        offset,
                    });
                }
            }
        }
        if pos == end {
            break pos;
        }
        if bytes[pos] != b',' {
            return err(pos, "expected ',' after parsing pipeline");
        }
        pos += 1;
    };
    if stack.len() > 1 {
        return err(
            final_pos,
            "encountered unbalanced parentheses while parsing pipeline",
        );
    }
    Ok(stack.pop().map(|frame| frame.2).unwrap_or_default())
}

/// The lookup error the caller reports for a pass name it cannot resolve.
pub fn unknown_pass_error(name: &str, offset: usize) -> PipelineError {
    PipelineError {
        offset,
        message: format!("'{name}' does not refer to a registered pass or pass pipeline"),
    }
}

/// Render an error from [`parse_pipeline`] (or a lookup error located in the
/// same text) as MLIR does: `MLIR Textual PassPipeline Parser:L:C: error: MSG`,
/// the source line of the anchored *body*, a caret line, each ending in `\n`.
/// [`ANCHOR_ERROR`] renders as the bare message.
pub fn render_error(text: &str, error: &PipelineError) -> String {
    match anchor_split(text) {
        Some((_, _, body_start, body_end)) if error.message != ANCHOR_ERROR => render_located(
            &text[body_start..body_end],
            error.offset.saturating_sub(body_start),
            &error.message,
        ),
        _ => error.message.clone(),
    }
}

/// Render an error from [`parse_pipeline_list`] as MLIR does (see [`render_error`]).
pub fn render_list_error(text: &str, error: &PipelineError) -> String {
    render_located(text, error.offset, &error.message)
}

/// `llvm::SourceMgr::PrintMessage` for an error at `offset` in `source`.
fn render_located(source: &str, offset: usize, message: &str) -> String {
    let bytes = source.as_bytes();
    let offset = offset.min(bytes.len());
    let is_eol = |b: &u8| *b == b'\n' || *b == b'\r';
    let line_start = bytes[..offset]
        .iter()
        .rposition(is_eol)
        .map_or(0, |i| i + 1);
    let line_end = bytes[offset..]
        .iter()
        .position(is_eol)
        .map_or(bytes.len(), |i| offset + i);
    let line_no = bytes[..offset].iter().filter(|b| **b == b'\n').count() + 1;
    let column = offset - line_start;
    let line = &source[line_start..line_end];
    let mut out = format!("{SOURCE_NAME}:{line_no}:{}: error: {message}\n", column + 1);
    // Tabs expand to 8-column stops; a caret on a tab repeats up to the stop.
    let (mut caret, mut col) = (String::new(), 0);
    for (i, ch) in line.char_indices() {
        let mark = if i == column { '^' } else { ' ' };
        if ch == '\t' {
            loop {
                out.push(' ');
                caret.push(mark);
                col += 1;
                if col % 8 == 0 {
                    break;
                }
            }
        } else {
            out.push(ch);
            caret.push(mark);
            col += ch.len_utf8();
        }
    }
    if column >= line.len() {
        caret.push('^');
    }
    out.push('\n');
    // Non-ASCII lines get no caret line (SMDiagnostic bails out on them).
    if line.is_ascii() {
        out.push_str(caret.trim_end_matches(' '));
        out.push('\n');
    }
    out
}

/// `findChar` in PassRegistry.cpp: the next `c` at or after `from`, skipping
/// `{...}`, `(...)`, `[...]` ranges (nested) and quoted literals.
fn find_char(s: &[u8], from: usize, c: u8) -> Option<usize> {
    let mut closers = vec![c];
    let mut i = from;
    while i < s.len() {
        if closers.last() == Some(&s[i]) {
            closers.pop();
            if closers.is_empty() {
                return Some(i);
            }
        } else {
            match s[i] {
                b'{' => closers.push(b'}'),
                b'(' => closers.push(b')'),
                b'[' => closers.push(b']'),
                q @ (b'"' | b'\'') => i += 1 + s[i + 1..].iter().position(|&b| b == q)?,
                _ => {}
            }
        }
        i += 1;
    }
    None
}

fn trim_str(s: &str) -> &str {
    let (a, b) = trim_range(s.as_bytes(), 0, s.len());
    &s[a..b]
}

/// `extractArgAndUpdateOptions`: take `rest[..len]` as an argument (trimmed,
/// outer quotes or outer braces removed) and leave `rest` after it, left-trimmed.
fn extract_arg<'a>(rest: &mut &'a str, len: usize) -> &'a str {
    let arg = trim_str(&rest[..len]);
    let after = &rest[len..];
    *rest = &after[skip_space(after.as_bytes(), 0, after.len())..];
    let b = arg.as_bytes();
    if b.len() <= 1 {
        return arg;
    }
    let last = b[b.len() - 1];
    if (b[0] == b'"' || b[0] == b'\'') && last == b[0] {
        return trim_str(&arg[1..arg.len() - 1]);
    }
    if b[0] == b'{' && find_char(b, 1, b'}') == Some(b.len() - 1) {
        return trim_str(&arg[1..arg.len() - 1]);
    }
    arg
}

/// Split a pass's option text into `(key, value)` pairs, a bare `key` giving `""` (see [`split_options`], which keeps it apart).
///
/// Never fails; the `Result` only keeps the signature the pass manager uses.
pub fn parse_options(text: &str) -> Result<Vec<(String, String)>, PipelineError> {
    let pairs = split_options(text).into_iter();
    Ok(pairs.map(|(k, v)| (k, v.unwrap_or_default())).collect())
}

/// Split a pass's option text into `(key, value)` pairs as MLIR's `PassOptions::parseFromString` does, keeping bare keys apart.
///
/// Pairs are separated by single spaces; a value may hold `{...}` (braces
/// nest, quotes inside are skipped), `"..."` or `'...'` groups containing
/// spaces. Keys and values are trimmed, and one pair of outer quotes, or outer
/// braces that match each other, is removed: `op-pipelines={func.func(cse)}`
/// gives `func.func(cse)`, `a={x},{y}` keeps `{x},{y}`. Comma lists stay one
/// value (see [`split_list_option`]). A bare `key` gives `None`: MLIR hands
/// llvm::cl a null value, which a bool option takes as `true` and any other
/// option rejects (`for the --KEY option: requires a value!`); `key=` gives
/// `Some("")`. Pairs with an empty key (`=5`) are dropped silently, repeated
/// keys are all returned in order (the last one wins in MLIR). This never
/// fails: unbalanced quotes or braces just extend the value.
pub fn split_options(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let b = rest.as_bytes();
        let key_end = b
            .iter()
            .position(|&c| c == b' ' || c == b'=')
            .unwrap_or(b.len());
        let is_pair = key_end < b.len() && b[key_end] == b'=';
        let key = extract_arg(&mut rest, key_end);
        let value = if is_pair {
            rest = &rest[1..];
            let b = rest.as_bytes();
            let close = |i: usize, q: u8| {
                b[i + 1..]
                    .iter()
                    .position(|&c| c == q)
                    .map_or(i, |j| i + 1 + j)
            };
            let mut i = 0;
            while i < b.len() && b[i] != b' ' {
                match b[i] {
                    q @ (b'"' | b'\'') => i = close(i, q),
                    b'{' => {
                        let mut depth = 1usize;
                        i += 1;
                        while i < b.len() {
                            match b[i] {
                                q @ (b'"' | b'\'') => i = close(i, q),
                                b'{' => depth += 1,
                                b'}' => {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                }
                                _ => {}
                            }
                            i += 1;
                        }
                        i = i.min(b.len()) - 1;
                    }
                    _ => {}
                }
                i += 1;
            }
            Some(extract_arg(&mut rest, i.min(b.len())).to_string())
        } else {
            None
        };
        if !key.is_empty() {
            out.push((key.to_string(), value));
        }
    }
    out
}

/// Split a list option's value on top-level commas as MLIR's `ListOption`
/// does (`parseCommaSeparatedList`): commas inside `{}`, `()`, `[]` or quotes
/// do not split; each element is trimmed and loses outer quotes or braces.
/// An empty value is an empty list.
pub fn split_list_option(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = value;
    if rest.is_empty() {
        return out;
    }
    while let Some(comma) = find_char(rest.as_bytes(), 0, b',') {
        out.push(extract_arg(&mut rest, comma).to_string());
        rest = &rest[1..];
    }
    let len = rest.len();
    out.push(extract_arg(&mut rest, len).to_string());
    out
}

/// Print a string option value as MLIR 22 does: wrapped in `{}` when it has a
/// space before any `{`, `'` or `"`, verbatim otherwise.
pub fn format_string_option(value: &str) -> String {
    let space = value.find(' ');
    let escape = value.find(['{', '\'', '"']);
    match (space, escape) {
        (Some(s), e) if e.is_none_or(|e| s < e) => format!("{{{value}}}"),
        _ => value.to_string(),
    }
}

fn print_element(element: &PipelineElement, out: &mut String, pretty: Option<usize>) {
    if let Some(depth) = pretty {
        out.extend(std::iter::repeat_n(' ', 2 * depth));
    }
    match element {
        PipelineElement::Pass { name, options, .. } => {
            out.push_str(name);
            if let Some(options) = options {
                out.push('{');
                out.push_str(options);
                out.push('}');
            }
        }
        PipelineElement::Nested {
            anchor, elements, ..
        } => {
            out.push_str(if anchor.is_empty() { "any" } else { anchor });
            out.push('(');
            let inner = pretty.map(|depth| depth + 1);
            if pretty.is_some() {
                out.push('\n');
            }
            print_list(
                elements,
                out,
                inner,
                if pretty.is_some() { ",\n" } else { "," },
            );
            if let Some(depth) = pretty {
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', 2 * depth));
            }
            out.push(')');
        }
    }
}

fn print_list(elements: &[PipelineElement], out: &mut String, pretty: Option<usize>, sep: &str) {
    for (i, element) in elements.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        print_element(element, out, pretty);
    }
}

/// Render a pipeline on one line as MLIR's `printAsTextualPipeline`: `,` between elements, `name{options}`, `anchor(...)` (`any` for an empty anchor).
pub fn print_pipeline(elements: &[PipelineElement]) -> String {
    let mut out = String::new();
    print_list(elements, &mut out, None, ",");
    out
}

/// The multi-line form of `--dump-pass-pipeline` (without the "Pass Manager with N passes:" header or trailing newline).
///
/// `anchor(` ends its line, nested elements follow one per line indented two
/// more spaces and separated by `,`, and `)` sits on its own line at the
/// anchor's indentation; an empty nested pipeline leaves one empty line.
pub fn print_pipeline_pretty(elements: &[PipelineElement]) -> String {
    let mut out = String::new();
    print_list(elements, &mut out, Some(0), ",\n");
    out
}

/// The `pipeline:` string of a crash reproducer: `root(` + the root pass
/// manager's elements joined by `", "` (one-line form inside) + `)`.
pub fn print_reproducer_pipeline(root: &str, elements: &[PipelineElement]) -> String {
    let mut out = format!("{root}(");
    print_list(elements, &mut out, None, ", ");
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(name: &str, options: Option<&str>, offset: usize) -> PipelineElement {
        let options = options.map(str::to_string);
        PipelineElement::Pass {
            name: name.to_string(),
            options,
            offset,
        }
    }

    fn nested(anchor: &str, elements: Vec<PipelineElement>, offset: usize) -> PipelineElement {
        PipelineElement::Nested {
            anchor: anchor.to_string(),
            elements,
            offset,
        }
    }

    /// The caller's side: MLIR resolves names in pre-order after parsing.
    fn first_unknown(elements: &[PipelineElement]) -> Option<PipelineError> {
        elements.iter().find_map(|e| match e {
            PipelineElement::Nested { elements, .. } => first_unknown(elements),
            PipelineElement::Pass { name, offset, .. } => {
                let known = ["cse", "canonicalize", "symbol-dce", "inline"];
                (!known.contains(&name.as_str())).then(|| unknown_pass_error(name, *offset))
            }
        })
    }

    /// What mlir-opt prints after `<unknown>:0: error: ` (minus the final newline).
    fn mlir_message(text: &str) -> String {
        let error = match parse_pipeline(text) {
            Ok(elements) => first_unknown(&elements).expect("expected an error"),
            Err(e) => e,
        };
        render_error(text, &error)
    }

    #[test]
    fn parses_structure_and_offsets() {
        let text = "builtin.module(func.func(canonicalize{max-iterations=3},cse),symbol-dce)";
        let expected = vec![nested(
            "builtin.module",
            vec![
                nested(
                    "func.func",
                    vec![
                        pass("canonicalize", Some("max-iterations=3"), 25),
                        pass("cse", None, 56),
                    ],
                    15,
                ),
                pass("symbol-dce", None, 61),
            ],
            0,
        )];
        assert_eq!(parse_pipeline(text), Ok(expected));
        let spaced = "  builtin.module ( cse , canonicalize {a=1} , func.func (cse) ) ";
        let expected = vec![nested(
            "builtin.module",
            vec![
                pass("cse", None, 19),
                pass("canonicalize", Some("a=1"), 25),
                nested("func.func", vec![pass("cse", None, 57)], 46),
            ],
            2,
        )];
        assert_eq!(parse_pipeline(spaced), Ok(expected));
        assert_eq!(
            parse_pipeline("builtin.module()"),
            Ok(vec![nested("builtin.module", vec![], 0)])
        );
        let empty = parse_pipeline("builtin.module(func.func(),cse,,)");
        let names = vec![nested("func.func", vec![pass("", None, 25)], 15)];
        let rest = vec![
            pass("cse", None, 27),
            pass("", None, 31),
            pass("", None, 32),
        ];
        let expected = vec![nested("builtin.module", [names, rest].concat(), 0)];
        assert_eq!(empty, Ok(expected));
        assert_eq!(parse_pipeline_list(""), Ok(vec![]));
        assert_eq!(
            parse_pipeline_list("cse,any(cse)"),
            Ok(vec![
                pass("cse", None, 0),
                nested("any", vec![pass("cse", None, 8)], 4)
            ])
        );
    }

    #[test]
    fn round_trips() {
        for text in [
            "builtin.module(func.func(canonicalize{max-iterations=3},cse),symbol-dce)",
            "builtin.module(func.func(canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse),symbol-dce)",
            "builtin.module(inline{op-pipelines={func.func(cse,canonicalize),gpu.module(cse)}},any(cse))",
            "builtin.module(builtin.module(func.func(cse)),cse{})",
            "gpu.module(x{a={b} c=\"d e\"})",
            "builtin.module()",
        ] {
            let parsed = parse_pipeline(text).expect("valid pipeline");
            assert_eq!(print_pipeline(&parsed), text);
        }
        let parsed = parse_pipeline(" builtin.module ( (cse) , a { b } )").expect("valid pipeline");
        assert_eq!(print_pipeline(&parsed), "builtin.module(any(cse),a{ b })");
    }

    #[test]
    fn errors_match_mlir_opt() {
        let cases: &[(&str, &str)] = &[
            ("builtin.module(cse,,dce)", "1:5: error: '' does not refer to a registered pass or pass pipeline\ncse,,dce\n    ^\n"),
            ("builtin.module(func.func())", "1:11: error: '' does not refer to a registered pass or pass pipeline\nfunc.func()\n          ^\n"),
            ("builtin.module( )", "1:2: error: '' does not refer to a registered pass or pass pipeline\n \n ^\n"),
            ("builtin.module(cse{a} , )", "1:10: error: '' does not refer to a registered pass or pass pipeline\ncse{a} , \n         ^\n"),
            ("builtin.module(cse x)", "1:1: error: 'cse x' does not refer to a registered pass or pass pipeline\ncse x\n^\n"),
            ("builtin.module(cse,}x)", "1:5: error: '}x' does not refer to a registered pass or pass pipeline\ncse,}x\n    ^\n"),
            ("any(cse,bogus{x=1})", "1:5: error: 'bogus' does not refer to a registered pass or pass pipeline\ncse,bogus{x=1}\n    ^\n"),
            ("builtin.module(cse,\u{e9})", "1:5: error: '\u{e9}' does not refer to a registered pass or pass pipeline\ncse,\u{e9}\n"),
            ("builtin.module(cse,\tbogus)", "1:6: error: 'bogus' does not refer to a registered pass or pass pipeline\ncse,    bogus\n        ^\n"),
            ("builtin.module(cse,\r\nbogus)", "2:1: error: 'bogus' does not refer to a registered pass or pass pipeline\nbogus\n^\n"),
            ("builtin.module(cse))", "1:4: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline\ncse)\n   ^\n"),
            ("builtin.module(cse,func.func(cse)))", "1:19: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline\ncse,func.func(cse))\n                  ^\n"),
            ("builtin.module(a(b))(c)", "1:5: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline\na(b))(c\n    ^\n"),
            ("builtin.module((cse)", "1:2: error: encountered unbalanced parentheses while parsing pipeline\n(cse\n ^\n"),
            ("builtin.module(func.func(cse)", "1:11: error: encountered unbalanced parentheses while parsing pipeline\nfunc.func(cse\n          ^\n"),
            ("builtin.module(a(b(c)", "1:5: error: encountered unbalanced parentheses while parsing pipeline\na(b(c\n    ^\n"),
            ("builtin.module(a(b,c)", "1:5: error: encountered unbalanced parentheses while parsing pipeline\na(b,c\n    ^\n"),
            ("builtin.module(a(\tb)", "1:3: error: encountered unbalanced parentheses while parsing pipeline\na(      b\n  ^^^^^^\n"),
            ("builtin.module(\tx(\tb)", "1:4: error: encountered unbalanced parentheses while parsing pipeline\n        x(      b\n          ^^^^^^\n"),
            ("builtin.module(cse{a=1)", "1:4: error: missing closing '}' while processing pass options\ncse{a=1\n   ^\n"),
            ("builtin.module(bogus,cse{)", "1:10: error: missing closing '}' while processing pass options\nbogus,cse{\n         ^\n"),
            ("builtin.module(func.func(cse) x)", "1:16: error: expected ',' after parsing pipeline\nfunc.func(cse) x\n               ^\n"),
            ("builtin.module(cse{a=\"}\"})", "1:9: error: expected ',' after parsing pipeline\ncse{a=\"}\"}\n        ^\n"),
            ("builtin.module(cse{a}{b})", "1:7: error: expected ',' after parsing pipeline\ncse{a}{b}\n      ^\n"),
            ("builtin.module(cse{a}(x))", "1:7: error: expected ',' after parsing pipeline\ncse{a}(x)\n      ^\n"),
            ("builtin.module(func.func{x}(cse))", "1:13: error: expected ',' after parsing pipeline\nfunc.func{x}(cse)\n            ^\n"),
            ("builtin.module(func.func(cse){a})", "1:15: error: expected ',' after parsing pipeline\nfunc.func(cse){a}\n              ^\n"),
            ("builtin.module(cse{{a}}} )", "1:9: error: expected ',' after parsing pipeline\ncse{{a}}} \n        ^\n"),
            ("builtin.module(cse,\tfunc.func(cse)\t\tx)", "1:22: error: expected ',' after parsing pipeline\ncse,    func.func(cse)          x\n                                ^\n"),
            ("builtin.module(cse,\n  func.func(cse) x)", "2:18: error: expected ',' after parsing pipeline\n  func.func(cse) x\n                 ^\n"),
        ];
        for (text, expected) in cases {
            let expected = format!("MLIR Textual PassPipeline Parser:{expected}");
            assert_eq!(mlir_message(text), expected, "for {text:?}");
        }
        for text in [
            "",
            "  ",
            "cse",
            "(cse)",
            "builtin.module(cse",
            "builtin.module(a(b,c",
            "builtin.module(func.func(cse)x",
        ] {
            assert_eq!(parse_pipeline(text), err(0, ANCHOR_ERROR), "for {text:?}");
            assert_eq!(mlir_message(text), ANCHOR_ERROR);
        }
        let list_error = parse_pipeline_list("cse canonicalize").map(|e| first_unknown(&e));
        let rendered = list_error.map(|e| e.map(|e| render_list_error("cse canonicalize", &e)));
        let expected = "MLIR Textual PassPipeline Parser:1:1: error: 'cse canonicalize' does not refer to a registered pass or pass pipeline\ncse canonicalize\n^\n";
        assert_eq!(rendered, Ok(Some(expected.to_string())));
    }

    fn opts(pairs: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
            .collect()
    }

    #[test]
    fn splits_options() {
        type Case<'a> = (&'a str, &'a [(&'a str, Option<&'a str>)]);
        let cases: &[Case] = &[
            ("", &[]),
            (
                "max-iterations=3 top-down",
                &[("max-iterations", Some("3")), ("top-down", None)],
            ),
            ("  a=1   b=  ", &[("a", Some("1")), ("b", Some(""))]),
            ("=5 top-down=false", &[("top-down", Some("false"))]),
            ("a = b", &[("a", None), ("b", None)]),
            (
                "op-pipelines={func.func(cse)}",
                &[("op-pipelines", Some("func.func(cse)"))],
            ),
            (
                "op-pipelines={func.func(cse) } x=1",
                &[("op-pipelines", Some("func.func(cse)")), ("x", Some("1"))],
            ),
            (
                "l={a b},{c} m={x {y z}}",
                &[("l", Some("{a b},{c}")), ("m", Some("x {y z}"))],
            ),
            (
                "s=\"a b\" t='c d' u=\"\"",
                &[("s", Some("a b")), ("t", Some("c d")), ("u", Some(""))],
            ),
            ("l=\"a b\",c,'d e'", &[("l", Some("\"a b\",c,'d e'"))]),
            (
                "l=1,2,3 \"top-down\"=0",
                &[("l", Some("1,2,3")), ("top-down", Some("0"))],
            ),
            (
                "v={a \"}\" b} w=x\"y",
                &[("v", Some("a \"}\" b")), ("w", Some("x\"y"))],
            ),
            ("v={unclosed x=1", &[("v", Some("{unclosed x=1"))]),
            ("a=\"b", &[("a", Some("\"b"))]),
            ("a=1 a=2", &[("a", Some("1")), ("a", Some("2"))]),
        ];
        for (text, expected) in cases {
            assert_eq!(split_options(text), opts(expected), "for {text:?}");
        }
        let flat = vec![
            ("a".to_string(), String::new()),
            ("b".to_string(), "1".to_string()),
        ];
        assert_eq!(parse_options("a b=1"), Ok(flat));
    }

    #[test]
    fn splits_lists_and_formats_strings() {
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            ("a", &["a"]),
            ("1, 2 ,3", &["1", "2", "3"]),
            ("a,", &["a", ""]),
            ("{a,b},{c}", &["a,b", "c"]),
            ("\"a b\",c,'z,w'", &["a b", "c", "z,w"]),
            (
                "func.func(cse,canonicalize),gpu.module(cse)",
                &["func.func(cse,canonicalize)", "gpu.module(cse)"],
            ),
            ("[1,2],x", &["[1,2]", "x"]),
        ];
        for (value, expected) in cases {
            assert_eq!(split_list_option(value), expected.to_vec(), "for {value:?}");
        }
        assert_eq!(format_string_option("cse"), "cse");
        assert_eq!(format_string_option(""), "");
        assert_eq!(
            format_string_option("cse canonicalize"),
            "{cse canonicalize}"
        );
        assert_eq!(format_string_option("a\"b c\""), "a\"b c\"");
        assert_eq!(format_string_option("a b{c}"), "{a b{c}}");
    }

    #[test]
    fn prints_like_mlir_opt() {
        let canon = "  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true";
        let tree = vec![nested(
            "builtin.module",
            vec![
                nested(
                    "func.func",
                    vec![pass("canonicalize", Some(canon), 0), pass("cse", None, 0)],
                    0,
                ),
                pass("symbol-dce", None, 0),
            ],
            0,
        )];
        let pretty = format!(
            "builtin.module(\n  func.func(\n    canonicalize{{{canon}}},\n    cse\n  ),\n  symbol-dce\n)"
        );
        assert_eq!(print_pipeline_pretty(&tree), pretty);
        let line = format!("builtin.module(func.func(canonicalize{{{canon}}},cse),symbol-dce)");
        assert_eq!(print_pipeline(&tree), line);
        let repro = format!("builtin.module(func.func(canonicalize{{{canon}}},cse), symbol-dce)");
        let PipelineElement::Nested { elements, .. } = &tree[0] else {
            unreachable!()
        };
        assert_eq!(print_reproducer_pipeline("builtin.module", elements), repro);
        let empty = vec![nested("builtin.module", vec![], 0)];
        assert_eq!(print_pipeline_pretty(&empty), "builtin.module(\n\n)");
        let any = vec![nested(
            "builtin.module",
            vec![nested("", vec![pass("cse", None, 0)], 0)],
            0,
        )];
        assert_eq!(
            print_pipeline_pretty(&any),
            "builtin.module(\n  any(\n    cse\n  )\n)"
        );
        assert_eq!(print_pipeline(&any), "builtin.module(any(cse))");
    }

    #[test]
    fn never_panics() {
        let alphabet = [
            "a", "(", ")", "{", "}", ",", " ", "\"", "'", "=", "\u{e9}", "\t",
        ];
        let n = alphabet.len();
        for code in 0..n.pow(4) {
            let (mut text, mut c) = (String::new(), code);
            for _ in 0..4 {
                text.push_str(alphabet[c % n]);
                c /= n;
            }
            for t in [text.clone(), format!("m({text})")] {
                if let Ok(elements) = parse_pipeline(&t) {
                    let printed = print_pipeline(&elements);
                    let again = parse_pipeline(&printed).map(|e| print_pipeline(&e));
                    assert_eq!(again, Ok(printed.clone()), "for {t:?}");
                    if let Some(e) = first_unknown(&elements) {
                        render_error(&t, &e);
                    }
                } else if let Err(e) = parse_pipeline(&t) {
                    render_error(&t, &e);
                }
                let _ = parse_pipeline_list(&t).map_err(|e| render_list_error(&t, &e));
                for (_, value) in split_options(&t) {
                    value.map(|v| split_list_option(&v));
                }
            }
        }
        let deep = format!("m({}{})", "a(".repeat(1000), ")".repeat(1000));
        assert_eq!(parse_pipeline(&deep).map(|e| print_pipeline(&e)), Ok(deep));
        assert_eq!(
            split_options(&format!("k={}", "{[(".repeat(50_000))).len(),
            1
        );
        assert_eq!(split_list_option(&"{[(".repeat(50_000)).len(), 1);
    }
}
