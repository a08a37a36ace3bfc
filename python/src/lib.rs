//! `strata._strata`: the extension module under the `strata` Python
//! package (`python/strata/`). It wraps the runtime's session
//! ([`strata_runtime::session::Session`]) with onnxruntime's shape: a model
//! imported from a file or bytes, a session over it in an exe mode, `run`
//! with NumPy arrays in and out. The GIL is released while a session
//! compiles and runs; every error is a `strata.StrataError` (a subclass
//! naming its kind), and a Rust panic is caught and raised as one.

mod artifact;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use numpy::{Element, PyArray, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use strata_ir::{Context, Operation, SourceBuffer};
use strata_runtime::session::{InputSpec, Session as RustSession, SessionOptions, Source};
use strata_runtime::{DType, Tensor, TensorData, TensorView};

create_exception!(
    strata,
    StrataError,
    PyException,
    "Any error strata reports."
);
create_exception!(
    strata,
    ModelError,
    StrataError,
    "The model could not be read or imported."
);
create_exception!(
    strata,
    CompileError,
    StrataError,
    "The model did not compile (graph mode), or a recipe is invalid."
);
create_exception!(
    strata,
    InputError,
    StrataError,
    "An input does not fit the model."
);
create_exception!(strata, RunError, StrataError, "A run failed.");

/// Where a model comes from: a file (ONNX or MLIR text) or ONNX bytes.
#[derive(Clone)]
enum ModelSource {
    File(PathBuf),
    Bytes(Arc<Vec<u8>>),
}

impl ModelSource {
    /// The model as `strata run` loads it: every dialect registered, the
    /// interpreter's folding installed, imported and verified.
    fn load(&self) -> Result<(Context, Operation), String> {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        strata_runtime::interp::install_folding(&mut ctx);
        let module = match self {
            ModelSource::Bytes(bytes) => strata_onnx::import_bytes(&mut ctx, bytes, "model.onnx")
                .map_err(|e| e.to_string())?,
            ModelSource::File(path) if path.extension().is_some_and(|e| e == "onnx") => {
                strata_onnx::import_file(&mut ctx, path).map_err(|e| e.to_string())?
            }
            ModelSource::File(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let buffer = SourceBuffer::new(path.display().to_string(), text);
                strata_ir::parser::parse_source(&mut ctx, &buffer).map_err(|d| {
                    d.iter()
                        .map(|d| {
                            strata_ir::diagnostics::render(&ctx, d, std::slice::from_ref(&buffer))
                        })
                        .collect::<String>()
                })?
            }
        };
        strata_ir::verifier::verify(&ctx, module).map_err(|d| {
            d.iter()
                .map(|d| strata_ir::diagnostics::render(&ctx, d, &[]))
                .collect::<String>()
        })?;
        Ok((ctx, module))
    }

    /// The file's name (`model.onnx` for bytes).
    fn file_name(&self) -> String {
        match self {
            ModelSource::File(p) => p.file_name().map_or_else(
                || p.display().to_string(),
                |f| f.to_string_lossy().into_owned(),
            ),
            ModelSource::Bytes(_) => "model.onnx".into(),
        }
    }

    fn shown(&self) -> String {
        match self {
            ModelSource::File(p) => p.display().to_string(),
            ModelSource::Bytes(_) => "<bytes>".into(),
        }
    }
}

/// Runs `f`, turning a panic into a `StrataError` (a panic must never
/// reach Python as pyo3's `PanicException`).
fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".into());
            Err(StrataError::new_err(format!(
                "internal error (a bug in strata, please report it): {what}"
            )))
        }
    }
}

/// A model input or output: its name, element type (a NumPy dtype name)
/// and shape (an int per static dimension, the symbol's name or `None`
/// for a dynamic one).
#[pyclass(module = "strata._strata", frozen, get_all)]
struct ValueInfo {
    name: String,
    dtype: Option<String>,
    shape: Option<Vec<Py<PyAny>>>,
    /// The type as strata writes it (`tensor<?x4xf32>`).
    type_text: String,
}

