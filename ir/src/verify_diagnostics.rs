//! MLIR's `--verify-diagnostics` checker (`SourceMgrDiagnosticVerifierHandler`).
//!
//! Directives have the form
//! `expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *{{TEXT}}`
//! and must end the (right-trimmed) line. Lines that do not match this exactly are
//! silently ignored, as in MLIR; only broken `-re` regexes are reported while scanning.
//! A diagnostic is expected when an expectation of the same severity targets its line
//! (or is `@unknown` and the diagnostic has no file location) and its message contains
//! TEXT (or matches the POSIX ERE built from TEXT for `-re`). Expectations are not
//! consumed: one directive may match several diagnostics.
//!
//! MLIR 22 uses one handler for a whole `--split-input-file` run: directives of the
//! whole file are scanned once, every chunk's diagnostics are checked against all of
//! them (so `@-N` may reach into an earlier chunk), unexpected diagnostics are printed
//! as they are emitted, and the "was not produced" errors come after the last chunk,
//! file expectations in source order followed by `@unknown` ones printed twice (MLIR
//! calls `verify()` twice and only clears the per-file list). To reproduce this exactly,
//! scan the whole file with `line_offset` 0 and check the diagnostics of all chunks
//! against that one [`ExpectedDiagnostics`]. Scanning a chunk with the line offset of
//! its first line gives the same results for expectations that stay inside the chunk.

use std::fmt;

/// Severity of an emitted or expected diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// `error`.
    Error,
    /// `warning`.
    Warning,
    /// `remark`.
    Remark,
    /// `note`.
    Note,
}

impl Severity {
    /// The lower-case name MLIR prints for this severity.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        }
    }
}

/// One emitted diagnostic, already resolved to a position (notes are flattened into the list by the caller, in emission order, right after their parent).
#[derive(Clone, Debug)]
pub struct EmittedDiagnostic {
    /// Severity of the diagnostic.
    pub severity: Severity,
    /// File of its `FileLineColLoc`, or `None` when it has no file location.
    pub file: Option<String>,
    /// 1-based line (0 when unknown).
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub col: u32,
    /// The message text.
    pub message: String,
}

/// A failure of the check, as MLIR reports it: located at the expectation (or at the unexpected diagnostic), with its message.
///
/// Failures without a location use file `<unknown>`, line 0 and column 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyFailure {
    /// File name (`<unknown>` when there is no location).
    pub file: String,
    /// 1-based line, 0 when unknown.
    pub line: u32,
    /// 1-based column, 0 when unknown.
    pub col: u32,
    /// Message, printed by MLIR after `error: `.
    pub message: String,
}

impl VerifyFailure {
    fn unknown(message: String) -> Self {
        VerifyFailure {
            file: UNKNOWN.to_string(),
            line: 0,
            col: 0,
            message,
        }
    }
}

impl fmt::Display for VerifyFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file == UNKNOWN && self.line == 0 {
            write!(f, "{UNKNOWN}:0: error: {}", self.message)
        } else {
            let (file, line, col) = (&self.file, self.line, self.col);
            write!(f, "{file}:{line}:{col}: error: {}", self.message)
        }
    }
}

const UNKNOWN: &str = "<unknown>";

