//! strata-artifact: a compiled model in one file, bound to what made it.
//!
//! An artifact (`model.strata`) is a [`Manifest`] (JSON: the model's and
//! the recipe's sha256, the recipe's canonical text, the compiler version and
//! build, the target, every kernel with its selection and launch data, the
//! buffer plan, the custom ops) followed by its payload, a list of named
//! sections (the host plan as MLIR, LLVM bitcode per kernel for the CPU,
//! PTX per kernel for a GPU), and a sha256 of everything before it.
//!
//! Reading checks the file before anything trusts it: a truncated or edited
//! file is refused ([`ArtifactError::Truncated`], [`ArtifactError::Checksum`]).
//! [`Artifact::check`] then compares the manifest with what the loader
//! runs under ([`Expect`]: the recipe given, this compiler's version, the
//! target, the custom ops registered) and refuses, naming every difference,
//! an artifact made by anything else ([`ArtifactError::Refused`]), as
//! TensorRT refuses an engine built by another version.
//!
//! This crate does not depend on LLVM or on the IR: a runtime that only
//! loads artifacts (a GPU deployment) reads them with it.
//!
//! ```
//! use strata_artifact::{Artifact, Expect, Manifest};
//!
//! let mut manifest = Manifest::new("host");
//! manifest.recipe_sha256 = "ab".repeat(32);
//! let artifact = Artifact::new(manifest, vec![("plan.mlir".into(), b"module {}".to_vec())]);
//! let bytes = artifact.to_bytes();
//! let read = Artifact::from_bytes(&bytes, "m.strata").unwrap();
//! assert_eq!(read.section("plan.mlir"), Some(&b"module {}"[..]));
//! read.check("m.strata", &Expect::new("host")).unwrap();
//!
//! let err = Artifact::from_bytes(&bytes[..bytes.len() - 1], "m.strata").unwrap_err();
//! assert!(err.to_string().contains("truncated"));
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The first bytes of every artifact.
pub const MAGIC: &[u8; 8] = b"\x89STRATA\n";

/// The version of the container and manifest layout this crate reads and
/// writes.
pub const FORMAT_VERSION: u32 = 1;

/// The version of the compiler that writes (and the runtime that loads)
/// artifacts: an artifact from another version is refused.
pub const COMPILER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit this compiler was built from ("unknown" outside a checkout).
/// Recorded in the manifest, shown by `strata inspect`; not compared.
pub const BUILD_HASH: &str = env!("STRATA_BUILD_HASH");

/// Bytes of the fixed header: magic, format version, reserved, manifest
/// length, payload length.
const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 8;
/// Bytes of the trailing checksum.
const TRAILER_BYTES: usize = 32;

/// The lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The dtype and shape of an input or output, with its name in the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorSpec {
    pub name: String,
    /// The dtype's name as the runtime spells it (`f32`, `i64`, `i1`, ...).
    pub dtype: String,
    pub shape: Vec<usize>,
}

/// A buffer a step reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BufferRef {
    /// The model's input `index` (read in place).
    Input { index: usize },
    /// Bytes of the arena at `offset`.
    Arena { offset: u64 },
    /// The plan's constant `index`.
    Constant { index: usize },
}

impl fmt::Display for BufferRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BufferRef::Input { index } => write!(f, "input#{index}"),
            BufferRef::Arena { offset } => write!(f, "arena+{offset}"),
            BufferRef::Constant { index } => write!(f, "const#{index}"),
        }
    }
}

/// How a step of the plan is carried out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "selection", rename_all = "lowercase")]
pub enum Selection {
    /// A kernel the compiler generated, launched on a grid of programs;
    /// its code is payload section `code`.
    Generated { grid: [i64; 3], code: String },
    /// A library routine (`gemm`: a batched strided matrix product of
    /// `m x k` by `k x n`).
    Library {
        library: String,
        m: usize,
        n: usize,
        k: usize,
        batch: Vec<i64>,
    },
    /// A registered custom op's kernel.
    Custom { op: String },
    /// A gather's indices checked on the host before it runs (element `k`
    /// in `[-s, s)` for `s = sizes[k mod len]`).
    Check { sizes: Vec<i64> },
}

/// One step of the plan, in launch order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelEntry {
    pub name: String,
    #[serde(flatten)]
    pub selection: Selection,
    /// The buffers of the call, in parameter order.
    pub args: Vec<BufferRef>,
}