#[pymethods]
impl ValueInfo {
    fn __repr__(&self, py: Python<'_>) -> String {
        let shape = self.shape.as_ref().map_or_else(
            || "None".to_string(),
            |s| {
                let dims: Vec<String> = s
                    .iter()
                    .map(|d| {
                        d.bind(py)
                            .repr()
                            .map_or_else(|_| "?".into(), |r| r.to_string())
                    })
                    .collect();
                format!("[{}]", dims.join(", "))
            },
        );
        format!(
            "ValueInfo(name={:?}, dtype={}, shape={shape})",
            self.name,
            self.dtype
                .as_deref()
                .map_or("None".into(), |d| format!("{d:?}"))
        )
    }
}

/// The NumPy name of a runtime dtype.
fn numpy_name(d: DType) -> &'static str {
    match d {
        DType::F16 => "float16",
        DType::BF16 => "bfloat16",
        DType::F32 => "float32",
        DType::F64 => "float64",
        DType::I1 => "bool",
        DType::I8 => "int8",
        DType::I16 => "int16",
        DType::I32 => "int32",
        DType::I64 => "int64",
        DType::U8 => "uint8",
        DType::U16 => "uint16",
        DType::U32 => "uint32",
        DType::U64 => "uint64",
        _ => "unsupported",
    }
}

/// A dimension of a model input or output.
#[derive(Clone)]
enum Dim {
    Static(i64),
    Symbol(String),
    Dynamic,
}

/// A [`ValueInfo`] without Python objects (made without the GIL).
#[derive(Clone)]
struct Info {
    name: String,
    dtype: Option<DType>,
    shape: Option<Vec<Dim>>,
    type_text: String,
}

impl Info {
    fn to_python(&self, py: Python<'_>) -> PyResult<ValueInfo> {
        let shape = match &self.shape {
            None => None,
            Some(dims) => Some(
                dims.iter()
                    .map(|d| -> PyResult<Py<PyAny>> {
                        Ok(match d {
                            Dim::Static(n) => n.into_pyobject(py)?.into_any().unbind(),
                            Dim::Symbol(s) => s.into_pyobject(py)?.into_any().unbind(),
                            Dim::Dynamic => py.None(),
                        })
                    })
                    .collect::<PyResult<_>>()?,
            ),
        };
        Ok(ValueInfo {
            name: self.name.clone(),
            dtype: self.dtype.map(|d| numpy_name(d).to_string()),
            shape,
            type_text: self.type_text.clone(),
        })
    }
}

/// The inputs and results of `@function` of `module`.
fn infos(
    ctx: &Context,
    module: Operation,
    function: &str,
) -> Result<(Vec<Info>, Vec<Info>), String> {
    let func = strata_runtime::interp::lookup_function(ctx, module, function)
        .ok_or_else(|| format!("the model has no function @{function}"))?;
    let (args, results) = strata_dialects::func::function_signature(ctx, func)
        .ok_or_else(|| format!("@{function} has no function type"))?;
    let info = |name: String, ty| -> Info {
        let spec = InputSpec::of(ctx, name, ty);
        let symbols = strata_dialects::graph::shape::shape_of(ctx, ty)
            .and_then(|(shape, _)| shape.dims().map(<[_]>::to_vec));
        let shape = spec.shape.as_ref().map(|s| {
            s.iter()
                .enumerate()
                .map(|(i, &d)| match symbols.as_ref().and_then(|s| s.get(i)) {
                    _ if d >= 0 => Dim::Static(d),
                    Some(strata_dialects::graph::shape::Dim::Sym(m))
                        if m.coeff == 1 && m.syms.len() == 1 =>
                    {
                        Dim::Symbol(m.syms[0].clone())
                    }
                    _ => Dim::Dynamic,
                })
                .collect()
        });
        Info {
            name: spec.name.clone(),
            dtype: spec.dtype,
            shape,
            type_text: spec.type_text.clone(),
        }
    };
    let in_names = strata_runtime::session::io_names(ctx, func, "arg_attrs", "input", args.len());
    let out_names =
        strata_runtime::session::io_names(ctx, func, "res_attrs", "output", results.len());
    let inputs = in_names
        .into_iter()
        .zip(&args)
        .map(|(n, &t)| info(n, t))
        .collect();
    let outputs = out_names
        .into_iter()
        .zip(&results)
        .map(|(n, &t)| info(n, t))
        .collect();
    Ok((inputs, outputs))
}

/// [`Info`]s as Python's [`ValueInfo`]s.
fn to_python(py: Python<'_>, infos: &[Info]) -> PyResult<Vec<ValueInfo>> {
    infos.iter().map(|i| i.to_python(py)).collect()
}