/// Where a directive points.
enum Designator<'a> {
    None,
    Plus(&'a str),
    Minus(&'a str),
    Above,
    Below,
    Unknown,
}

/// One `expected-*` directive.
struct Expected {
    kind: Severity,
    /// Target line (whole-file numbering, wrapping like MLIR's `unsigned`).
    line: u32,
    /// Position of `expected-`; `None` for `@unknown`.
    at: Option<(u32, u32)>,
    text: String,
    /// `None`: plain substring; `Some(None)`: `-re` whose full pattern is invalid.
    regex: Option<Option<Regex>>,
    matched: bool,
}

impl Expected {
    fn matches(&self, msg: &str) -> bool {
        match &self.regex {
            None => msg.contains(&self.text),
            Some(rx) => rx.as_ref().is_some_and(|rx| rx.is_match(msg.as_bytes())),
        }
    }
}

/// The expectations of one buffer plus the failures seen so far.
pub struct ExpectedDiagnostics {
    buffer: String,
    file: Vec<Expected>,
    unknown: Vec<Expected>,
    failures: Vec<VerifyFailure>,
    only_expected: bool,
}

impl ExpectedDiagnostics {
    /// Scan `source` for `expected-error/-warning/-remark/-note` directives (with optional `-re`, `@+N`, `@-N`, `@above`, `@below`, `@unknown`, and `{{...}}` message); broken `-re` regexes are the returned failures (other malformed lines are ignored, as in MLIR).
    pub fn scan(buffer_name: &str, source: &str, line_offset: u32) -> (Self, Vec<VerifyFailure>) {
        let mut this = ExpectedDiagnostics {
            buffer: buffer_name.to_string(),
            file: Vec::new(),
            unknown: Vec::new(),
            failures: Vec::new(),
            only_expected: false,
        };
        let mut errors = Vec::new();
        let lines: Vec<&str> = source.split('\n').collect();
        let num_lines = u32::try_from(lines.len()).unwrap_or(u32::MAX);
        let mut last_plain = 0u32;
        let mut pending_below: Vec<usize> = Vec::new();
        for (idx, raw) in lines.iter().enumerate() {
            let line_no = u32::try_from(idx).unwrap_or(u32::MAX);
            let here = line_offset.wrapping_add(line_no).wrapping_add(1);
            let Some((col, kind, is_re, designator, text)) = parse_directive(raw) else {
                for i in pending_below.drain(..) {
                    this.file[i].line = here;
                }
                last_plain = line_no;
                continue;
            };
            let at = (here, col);
            let mut record = Expected {
                kind,
                line: here,
                at: Some(at),
                text: text.to_string(),
                regex: None,
                matched: false,
            };
            if is_re {
                match compile_expectation(text) {
                    Ok(rx) => record.regex = Some(rx),
                    Err(message) => {
                        errors.push(locate(&this.buffer, Some(at), message));
                        continue;
                    }
                }
            }
            match designator {
                Designator::None => {}
                Designator::Plus(n) => record.line = apply_offset(here, n, true),
                Designator::Minus(n) => record.line = apply_offset(here, n, false),
                Designator::Above => {
                    record.line = line_offset.wrapping_add(last_plain).wrapping_add(1)
                }
                Designator::Below => {
                    pending_below.push(this.file.len());
                    record.line = line_offset.wrapping_add(num_lines);
                }
                Designator::Unknown => {
                    record.at = None;
                    this.unknown.push(record);
                    continue;
                }
            }
            this.file.push(record);
        }
        (this, errors)
    }

    /// Check only the expectations (MLIR's `--verify-diagnostics=only-expected`):
    /// a diagnostic that matches none is ignored rather than reported, and
    /// only expectations never produced fail the check.
    pub fn set_only_expected(&mut self, only_expected: bool) {
        self.only_expected = only_expected;
    }

    /// Match one emitted diagnostic against the expectations; returns false when it was not expected (the failure is kept for [`finish`](Self::finish)).
    pub fn check(&mut self, diag: &EmittedDiagnostic) -> bool {
        match self.process(diag) {
            None => true,
            Some(failure) => {
                self.failures.push(failure);
                false
            }
        }
    }

    /// Match one emitted diagnostic and return its failure (not kept), for callers that print it immediately as MLIR does.
    pub fn process(&mut self, diag: &EmittedDiagnostic) -> Option<VerifyFailure> {
        let candidates: &mut [Expected] = match &diag.file {
            None => &mut self.unknown,
            Some(f) if *f == self.buffer => &mut self.file,
            Some(_) => &mut [],
        };
        let mut near_miss = None;
        for e in candidates.iter_mut() {
            if diag.file.is_some() && e.line != diag.line {
                continue;
            }
            if e.matches(&diag.message) {
                if e.kind == diag.severity {
                    e.matched = true;
                    return None;
                }
                near_miss = Some((e.kind, e.at));
            }
        }
        if self.only_expected {
            return None;
        }
        let kind = diag.severity.as_str();
        Some(match near_miss {
            Some((expected, at)) => {
                let message = format!(
                    "'{kind}' diagnostic emitted when expecting a '{}'",
                    expected.as_str()
                );
                locate(&self.buffer, at, message)
            }
            None => {
                let message = format!("unexpected {kind}: {}", diag.message);
                match &diag.file {
                    Some(file) => VerifyFailure {
                        file: file.clone(),
                        line: diag.line,
                        col: diag.col,
                        message,
                    },
                    None => VerifyFailure::unknown(message),
                }
            }
        })
    }

    /// Everything that went wrong: unexpected diagnostics (in emission order) and expectations never produced (in source order).
    ///
    /// Unmatched `@unknown` expectations come last and twice, as MLIR 22 prints them.
    pub fn finish(self) -> Vec<VerifyFailure> {
        let mut out = self.failures;
        let buffer = &self.buffer;
        let not_produced = |e: &Expected| {
            let message = format!(
                "expected {} \"{}\" was not produced",
                e.kind.as_str(),
                e.text
            );
            locate(buffer, e.at, message)
        };
        out.extend(self.file.iter().filter(|e| !e.matched).map(not_produced));
        for _ in 0..2 {
            out.extend(self.unknown.iter().filter(|e| !e.matched).map(not_produced));
        }
        out
    }
}

/// A failure at a directive position of `buffer`, or without location.
fn locate(buffer: &str, at: Option<(u32, u32)>, message: String) -> VerifyFailure {
    match at {
        Some((line, col)) => VerifyFailure {
            file: buffer.to_string(),
            line,
            col,
            message,
        },
        None => VerifyFailure::unknown(message),
    }
}

/// One-call convenience: scan, check all, finish.
pub fn verify(
    buffer_name: &str,
    source: &str,
    line_offset: u32,
    diags: &[EmittedDiagnostic],
) -> Vec<VerifyFailure> {
    let (mut expected, mut failures) = ExpectedDiagnostics::scan(buffer_name, source, line_offset);
    for diag in diags {
        expected.check(diag);
    }
    failures.extend(expected.finish());
    failures
}

/// Match MLIR's directive regex against one line; returns (column, kind, -re, designator, text).
fn parse_directive(raw: &str) -> Option<(u32, Severity, bool, Designator<'_>, &str)> {
    let line = raw.trim_end_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    line.match_indices("expected-").find_map(|(start, _)| {
        let mut rest = &line[start + "expected-".len()..];
        let kinds = [
            ("error", Severity::Error),
            ("note", Severity::Note),
            ("remark", Severity::Remark),
            ("warning", Severity::Warning),
        ];
        let kind = kinds.iter().find_map(|(name, k)| {
            rest.strip_prefix(name).map(|r| {
                rest = r;
                *k
            })
        })?;
        let is_re = match rest.strip_prefix("-re") {
            Some(r) => {
                rest = r;
                true
            }
            None => false,
        };
        rest = rest.trim_start_matches(' ');
        let mut designator = Designator::None;
        if let Some(r) = rest.strip_prefix('@') {
            let digits =
                |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let (d, r) = if let Some(n) = r.strip_prefix('+').filter(|n| digits(n) > 0) {
                (Designator::Plus(&n[..digits(n)]), &n[digits(n)..])
            } else if let Some(n) = r.strip_prefix('-').filter(|n| digits(n) > 0) {
                (Designator::Minus(&n[..digits(n)]), &n[digits(n)..])
            } else if let Some(r) = r.strip_prefix("above") {
                (Designator::Above, r)
            } else if let Some(r) = r.strip_prefix("below") {
                (Designator::Below, r)
            } else {
                (Designator::Unknown, r.strip_prefix("unknown")?)
            };
            designator = d;
            rest = r.trim_start_matches(' ');
        }
        let text = rest.strip_prefix("{{")?.strip_suffix("}}")?;
        let col = u32::try_from(start + 1).unwrap_or(u32::MAX);
        Some((col, kind, is_re, designator, text))
    })
}

/// `StringRef::getAsInteger(0, int)`: a leading `0` means octal. MLIR leaves the offset
/// uninitialised when this fails (overflow, `8`/`9` in octal); such directives never
/// match there, so they get an unreachable target line here.
fn apply_offset(line: u32, digits: &str, add: bool) -> u32 {
    let parsed = match digits.strip_prefix('0') {
        Some(octal) if !octal.is_empty() => u64::from_str_radix(octal, 8),
        _ => digits.parse::<u64>(),
    };
    match parsed
        .ok()
        .and_then(|v| u32::try_from(v).ok())
        .filter(|&v| v <= i32::MAX as u32)
    {
        Some(v) if add => line.wrapping_add(v),
        Some(v) => line.wrapping_sub(v),
        None => u32::MAX,
    }
}

/// Build the `-re` matcher like `ExpectedDiag::computeRegex`; `Ok(None)` never matches.
fn compile_expectation(text: &str) -> Result<Option<Regex>, String> {
    let mut pattern = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let Some(open) = rest.find("{{") else {
            escape_into(&mut pattern, rest);
            break;
        };
        escape_into(&mut pattern, &rest[..open]);
        rest = &rest[open + 2..];
        let close = rest
            .find("}}")
            .ok_or("found start of regex with no end '}}'")?;
        let block = &rest[..close];
        Regex::new(block).map_err(|e| format!("invalid regex: {e}"))?;
        pattern.push('(');
        pattern.push_str(block);
        pattern.push(')');
        rest = &rest[close + 2..];
    }
    Ok(Regex::new(&pattern).ok())
}