/// A buffer of the arena and the steps that use it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferEntry {
    pub offset: u64,
    pub bytes: u64,
    /// The first and last step (indices into [`Manifest::kernels`]) that
    /// touch it; `None` for a buffer no step touches.
    pub live: Option<(usize, usize)>,
}

/// A custom op the plan calls, with the implementation it was compiled
/// against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomOpEntry {
    pub name: String,
    pub version: String,
    /// The sha256 of the implementation (the shared library's bytes).
    pub sha256: String,
}

/// What the recipe's `capture` section asked for, recorded for the exe
/// modes that act on it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureRecord {
    pub include_ops: Vec<String>,
    pub exclude_ops: Vec<String>,
    pub buckets: BTreeMap<String, Vec<i64>>,
    pub outside_buckets: String,
}

/// A named part of the payload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionEntry {
    pub name: String,
    /// The offset from the start of the payload.
    pub offset: u64,
    pub bytes: u64,
    /// The sha256 of the section's bytes, for tools that take sections
    /// apart (`strata inspect`). Reading does not recompute it: the file's
    /// checksum covers the manifest and every section.
    pub sha256: String,
}

/// The description of an artifact: what made it, what it runs, and where
/// its payload lies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format_version: u32,
    /// The model's file name, as given to the compiler.
    pub model: String,
    pub model_sha256: String,
    /// The compiled function.
    pub function: String,
    pub recipe_sha256: String,
    /// The recipe's canonical text (its sha256 is `recipe_sha256`).
    pub recipe: String,
    pub compiler_version: String,
    pub build_hash: String,
    /// `host`, `sm_80` or `sm_90`.
    pub target: String,
    /// The CPU the host code was optimized for (LLVM's name); another CPU
    /// runs it too, with the instructions it has.
    #[serde(default)]
    pub cpu: String,
    /// The CPU features the host code's shared library (section
    /// `host/kernels.so`) was compiled for: a loader runs the library only
    /// on a CPU with the same name and features, else it generates code
    /// from the bitcode.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cpu_features: String,
    /// Why a host artifact holds no shared library (no C compiler driver
    /// to link one): loaders generate code from its bitcode.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub library_missing: String,
    pub inputs: Vec<TensorSpec>,
    pub outputs: Vec<TensorSpec>,
    /// The steps of the plan, in launch order.
    pub kernels: Vec<KernelEntry>,
    pub buffers: Vec<BufferEntry>,
    /// The arena's bytes (activations with reuse).
    pub peak_activation_bytes: u64,
    /// The activations' bytes without reuse.
    pub peak_activation_bytes_unplanned: u64,
    pub custom_ops: Vec<CustomOpEntry>,
    pub capture: CaptureRecord,
    /// Filled in by [`Artifact::to_bytes`].
    pub sections: Vec<SectionEntry>,
}

impl Manifest {
    /// An empty manifest for `target`, stamped with this compiler.
    pub fn new(target: &str) -> Manifest {
        Manifest {
            format_version: FORMAT_VERSION,
            model: String::new(),
            model_sha256: String::new(),
            function: "main".into(),
            recipe_sha256: String::new(),
            recipe: String::new(),
            compiler_version: COMPILER_VERSION.into(),
            build_hash: BUILD_HASH.into(),
            target: target.into(),
            cpu: String::new(),
            cpu_features: String::new(),
            library_missing: String::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            kernels: Vec::new(),
            buffers: Vec::new(),
            peak_activation_bytes: 0,
            peak_activation_bytes_unplanned: 0,
            custom_ops: Vec::new(),
            capture: CaptureRecord::default(),
            sections: Vec::new(),
        }
    }
}

/// Why an artifact could not be read or was refused. `path` names the file.
/// What [`Artifact::from_vec_then`] refused: the file, or what was done
/// with it.
#[derive(Debug)]
pub enum Checked<E> {
    /// The file is not a sound artifact.
    Artifact(ArtifactError),
    /// The file is sound; the work on it failed.
    Then(E),
}