/// A model, imported: its inputs and outputs, and its IR.
#[pyclass(module = "strata._strata", frozen)]
struct Model {
    source: ModelSource,
    inputs: Vec<Info>,
    outputs: Vec<Info>,
}

#[pymethods]
impl Model {
    /// The model's inputs (name, dtype, shape).
    #[getter]
    fn inputs(&self, py: Python<'_>) -> PyResult<Vec<ValueInfo>> {
        to_python(py, &self.inputs)
    }

    /// The model's outputs.
    #[getter]
    fn outputs(&self, py: Python<'_>) -> PyResult<Vec<ValueInfo>> {
        to_python(py, &self.outputs)
    }

    /// The model as MLIR text (the `graph` dialect), as `strata import`
    /// prints it.
    fn to_mlir(&self, py: Python<'_>) -> PyResult<String> {
        let source = self.source.clone();
        guarded(|| {
            py.detach(move || {
                let (ctx, module) = source.load()?;
                Ok::<String, String>(strata_ir::printer::print_operation(
                    &ctx,
                    module,
                    Default::default(),
                ))
            })
            .map_err(ModelError::new_err)
        })
    }

    fn __repr__(&self) -> String {
        format!("Model({})", self.source.shown())
    }
}

/// `import_model(path | bytes)`: the model imported and verified.
#[pyfunction]
fn import_model(py: Python<'_>, model: &Bound<'_, PyAny>) -> PyResult<Model> {
    let source = model_source(model)?;
    guarded(|| {
        let loaded = {
            let source = source.clone();
            py.detach(move || {
                let (ctx, module) = source.load()?;
                infos(&ctx, module, "main")
            })
        };
        let (inputs, outputs) = loaded.map_err(ModelError::new_err)?;
        Ok(Model {
            source,
            inputs,
            outputs,
        })
    })
}

/// A recipe: a file (TOML or JSON, [`strata_recipe::Recipe::load`]) or a
/// dict of the same keys (`{"runtime": {"exe_mode": "hybrid"}}`), checked
/// as a file is (a `CompileError` with the located message otherwise).
fn recipe_of(recipe: &Bound<'_, PyAny>) -> PyResult<strata_recipe::Recipe> {
    let invalid = |e: String| CompileError::new_err(e);
    if recipe.cast::<pyo3::types::PyDict>().is_ok() {
        let json = recipe.py().import("json")?;
        let text: String = json.call_method1("dumps", (recipe,))?.extract()?;
        let loaded = strata_recipe::Recipe::parse(
            &text,
            "<recipe dict>",
            strata_recipe::Format::Json,
            &Default::default(),
        )
        .map_err(|e| invalid(e.to_string()))?;
        return Ok(loaded.recipe);
    }
    let path: PathBuf = recipe
        .extract()
        .map_err(|_| PyTypeError::new_err("a recipe is a path or a dict of recipe keys"))?;
    strata_recipe::Recipe::load(&path, &Default::default())
        .map(|l| l.recipe)
        .map_err(|e| invalid(e.to_string()))
}

/// A path (`str`, `os.PathLike`), bytes, or a [`Model`].
fn model_source(model: &Bound<'_, PyAny>) -> PyResult<ModelSource> {
    if let Ok(m) = model.cast::<Model>() {
        return Ok(m.get().source.clone());
    }
    if let Ok(b) = model.cast::<PyBytes>() {
        return Ok(ModelSource::Bytes(Arc::new(b.as_bytes().to_vec())));
    }
    if let Ok(path) = model.extract::<PathBuf>() {
        return Ok(ModelSource::File(path));
    }
    Err(PyTypeError::new_err(format!(
        "a model is a path, bytes or a strata.Model, not {}",
        model.get_type().name()?
    )))
}

/// A model ready to run many times in an exe mode (see
/// `strata.Session`).
#[pyclass(module = "strata._strata", frozen)]
struct Session {
    engine: Engine,
    inputs: Vec<Info>,
    outputs: Vec<Info>,
}

/// What a [`Session`] runs.
enum Engine {
    /// A session of the runtime: a model, compiled as it runs.
    Session(Arc<RustSession>),
    /// A plan loaded from an artifact (compiled ahead of time, for its
    /// shapes only).
    Plan(
        Arc<strata_runtime::compiled::CompiledModel>,
        Box<strata_artifact::Manifest>,
    ),
}

