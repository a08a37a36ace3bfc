//! Diagnostics: located errors, warnings and remarks with notes, rendered the
//! way MLIR's `SourceMgrDiagnosticHandler` renders them:
//!
//! ```text
//! input.mlir:3:8: error: use of undeclared SSA value name
//!   "foo.op"(%x) : (i32) -> ()
//!            ^
//! ```

use std::fmt;

use crate::attributes::{AttrKind, LocKind};
use crate::context::{Context, Location};
use crate::verify_diagnostics::EmittedDiagnostic;

pub use crate::verify_diagnostics::Severity;

/// A located message with optional notes.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// Where it is.
    pub loc: Location,
    /// What it says.
    pub message: String,
    /// Attached notes (each with its own location), and follow-up errors
    /// reported right after this one (severity `Error`).
    pub notes: Vec<Diagnostic>,
    /// The operation the diagnostic is about, when there is one: tools print
    /// it as a "see current operation" note, as mlir-opt does.
    pub op: Option<crate::Operation>,
}

impl Diagnostic {
    /// An error about `op`, at its location: `'dialect.op' op <message>`,
    /// as MLIR's `Operation::emitOpError`.
    pub fn op_error(ctx: &Context, op: crate::Operation, message: impl fmt::Display) -> Self {
        Diagnostic::error(
            ctx.op_loc(op),
            format!("'{}' op {message}", ctx.op_name_str(op)),
        )
        .on_op(op)
    }

    /// An error at `loc`.
    pub fn error(loc: Location, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            loc,
            message: message.into(),
            notes: Vec::new(),
            op: None,
        }
    }

    /// A warning at `loc`.
    pub fn warning(loc: Location, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(loc, message)
        }
    }

    /// A remark at `loc`.
    pub fn remark(loc: Location, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Remark,
            ..Diagnostic::error(loc, message)
        }
    }

    /// Mark the diagnostic as being about `op`.
    pub fn on_op(mut self, op: crate::Operation) -> Self {
        self.op = Some(op);
        self
    }

    /// Attach a note at `loc`.
    pub fn with_note(mut self, loc: Location, message: impl Into<String>) -> Self {
        self.notes.push(Diagnostic {
            severity: Severity::Note,
            ..Diagnostic::error(loc, message)
        });
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.as_str(), self.message)
    }
}

/// A source buffer known to the diagnostic renderer.
#[derive(Clone, Debug)]
pub struct SourceBuffer {
    /// The name locations use for it (the file name as given, or `<stdin>`).
    pub name: String,
    /// Its text.
    pub text: String,
    /// Number of lines that precede this buffer in the original file (split input).
    pub line_offset: u32,
}

impl SourceBuffer {
    /// A buffer that starts at line 1 of its file.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceBuffer {
            name: name.into(),
            text: text.into(),
            line_offset: 0,
        }
    }

    /// The text of (original-file) line `line`, if it is in this buffer.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let local = line.checked_sub(self.line_offset)?;
        self.text.split('\n').nth(local.checked_sub(1)? as usize)
    }
}

/// The first file:line:col location nested in `loc` (MLIR's `findInstanceOf<FileLineColLoc>`).
pub fn find_file_loc(ctx: &Context, loc: Location) -> Option<(&[u8], u32, u32)> {
    let AttrKind::Location(kind) = ctx.attr_kind(loc) else {
        return None;
    };
    match kind {
        LocKind::FileLineCol {
            file, line, col, ..
        } => Some((ctx.ident_str(*file).as_bytes(), *line, *col)),
        LocKind::Name { child, .. } => child.and_then(|c| find_file_loc(ctx, c)),
        LocKind::CallSite { callee, caller } => {
            find_file_loc(ctx, *callee).or_else(|| find_file_loc(ctx, *caller))
        }
        LocKind::Fused { locs, .. } => locs.iter().find_map(|l| find_file_loc(ctx, *l)),
        LocKind::Unknown => None,
    }
}

/// The first name of a location (`loc("fc1/MatMul"("model.onnx":0:0))` is
/// `fc1/MatMul`): imported models name each op's source node this way.
pub fn find_loc_name(ctx: &Context, loc: Location) -> Option<String> {
    let AttrKind::Location(kind) = ctx.attr_kind(loc) else {
        return None;
    };
    match kind {
        LocKind::Name { name, .. } => Some(String::from_utf8_lossy(name).into_owned()),
        LocKind::CallSite { callee, caller } => {
            find_loc_name(ctx, *callee).or_else(|| find_loc_name(ctx, *caller))
        }
        LocKind::Fused { locs, .. } => locs.iter().find_map(|l| find_loc_name(ctx, *l)),
        LocKind::FileLineCol { .. } | LocKind::Unknown => None,
    }
}

