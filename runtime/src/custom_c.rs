//! Custom ops from shared libraries, through strata's C ABI
//! (`runtime/include/strata/custom_op.h`).
//!
//! [`CustomOpLibrary::load`] opens a library, checks that it speaks ABI
//! version 1, lists its ops and hashes its bytes (sha256). [`register`]
//! makes each op a custom op of a context: the library's `infer` is its shape
//! function, its `compute` its kernel, in eager mode and in graph mode (a
//! `kernel.custom_call` step of the compiled plan). [`implementations`]
//! gives the (version, sha256) of each op, which a recipe's
//! `contracts.custom_ops` and an artifact's manifest are checked against.
//!
//! [`register`]: CustomOpLibrary::register
//! [`implementations`]: CustomOpLibrary::implementations

use std::collections::BTreeMap;
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;
use std::sync::Arc;

use strata_dialects::graph::custom::CustomOpDef;
use strata_dialects::graph::infer::{OperandInfo, ResultElem};
use strata_dialects::graph::shape::{Dim, Shape};
use strata_ir::{Attribute, Context};

use crate::interp::{dtype_of, register_custom_op, CustomOp};
use crate::tensor::{DType, Tensor, TensorData};

/// The ABI version this runtime speaks.
pub const ABI_VERSION: u32 = 1;
/// The most dimensions a tensor of the ABI has.
const MAX_RANK: usize = 8;
/// The size of the error buffer handed to the library.
const ERR_LEN: usize = 512;

#[repr(C)]
#[derive(Clone, Copy)]
struct TensorType {
    dtype: i32,
    rank: i32,
    dims: [i64; MAX_RANK],
}

#[repr(C)]
struct CTensor {
    ty: TensorType,
    data: *mut c_void,
}

type InferFn = unsafe extern "C" fn(
    *const c_char,
    *const TensorType,
    i32,
    *mut TensorType,
    i32,
    *mut c_char,
    usize,
) -> i32;
type ComputeFn = unsafe extern "C" fn(
    *const c_char,
    *const CTensor,
    i32,
    *mut CTensor,
    i32,
    *mut c_char,
    usize,
) -> i32;

#[repr(C)]
struct OpDesc {
    name: *const c_char,
    op_version: i64,
    impl_version: *const c_char,
    num_inputs: i32,
    num_outputs: i32,
    infer: Option<InferFn>,
    compute: Option<ComputeFn>,
}

type EntryFn = unsafe extern "C" fn(u32, *mut i32) -> *const OpDesc;

/// Why a library could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("{path}: {message}")]
    Open { path: String, message: String },
    #[error("{path}: not a strata custom-op library: {message}")]
    Abi { path: String, message: String },
}

/// One op of a library.
#[derive(Clone, Debug)]
pub struct LibraryOp {
    pub name: String,
    /// `graph.custom`'s version.
    pub op_version: i64,
    /// The implementation's version (semver).
    pub impl_version: String,
    pub num_inputs: usize,
    pub num_outputs: usize,
    infer: InferFn,
    compute: ComputeFn,
}

/// A loaded custom-op library.
pub struct CustomOpLibrary {
    /// The library file.
    pub path: String,
    /// The sha256 (hex) of the file's bytes.
    pub sha256: String,
    /// Its ops.
    pub ops: Vec<LibraryOp>,
    library: Arc<libloading::Library>,
}

/// `s` (a C string the library owns) as a Rust string.
///
/// # Safety
/// `s` is null or a NUL-terminated string alive during the call.
unsafe fn c_string(s: *const c_char) -> Option<String> {
    // SAFETY: upheld by the caller.
    (!s.is_null()).then(|| unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned())
}

/// The C ABI's code of `d` (`None` for the narrow dtypes, which it lacks).
fn dtype_code(d: DType) -> Option<i32> {
    Some(match d {
        DType::F32 => 0,
        DType::F64 => 1,
        DType::F16 => 2,
        DType::BF16 => 3,
        DType::I1 => 4,
        DType::I8 => 5,
        DType::I16 => 6,
        DType::I32 => 7,
        DType::I64 => 8,
        DType::U8 => 9,
        DType::U16 => 10,
        DType::U32 => 11,
        DType::U64 => 12,
        _ => return None,
    })
}