#[pymethods]
impl Session {
    /// The model's inputs (name, dtype, shape).
    #[getter]
    fn inputs(&self, py: Python<'_>) -> PyResult<Vec<ValueInfo>> {
        to_python(py, &self.inputs)
    }

    /// The model's outputs.
    #[getter]
    fn outputs(&self, py: Python<'_>) -> PyResult<Vec<ValueInfo>> {
        to_python(py, &self.outputs)
    }

    #[new]
    #[pyo3(signature = (model, recipe=None, mode=None, threads=None, cache_dir=None))]
    fn new(
        py: Python<'_>,
        model: &Bound<'_, PyAny>,
        recipe: Option<&Bound<'_, PyAny>>,
        mode: Option<&str>,
        threads: Option<usize>,
        cache_dir: Option<PathBuf>,
    ) -> PyResult<Session> {
        if let Ok(a) = model.cast::<artifact::Artifact>() {
            return Session::of_artifact(py, &a.get().artifact, threads);
        }
        let source = model_source(model)?;
        let recipe = recipe.map(recipe_of).transpose()?;
        let mut options = match &recipe {
            Some(r) => SessionOptions::from_recipe(r),
            None => SessionOptions::default(),
        };
        options.exe_mode = match mode {
            Some(m) => strata_runtime::session::ExeMode::from_name(m).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown exe mode '{m}'; the modes are: eager, graph, hybrid"
                ))
            })?,
            None => recipe
                .as_ref()
                .map_or(strata_runtime::session::ExeMode::Graph, |r| {
                    r.runtime.exe_mode
                }),
        };
        if let Some(t) = threads {
            options.threads = t;
        }
        if cache_dir.is_some() {
            options.cache_dir = cache_dir;
        }
        if let ModelSource::File(path) = &source {
            options.model_name = path
                .file_name()
                .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
        }
        guarded(|| {
            let built = {
                let source = source.clone();
                py.detach(
                    move || -> Result<(RustSession, Vec<Info>, Vec<Info>), String> {
                        // The model's identity for the disk cache: its bytes'
                        // sha256 (else the session prints the module to hash it).
                        if options.cache_dir.is_some() {
                            let sha = match &source {
                                ModelSource::File(p) => std::fs::read(p)
                                    .map(|b| strata_artifact::sha256_hex(&b))
                                    .map_err(|e| format!("{}: {e}", p.display()))?,
                                ModelSource::Bytes(b) => strata_artifact::sha256_hex(b),
                            };
                            options.model_sha256 = Some(sha);
                        }
                        let function = options.function.clone();
                        let (ctx, module) = source.load()?;
                        let (inputs, outputs) = infos(&ctx, module, &function)?;
                        let loader = source.clone();
                        let again: Source = Arc::new(move || loader.load());
                        let session = RustSession::from_loaded(ctx, module, again, options)
                            .map_err(|e| e.to_string())?;
                        Ok((session, inputs, outputs))
                    },
                )
            };
            let (session, inputs, outputs) = built.map_err(ModelError::new_err)?;
            Ok(Session {
                engine: Engine::Session(Arc::new(session)),
                inputs,
                outputs,
            })
        })
    }

    /// `run(output_names, feeds)`, as onnxruntime's `InferenceSession.run`:
    /// `feeds` maps each input's name to an array; the outputs named (all
    /// with `None`) come back as NumPy arrays, in that order.
    #[pyo3(signature = (output_names, feeds))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        output_names: Option<Vec<String>>,
        feeds: &Bound<'py, PyDict>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let mut arrays = Vec::with_capacity(self.inputs.len());
        for input in &self.inputs {
            let array = feeds.get_item(&input.name)?.ok_or_else(|| {
                InputError::new_err(format!("input '{}' is missing from the feeds", input.name))
            })?;
            arrays.push(array);
        }
        for key in feeds.keys() {
            let key: String = key.extract()?;
            if !self.inputs.iter().any(|i| i.name == key) {
                let names: Vec<&str> = self.inputs.iter().map(|i| i.name.as_str()).collect();
                return Err(InputError::new_err(format!(
                    "the model has no input '{key}' (its inputs: {})",
                    names.join(", ")
                )));
            }
        }
        self.run_arrays(py, &arrays, output_names)
    }

    /// `session(*arrays)`: the inputs in order, every output back.
    #[pyo3(signature = (*arrays))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        arrays: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        if arrays.len() != self.inputs.len() {
            return Err(InputError::new_err(format!(
                "expected {} input(s), got {}",
                self.inputs.len(),
                arrays.len()
            )));
        }
        self.run_arrays(py, &arrays, None)
    }

    /// The session's report (compiles, cache, events, partitions) as a
    /// dict: `strata run --report`'s JSON.
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = match &self.engine {
            Engine::Session(s) => s.report().to_json().to_string(),
            Engine::Plan(_, manifest) => serde_json::json!({
                "exe_mode": "graph",
                "compiles": 0,
                "artifact": manifest,
            })
            .to_string(),
        };
        let json = py.import("json")?;
        json.call_method1("loads", (text,))
    }

    /// The exe mode (`eager`, `graph` or `hybrid`; an artifact's plan runs
    /// in graph mode).
    #[getter]
    fn mode(&self) -> &'static str {
        match &self.engine {
            Engine::Session(s) => s.exe_mode().name(),
            Engine::Plan(..) => "graph",
        }
    }
}

