//! The plan cache on disk (`runtime.cache_dir`, `STRATA_CACHE_DIR`,
//! `--cache-dir`): compiled plans kept across processes.
//!
//! An entry is an artifact (the format `strata compile -o` writes: the
//! plan, each kernel's optimized bitcode, and a shared library of the
//! kernels' machine code), named by the sha256 of its key: the compiler's
//! version and build, the CPU and its features, the model's and the
//! recipe's sha256, the pipeline, the function, the input shapes (the
//! bucket) and the values of the inputs held as constants. The key's text
//! is a section of the entry, compared on read.
//!
//! An entry is written to a temporary file in the directory and renamed
//! into place, so a reader sees a whole entry or none, and several
//! processes that compile the same plan at once each leave a valid one
//! (the last rename wins). Reading checks the artifact's checksum, the
//! key, the manifest (recipe, compiler version, target) and the plan
//! against the manifest; an entry that fails any check is reported
//! ([`EventKind::DiskRejected`]) and compiled again, its file replaced.
//! Loading an entry made on this CPU loads its library: no code is
//! generated.

use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use strata_artifact::{sha256_hex, Artifact, Checked, Expect, Selection};
use strata_ir::{Context, Operation};

use super::{compiled, EventKind, Plan, PlanKey, Session, SessionError};
use crate::artifact::{
    build_artifact, load_plan, ArtifactSource, KernelLoad, HOST_TARGET, KERNELS_SECTION,
    LIBRARY_SECTION,
};
use crate::compiled::{CompileError, CompiledModel};
use crate::Tensor;

/// The payload section holding an entry's key.
pub(crate) const KEY_SECTION: &str = "cache/key";

/// The version of the key's layout: entries of another are not found.
const KEY_VERSION: u32 = 1;

/// A directory of plan cache entries.
pub(crate) struct DiskCache {
    dir: PathBuf,
    /// What every key of this session starts with: the compiler, the CPU,
    /// the model, the recipe, the pipeline and the function.
    pub(crate) prefix: String,
    pub(crate) model_sha256: String,
}

/// Something the disk cache did while a plan was looked up or compiled,
/// for the session's events.
pub(crate) struct DiskNote {
    pub kind: EventKind,
    pub key: PlanKey,
    pub reason: String,
    pub ms: f64,
}

/// Where a plan came from.
pub(crate) enum Origin {
    /// Compiled in this process.
    Compiled,
    /// Loaded from a disk entry, in `ms`; `reason` says how its code was
    /// made ready.
    Disk { ms: f64, reason: String },
}

impl DiskCache {
    /// The cache in `dir` (created if missing), for the model with sha256
    /// `model_sha256` compiled by `pipeline` of the recipe with sha256
    /// `recipe_sha256`. Refused when the directory cannot be made or
    /// written to.
    pub(crate) fn open(
        dir: &Path,
        model_sha256: &str,
        recipe_sha256: &str,
        pipeline: &str,
        function: &str,
    ) -> Result<DiskCache, SessionError> {
        let refuse = |message: String| SessionError::CacheDir {
            path: dir.display().to_string(),
            message,
        };
        std::fs::create_dir_all(dir).map_err(|e| refuse(e.to_string()))?;
        let (probe, mut file) =
            temporary_file(dir, "probe").map_err(|e| refuse(format!("cannot write to it: {e}")))?;
        let written = file.write_all(b"strata");
        let _ = std::fs::remove_file(&probe);
        written.map_err(|e| refuse(format!("cannot write to it: {e}")))?;
        // Quoted fields: no pipeline or function name reads as another key.
        let prefix = format!(
            "strata plan cache {KEY_VERSION}\ncompiler {} {}\nbinary {}\ntarget {HOST_TARGET} {} {}\nmodel {model_sha256}\nrecipe {recipe_sha256}\npipeline {pipeline:?}\nfunction {function:?}\n",
            strata_artifact::COMPILER_VERSION,
            strata_artifact::BUILD_HASH,
            binary_fingerprint(),
            strata_lowering::llvm::host_cpu_name(),
            strata_lowering::llvm::host_cpu_features(),
        );
        Ok(DiskCache {
            dir: dir.to_path_buf(),
            prefix,
            model_sha256: model_sha256.to_string(),
        })
    }