fn dtype_of_code(code: i32) -> Option<DType> {
    DType::ALL
        .into_iter()
        .find(|&d| dtype_code(d) == Some(code))
}

/// The message the library wrote into `err`.
fn message(err: &[u8]) -> String {
    let end = err.iter().position(|&b| b == 0).unwrap_or(err.len());
    let text = String::from_utf8_lossy(&err[..end]).into_owned();
    if text.is_empty() {
        "failed (no message)".into()
    } else {
        text
    }
}

fn tensor_type(dtype: DType, dims: &[i64]) -> Result<TensorType, String> {
    if dims.len() > MAX_RANK {
        return Err(format!(
            "rank {} is more than the C ABI's {MAX_RANK}",
            dims.len()
        ));
    }
    let code =
        dtype_code(dtype).ok_or_else(|| format!("dtype {dtype} has no code in the C ABI"))?;
    let mut t = TensorType {
        dtype: code,
        rank: dims.len() as i32,
        dims: [0; MAX_RANK],
    };
    t.dims[..dims.len()].copy_from_slice(dims);
    Ok(t)
}

impl LibraryOp {
    /// The library's `infer` on `inputs`; `config` as MLIR text.
    fn infer(
        &self,
        config: Option<&CString>,
        inputs: &[TensorType],
    ) -> Result<Vec<TensorType>, String> {
        let mut outputs = vec![
            TensorType {
                dtype: 0,
                rank: 0,
                dims: [0; MAX_RANK],
            };
            self.num_outputs
        ];
        let mut err = [0u8; ERR_LEN];
        // SAFETY: the arrays have the lengths passed; the library writes at
        // most `num_outputs` types and `ERR_LEN` bytes.
        let status = unsafe {
            (self.infer)(
                config.map_or(std::ptr::null(), |c| c.as_ptr()),
                inputs.as_ptr(),
                inputs.len() as i32,
                outputs.as_mut_ptr(),
                outputs.len() as i32,
                err.as_mut_ptr().cast(),
                ERR_LEN,
            )
        };
        if status != 0 {
            return Err(message(&err));
        }
        for o in &outputs {
            if !(0..=MAX_RANK as i32).contains(&o.rank) || dtype_of_code(o.dtype).is_none() {
                return Err(format!(
                    "infer gave a result of rank {} and dtype {}",
                    o.rank, o.dtype
                ));
            }
        }
        Ok(outputs)
    }