impl Session {
    /// A session running the plan of `artifact` (its inputs' shapes only).
    fn of_artifact(
        py: Python<'_>,
        artifact: &strata_artifact::Artifact,
        threads: Option<usize>,
    ) -> PyResult<Session> {
        let threads = threads.unwrap_or(0);
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        let manifest = artifact.manifest.clone();
        let plan = guarded(|| {
            py.detach(|| artifact::load_plan(artifact, threads))
                .map_err(ModelError::new_err)
        })?;
        let info = |name: &String, spec: &strata_runtime::plan::Spec| Info {
            name: name.clone(),
            dtype: Some(spec.dtype),
            shape: Some(spec.shape.iter().map(|&d| Dim::Static(d as i64)).collect()),
            type_text: format!("{} {:?}", spec.dtype.name(), spec.shape),
        };
        let inputs = manifest
            .inputs
            .iter()
            .zip(plan.input_specs())
            .map(|(t, s)| info(&t.name, s))
            .collect();
        let outputs = manifest
            .outputs
            .iter()
            .zip(plan.output_specs())
            .map(|(t, s)| info(&t.name, s))
            .collect();
        Ok(Session {
            engine: Engine::Plan(Arc::new(plan), Box::new(manifest)),
            inputs,
            outputs,
        })
    }