    /// The key's text: the session's prefix, the shapes, and the sha256 of
    /// each pinned input's bytes.
    fn key_text(&self, key: &PlanKey) -> String {
        let mut text = self.prefix.clone();
        text.push_str(&format!("shapes {:?}\n", key.shapes));
        for (i, bytes) in &key.pinned {
            text.push_str(&format!("pinned {i} {}\n", sha256_hex(bytes)));
        }
        text
    }

    /// Hybrid mode's key of a compiled segment (or of a function that
    /// compiles whole): the session's prefix, the segment's function, the
    /// sha256 of its IR after the `graph` passes (which holds the
    /// partition, the ops and the constants it copies in) and its inputs'
    /// shapes.
    fn segment_text(&self, function: &str, digest: &str, shapes: &[Vec<usize>]) -> String {
        format!(
            "{}segment {function:?} {digest}\nshapes {shapes:?}\n",
            self.prefix
        )
    }

    /// The file of the entry of the key `text`.
    pub(crate) fn path(&self, text: &str) -> PathBuf {
        let name = sha256_hex(text.as_bytes());
        self.dir.join(format!("{}.strata", &name[..40]))
    }

    /// The entry of the key `text`, read and checked, and what `then`
    /// made of it (on this thread, while the file's checksum is computed on
    /// another: `then` must only read the bytes; see
    /// [`Artifact::from_vec_then`]): `Ok(None)` when there is none, `Err`
    /// with why it was refused.
    pub(crate) fn read<T>(
        &self,
        text: &str,
        then: impl FnOnce(&Artifact, &str) -> Result<T, String>,
    ) -> Result<Option<(Artifact, String, T)>, String> {
        let path = self.path(text);
        let shown = path.display().to_string();
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{shown}: {e}")),
        };
        let checked = Artifact::from_vec_then(bytes, &shown, |artifact| {
            let stored = artifact.section(KEY_SECTION).unwrap_or_default();
            if stored != text.as_bytes() || artifact.manifest.model_sha256 != self.model_sha256 {
                return Err(format!(
                    "{shown}: error: the entry was written for another key"
                ));
            }
            then(artifact, &shown)
        });
        match checked {
            Ok((artifact, made)) => Ok(Some((artifact, shown, made))),
            Err(Checked::Artifact(e)) => Err(e.to_string()),
            Err(Checked::Then(e)) => Err(e),
        }
    }

    /// Removes the entry of the key `text`, refused for `why`, and notes it
    /// under the run's `key` (best effort: the next process need not
    /// refuse it again).
    pub(crate) fn reject(
        &self,
        text: &str,
        key: &PlanKey,
        why: String,
        notes: &RefCell<Vec<DiskNote>>,
    ) {
        let _ = std::fs::remove_file(self.path(text));
        notes.borrow_mut().push(DiskNote {
            kind: EventKind::DiskRejected,
            key: key.clone(),
            reason: why,
            ms: 0.0,
        });
    }

    /// Writes `artifact` as the entry of the key `text`: to a temporary
    /// file, renamed into place. Returns the entry's bytes.
    pub(crate) fn write(&self, text: &str, artifact: &Artifact) -> Result<usize, String> {
        let path = self.path(text);
        let (temporary, mut file) = temporary_file(&self.dir, "entry")
            .map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let bytes = artifact.to_bytes();
        let written = file
            .write_all(&bytes)
            .and_then(|()| file.sync_all())
            .and_then(|()| std::fs::rename(&temporary, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(format!("{}: {e}", path.display()));
        }
        Ok(bytes.len())
    }
}

/// The running executable's size and modification time: two builds of one
/// commit (a working tree with changes, a build outside a checkout) do not
/// share entries. Empty when the executable cannot be found.
fn binary_fingerprint() -> String {
    let Some(meta) = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::metadata(p).ok())
    else {
        return String::new();
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{} {modified}", meta.len())
}

/// A new file in `dir` that no other writer uses, created here (never an
/// existing file or link): `.{what}-{pid}-{nanoseconds}-{n}.tmp`. The
/// time tells apart processes of one pid on different machines or in
/// different containers that share the directory.
fn temporary_file(dir: &Path, what: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for _ in 0..8 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".{what}-{}-{nanos}-{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no temporary file name is free")))
}

