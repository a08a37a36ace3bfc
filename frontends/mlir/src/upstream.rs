//! Upstream MLIR through melior: a context with every upstream dialect
//! registered, a parser whose diagnostics are kept with their locations
//! (melior's `Module::parse` returns only an `Option`), and locations
//! rendered as strata renders its own (`file:line:col`).

use std::cell::RefCell;
use std::rc::Rc;

use melior::diagnostic::DiagnosticSeverity;
use melior::dialect::DialectRegistry;
use melior::ir::{Location, Module};
use melior::utility::register_all_dialects;
use melior::Context;

use crate::ImportError;

/// An upstream MLIR context: every upstream dialect, diagnostics kept.
pub struct Upstream {
    context: Context,
    diagnostics: Rc<RefCell<Vec<String>>>,
}

impl Default for Upstream {
    fn default() -> Self {
        Self::new()
    }
}

impl Upstream {
    /// A context with all of MLIR 22's dialects loaded.
    pub fn new() -> Upstream {
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        let context = Context::new();
        context.append_dialect_registry(&registry);
        context.load_all_available_dialects();
        let diagnostics = Rc::new(RefCell::new(Vec::new()));
        let sink = diagnostics.clone();
        context.attach_diagnostic_handler(move |d| {
            let severity = match d.severity() {
                DiagnosticSeverity::Error => "error",
                DiagnosticSeverity::Warning => "warning",
                DiagnosticSeverity::Note => "note",
                DiagnosticSeverity::Remark => "remark",
            };
            let mut line = format!("{}: {severity}: {d}", render_location(&d.location(), None));
            for i in 0..d.note_count() {
                if let Ok(note) = d.note(i) {
                    line.push_str(&format!(
                        "\n{}: note: {note}",
                        render_location(&note.location(), None)
                    ));
                }
            }
            sink.borrow_mut().push(line);
            true
        });
        Upstream {
            context,
            diagnostics,
        }
    }

    /// The melior context.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Parse and verify `text` (named `name` in its diagnostics and
    /// locations).
    pub fn parse(&self, text: &str, name: &str) -> Result<Module<'_>, ImportError> {
        self.diagnostics.borrow_mut().clear();
        match Module::parse(&self.context, text) {
            Some(module) => Ok(module),
            None => Err(self.failure(name, "upstream MLIR could not parse the module")),
        }
    }

    /// The diagnostics kept since they were last cleared, as an error
    /// (`what` under `name` when upstream said nothing).
    fn failure(&self, name: &str, what: &str) -> ImportError {
        let mut lines: Vec<String> = self
            .diagnostics
            .borrow()
            .iter()
            .map(|l| name_stdin(l, name))
            .collect();
        if lines.is_empty() {
            lines.push(format!("{name}: error: {what}"));
        }
        ImportError::Upstream(lines)
    }
}

impl Upstream {
    /// Run upstream MLIR's pass pipeline `pipeline` (MLIR's textual form,
    /// `builtin.module(canonicalize,cse)`) on the module in `text` (named
    /// `name`), and return the result in the generic form with its
    /// locations, for strata's parser to read back.
    pub fn run_pipeline(
        &self,
        text: &str,
        name: &str,
        pipeline: &str,
    ) -> Result<String, ImportError> {
        melior::utility::register_all_passes();
        let mut module = self.parse(text, name)?;
        let manager = melior::pass::PassManager::new(&self.context);
        melior::utility::parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline)
            .map_err(|e| ImportError::Upstream(vec![format!("error: {e}")]))?;
        self.diagnostics.borrow_mut().clear();
        if manager.run(&mut module).is_err() {
            return Err(self.failure(name, "the upstream pass pipeline failed"));
        }
        let flags = melior::ir::operation::OperationPrintingFlags::new()
            .print_generic_operation_form()
            .enable_debug_info(true, false);
        use melior::ir::operation::OperationLike;
        module
            .as_operation()
            .to_string_with_flags(flags)
            .map_err(|e| {
                ImportError::Upstream(vec![format!("{name}: error: printing the result: {e}")])
            })
    }
}

/// The upstream parser names a string's buffer `-`: give it `name`.
fn name_stdin(line: &str, name: &str) -> String {
    line.lines()
        .map(|l| match l.strip_prefix("-:") {
            Some(rest) => format!("{name}:{rest}"),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A location as `file:line:col` (the innermost file location of a fused
/// or named one), or its MLIR text where it has none; `-` becomes `name`.
pub fn render_location(loc: &Location<'_>, name: Option<&str>) -> String {
    let text = loc.to_string();
    match file_line_col(&text) {
        Some((file, line, col)) => {
            let file = match (file.as_str(), name) {
                ("-", Some(name)) => name.to_string(),
                _ => file,
            };
            format!("{file}:{line}:{col}")
        }
        None => text,
    }
}

/// The first `"file":line:col` of a location's text (a name location's
/// `"name"(...)` is skipped: no `:line` follows its quote).
pub fn file_line_col(text: &str) -> Option<(String, u32, u32)> {
    let mut rest = text;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let end = after.find('"')?;
        let file = &after[..end];
        let tail = &after[end + 1..];
        if let Some(found) = line_col(tail) {
            return Some((file.to_string(), found.0, found.1));
        }
        rest = tail;
    }
    None
}

/// `:line:col` at the start of `text`.
fn line_col(text: &str) -> Option<(u32, u32)> {
    let mut numbers = text.strip_prefix(':')?.splitn(2, ':');
    let line: u32 = numbers.next()?.parse().ok()?;
    let digits: String = numbers
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((line, digits.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_file_line_col() {
        assert_eq!(
            file_line_col(r#"loc("m.mlir":3:8)"#),
            Some(("m.mlir".to_string(), 3, 8))
        );
        assert_eq!(
            file_line_col(r#"loc("x"("m.mlir":3:8 to :12))"#),
            Some(("m.mlir".to_string(), 3, 8))
        );
        assert_eq!(file_line_col("loc(unknown)"), None);
    }

    #[test]
    fn upstream_passes_run() {
        let upstream = Upstream::new();
        let text = "func.func @f(%x: i32) -> i32 {\n  %c2 = arith.constant 2 : i32\n  %c3 = arith.constant 3 : i32\n  %0 = arith.muli %c2, %c3 : i32\n  %1 = arith.addi %x, %0 : i32\n  return %1 : i32\n}\n";
        let out = upstream
            .run_pipeline(text, "f.mlir", "builtin.module(canonicalize)")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            out.contains("arith.constant") && out.contains("6 : i32"),
            "{out}"
        );
        assert!(!out.contains("arith.muli"), "{out}");
        let Err(ImportError::Upstream(lines)) =
            upstream.run_pipeline(text, "f.mlir", "builtin.module(no-such-pass)")
        else {
            panic!("an unknown pass ran");
        };
        assert!(lines[0].contains("no-such-pass"), "{lines:?}");
    }

    #[test]
    fn a_bad_module_gives_located_errors() {
        let upstream = Upstream::new();
        let text = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = tosa.tanh %a : (tensor<4xf32>) -> tensor<5xf32>\n  return %0 : tensor<5xf32>\n}\n";
        let Err(ImportError::Upstream(lines)) = upstream.parse(text, "bad.mlir") else {
            panic!("an invalid module parsed");
        };
        assert!(lines[0].starts_with("bad.mlir:"), "{lines:?}");
        assert!(lines[0].contains("error:"), "{lines:?}");
    }
}