    fn run_arrays<'py>(
        &self,
        py: Python<'py>,
        arrays: &[Bound<'py, PyAny>],
        output_names: Option<Vec<String>>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        // An object that is not an array but exports DLPack (a torch
        // tensor, a JAX array) is taken as the array `numpy.from_dlpack`
        // makes of it: its memory, not a copy.
        let numpy = py.import("numpy")?;
        let arrays: Vec<Bound<'py, PyAny>> = arrays
            .iter()
            .map(|a| {
                if a.cast::<PyUntypedArray>().is_err() && a.hasattr("__dlpack__")? {
                    numpy.call_method1("from_dlpack", (a,))
                } else {
                    Ok(a.clone())
                }
            })
            .collect::<PyResult<_>>()?;
        let arrays = &arrays[..];
        // A C-contiguous array of the input's dtype is read in place (its
        // memory held borrowed until the run ends); another is copied.
        let mut held = Vec::with_capacity(arrays.len());
        let mut copies = Vec::with_capacity(arrays.len());
        let mut shapes = Vec::with_capacity(arrays.len());
        for (input, array) in self.inputs.iter().zip(arrays) {
            let h = hold(input, array)?;
            let copy = match h.bytes() {
                Some(_) => None,
                None => Some(to_tensor(input, array)?),
            };
            shapes.push(array.cast::<PyUntypedArray>()?.shape().to_vec());
            held.push(h);
            copies.push(copy);
        }
        let mut views = Vec::with_capacity(arrays.len());
        for (((input, h), copy), shape) in self.inputs.iter().zip(&held).zip(&copies).zip(&shapes) {
            let view = match (copy, h.bytes(), input.dtype) {
                (Some(t), _, _) => t.view(),
                (None, Some(bytes), Some(dtype)) => TensorView::new(dtype, shape, bytes)
                    .map_err(|e| PyValueError::new_err(format!("input '{}': {e}", input.name)))?,
                (None, _, _) => {
                    return Err(PyTypeError::new_err(format!(
                        "input '{}' takes no arrays",
                        input.name
                    )))
                }
            };
            views.push(view);
        }
        let wanted: Vec<usize> = match &output_names {
            None => (0..self.outputs.len()).collect(),
            Some(names) => names
                .iter()
                .map(|n| {
                    self.outputs
                        .iter()
                        .position(|o| &o.name == n)
                        .ok_or_else(|| {
                            InputError::new_err(format!("the model has no output '{n}'"))
                        })
                })
                .collect::<PyResult<_>>()?,
        };
        let engine = match &self.engine {
            Engine::Session(s) => Ok(Arc::clone(s)),
            Engine::Plan(p, _) => Err(Arc::clone(p)),
        };
        let outputs = guarded(|| {
            py.detach(move || match engine {
                Ok(session) => session.run_views(&views),
                Err(plan) => plan.run_views(&views).map_err(|e| match e {
                    // An artifact's plan takes the shapes it was compiled for.
                    strata_runtime::compiled::RunError::InputMismatch { .. }
                    | strata_runtime::compiled::RunError::InputCount { .. } => {
                        strata_runtime::session::SessionError::Input {
                            name: "of the artifact".into(),
                            message: e.to_string(),
                        }
                    }
                    other => other.into(),
                }),
            })
            .map_err(|e| match e {
                strata_runtime::session::SessionError::Input { .. } => {
                    InputError::new_err(e.to_string())
                }
                strata_runtime::session::SessionError::Compile(_) => {
                    CompileError::new_err(e.to_string())
                }
                other => RunError::new_err(other.to_string()),
            })
        })?;
        let mut outputs: Vec<Option<Tensor>> = outputs.into_iter().map(Some).collect();
        wanted
            .into_iter()
            .map(|i| {
                let t = outputs.get_mut(i).and_then(Option::take).ok_or_else(|| {
                    RunError::new_err("an output asked for twice or not produced")
                })?;
                to_array(py, t)
            })
            .collect()
    }
}

/// Declares [`Held`]: an input array borrowed read-only, by element type,
/// and [`hold`], which borrows an array as the input's element type.
macro_rules! held {
    ($($variant:ident($t:ty) = $name:literal),* $(,)?) => {
        /// An input array, borrowed read-only for the run.
        enum Held<'py> {
            $($variant(numpy::PyReadonlyArrayDyn<'py, $t>),)*
        }

        impl Held<'_> {
            /// The elements' bytes, when the array is C-contiguous (row
            /// major: a Fortran-ordered array is contiguous too, but its
            /// elements are not in the order the plan reads).
            fn bytes(&self) -> Option<&[u8]> {
                match self {
                    $(Held::$variant(a) => a
                        .as_array()
                        .is_standard_layout()
                        .then(|| a.as_slice().ok())
                        .flatten()
                        .map(bytemuck::cast_slice),)*
                }
            }
        }

        /// `array` borrowed as an array of `input`'s dtype (a `TypeError`
        /// naming the input when it is not a NumPy array of that dtype).
        fn hold<'py>(input: &Info, array: &Bound<'py, PyAny>) -> PyResult<Held<'py>> {
            let untyped = array.cast::<PyUntypedArray>().map_err(|_| not_an_array(input, array))?;
            let want = input.dtype.map_or("unsupported", numpy_name);
            let wrong = || -> PyErr {
                let given = untyped.dtype().str().map_or_else(|_| "?".into(), |s| s.to_string());
                PyTypeError::new_err(format!(
                    "input '{}' is {given}, but the model takes {want}",
                    input.name
                ))
            };
            match want {
                $($name => Ok(Held::$variant(
                    untyped.cast::<PyArrayDyn<$t>>().map_err(|_| wrong())?.readonly(),
                )),)*
                other => Err(PyTypeError::new_err(format!(
                    "input '{}' is of a type strata takes no arrays for ({other}: {})",
                    input.name, input.type_text
                ))),
            }
        }
    };
}

