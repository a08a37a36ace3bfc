//! `strata.compile` and `strata.Artifact`: a model compiled ahead of time
//! for static input shapes into strata's artifact file (docs/artifacts.md),
//! saved, loaded and inspected from Python.

use std::collections::HashMap;
use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use strata_runtime::artifact::{build_artifact, ArtifactSource};
use strata_runtime::compiled::CompiledModel;

use crate::{guarded, model_source, CompileError, Info, ModelError, ModelSource};

/// A compiled model in strata's artifact format: the plan, its kernels'
/// code and a manifest naming the model, the recipe and the compiler.
#[pyclass(module = "strata._strata", frozen)]
pub(crate) struct Artifact {
    pub(crate) artifact: strata_artifact::Artifact,
    shown: String,
}

#[pymethods]
impl Artifact {
    /// The artifact in the file at `path`, checked (its checksum and
    /// sections).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Artifact> {
        let shown = path.display().to_string();
        guarded(|| {
            let read = py.detach(|| strata_artifact::Artifact::read(&path));
            let artifact = read.map_err(|e| ModelError::new_err(e.to_string()))?;
            Ok(Artifact { artifact, shown })
        })
    }

    /// Writes the artifact to `path`.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.artifact
            .write(&path)
            .map_err(|e| ModelError::new_err(e.to_string()))
    }

    /// The artifact's bytes, as `save` writes them.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.artifact.to_bytes())
    }

    /// The manifest as a dict (what `strata inspect --json` reads): the
    /// model and its sha256, the recipe, the compiler, the target, the
    /// inputs and outputs, the kernels and the sections.
    fn inspect<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&self.artifact.manifest)
            .map_err(|e| ModelError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    fn __repr__(&self) -> String {
        let m = &self.artifact.manifest;
        format!("Artifact({}: {} for {})", self.shown, m.model, m.target)
    }
}

/// `compile(model, recipe=None, target="host", shapes=None, dims=None)`:
/// the model compiled for its inputs' shapes: `shapes` gives an input's
/// whole shape by name, `dims` a symbolic dimension's size by symbol
/// (`{"batch": 8}`); static dimensions need neither.
#[pyfunction]
#[pyo3(signature = (model, recipe=None, target="host", shapes=None, dims=None))]
pub(crate) fn compile(
    py: Python<'_>,
    model: &Bound<'_, PyAny>,
    recipe: Option<&Bound<'_, PyAny>>,
    target: &str,
    shapes: Option<HashMap<String, Vec<usize>>>,
    dims: Option<HashMap<String, usize>>,
) -> PyResult<Artifact> {
    if target != "host" {
        return Err(PyValueError::new_err(format!(
            "target '{target}': the Python package compiles for the host (the CPU) only yet; \
             `strata compile --target {target}` makes GPU artifacts"
        )));
    }
    let source = model_source(model)?;
    let recipe = match recipe {
        Some(r) => crate::recipe_of(r)?,
        None => strata_recipe::Recipe::default(),
    };
    let (shapes, dims) = (shapes.unwrap_or_default(), dims.unwrap_or_default());
    guarded(|| {
        let made = py.detach(move || -> Result<strata_artifact::Artifact, PyErrKind> {
            let (mut ctx, module) = source.load().map_err(PyErrKind::Model)?;
            let (inputs, outputs) = crate::infos(&ctx, module, "main").map_err(PyErrKind::Model)?;
            let resolved = inputs
                .iter()
                .map(|i| shape_of(i, &shapes, &dims))
                .collect::<Result<Vec<_>, _>>()
                .map_err(PyErrKind::Value)?;
            strata_runtime::compiled::lower(
                &mut ctx,
                module,
                "main",
                &resolved,
                &recipe.pipeline(),
            )
            .map_err(|e| {
                PyErrKind::Compile(strata_runtime::session::render_compile_error(&ctx, e))
            })?;
            let model_sha256 =
                match &source {
                    ModelSource::File(p) => std::fs::read(p)
                        .map(|b| strata_artifact::sha256_hex(&b))
                        .map_err(|e| PyErrKind::Model(format!("{}: {e}", p.display())))?,
                    ModelSource::Bytes(b) => strata_artifact::sha256_hex(b),
                };
            let artifact_source = ArtifactSource {
                model: source.file_name(),
                model_sha256,
                function: "main".into(),
                recipe_sha256: recipe.sha256(),
                recipe: recipe.canonical(),
                input_names: inputs.iter().map(|i| i.name.clone()).collect(),
                output_names: outputs.iter().map(|o| o.name.clone()).collect(),
                ..ArtifactSource::default()
            };
            build_artifact(&mut ctx, module, &artifact_source).map_err(|e| {
                PyErrKind::Compile(strata_runtime::session::render_compile_error(&ctx, e))
            })
        });
        let artifact = made.map_err(PyErrKind::into_err)?;
        Ok(Artifact {
            artifact,
            shown: "<compiled>".into(),
        })
    })
}

/// An error made without the GIL, raised with it.
enum PyErrKind {
    Model(String),
    Compile(String),
    Value(String),
}

impl PyErrKind {
    fn into_err(self) -> PyErr {
        match self {
            PyErrKind::Model(m) => ModelError::new_err(m),
            PyErrKind::Compile(m) => CompileError::new_err(m),
            PyErrKind::Value(m) => PyValueError::new_err(m),
        }
    }
}

/// The static shape of `input`: `shapes[name]`, else its type's with each
/// symbolic dimension's size from `dims`.
fn shape_of(
    input: &Info,
    shapes: &HashMap<String, Vec<usize>>,
    dims: &HashMap<String, usize>,
) -> Result<Vec<usize>, String> {
    if let Some(s) = shapes.get(&input.name) {
        return Ok(s.clone());
    }
    let Some(declared) = &input.shape else {
        return Err(format!(
            "input '{}' ({}) has no shape: give it in shapes",
            input.name, input.type_text
        ));
    };
    declared
        .iter()
        .enumerate()
        .map(|(i, d)| match d {
            crate::Dim::Static(n) => usize::try_from(*n).map_err(|_| format!("dimension {n}")),
            crate::Dim::Symbol(s) => dims.get(s).copied().ok_or_else(|| {
                format!(
                    "input '{}' dimension {i} ('{s}') needs a size: dims={{'{s}': N}} or shapes={{'{}': [...]}}",
                    input.name, input.name
                )
            }),
            crate::Dim::Dynamic => Err(format!(
                "input '{}' dimension {i} is dynamic: give its shape in shapes",
                input.name
            )),
        })
        .collect()
}

/// A compiled plan loaded from an artifact, as a session runs it.
pub(crate) fn load_plan(
    artifact: &strata_artifact::Artifact,
    threads: usize,
) -> Result<CompiledModel, String> {
    let expect = strata_artifact::Expect::new(&artifact.manifest.target);
    CompiledModel::load_artifact(artifact, "<artifact>", &expect, threads, &|_| {})
        .map(|(model, _)| model)
        .map_err(|e| e.to_string())
}
