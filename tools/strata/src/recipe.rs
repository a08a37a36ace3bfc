//! `strata recipe check|hash|canonical|pipeline R`: validate a recipe and
//! print what it becomes. Errors and warnings go to stderr, located; an
//! invalid recipe exits with status 1.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use strata_recipe::{LoadOptions, Recipe};

use crate::DriverError;

#[derive(Subcommand)]
pub(crate) enum RecipeCommand {
    /// Validate a recipe; print its hash, and note the settings this
    /// compiler records but does not act on yet.
    Check {
        /// The recipe (`.toml` or `.json`).
        recipe: PathBuf,
    },
    /// Print the sha256 (hex) of the recipe's canonical form.
    Hash {
        /// The recipe (`.toml` or `.json`).
        recipe: PathBuf,
    },
    /// Print the recipe's canonical form (TOML, every key, sorted).
    Canonical {
        /// The recipe (`.toml` or `.json`).
        recipe: PathBuf,
    },
    /// Print the pass pipeline the recipe becomes, in MLIR's syntax
    /// (`strata-opt --pass-pipeline=...` runs it).
    Pipeline {
        /// The recipe (`.toml` or `.json`).
        recipe: PathBuf,
        /// Start with `graph-specialize` at these sizes (a shape bucket:
        /// SYM=N,SYM=N), so that the pipeline runs on a model with
        /// symbolic dimensions.
        #[arg(long, value_name = "SYM=N,...")]
        bucket: Option<String>,
    },
}

/// Runs one `strata recipe` command.
pub(crate) fn recipe(command: RecipeCommand) -> Result<(), DriverError> {
    match command {
        RecipeCommand::Check { recipe } => {
            let r = load(&recipe)?;
            for u in r.unapplied() {
                eprintln!(
                    "{}: note: '{}' is validated and recorded, not acted on: {}",
                    recipe.display(),
                    u.path,
                    u.reason
                );
            }
            outln!("{}: ok, sha256 {}", recipe.display(), r.sha256());
        }
        RecipeCommand::Hash { recipe } => outln!("{}", load(&recipe)?.sha256()),
        RecipeCommand::Canonical { recipe } => out!("{}", load(&recipe)?.canonical()),
        RecipeCommand::Pipeline { recipe, bucket } => {
            let pipeline = load(&recipe)?.pipeline();
            match bucket {
                Some(b) => outln!("{}", with_bucket(&pipeline, &b)?),
                None => outln!("{pipeline}"),
            }
        }
    }
    Ok(())
}

/// `pipeline` (`builtin.module(...)`) starting with `graph-specialize` at
/// the sizes of `bucket` (`SYM=N,SYM=N`).
fn with_bucket(pipeline: &str, bucket: &str) -> Result<String, DriverError> {
    let mut dims = Vec::new();
    for spec in bucket.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let ok = spec
            .split_once('=')
            .is_some_and(|(s, n)| !s.is_empty() && n.parse::<u64>().is_ok());
        if !ok {
            return Err(DriverError::Message(format!(
                "--bucket '{spec}': expected SYM=N"
            )));
        }
        dims.push(spec);
    }
    let body = pipeline
        .strip_prefix("builtin.module(")
        .and_then(|p| p.strip_suffix(')'))
        .ok_or_else(|| DriverError::Message(format!("unexpected pipeline '{pipeline}'")))?;
    Ok(format!(
        "builtin.module(graph-specialize{{dims={}}},{body})",
        dims.join(",")
    ))
}

/// Loads the recipe at `path`, op names checked against the registered
/// dialects; prints its warnings to stderr.
pub(crate) fn load(path: &Path) -> Result<Recipe, DriverError> {
    let ctx = crate::new_context();
    let known = |name: &str| strata_dialects::op_names::resolve(&ctx, name).is_some();
    let options = LoadOptions {
        known_op: Some(&known),
    };
    let loaded = Recipe::load(path, &options).map_err(|e| DriverError::Message(e.to_string()))?;
    for warning in &loaded.warnings {
        eprintln!("{warning}");
    }
    Ok(loaded.recipe)
}