impl Session {
    /// Graph mode with a disk cache: the plan for `inputs` (of `shapes`)
    /// from its entry, when there is a sound one. `pin`: the inputs that
    /// plans for these shapes hold, when known; else the pin masks a
    /// compile would try (none, the small integer inputs, every small
    /// input) are tried in turn.
    pub(crate) fn look_on_disk(
        &self,
        shapes: &[Vec<usize>],
        inputs: &[Tensor],
        pin: Option<&[bool]>,
        notes: &RefCell<Vec<DiskNote>>,
    ) -> Option<(Plan, Option<Vec<bool>>, Origin)> {
        let disk = self.disk.as_ref()?;
        // An unpaddable bucket is refused by the compile path, which says why.
        let slices = self.padding_for(shapes).ok()?;
        let mut pins = vec![pin.map(<[bool]>::to_vec)];
        if pin.is_none() && self.options.pin_inputs {
            let ints: Vec<bool> = inputs
                .iter()
                .map(|t| t.dtype().is_int() && compiled::pinnable(t))
                .collect();
            let all: Vec<bool> = inputs.iter().map(compiled::pinnable).collect();
            for p in [ints, all] {
                if p.contains(&true) && !pins.contains(&Some(p.clone())) {
                    pins.push(Some(p));
                }
            }
        }
        let (model, pin, origin) = self.load_from_disk(disk, inputs, &pins, notes)?;
        Some((Plan::Compiled(Box::new(model), None, slices), pin, origin))
    }

    /// The plan for `inputs` from the disk cache, trying the inputs held as
    /// constants that a compile would try (`pins`, in order). A refused
    /// entry is noted and skipped.
    fn load_from_disk(
        &self,
        disk: &DiskCache,
        inputs: &[Tensor],
        pins: &[Option<Vec<bool>>],
        notes: &RefCell<Vec<DiskNote>>,
    ) -> Option<(CompiledModel, Option<Vec<bool>>, Origin)> {
        for pin in pins {
            let key = self.key(inputs, pin.as_deref());
            let text = disk.key_text(&key);
            if let Some((model, ms, reason)) = self.load_entry(disk, &text, &key, notes) {
                let model = model.with_pinned(pinned_values(inputs, pin.as_deref()));
                return Some((model, pin.clone(), Origin::Disk { ms, reason }));
            }
        }
        None
    }

    /// The plan of the entry of the key `text`, loaded, with the time it
    /// took and how its code was made ready; `None` when there is no sound
    /// entry (a refused one is removed and noted under `key`).
    fn load_entry(
        &self,
        disk: &DiskCache,
        text: &str,
        key: &PlanKey,
        notes: &RefCell<Vec<DiskNote>>,
    ) -> Option<(CompiledModel, f64, String)> {
        let start = Instant::now();
        let mut expect = Expect::new(HOST_TARGET);
        expect.recipe_sha256 = Some(self.options.recipe_sha256.clone());
        // The plan is parsed and checked while the checksum is computed;
        // its library is loaded only once the checksum matched.
        let read = |artifact: &Artifact, shown: &str| {
            load_plan(artifact, shown, &expect, &|_| {}).map_err(|e| e.to_string())
        };
        let found = disk.read(text, read).and_then(|entry| {
            let Some((artifact, shown, plan)) = entry else {
                return Ok(None);
            };
            let (model, load) =
                CompiledModel::from_loaded_plan(&artifact, &shown, plan, self.threads)
                    .map_err(|e| e.to_string())?;
            Ok(Some((model, load)))
        });
        match found {
            Ok(None) => None,
            Ok(Some((model, load))) => {
                let reason = match load {
                    KernelLoad::Library => "machine code loaded".to_string(),
                    KernelLoad::Bitcode(why) => format!("code generated from bitcode: {why}"),
                };
                Some((model, start.elapsed().as_secs_f64() * 1e3, reason))
            }
            Err(why) => {
                disk.reject(text, key, why, notes);
                None
            }
        }
    }