#[derive(Debug, thiserror::Error)]
pub enum ArtifactError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: error: not a strata artifact (it does not start with the artifact magic)")]
    NotAnArtifact { path: String },
    #[error(
        "{path}: error: artifact format version {found}; this compiler reads version {expected}"
    )]
    FormatVersion {
        path: String,
        found: u32,
        expected: u32,
    },
    #[error("{path}: error: the artifact is truncated: its header announces {expected} bytes, the file has {actual}")]
    Truncated {
        path: String,
        expected: u64,
        actual: u64,
    },
    #[error("{path}: error: checksum mismatch: the artifact was modified after it was written (sha256 {actual}, recorded {recorded})")]
    Checksum {
        path: String,
        recorded: String,
        actual: String,
    },
    #[error("{path}: error: payload section '{section}' {problem}")]
    Section {
        path: String,
        section: String,
        problem: String,
    },
    #[error("{path}: error: invalid manifest: {message}")]
    Manifest { path: String, message: String },
    #[error("{path}: error: the artifact was refused:\n{}", .mismatches.iter().map(|m| format!("  {m}")).collect::<Vec<_>>().join("\n"))]
    Refused {
        path: String,
        mismatches: Vec<Mismatch>,
    },
}

/// One way an artifact differs from what loads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    Recipe {
        artifact: String,
        given: String,
    },
    CompilerVersion {
        artifact: String,
        running: String,
    },
    Target {
        artifact: String,
        running: String,
    },
    CustomOpMissing {
        name: String,
    },
    CustomOp {
        name: String,
        field: &'static str,
        artifact: String,
        registered: String,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Recipe { artifact, given } => write!(
                f,
                "recipe: compiled with recipe sha256 {artifact}, but the recipe given has sha256 {given}"
            ),
            Mismatch::CompilerVersion { artifact, running } => write!(
                f,
                "compiler version: compiled by strata {artifact}, but this is strata {running}"
            ),
            Mismatch::Target { artifact, running } => write!(
                f,
                "target: compiled for {artifact}, but this runtime runs {running}"
            ),
            Mismatch::CustomOpMissing { name } => write!(
                f,
                "custom op '{name}': the artifact calls it, but it is not registered"
            ),
            Mismatch::CustomOp {
                name,
                field,
                artifact,
                registered,
            } => write!(
                f,
                "custom op '{name}': compiled against {field} {artifact}, but the registered implementation has {field} {registered}"
            ),
        }
    }
}

/// What the loader runs under, to compare an artifact's manifest with.
#[derive(Clone, Debug)]
pub struct Expect {
    /// The sha256 of the recipe the user gave (`None`: any recipe).
    pub recipe_sha256: Option<String>,
    pub compiler_version: String,
    /// The targets the runtime runs.
    pub targets: Vec<String>,
    /// Registered custom ops: name to (version, sha256).
    pub custom_ops: BTreeMap<String, (String, String)>,
}

impl Expect {
    /// This compiler, running `target`, no recipe given, no custom ops.
    pub fn new(target: &str) -> Expect {
        Expect {
            recipe_sha256: None,
            compiler_version: COMPILER_VERSION.into(),
            targets: vec![target.into()],
            custom_ops: BTreeMap::new(),
        }
    }
}

/// The bytes of one payload section: a range of a buffer that a read
/// artifact's sections share (the file, read once), or a buffer of its own.
#[derive(Clone, Debug)]
struct Bytes {
    buffer: std::sync::Arc<Vec<u8>>,
    range: std::ops::Range<usize>,
}

impl Bytes {
    fn owned(bytes: Vec<u8>) -> Bytes {
        let range = 0..bytes.len();
        Bytes {
            buffer: std::sync::Arc::new(bytes),
            range,
        }
    }

    fn as_slice(&self) -> &[u8] {
        &self.buffer[self.range.clone()]
    }
}

/// A manifest with its payload sections.
#[derive(Clone, Debug)]
pub struct Artifact {
    pub manifest: Manifest,
    sections: Vec<(String, Bytes)>,
}

impl PartialEq for Artifact {
    fn eq(&self, other: &Artifact) -> bool {
        self.manifest == other.manifest && self.sections().eq(other.sections())
    }
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

impl Artifact {
    /// `manifest` with the payload `sections` (name, bytes), in order.
    pub fn new(manifest: Manifest, sections: Vec<(String, Vec<u8>)>) -> Artifact {
        let sections = sections
            .into_iter()
            .map(|(n, b)| (n, Bytes::owned(b)))
            .collect();
        Artifact { manifest, sections }
    }

    /// The bytes of payload section `name`.
    pub fn section(&self, name: &str) -> Option<&[u8]> {
        self.sections
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }

    /// The payload's sections, in order.
    pub fn sections(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.sections
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
    }