/// A location for messages of tools that run imported models: the file
/// position and the node name, `model.onnx: node 'fc1/MatMul'` (the line
/// and column are left out when they are 0, as in imported models).
pub fn describe_location(ctx: &Context, loc: Location) -> String {
    let file = find_file_loc(ctx, loc).map(|(file, line, col)| {
        let file = String::from_utf8_lossy(file);
        if line == 0 && col == 0 {
            file.into_owned()
        } else {
            format!("{file}:{line}:{col}")
        }
    });
    match (file, find_loc_name(ctx, loc)) {
        (Some(f), Some(n)) => format!("{f}: node '{n}'"),
        (Some(f), None) => f,
        (None, Some(n)) => format!("node '{n}'"),
        (None, None) => "<unknown>".to_string(),
    }
}

/// Flatten a diagnostic and its notes into position-resolved records, in emission order.
pub fn resolve(ctx: &Context, diag: &Diagnostic) -> Vec<EmittedDiagnostic> {
    let mut out = Vec::with_capacity(1 + diag.notes.len());
    for d in std::iter::once(diag).chain(diag.notes.iter()) {
        let (file, line, col) = match find_file_loc(ctx, d.loc) {
            Some((file, line, col)) => {
                (Some(String::from_utf8_lossy(file).into_owned()), line, col)
            }
            None => (None, 0, 0),
        };
        out.push(EmittedDiagnostic {
            severity: d.severity,
            file,
            line,
            col,
            message: d.message.clone(),
        });
    }
    out
}

/// Render a diagnostic (and its notes) as MLIR does, showing the source line
/// and a caret when the location is in one of `buffers`.
pub fn render(ctx: &Context, diag: &Diagnostic, buffers: &[SourceBuffer]) -> String {
    let mut out = String::new();
    render_one(ctx, diag, buffers, true, &mut out);
    // A note shows its source line only when it points somewhere else.
    let mut previous = diag.loc;
    for note in &diag.notes {
        // A follow-up error (not a note) always shows its line, as MLIR.
        let show = note.loc != previous || note.severity == Severity::Error;
        render_one(ctx, note, buffers, show, &mut out);
        previous = note.loc;
    }
    out
}

/// `diag` with mlir-opt's "see current operation: ..." note added when it
/// is about an operation (what `--mlir-print-op-on-diagnostic` does).
pub fn with_current_operation(ctx: &Context, diag: &Diagnostic) -> Diagnostic {
    let mut diag = diag.clone();
    if let Some(op) = diag.op {
        let printed = crate::printer::print_op_generic_inline(ctx, op);
        let newline = if ctx.op_regions(op).is_empty() {
            ""
        } else {
            "\n"
        };
        diag.notes.insert(
            0,
            Diagnostic {
                severity: Severity::Note,
                loc: ctx.op_loc(op),
                message: format!("see current operation: {newline}{printed}"),
                notes: Vec::new(),
                op: None,
            },
        );
    }
    diag
}

fn render_one(
    ctx: &Context,
    diag: &Diagnostic,
    buffers: &[SourceBuffer],
    show_source: bool,
    out: &mut String,
) {
    use std::fmt::Write;
    let severity = diag.severity.as_str();
    let Some((file, line, col)) = find_file_loc(ctx, diag.loc) else {
        let _ = if matches!(
            ctx.attr_kind(diag.loc),
            AttrKind::Location(LocKind::Unknown)
        ) {
            writeln!(out, "{severity}: {}", diag.message)
        } else {
            let loc = crate::printer::location_to_string(ctx, diag.loc);
            writeln!(out, "{loc}: {severity}: {}", diag.message)
        };
        return;
    };
    let file = String::from_utf8_lossy(file);
    let _ = writeln!(out, "{file}:{line}:{col}: {severity}: {}", diag.message);
    let source_line = buffers
        .iter()
        .filter(|b| show_source && b.name == file)
        .find_map(|b| b.line_text(line));
    if let Some(text) = source_line {
        let text = text.strip_suffix('\r').unwrap_or(text);
        // Expand tabs like LLVM's SourceMgr so the caret lines up.
        let mut shown = String::new();
        let mut caret = String::new();
        for (i, ch) in text.chars().enumerate() {
            if ch == '\t' {
                let width = 8 - shown.len() % 8;
                shown.extend(std::iter::repeat_n(' ', width));
                if i + 1 < col as usize {
                    caret.extend(std::iter::repeat_n(' ', width));
                }
            } else {
                shown.push(ch);
                if i + 1 < col as usize {
                    caret.push(' ');
                }
            }
        }
        let _ = writeln!(out, "{shown}\n{caret}^");
    }
}