    /// The op's results on `inputs`.
    fn compute(
        &self,
        config: Result<Option<CString>, String>,
        inputs: &[Tensor],
    ) -> Result<Vec<Tensor>, String> {
        let config = config?;
        let config = config.as_ref();
        if inputs.len() != self.num_inputs {
            return Err(format!(
                "takes {} inputs, got {}",
                self.num_inputs,
                inputs.len()
            ));
        }
        let types = inputs
            .iter()
            .map(|t| {
                let dims: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
                tensor_type(t.dtype(), &dims)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let out_types = self.infer(config, &types)?;
        let mut outputs = Vec::with_capacity(out_types.len());
        for t in &out_types {
            let dtype = dtype_of_code(t.dtype).ok_or("infer gave an unknown dtype")?;
            let dims = &t.dims[..t.rank as usize];
            if dims.iter().any(|&d| d < 0) {
                return Err("infer left a dimension unknown for concrete inputs".into());
            }
            let shape: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
            let n = shape
                .iter()
                .try_fold(1usize, |n, &d| n.checked_mul(d))
                .filter(|&n| {
                    n.saturating_mul(dtype.byte_size()) <= crate::interp::MAX_MATERIALIZED_BYTES
                })
                .ok_or_else(|| format!("infer gave an output of shape {shape:?}, too large"))?;
            outputs.push((shape, TensorData::zeros(dtype, n)));
        }
        // The library reads the inputs through `data` (it must not write them).
        let c_inputs: Vec<CTensor> = inputs
            .iter()
            .zip(&types)
            .map(|(t, &ty)| CTensor {
                ty,
                data: t.data().as_bytes().as_ptr() as *mut c_void,
            })
            .collect();
        // An `i1` output is written into bytes of its own, never into the
        // tensor's `bool`s: a library that writes 2 or 0xFF there (the ABI
        // asks for 0 or 1) would make them invalid. Any non-zero byte is
        // true.
        let mut bool_bytes: Vec<Option<Vec<u8>>> = outputs
            .iter()
            .map(|(_, data)| (data.dtype() == DType::I1).then(|| vec![0u8; data.len()]))
            .collect();
        let mut c_outputs: Vec<CTensor> = outputs
            .iter_mut()
            .zip(&out_types)
            .zip(&mut bool_bytes)
            .map(|(((_, data), &ty), bools)| CTensor {
                ty,
                data: match bools {
                    Some(bytes) => bytes.as_mut_ptr().cast(),
                    // SAFETY: the bytes of a tensor strata allocated, of a
                    // dtype any byte pattern is a valid value of.
                    None => unsafe { data.as_bytes_mut().as_mut_ptr().cast() },
                },
            })
            .collect();
        let mut err = [0u8; ERR_LEN];
        // SAFETY: every tensor's data holds its type's elements; the library
        // writes only the outputs and at most `ERR_LEN` bytes of `err`.
        let status = unsafe {
            (self.compute)(
                config.map_or(std::ptr::null(), |c| c.as_ptr()),
                c_inputs.as_ptr(),
                c_inputs.len() as i32,
                c_outputs.as_mut_ptr(),
                c_outputs.len() as i32,
                err.as_mut_ptr().cast(),
                ERR_LEN,
            )
        };
        if status != 0 {
            return Err(message(&err));
        }
        Ok(outputs
            .into_iter()
            .zip(bool_bytes)
            .map(|((shape, data), bools)| match bools {
                Some(bytes) => {
                    let values: Vec<f64> =
                        bytes.iter().map(|&b| f64::from(u8::from(b != 0))).collect();
                    Tensor::from_f64_vec(DType::I1, &shape, &values)
                }
                None => Tensor::from_parts(shape, data),
            })
            .collect())
    }
}

/// `config` as the text the library reads (an error for text with a NUL).
fn config_text(ctx: &Context, config: Option<Attribute>) -> Result<Option<CString>, String> {
    let Some(config) = config else {
        return Ok(None);
    };
    let text = strata_ir::printer::attribute_to_string(ctx, config);
    CString::new(text)
        .map(Some)
        .map_err(|_| "the config's text holds a NUL byte".to_string())
}

impl CustomOpLibrary {
    /// Opens the library at `path`, checks its ABI and lists its ops.
    pub fn load(path: &Path) -> Result<CustomOpLibrary, LibraryError> {
        let name = path.display().to_string();
        let open = |message: String| LibraryError::Open {
            path: name.clone(),
            message,
        };
        let abi = |message: String| LibraryError::Abi {
            path: name.clone(),
            message,
        };
        // The file hashed is the file loaded: an absolute path (a bare name
        // would make the loader search its own paths).
        let path = std::fs::canonicalize(path).map_err(|e| open(e.to_string()))?;
        let bytes = std::fs::read(&path).map_err(|e| open(e.to_string()))?;
        let sha256 = strata_artifact::sha256_hex(&bytes);
        // SAFETY: loading a library runs its initializers; a custom-op
        // library is code the user chose to run.
        let library =
            unsafe { libloading::Library::new(&path) }.map_err(|e| open(e.to_string()))?;
        // SAFETY: the symbol has the ABI's type (checked by its name and the
        // version handshake below).
        let entry: libloading::Symbol<'_, EntryFn> = unsafe { library.get(b"strata_custom_ops\0") }
            .map_err(|_| abi("it defines no `strata_custom_ops`".into()))?;
        let mut count = 0i32;
        // SAFETY: the ABI's entry point.
        let descs = unsafe { entry(ABI_VERSION, &mut count) };
        if descs.is_null() || count < 0 {
            return Err(abi(format!(
                "it does not speak the custom-op ABI version {ABI_VERSION}"
            )));
        }
        // SAFETY: the library returns `count` descriptors that live as long
        // as it does.
        let descs = unsafe { std::slice::from_raw_parts(descs, count as usize) };
        let mut ops = Vec::new();
        for (i, d) in descs.iter().enumerate() {
            // SAFETY: NUL-terminated strings the library owns.
            let (op_name, impl_version) = unsafe { (c_string(d.name), c_string(d.impl_version)) };
            let op_name = op_name.ok_or_else(|| abi(format!("op #{i} has no name")))?;
            let (Some(infer), Some(compute)) = (d.infer, d.compute) else {
                return Err(abi(format!("op '{op_name}' lacks infer or compute")));
            };
            if d.num_inputs < 0 || d.num_outputs < 1 {
                return Err(abi(format!(
                    "op '{op_name}' declares {} inputs and {} outputs",
                    d.num_inputs, d.num_outputs
                )));
            }
            ops.push(LibraryOp {
                name: op_name,
                op_version: d.op_version,
                impl_version: impl_version.unwrap_or_default(),
                num_inputs: d.num_inputs as usize,
                num_outputs: d.num_outputs as usize,
                infer,
                compute,
            });
        }
        Ok(CustomOpLibrary {
            path: name,
            sha256,
            ops,
            library: Arc::new(library),
        })
    }

    /// Registers every op of the library with `ctx` (shape function and
    /// kernel; replacing ops of the same name and version).
    pub fn register(&self, ctx: &mut Context) {
        for op in &self.ops {
            let library = self.library.clone();
            let shape_op = op.clone();
            let shape_fn = Arc::new(
                move |ctx: &Context, config: Option<Attribute>, inputs: &[OperandInfo]| {
                    let _ = &library;
                    let config = config_text(ctx, config)?;
                    let mut types = Vec::new();
                    for info in inputs {
                        let dtype = dtype_of(ctx, info.elem)
                            .ok_or("an input of an element type the C ABI has not")?;
                        let dims: Vec<i64> = info
                            .shape
                            .dims()
                            .ok_or("an input of unknown rank")?
                            .iter()
                            .map(|d| d.known().unwrap_or(-1))
                            .collect();
                        types.push(tensor_type(dtype, &dims)?);
                    }
                    let results = shape_op.infer(config.as_ref(), &types)?;
                    results
                        .iter()
                        .map(|t| {
                            let dtype = dtype_of_code(t.dtype).ok_or("an unknown dtype")?;
                            let dims = t.dims[..t.rank as usize]
                                .iter()
                                .map(|&d| if d < 0 { Dim::Unknown } else { Dim::Known(d) })
                                .collect();
                            Ok((Shape::ranked(dims), result_elem(ctx, inputs, dtype)))
                        })
                        .collect()
                },
            );
            let library = self.library.clone();
            let kernel_op = op.clone();
            let kernel = Arc::new(
                move |ctx: &Context, config: Option<Attribute>, inputs: &[Tensor]| {
                    let _ = &library;
                    kernel_op.compute(config_text(ctx, config), inputs)
                },
            );
            let def = CustomOpDef {
                name: op.name.clone(),
                version: op.op_version,
                summary: format!("{} {} from {}", op.name, op.impl_version, self.path),
                shape_fn,
            };
            register_custom_op(ctx, CustomOp { def, kernel });
        }
    }

    /// Each op's implementation: name to (implementation version, sha256 of
    /// the library).
    pub fn implementations(&self) -> BTreeMap<String, (String, String)> {
        self.ops
            .iter()
            .map(|o| {
                (
                    o.name.clone(),
                    (o.impl_version.clone(), self.sha256.clone()),
                )
            })
            .collect()
    }
}

/// How a shape function names element type `dtype`: an input's type of
/// that dtype, or one the shape functions have a name for, else the type
/// the op declares.
fn result_elem(ctx: &Context, inputs: &[OperandInfo], dtype: DType) -> ResultElem {
    if let Some(i) = inputs.iter().find(|i| dtype_of(ctx, i.elem) == Some(dtype)) {
        return ResultElem::Of(i.elem);
    }
    match dtype {
        DType::I1 => ResultElem::I1,
        DType::I64 => ResultElem::I64,
        DType::F32 => ResultElem::F32,
        _ => ResultElem::Declared,
    }
}