    /// The file's bytes: header, manifest (with the sections' offsets,
    /// sizes and sha256 filled in), payload, checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut manifest = self.manifest.clone();
        manifest.format_version = FORMAT_VERSION;
        let mut offset = 0u64;
        manifest.sections = self
            .sections
            .iter()
            .map(|(name, bytes)| {
                let bytes = bytes.as_slice();
                let entry = SectionEntry {
                    name: name.clone(),
                    offset,
                    bytes: bytes.len() as u64,
                    sha256: sha256_hex(bytes),
                };
                offset += bytes.len() as u64;
                entry
            })
            .collect();
        // Serializing plain data (strings, integers, maps with string keys)
        // cannot fail.
        let json = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
        let mut out = Vec::with_capacity(HEADER_BYTES + json.len() + offset as usize + 32);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(json.len() as u64).to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&json);
        for (_, bytes) in &self.sections {
            out.extend_from_slice(bytes.as_slice());
        }
        let digest = Sha256::digest(&out);
        out.extend_from_slice(&digest);
        out
    }

    /// Whether `bytes` start like an artifact.
    pub fn sniff(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC)
    }

    /// Reads an artifact from its bytes; `path` names it in errors. The
    /// header, the checksum (of everything, the manifest and each section
    /// included), the manifest and every section's bounds are checked.
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<Artifact, ArtifactError> {
        Artifact::from_vec(bytes.to_vec(), path)
    }

    /// [`Artifact::from_bytes`] of bytes it keeps: the sections are ranges
    /// of them, not copies. The file's checksum is computed on a thread of
    /// its own while the manifest is read on this one (a checksum mismatch
    /// is still the error reported first).
    pub fn from_vec(bytes: Vec<u8>, path: &str) -> Result<Artifact, ArtifactError> {
        match Artifact::from_vec_then(bytes, path, |_| Ok::<(), ArtifactError>(())) {
            Ok((artifact, ())) => Ok(artifact),
            Err(Checked::Artifact(e) | Checked::Then(e)) => Err(e),
        }
    }

    /// [`Artifact::from_vec`], running `then` on the artifact while the
    /// file's checksum is computed on another thread, so that what a
    /// loader does with the bytes (parse them) overlaps the hashing. `then`
    /// sees bytes whose checksum is not known yet: it must only read them
    /// (parse, check), never trust them (run code from them); its result
    /// is returned only when the checksum matches, else the checksum error
    /// is.
    pub fn from_vec_then<T, E>(
        bytes: Vec<u8>,
        path: &str,
        then: impl FnOnce(&Artifact) -> Result<T, E>,
    ) -> Result<(Artifact, T), Checked<E>> {
        let path = path.to_string();
        let refuse = |e| Err(Checked::Artifact(e));
        if !Artifact::sniff(&bytes) {
            return refuse(ArtifactError::NotAnArtifact { path });
        }
        let actual = bytes.len() as u64;
        if bytes.len() < HEADER_BYTES {
            return refuse(ArtifactError::Truncated {
                path,
                expected: (HEADER_BYTES + TRAILER_BYTES) as u64,
                actual,
            });
        }
        let version = read_u32(&bytes, 8);
        if version != FORMAT_VERSION {
            return refuse(ArtifactError::FormatVersion {
                path,
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let manifest_len = read_u64(&bytes, 16);
        let payload_len = read_u64(&bytes, 24);
        let expected = (HEADER_BYTES as u64 + TRAILER_BYTES as u64)
            .checked_add(manifest_len)
            .and_then(|n| n.checked_add(payload_len))
            .unwrap_or(u64::MAX);
        if expected != actual {
            return refuse(ArtifactError::Truncated {
                path,
                expected,
                actual,
            });
        }
        let body = bytes.len() - TRAILER_BYTES;
        let buffer = std::sync::Arc::new(bytes);
        let (digest, made) = std::thread::scope(|scope| {
            let whole = || Sha256::digest(&buffer[..body]);
            // Without a thread to spare, the checksum is computed here.
            let digest = std::thread::Builder::new().spawn_scoped(scope, whole);
            let made = read_sections(&buffer, manifest_len, body, version, &path).map(
                |(manifest, ranges)| {
                    let sections = ranges
                        .into_iter()
                        .map(|(name, range)| {
                            let bytes = Bytes {
                                buffer: buffer.clone(),
                                range,
                            };
                            (name, bytes)
                        })
                        .collect();
                    let artifact = Artifact { manifest, sections };
                    let result = then(&artifact);
                    (artifact, result)
                },
            );
            // Hashing a slice does not panic; were it to, the file is refused.
            let digest = match digest {
                Ok(handle) => handle.join().unwrap_or_default(),
                Err(_) => whole(),
            };
            (digest, made)
        });
        let recorded = &buffer[body..];
        if digest.as_slice() != recorded {
            return refuse(ArtifactError::Checksum {
                path,
                recorded: recorded.iter().map(|b| format!("{b:02x}")).collect(),
                actual: digest.iter().map(|b| format!("{b:02x}")).collect(),
            });
        }
        match made {
            Err(e) => refuse(e),
            Ok((_, Err(e))) => Err(Checked::Then(e)),
            Ok((artifact, Ok(t))) => Ok((artifact, t)),
        }
    }

    /// Reads the artifact at `path`.
    pub fn read(path: &Path) -> Result<Artifact, ArtifactError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| ArtifactError::Io {
            path: name.clone(),
            source,
        })?;
        Artifact::from_vec(bytes, &name)
    }

    /// Writes the artifact to `path`.
    pub fn write(&self, path: &Path) -> Result<(), ArtifactError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| ArtifactError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// Every way the manifest differs from `expect`; `path` names the file.
    /// An empty list is an artifact this loader may run.
    pub fn mismatches(&self, expect: &Expect) -> Vec<Mismatch> {
        let m = &self.manifest;
        let mut out = Vec::new();
        if let Some(given) = &expect.recipe_sha256 {
            if *given != m.recipe_sha256 {
                out.push(Mismatch::Recipe {
                    artifact: m.recipe_sha256.clone(),
                    given: given.clone(),
                });
            }
        }
        if m.compiler_version != expect.compiler_version {
            out.push(Mismatch::CompilerVersion {
                artifact: m.compiler_version.clone(),
                running: expect.compiler_version.clone(),
            });
        }
        if !expect.targets.contains(&m.target) {
            out.push(Mismatch::Target {
                artifact: m.target.clone(),
                running: expect.targets.join(", "),
            });
        }
        for op in &m.custom_ops {
            match expect.custom_ops.get(&op.name) {
                None => out.push(Mismatch::CustomOpMissing {
                    name: op.name.clone(),
                }),
                Some((version, sha256)) => {
                    if *version != op.version {
                        out.push(Mismatch::CustomOp {
                            name: op.name.clone(),
                            field: "version",
                            artifact: op.version.clone(),
                            registered: version.clone(),
                        });
                    }
                    if *sha256 != op.sha256 {
                        out.push(Mismatch::CustomOp {
                            name: op.name.clone(),
                            field: "sha256",
                            artifact: op.sha256.clone(),
                            registered: sha256.clone(),
                        });
                    }
                }
            }
        }
        out
    }

    /// Refuses (with every difference) an artifact that [`Artifact::mismatches`]
    /// finds different from `expect`.
    pub fn check(&self, path: &str, expect: &Expect) -> Result<(), ArtifactError> {
        let mismatches = self.mismatches(expect);
        if mismatches.is_empty() {
            Ok(())
        } else {
            Err(ArtifactError::Refused {
                path: path.to_string(),
                mismatches,
            })
        }
    }
}