/// `llvm::Regex::escape`.
fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        if "()^$|*+?.[]\\{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
}

// ----- helpers the tools share (strata-opt, strata-translate) -----

/// Byte ranges of the chunks between split markers (the whole text when not splitting).
pub fn split_chunks(text: &str, marker: Option<&str>) -> Vec<(usize, usize)> {
    let Some(marker) = marker.filter(|m| !m.is_empty()) else {
        return vec![(0, text.len())];
    };
    let mut chunks = Vec::new();
    let mut start = 0;
    for (pos, _) in text.match_indices(marker) {
        chunks.push((start, pos));
        start = pos + marker.len();
    }
    chunks.push((start, text.len()));
    chunks
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, pos: usize) -> (u32, u32) {
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line as u32, (pos - line_start + 1) as u32)
}

/// A verification failure with its source line, as MLIR's handler prints it.
pub fn render_failure(buffer: &crate::SourceBuffer, failure: &VerifyFailure) -> String {
    let mut out = format!("{failure}\n");
    if failure.file == buffer.name {
        if let Some(line) = buffer.line_text(failure.line) {
            let caret: String = line
                .chars()
                .take(failure.col.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(line);
            out.push('\n');
            out.push_str(&caret);
            out.push_str("^\n");
        }
    }
    out
}

mod regex;
use regex::Regex;

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(severity: Severity, line: u32, col: u32, message: &str) -> EmittedDiagnostic {
        EmittedDiagnostic {
            severity,
            file: Some("t.mlir".into()),
            line,
            col,
            message: message.into(),
        }
    }

    fn err(line: u32, message: &str) -> EmittedDiagnostic {
        diag(Severity::Error, line, 5, message)
    }

    fn fail(line: u32, col: u32, message: &str) -> VerifyFailure {
        VerifyFailure {
            file: "t.mlir".into(),
            line,
            col,
            message: message.into(),
        }
    }

    fn run(src: &str, diags: &[EmittedDiagnostic]) -> Vec<VerifyFailure> {
        verify("t.mlir", src, 0, diags)
    }

    #[test]
    fn same_line_and_offsets() {
        let src = "op // expected-error {{bad op}}\n// expected-warning@+1 {{w}}\nop\nop\n// expected-remark@-1 {{r}}";
        let diags = [
            err(1, "a bad op here"),
            diag(Severity::Warning, 3, 1, "w!"),
            diag(Severity::Remark, 4, 1, "r"),
        ];
        assert!(run(src, &diags).is_empty());
        let missing = run(src, &diags[..1]);
        assert_eq!(
            missing,
            vec![
                fail(2, 4, "expected warning \"w\" was not produced"),
                fail(5, 4, "expected remark \"r\" was not produced")
            ]
        );
    }

    #[test]
    fn octal_offset_and_spaces() {
        let src = "// expected-error  @+010  {{x}}   \r";
        assert!(run(src, &[err(9, "x")]).is_empty());
        // Offsets MLIR fails to parse never match.
        for src in [
            "op // expected-error@-08 {{x}}",
            "op // expected-error@+99999999999 {{x}}",
        ] {
            assert_eq!(run(src, &[err(1, "x")]).len(), 2, "{src}");
        }
    }

    #[test]
    fn above_and_below_chains() {
        let src = "op\n// expected-error@above {{a}}\n// expected-note@above {{b}}\n\
                   // expected-error@below {{c}}\n// expected-note@below {{d}}\n\nop";
        let diags = [
            err(1, "a"),
            diag(Severity::Note, 1, 1, "b"),
            err(6, "c"),
            diag(Severity::Note, 6, 1, "d"),
        ];
        assert!(run(src, &diags).is_empty());
        // The empty line 6 is the target, so a diagnostic on line 7 is unexpected.
        let got = run(
            src,
            &[err(1, "a"), diag(Severity::Note, 1, 1, "b"), err(7, "c")],
        );
        assert_eq!(got[0], fail(7, 5, "unexpected error: c"));
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn dangling_below_and_first_line_above() {
        let src = "// expected-error@above {{top}}\nop\n// expected-error@below {{end}}";
        assert!(run(src, &[err(1, "top"), err(3, "end")]).is_empty());
    }

    #[test]
    fn line_offset_is_added() {
        let src = "\n// expected-error@+1 {{x}}\nop";
        assert!(verify("t.mlir", src, 10, &[err(13, "x")]).is_empty());
        assert_eq!(
            verify("t.mlir", src, 10, &[]),
            vec![fail(12, 4, "expected error \"x\" was not produced")]
        );
    }

    #[test]
    fn unexpected_and_near_miss() {
        let src = "op // expected-warning {{boom}}";
        let got = run(src, &[err(1, "boom"), err(1, "other")]);
        assert_eq!(
            got,
            vec![
                fail(
                    1,
                    7,
                    "'error' diagnostic emitted when expecting a 'warning'"
                ),
                fail(1, 5, "unexpected error: other"),
                fail(1, 7, "expected warning \"boom\" was not produced"),
            ]
        );
    }

    #[test]
    fn expectations_are_not_consumed() {
        let src =
            "op // expected-error {{x}}\nop // expected-error {{x}}\n// expected-error@-1 {{x}}";
        let got = run(src, &[err(1, "x"), err(1, "x"), err(2, "x")]);
        assert_eq!(
            got,
            vec![fail(3, 4, "expected error \"x\" was not produced")]
        );
    }

    #[test]
    fn notes_and_other_files() {
        let src = "op // expected-error {{e}}\n// expected-note@-1 {{n}}";
        let mut other = err(1, "e");
        other.file = Some("other.mlir".into());
        let got = run(
            src,
            &[
                err(1, "e"),
                diag(Severity::Note, 1, 2, "n"),
                diag(Severity::Note, 1, 2, "m"),
                other,
            ],
        );
        let other_fail = VerifyFailure {
            file: "other.mlir".into(),
            line: 1,
            col: 5,
            message: "unexpected error: e".into(),
        };
        assert_eq!(got, vec![fail(1, 2, "unexpected note: m"), other_fail]);
    }

    #[test]
    fn unknown_locations() {
        let src = "// expected-error@unknown {{u}}\n// expected-warning@unknown {{v}}\n@-1";
        let unknown = |severity, msg: &str| EmittedDiagnostic {
            file: None,
            ..diag(severity, 0, 0, msg)
        };
        let got = run(
            src,
            &[
                unknown(Severity::Error, "u"),
                unknown(Severity::Error, "zz"),
                err(2, "u"),
            ],
        );
        let unk = |m: &str| VerifyFailure::unknown(m.into());
        let v = "expected warning \"v\" was not produced";
        let expected = vec![
            unk("unexpected error: zz"),
            fail(2, 5, "unexpected error: u"),
            unk(v),
            unk(v),
        ];
        assert_eq!(got, expected);
        assert_eq!(
            got[0].to_string(),
            "<unknown>:0: error: unexpected error: zz"
        );
        assert_eq!(got[1].to_string(), "t.mlir:2:5: error: unexpected error: u");
        let near = run(
            "// expected-warning@unknown {{u}}",
            &[unknown(Severity::Error, "u")],
        );
        assert_eq!(
            near[0],
            unk("'error' diagnostic emitted when expecting a 'warning'")
        );
    }

    #[test]
    fn malformed_lines_are_ignored() {
        for src in [
            "op // expected-error {{x}} trailing",
            "op // expected-error\t{{x}}",
            "op // expected-error {{x}",
            "op // expected-errors {{x}}",
            "op // expected-error@+x {{x}}",
            "op // expected-error@ {{x}}",
        ] {
            assert!(run(src, &[]).is_empty(), "{src}");
        }
        // The leftmost well-formed directive wins.
        let got = run("op // expected-bogus expected-note {{a}}", &[]);
        assert_eq!(
            got,
            vec![fail(1, 22, "expected note \"a\" was not produced")]
        );
    }

    #[test]
    fn regex_directives() {
        let ok = |re: &str, msg: &str| {
            run(
                &format!("op // expected-error-re {{{{{re}}}}}"),
                &[err(1, msg)],
            )
            .is_empty()
        };
        assert!(ok("use of {{[a-z]+}} SSA", "use of undeclared SSA value"));
        assert!(ok(
            "use of {{(foo|undeclared)}} SSA",
            "use of undeclared SSA"
        ));
        assert!(ok("{{[[:alpha:]]+}} [{(x)}]", "abc [{(x)}]"));
        assert!(ok("{{^}}use", "use of"));
        assert!(!ok("{{^}}of", "use of"));
        assert!(ok("name{{$}}", "value name"));
        assert!(ok("{{a{2,3}b?c*}}d", "xaaad"));
        assert!(ok("{{[^0-9]x}}", "ax"));
        assert!(!ok("{{[^0-9]x}}", "1x"));
        // `\1` names the (still open) wrapper group: the full pattern is invalid, never matches.
        assert!(!ok("{{(ab)\\1}}", "zabab"));
        assert!(ok("{{[[:<:]]of}}", "use of"));
        assert!(!ok("{{[[:<:]]se}}", "use of"));
        assert!(ok("{{.*}}", ""));
        // LLVM regex has no \w or \d classes: they are the letters themselves.
        assert!(!ok("{{\\w+}}", "abc"));
        assert!(ok("{{\\d}}", "d"));
        assert!(!ok("", "anything"));
    }

    #[test]
    fn regex_errors() {
        let cases = [
            ("{{(}}", "invalid regex: parentheses not balanced"),
            ("{{[a-}}", "invalid regex: invalid character range"),
            (
                "{{*}}",
                "invalid regex: repetition-operator operand invalid",
            ),
            ("{{}}", "invalid regex: empty (sub)expression"),
            ("{{x", "found start of regex with no end '}}'"),
            (
                "{{a**}}",
                "invalid regex: repetition-operator operand invalid",
            ),
            ("{{a|}}", "invalid regex: empty (sub)expression"),
            ("{{a{2,1}}}", "invalid regex: invalid repetition count(s)"),
            ("{{[[:foo:]]}}", "invalid regex: invalid character class"),
            ("{{a\\}}", "invalid regex: trailing backslash (\\)"),
            ("{{[z-a]}}", "invalid regex: invalid character range"),
            ("{{a{1}}", "invalid regex: braces not balanced"),
            ("{{\\1}}", "invalid regex: invalid backreference number"),
            ("{{[ab}}", "invalid regex: brackets ([ ]) not balanced"),
            ("{{a{1,2x}b}}", "invalid regex: invalid repetition count(s)"),
            ("{{[[.ab.]]}}", "invalid regex: invalid collating element"),
            (
                "{{^*}}",
                "invalid regex: repetition-operator operand invalid",
            ),
            ("{{a)}}", "invalid regex: parentheses not balanced"),
        ];
        for (re, message) in cases {
            let src = format!("\nop // expected-error-re@unknown {{{{use of {re} SSA}}}}");
            let (_, errors) = ExpectedDiagnostics::scan("t.mlir", &src, 0);
            assert_eq!(errors, vec![fail(2, 7, message)], "{re}");
        }
        // A broken -re directive is dropped and is not a designator line.
        let src = "// expected-error-re@below {{{{(}}}}\nop";
        assert_eq!(run(src, &[]).len(), 1);
    }
}