    /// Lowers `module` (the function specialized to `inputs`' shapes, the
    /// inputs `pin` marks as constants), writes its artifact as the disk
    /// entry of its key and runs the plan from that artifact.
    pub(crate) fn compile_to_disk(
        &self,
        disk: &DiskCache,
        ctx: &mut Context,
        module: Operation,
        inputs: &[Tensor],
        pin: Option<&[bool]>,
        notes: &RefCell<Vec<DiskNote>>,
    ) -> Result<CompiledModel, CompileError> {
        let function = &self.options.function;
        let no_pins = vec![false; inputs.len()];
        let pinned =
            compiled::specialize_pinned(ctx, module, function, inputs, pin.unwrap_or(&no_pins))?;
        compiled::run_passes(ctx, module, &self.options.pipeline)?;
        // The key is the model's inputs': a masked plan's real sizes follow.
        let key = self.key(&inputs[..self.inputs.len().min(inputs.len())], pin);
        let input_names = self
            .inputs
            .iter()
            .map(|s| s.name.clone())
            .chain((self.inputs.len()..inputs.len()).map(|i| format!("length_{i}")))
            .collect();
        let entry = Entry {
            function,
            input_names,
            output_names: self.outputs.clone(),
            text: disk.key_text(&key),
            key,
            label: String::new(),
        };
        Ok(self
            .lowered_to_disk(disk, ctx, module, entry, notes)?
            .with_pinned(pinned))
    }

    /// Hybrid mode: a compiled segment `f` (or the function, when it
    /// compiles whole) of inputs of `shapes` from the disk cache, when the
    /// session has one and it holds a sound entry: the plan, the time the
    /// load took and how its code was made ready. `digest` is
    /// [`segment_digest`]'s; `key` the run's, for the events.
    pub(crate) fn segment_from_disk(
        &self,
        name: &str,
        digest: &str,
        shapes: &[Vec<usize>],
        key: &PlanKey,
        notes: &RefCell<Vec<DiskNote>>,
    ) -> Option<(CompiledModel, f64, String)> {
        let disk = self.disk.as_ref()?;
        let text = disk.segment_text(name, digest, shapes);
        self.load_entry(disk, &text, key, notes)
    }