/// A manifest and the range of each payload section in the file's bytes.
type SectionRanges = (Manifest, Vec<(String, std::ops::Range<usize>)>);

/// The manifest of an artifact's `bytes` (of format `version`, its
/// manifest `manifest_len` bytes, its checksum at `body`) and the range of
/// each payload section in `bytes`, checked: the sections tile the payload
/// in order, each named once, each with its sha256.
fn read_sections(
    bytes: &[u8],
    manifest_len: u64,
    body: usize,
    version: u32,
    path: &str,
) -> Result<SectionRanges, ArtifactError> {
    let manifest_end = HEADER_BYTES + manifest_len as usize;
    let manifest: Manifest =
        serde_json::from_slice(&bytes[HEADER_BYTES..manifest_end]).map_err(|e| {
            ArtifactError::Manifest {
                path: path.to_string(),
                message: e.to_string(),
            }
        })?;
    let payload = &bytes[manifest_end..body];
    if manifest.format_version != version {
        return Err(ArtifactError::Manifest {
            path: path.to_string(),
            message: format!(
                "format_version {} differs from the header's {version}",
                manifest.format_version
            ),
        });
    }
    let mut sections: Vec<(String, std::ops::Range<usize>)> =
        Vec::with_capacity(manifest.sections.len());
    // The sections tile the payload in order, each name once.
    let mut next = 0u64;
    for s in &manifest.sections {
        let section_error = |problem: String| ArtifactError::Section {
            path: path.to_string(),
            section: s.name.clone(),
            problem,
        };
        if s.offset != next || sections.iter().any(|(n, _)| *n == s.name) {
            return Err(section_error(format!(
                "is at offset {} (expected {next}, after the previous section) or named twice",
                s.offset
            )));
        }
        next = s.offset.saturating_add(s.bytes);
        let range = usize::try_from(s.offset).ok().and_then(|start| {
            let end = start.checked_add(usize::try_from(s.bytes).ok()?)?;
            (end <= payload.len()).then_some(start..end)
        });
        let Some(range) = range else {
            return Err(section_error(format!(
                "lies outside the payload ({} bytes at {}, the payload has {})",
                s.bytes,
                s.offset,
                payload.len()
            )));
        };
        let start = manifest_end + range.start;
        sections.push((s.name.clone(), start..start + range.len()));
    }
    if next != payload.len() as u64 {
        return Err(ArtifactError::Manifest {
            path: path.to_string(),
            message: format!(
                "the sections hold {next} bytes, the payload {}",
                payload.len()
            ),
        });
    }
    Ok((manifest, sections))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Artifact {
        let mut m = Manifest::new("host");
        m.recipe_sha256 = "1".repeat(64);
        m.custom_ops.push(CustomOpEntry {
            name: "my.op".into(),
            version: "1.2.3".into(),
            sha256: "2".repeat(64),
        });
        Artifact::new(
            m,
            vec![
                ("plan.mlir".into(), b"module {}\n".to_vec()),
                ("kernel/k0.bc".into(), vec![0xde, 0xad, 0xbe, 0xef]),
            ],
        )
    }

    fn expect() -> Expect {
        let mut e = Expect::new("host");
        e.custom_ops
            .insert("my.op".into(), ("1.2.3".into(), "2".repeat(64)));
        e
    }

    #[test]
    fn round_trips() {
        let a = sample();
        let b = Artifact::from_bytes(&a.to_bytes(), "a").unwrap();
        assert_eq!(b.sections().count(), 2);
        assert_eq!(
            b.section("kernel/k0.bc"),
            Some(&[0xde, 0xad, 0xbe, 0xef][..])
        );
        assert_eq!(b.manifest.sections[1].offset, 10);
        b.check("a", &expect()).unwrap();
    }

    #[test]
    fn every_truncation_is_refused() {
        let bytes = sample().to_bytes();
        for len in 0..bytes.len() {
            let err = Artifact::from_bytes(&bytes[..len], "a").unwrap_err();
            match err {
                ArtifactError::Truncated { .. } => {}
                ArtifactError::NotAnArtifact { .. } if len < MAGIC.len() => {}
                other => panic!("{len} bytes: {other}"),
            }
        }
    }

    #[test]
    fn every_edited_byte_is_refused() {
        let bytes = sample().to_bytes();
        for i in 0..bytes.len() {
            let mut edited = bytes.clone();
            edited[i] ^= 0x20;
            assert!(Artifact::from_bytes(&edited, "a").is_err(), "byte {i}");
        }
    }

    #[test]
    fn sections_are_named_once() {
        let mut a = sample();
        a.sections
            .push(("plan.mlir".into(), Bytes::owned(b"again".to_vec())));
        let err = Artifact::from_bytes(&a.to_bytes(), "a")
            .unwrap_err()
            .to_string();
        assert!(err.contains("named twice"), "{err}");
    }

    #[test]
    fn refusals_name_what_differs() {
        let a = sample();
        let mut e = expect();
        e.recipe_sha256 = Some("3".repeat(64));
        e.compiler_version = "9.9.9".into();
        e.targets = vec!["sm_90".into()];
        e.custom_ops
            .insert("my.op".into(), ("1.2.4".into(), "4".repeat(64)));
        let text = a.check("m.strata", &e).unwrap_err().to_string();
        for want in [
            "m.strata: error: the artifact was refused",
            "recipe: compiled with recipe sha256 1111",
            "compiled by strata 0.1.0, but this is strata 9.9.9",
            "target: compiled for host, but this runtime runs sm_90",
            "compiled against version 1.2.3, but the registered implementation has version 1.2.4",
            "compiled against sha256 2222",
        ] {
            assert!(text.contains(want), "{want} not in:\n{text}");
        }
        e.custom_ops.clear();
        assert!(a.mismatches(&e).contains(&Mismatch::CustomOpMissing {
            name: "my.op".into()
        }));
    }
}
