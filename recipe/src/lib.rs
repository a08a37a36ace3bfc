//! strata-recipe: the recipe, the versioned and hashed contract that
//! configures the strata compiler.
//!
//! A recipe is a TOML (or JSON) document with the sections `capture`,
//! `optimize`, `codegen`, `runtime` and `contracts`, every key optional with
//! a default. [`Recipe::parse`] validates it: an unknown key, a wrong type,
//! an out-of-range value or a contradiction is an error located at its
//! line and column, and an op name that no dialect defines is a warning.
//! [`Recipe::canonical`] is its canonical text, [`Recipe::sha256`] the hash
//! of that text, and [`Recipe::pipeline`] the pass pipeline it becomes in
//! MLIR's textual syntax. `docs/recipes.md` documents every key.
//!
//! ```
//! use strata_recipe::{Format, LoadOptions, Recipe};
//!
//! let text = "[optimize.fusion]\nmax_fused_ops = 4\n";
//! let loaded = Recipe::parse(text, "r.toml", Format::Toml, &LoadOptions::default()).unwrap();
//! assert_eq!(loaded.recipe.optimize.fusion.max_fused_ops, 4);
//! assert!(loaded.recipe.pipeline().contains("tensor-fuse{max-ops=4}"));
//!
//! let bad = "[optimize.fusion]\nmax_fused = 4\n";
//! let err = Recipe::parse(bad, "r.toml", Format::Toml, &LoadOptions::default()).unwrap_err();
//! assert!(err.to_string().starts_with("r.toml:2:1: error: unknown key 'optimize.fusion.max_fused'"));
//! ```

mod canonical;
mod error;
mod load;
mod node;
mod pipeline;
mod schema;

use std::path::Path;

pub use error::{Diagnostic, LoadError, Problem, RecipeError, Severity};
pub use pipeline::{PassSpec, Unapplied, DISABLEABLE_PASSES};
pub use schema::*;

/// The text format of a recipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// TOML.
    Toml,
    /// JSON.
    Json,
}

impl Format {
    /// The format of `path` by its extension (`.json` is JSON, `.toml` is
    /// TOML), else by its content (JSON starts with `{`).
    pub fn detect(path: &str, text: &str) -> Format {
        let ext = Path::new(path).extension().and_then(|e| e.to_str());
        match ext {
            Some(e) if e.eq_ignore_ascii_case("json") => Format::Json,
            Some(e) if e.eq_ignore_ascii_case("toml") => Format::Toml,
            _ if text.trim_start().starts_with('{') => Format::Json,
            _ => Format::Toml,
        }
    }
}

/// What the loader knows about the compiler it loads for.
#[derive(Clone, Copy, Default)]
pub struct LoadOptions<'a> {
    /// Whether an op name (as written in a recipe: `conv`, `graph.conv`,
    /// `layernorm`) names an op some dialect defines. `None`: op names are
    /// not checked.
    pub known_op: Option<&'a dyn Fn(&str) -> bool>,
}

/// A recipe that loaded, with the warnings found on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The recipe.
    pub recipe: Recipe,
    /// Located warnings (unknown op names), in file order.
    pub warnings: Vec<Diagnostic>,
}

impl Recipe {
    /// Parses and validates recipe `text`; `file` names it in diagnostics.
    pub fn parse(
        text: &str,
        file: &str,
        format: Format,
        options: &LoadOptions<'_>,
    ) -> Result<Loaded, RecipeError> {
        let tree = match format {
            Format::Toml => node::parse_toml(text),
            Format::Json => node::parse_json(text),
        };
        let tree = tree.map_err(|raw| RecipeError {
            diagnostics: error::locate(file, text, vec![raw]),
        })?;
        let mut reader = load::Reader::new(options.known_op);
        let recipe = reader.recipe(&tree);
        let diagnostics = error::locate(file, text, reader.raws);
        if diagnostics.iter().any(|d| d.severity == Severity::Error) {
            return Err(RecipeError { diagnostics });
        }
        Ok(Loaded {
            recipe,
            warnings: diagnostics,
        })
    }

    /// Reads and parses the recipe file at `path` (its format by
    /// [`Format::detect`]).
    pub fn load(path: &Path, options: &LoadOptions<'_>) -> Result<Loaded, LoadError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
            path: name.clone(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|_| RecipeError {
            diagnostics: vec![Diagnostic {
                file: name.clone(),
                line: 1,
                column: 1,
                severity: Severity::Error,
                problem: Problem::Syntax("the file is not UTF-8 text".into()),
            }],
        })?;
        let format = Format::detect(&name, &text);
        Ok(Recipe::parse(&text, &name, format, options)?)
    }

    /// The canonical text: TOML with every key, sorted, defaults filled in
    /// (see `docs/recipes.md`). It parses back to an equal recipe, except
    /// for `runtime.cache_dir`, a location that is not part of it.
    pub fn canonical(&self) -> String {
        canonical::canonical(self)
    }

    /// The lowercase hex sha256 of [`Recipe::canonical`].
    pub fn sha256(&self) -> String {
        canonical::sha256_hex(&self.canonical())
    }

    /// The passes this recipe runs, in order.
    pub fn passes(&self) -> Vec<PassSpec> {
        pipeline::passes(self)
    }

    /// The pass pipeline in MLIR's textual syntax, `builtin.module(...)`,
    /// as `strata-opt --pass-pipeline` takes it.
    pub fn pipeline(&self) -> String {
        pipeline::render(&self.passes())
    }

    /// Settings that differ from their defaults but that this compiler does
    /// not act on yet (they are validated, hashed and recorded).
    pub fn unapplied(&self) -> Vec<Unapplied> {
        pipeline::unapplied(self)
    }
}