    /// Hybrid mode: compiles function `name` of `module` (a copy the
    /// compile changes) at `shapes`; with a disk cache, its artifact is
    /// written as the segment's entry and the plan runs from it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn compile_segment(
        &self,
        ctx: &mut Context,
        module: Operation,
        name: &str,
        digest: &str,
        shapes: &[Vec<usize>],
        key: &PlanKey,
        notes: &RefCell<Vec<DiskNote>>,
    ) -> Result<CompiledModel, CompileError> {
        let pipeline = &self.options.pipeline;
        let Some(disk) = &self.disk else {
            return compiled::compile_with(ctx, module, name, shapes, self.threads, pipeline);
        };
        compiled::specialize(ctx, module, name, shapes)?;
        compiled::run_passes(ctx, module, pipeline)?;
        let f = crate::interp::lookup_function(ctx, module, name)
            .ok_or_else(|| CompileError::Inputs(format!("no function @{name}")))?;
        let (ins, outs) = strata_dialects::func::function_signature(ctx, f).unwrap_or_default();
        let entry = Entry {
            function: name,
            input_names: super::io_names(ctx, f, "arg_attrs", "input", ins.len()),
            output_names: super::io_names(ctx, f, "res_attrs", "output", outs.len()),
            text: disk.segment_text(name, digest, shapes),
            key: key.clone(),
            label: format!("{name}: "),
        };
        self.lowered_to_disk(disk, ctx, module, entry, notes)
    }

    /// Writes the artifact of `module` (lowered) as the disk entry `entry`
    /// and runs the plan from that artifact; plans that the disk does not
    /// keep run as lowered.
    fn lowered_to_disk(
        &self,
        disk: &DiskCache,
        ctx: &mut Context,
        module: Operation,
        entry: Entry<'_>,
        notes: &RefCell<Vec<DiskNote>>,
    ) -> Result<CompiledModel, CompileError> {
        let Entry {
            function,
            input_names,
            output_names,
            text,
            key,
            label,
        } = entry;
        // Plans that call custom ops (bound to the libraries registered in
        // this process) or run GPU kernels emulated are not kept on disk.
        let custom = ctx
            .nested_ops(module, strata_ir::WalkOrder::PreOrder)
            .into_iter()
            .any(|o| ctx.op_name_str(o) == "kernel.custom_call");
        let target = crate::artifact::module_target(ctx, module);
        if custom || target != HOST_TARGET {
            let why = if custom {
                format!("{label}not kept on disk: the plan calls custom ops")
            } else {
                format!("{label}not kept on disk: the plan's kernels are for {target}")
            };
            notes.borrow_mut().push(DiskNote {
                kind: EventKind::DiskSkipped,
                key,
                reason: why,
                ms: 0.0,
            });
            return compiled::from_lowered(ctx, module, function, self.threads);
        }
        let source = ArtifactSource {
            model: self.options.model_name.clone(),
            model_sha256: disk.model_sha256.clone(),
            function: function.to_string(),
            recipe_sha256: self.options.recipe_sha256.clone(),
            recipe: self.options.recipe.clone(),
            input_names,
            output_names,
            ..ArtifactSource::default()
        };
        let built = build_artifact(ctx, module, &source)?;
        let key_section = (KEY_SECTION.to_string(), text.clone().into_bytes());
        let entry = |machine_code_only: bool| {
            let mut manifest = built.manifest.clone();
            let mut sections: Vec<(String, Vec<u8>)> = built
                .sections()
                .filter(|(n, _)| {
                    !machine_code_only
                        || *n != KERNELS_SECTION && !(n.starts_with("host/") && n.ends_with(".bc"))
                })
                .map(|(n, b)| (n.to_string(), b.to_vec()))
                .collect();
            if machine_code_only {
                for k in &mut manifest.kernels {
                    if let Selection::Generated { code, .. } = &mut k.selection {
                        *code = LIBRARY_SECTION.to_string();
                    }
                }
            }
            sections.push(key_section.clone());
            Artifact::new(manifest, sections)
        };
        let mut artifact = entry(false);
        // The plan runs from the artifact before the entry is written: an
        // entry that would not load is never kept.
        let mut expect = Expect::new(HOST_TARGET);
        expect.recipe_sha256 = Some(self.options.recipe_sha256.clone());
        let shown = disk.path(&text).display().to_string();
        let (model, load) =
            CompiledModel::load_artifact(&artifact, &shown, &expect, self.threads, &|_| {})
                .map_err(|e| CompileError::Plan(e.to_string()))?;
        if load == KernelLoad::Library {
            // An entry is read on this CPU only (the key names it): with
            // machine code that loads, the kernels' bitcode and tile
            // programs are not kept (two thirds of an entry of many small
            // kernels, read and hashed at each warm start for nothing).
            artifact = entry(true);
        }
        let start = Instant::now();
        let written = disk.write(&text, &artifact);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let (kind, reason) = match (written, load) {
            (Ok(bytes), KernelLoad::Library) => (
                EventKind::DiskWrite,
                format!("{label}{bytes} bytes, machine code"),
            ),
            (Ok(bytes), KernelLoad::Bitcode(why)) => (
                EventKind::DiskWrite,
                format!("{label}{bytes} bytes, bitcode only: {why}"),
            ),
            (Err(why), _) => (EventKind::DiskWriteFailed, format!("{label}{why}")),
        };
        notes.borrow_mut().push(DiskNote {
            kind,
            key,
            reason,
            ms,
        });
        Ok(model)
    }
}

/// A disk entry to write: the plan's function and its inputs' and
/// outputs' names (for the manifest), the key's text, the run's key (for
/// the events) and what the events' reasons start with.
struct Entry<'a> {
    function: &'a str,
    input_names: Vec<String>,
    output_names: Vec<String>,
    text: String,
    key: PlanKey,
    label: String,
}

/// The sha256 of function `f` as printed: hybrid mode's disk entries are
/// found by what a segment computes.
pub(crate) fn segment_digest(ctx: &Context, f: Operation) -> String {
    let text = strata_ir::printer::print_operation(ctx, f, Default::default());
    sha256_hex(text.as_bytes())
}

/// The inputs `pin` marks, by index.
fn pinned_values(inputs: &[Tensor], pin: Option<&[bool]>) -> Vec<(usize, Tensor)> {
    let Some(pin) = pin else {
        return Vec::new();
    };
    inputs
        .iter()
        .enumerate()
        .filter(|&(i, _)| pin.get(i).copied().unwrap_or(false))
        .map(|(i, t)| (i, t.clone()))
        .collect()
}
