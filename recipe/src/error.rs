//! Diagnostics of the recipe loader: what is wrong, where, and how bad.

use std::fmt;
use std::ops::Range;

/// How serious a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The recipe is rejected.
    Error,
    /// The recipe loads; the message says what will have no effect.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One class of problem, with what was expected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Problem {
    /// The text is not valid TOML or JSON.
    #[error("{0}")]
    Syntax(String),
    /// A key the schema does not have.
    #[error("unknown key '{path}' (expected one of: {})", .expected.join(", "))]
    UnknownKey {
        /// Dotted path of the key, e.g. `optimize.fusion.max_fused`.
        path: String,
        /// The keys its table accepts.
        expected: Vec<&'static str>,
    },
    /// A key given twice (JSON) or a list entry given twice.
    #[error("duplicate {what} '{path}'")]
    Duplicate {
        /// `key` or `entry`.
        what: &'static str,
        /// The key path (or the entry).
        path: String,
    },
    /// A value of the wrong type.
    #[error("'{path}' must be {expected}, found {found}")]
    WrongType {
        /// Dotted path of the value.
        path: String,
        /// The type the schema wants, e.g. `a boolean or a table`.
        expected: &'static str,
        /// The type found, e.g. `a string`.
        found: &'static str,
    },
    /// A value of the right type outside what is allowed.
    #[error("'{path}' = {value} is out of range (expected {allowed})")]
    OutOfRange {
        /// Dotted path of the value.
        path: String,
        /// The value as written.
        value: String,
        /// The allowed range or values.
        allowed: String,
    },
    /// A key a table needs but does not have.
    #[error("missing key '{path}'")]
    MissingKey {
        /// Dotted path of the missing key.
        path: String,
    },
    /// Two settings that cannot both hold.
    #[error("{0}")]
    Contradiction(String),
    /// An op name that no registered dialect defines (a warning).
    #[error("unknown op '{name}' in '{path}' (no registered dialect defines it)")]
    UnknownOp {
        /// Dotted path of the list that names it.
        path: String,
        /// The name as written.
        name: String,
    },
    /// A setting that is valid but has no effect with this compiler (a warning).
    #[error("{0}")]
    NoEffect(String),
}

/// A located message about a recipe: `file:line:column: severity: problem`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{file}:{line}:{column}: {severity}: {problem}")]
pub struct Diagnostic {
    /// The file name as given to the loader.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub problem: Problem,
}

/// A recipe that did not load: every error found (warnings included, in
/// file order), at least one of them an error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct RecipeError {
    /// The diagnostics, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

impl RecipeError {
    /// The errors only (no warnings).
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
}

impl fmt::Display for RecipeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// Why [`crate::Recipe::load`] failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: error: cannot read the recipe: {source}")]
    Io {
        /// The path as given.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is not a valid recipe.
    #[error(transparent)]
    Invalid(#[from] RecipeError),
}

/// A problem at a byte range of the input, before it is given a line.
#[derive(Clone, Debug)]
pub(crate) struct Raw {
    pub span: Range<usize>,
    pub severity: Severity,
    pub problem: Problem,
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// Locates raw problems in `text`, sorted by position.
pub(crate) fn locate(file: &str, text: &str, mut raw: Vec<Raw>) -> Vec<Diagnostic> {
    raw.sort_by_key(|r| r.span.start);
    raw.into_iter()
        .map(|r| {
            let (line, column) = line_col(text, r.span.start);
            Diagnostic {
                file: file.to_string(),
                line,
                column,
                severity: r.severity,
                problem: r.problem,
            }
        })
        .collect()
}