held!(
    F16(half::f16) = "float16",
    BF16(half::bf16) = "bfloat16",
    F32(f32) = "float32",
    F64(f64) = "float64",
    I1(bool) = "bool",
    I8(i8) = "int8",
    I16(i16) = "int16",
    I32(i32) = "int32",
    I64(i64) = "int64",
    U8(u8) = "uint8",
    U16(u16) = "uint16",
    U32(u32) = "uint32",
    U64(u64) = "uint64",
);

/// The `TypeError` of a value that is not a NumPy array.
fn not_an_array(input: &Info, value: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "input '{}' must be a numpy.ndarray, not {}",
        input.name,
        value
            .get_type()
            .name()
            .map_or_else(|_| "?".into(), |n| n.to_string())
    ))
}

/// `array` (any NumPy array) as the tensor `input` takes: its dtype must
/// be the input's (a `TypeError` otherwise, naming the input).
fn to_tensor(input: &Info, array: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let array = array
        .cast::<PyUntypedArray>()
        .map_err(|_| not_an_array(input, array))?;
    let given = array.dtype().str()?.to_string();
    let want = input.dtype.map_or("unsupported", numpy_name);
    let shape = array.shape().to_vec();
    macro_rules! take {
        ($t:ty, $variant:ident) => {{
            let typed = array.cast::<PyArrayDyn<$t>>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "input '{}' is {given}, but the model takes {want}",
                    input.name
                ))
            })?;
            let values: Vec<$t> = typed.readonly().as_array().iter().copied().collect();
            TensorData::$variant(values)
        }};
    }
    let data = match want {
        "float16" => take!(half::f16, F16),
        "bfloat16" => take!(half::bf16, BF16),
        "float32" => take!(f32, F32),
        "float64" => take!(f64, F64),
        "bool" => take!(bool, I1),
        "int8" => take!(i8, I8),
        "int16" => take!(i16, I16),
        "int32" => take!(i32, I32),
        "int64" => take!(i64, I64),
        "uint8" => take!(u8, U8),
        "uint16" => take!(u16, U16),
        "uint32" => take!(u32, U32),
        "uint64" => take!(u64, U64),
        other => {
            return Err(PyTypeError::new_err(format!(
                "input '{}' is of a type strata takes no arrays for ({other}: {})",
                input.name, input.type_text
            )))
        }
    };
    Tensor::new(shape, data)
        .map_err(|e| PyValueError::new_err(format!("input '{}': {e}", input.name)))
}

/// `t` as a NumPy array that owns its elements (moved, not copied).
fn to_array(py: Python<'_>, t: Tensor) -> PyResult<Bound<'_, PyAny>> {
    let (shape, data) = t.into_parts();
    fn shaped<'py, T: Element>(
        py: Python<'py>,
        values: Vec<T>,
        shape: &[usize],
    ) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyArray::from_vec(py, values).reshape(shape)?.into_any())
    }
    match data {
        TensorData::F16(v) => shaped(py, v, &shape),
        TensorData::BF16(v) => shaped(py, v, &shape),
        TensorData::F32(v) => shaped(py, v, &shape),
        TensorData::F64(v) => shaped(py, v, &shape),
        TensorData::I1(v) => shaped(py, v, &shape),
        TensorData::I8(v) => shaped(py, v, &shape),
        TensorData::I16(v) => shaped(py, v, &shape),
        TensorData::I32(v) => shaped(py, v, &shape),
        TensorData::I64(v) => shaped(py, v, &shape),
        TensorData::U8(v) => shaped(py, v, &shape),
        TensorData::U16(v) => shaped(py, v, &shape),
        TensorData::U32(v) => shaped(py, v, &shape),
        TensorData::U64(v) => shaped(py, v, &shape),
        TensorData::Narrow(d, _) => Err(RunError::new_err(format!(
            "an output of dtype {} has no NumPy dtype",
            d.name()
        ))),
    }
}

/// The extension module.
#[pymodule]
fn _strata(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("StrataError", py.get_type::<StrataError>())?;
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("CompileError", py.get_type::<CompileError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("RunError", py.get_type::<RunError>())?;
    m.add_class::<Model>()?;
    m.add_class::<Session>()?;
    m.add_class::<ValueInfo>()?;
    m.add_function(wrap_pyfunction!(import_model, m)?)?;
    m.add_function(wrap_pyfunction!(artifact::compile, m)?)?;
    m.add_class::<artifact::Artifact>()?;
    Ok(())
}
