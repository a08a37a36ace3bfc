//! The host tensor: a shape and a contiguous row-major buffer of one dtype.

pub use crate::dtype::DType;
use crate::narrow;

use half::{bf16, f16};

use crate::kernels::KernelError;

/// The element buffer of a [`Tensor`], one variant per [`DType`].
#[derive(Clone, Debug, PartialEq)]
pub enum TensorData {
    /// `f16` elements.
    F16(Vec<f16>),
    /// `bf16` elements.
    BF16(Vec<bf16>),
    /// `f32` elements.
    F32(Vec<f32>),
    /// `f64` elements.
    F64(Vec<f64>),
    /// `i1` elements.
    I1(Vec<bool>),
    /// `i8` elements.
    I8(Vec<i8>),
    /// `i16` elements.
    I16(Vec<i16>),
    /// `i32` elements.
    I32(Vec<i32>),
    /// `i64` elements.
    I64(Vec<i64>),
    /// `ui8` elements.
    U8(Vec<u8>),
    /// `ui16` elements.
    U16(Vec<u16>),
    /// `ui32` elements.
    U32(Vec<u32>),
    /// `ui64` elements.
    U64(Vec<u64>),
    /// Elements of a narrow dtype ([`DType::is_narrow`]), one per byte.
    Narrow(DType, Vec<u8>),
}

/// Applies `$body` to the vector inside any variant and wraps the resulting
/// vector (of the same element type) back into the same variant.
macro_rules! map_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            TensorData::F16($v) => TensorData::F16($body),
            TensorData::BF16($v) => TensorData::BF16($body),
            TensorData::F32($v) => TensorData::F32($body),
            TensorData::F64($v) => TensorData::F64($body),
            TensorData::I1($v) => TensorData::I1($body),
            TensorData::I8($v) => TensorData::I8($body),
            TensorData::I16($v) => TensorData::I16($body),
            TensorData::I32($v) => TensorData::I32($body),
            TensorData::I64($v) => TensorData::I64($body),
            TensorData::U8($v) => TensorData::U8($body),
            TensorData::U16($v) => TensorData::U16($body),
            TensorData::U32($v) => TensorData::U32($body),
            TensorData::U64($v) => TensorData::U64($body),
            TensorData::Narrow(d, $v) => TensorData::Narrow(*d, $body),
        }
    };
}

/// Index value that [`TensorData::select_or`] replaces by the fill element.
pub(crate) const FILL: usize = usize::MAX;

impl TensorData {
    /// The elements' bytes, in place: little-endian on the hosts strata
    /// runs on (`i1`: one byte each, 0 or 1, as `bool` is stored).
    pub fn as_bytes(&self) -> &[u8] {
        macro_rules! bytes {
            ($v:expr) => {{
                let v = $v;
                // SAFETY: plain numeric (or `bool`) elements, no padding;
                // the slice covers exactly the vector's initialized elements.
                unsafe {
                    std::slice::from_raw_parts(
                        v.as_ptr() as *const u8,
                        std::mem::size_of_val(v.as_slice()),
                    )
                }
            }};
        }
        match self {
            TensorData::F16(v) => bytes!(v),
            TensorData::BF16(v) => bytes!(v),
            TensorData::F32(v) => bytes!(v),
            TensorData::F64(v) => bytes!(v),
            TensorData::I1(v) => bytes!(v),
            TensorData::I8(v) => bytes!(v),
            TensorData::I16(v) => bytes!(v),
            TensorData::I32(v) => bytes!(v),
            TensorData::I64(v) => bytes!(v),
            TensorData::U8(v) => bytes!(v),
            TensorData::U16(v) => bytes!(v),
            TensorData::U32(v) => bytes!(v),
            TensorData::U64(v) => bytes!(v),
            TensorData::Narrow(_, v) => bytes!(v),
        }
    }

    /// The elements' bytes, in place and writable. Every byte pattern is a
    /// valid element except for `i1` (`bool`): writers must store 0 or 1.
    ///
    /// # Safety
    /// For `I1`, the caller writes only 0 or 1 into each byte.
    pub unsafe fn as_bytes_mut(&mut self) -> &mut [u8] {
        macro_rules! bytes {
            ($v:expr) => {{
                let v = $v;
                let len = std::mem::size_of_val(v.as_slice());
                // SAFETY: as in `as_bytes`, with the caller's promise for `bool`.
                unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, len) }
            }};
        }
        match self {
            TensorData::F16(v) => bytes!(v),
            TensorData::BF16(v) => bytes!(v),
            TensorData::F32(v) => bytes!(v),
            TensorData::F64(v) => bytes!(v),
            TensorData::I1(v) => bytes!(v),
            TensorData::I8(v) => bytes!(v),
            TensorData::I16(v) => bytes!(v),
            TensorData::I32(v) => bytes!(v),
            TensorData::I64(v) => bytes!(v),
            TensorData::U8(v) => bytes!(v),
            TensorData::U16(v) => bytes!(v),
            TensorData::U32(v) => bytes!(v),
            TensorData::U64(v) => bytes!(v),
            TensorData::Narrow(_, v) => bytes!(v),
        }
    }

    /// The dtype of the elements.
    pub fn dtype(&self) -> DType {
        match self {
            TensorData::F16(_) => DType::F16,
            TensorData::BF16(_) => DType::BF16,
            TensorData::F32(_) => DType::F32,
            TensorData::F64(_) => DType::F64,
            TensorData::I1(_) => DType::I1,
            TensorData::I8(_) => DType::I8,
            TensorData::I16(_) => DType::I16,
            TensorData::I32(_) => DType::I32,
            TensorData::I64(_) => DType::I64,
            TensorData::U8(_) => DType::U8,
            TensorData::U16(_) => DType::U16,
            TensorData::U32(_) => DType::U32,
            TensorData::U64(_) => DType::U64,
            TensorData::Narrow(d, _) => *d,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            TensorData::F16(v) => v.len(),
            TensorData::BF16(v) => v.len(),
            TensorData::F32(v) => v.len(),
            TensorData::F64(v) => v.len(),
            TensorData::I1(v) => v.len(),
            TensorData::I8(v) => v.len(),
            TensorData::I16(v) => v.len(),
            TensorData::I32(v) => v.len(),
            TensorData::I64(v) => v.len(),
            TensorData::U8(v) => v.len(),
            TensorData::U16(v) => v.len(),
            TensorData::U32(v) => v.len(),
            TensorData::U64(v) => v.len(),
            TensorData::Narrow(_, v) => v.len(),
        }
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at flat index `i` alone (`None` past the end).
    pub fn element(&self, i: usize) -> Option<TensorData> {
        (i < self.len()).then(|| map_data!(self, v => vec![v[i]]))
    }

    /// `n` zero (or `false`) elements of `dtype`.
    pub fn zeros(dtype: DType, n: usize) -> TensorData {
        match dtype {
            DType::F16 => TensorData::F16(vec![f16::ZERO; n]),
            DType::BF16 => TensorData::BF16(vec![bf16::ZERO; n]),
            DType::F32 => TensorData::F32(vec![0.0; n]),
            DType::F64 => TensorData::F64(vec![0.0; n]),
            DType::I1 => TensorData::I1(vec![false; n]),
            DType::I8 => TensorData::I8(vec![0; n]),
            DType::I16 => TensorData::I16(vec![0; n]),
            DType::I32 => TensorData::I32(vec![0; n]),
            DType::I64 => TensorData::I64(vec![0; n]),
            DType::U8 => TensorData::U8(vec![0; n]),
            DType::U16 => TensorData::U16(vec![0; n]),
            DType::U32 => TensorData::U32(vec![0; n]),
            DType::U64 => TensorData::U64(vec![0; n]),
            d => TensorData::Narrow(d, vec![narrow::encode(d, 0.0); n]),
        }
    }

    /// Converts `values` to `dtype`: floats round to nearest, integers
    /// truncate toward zero and saturate (NaN becomes 0), `i1` is `v != 0`.
    pub fn from_f64_slice(dtype: DType, values: &[f64]) -> TensorData {
        match dtype {
            DType::F16 => TensorData::F16(values.iter().map(|&v| f16::from_f64(v)).collect()),
            DType::BF16 => TensorData::BF16(values.iter().map(|&v| bf16::from_f64(v)).collect()),
            DType::F32 => TensorData::F32(values.iter().map(|&v| v as f32).collect()),
            DType::F64 => TensorData::F64(values.to_vec()),
            DType::I1 => TensorData::I1(values.iter().map(|&v| v != 0.0).collect()),
            DType::I8 => TensorData::I8(values.iter().map(|&v| v as i8).collect()),
            DType::I16 => TensorData::I16(values.iter().map(|&v| v as i16).collect()),
            DType::I32 => TensorData::I32(values.iter().map(|&v| v as i32).collect()),
            DType::I64 => TensorData::I64(values.iter().map(|&v| v as i64).collect()),
            DType::U8 => TensorData::U8(values.iter().map(|&v| v as u8).collect()),
            DType::U16 => TensorData::U16(values.iter().map(|&v| v as u16).collect()),
            DType::U32 => TensorData::U32(values.iter().map(|&v| v as u32).collect()),
            DType::U64 => TensorData::U64(values.iter().map(|&v| v as u64).collect()),
            d => TensorData::Narrow(d, values.iter().map(|&v| narrow::encode(d, v)).collect()),
        }
    }

    /// [`TensorData::from_f64_slice`], but values out of a narrow float
    /// dtype's range (and ±Inf) become its largest finite value of their
    /// sign (ONNX's saturating cast).
    pub fn from_f64_slice_saturating(dtype: DType, values: &[f64]) -> TensorData {
        if !dtype.is_narrow_float() {
            return TensorData::from_f64_slice(dtype, values);
        }
        let bytes = values.iter().map(|&v| narrow::encode_saturating(dtype, v));
        TensorData::Narrow(dtype, bytes.collect())
    }

    /// Converts `values` to `dtype`: integers wrap (two's complement
    /// truncation), floats round to nearest, `i1` is `v != 0`.
    pub fn from_i64_slice(dtype: DType, values: &[i64]) -> TensorData {
        match dtype {
            DType::F16 => {
                TensorData::F16(values.iter().map(|&v| f16::from_f64(v as f64)).collect())
            }
            DType::BF16 => {
                TensorData::BF16(values.iter().map(|&v| bf16::from_f64(v as f64)).collect())
            }
            DType::F32 => TensorData::F32(values.iter().map(|&v| v as f32).collect()),
            DType::F64 => TensorData::F64(values.iter().map(|&v| v as f64).collect()),
            DType::I1 => TensorData::I1(values.iter().map(|&v| v != 0).collect()),
            DType::I8 => TensorData::I8(values.iter().map(|&v| v as i8).collect()),
            DType::I16 => TensorData::I16(values.iter().map(|&v| v as i16).collect()),
            DType::I32 => TensorData::I32(values.iter().map(|&v| v as i32).collect()),
            DType::I64 => TensorData::I64(values.to_vec()),
            DType::U8 => TensorData::U8(values.iter().map(|&v| v as u8).collect()),
            DType::U16 => TensorData::U16(values.iter().map(|&v| v as u16).collect()),
            DType::U32 => TensorData::U32(values.iter().map(|&v| v as u32).collect()),
            DType::U64 => TensorData::U64(values.iter().map(|&v| v as u64).collect()),
            d => TensorData::Narrow(
                d,
                values.iter().map(|&v| narrow::encode_int(d, v)).collect(),
            ),
        }
    }

    /// Every element as `f64` (exact except for 64-bit integers beyond 2^53).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        match self {
            TensorData::F16(v) => v.iter().map(|x| x.to_f64()).collect(),
            TensorData::BF16(v) => v.iter().map(|x| x.to_f64()).collect(),
            TensorData::F32(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::F64(v) => v.clone(),
            TensorData::I1(v) => v.iter().map(|&x| if x { 1.0 } else { 0.0 }).collect(),
            TensorData::I8(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::I16(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::I32(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::I64(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::U8(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::U16(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::U32(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::U64(v) => v.iter().map(|&x| x as f64).collect(),
            TensorData::Narrow(d, v) => v.iter().map(|&x| narrow::decode(*d, x)).collect(),
        }
    }

    /// Every element as `i64`: floats truncate toward zero and saturate (NaN
    /// becomes 0), `i1` is 0 or 1, `ui64` keeps its bits (values of 2^63 and
    /// more read as negative: kernels that care about order or division
    /// reinterpret them as `u64`).
    pub fn to_i64_vec(&self) -> Vec<i64> {
        match self {
            TensorData::F16(v) => v.iter().map(|x| x.to_f64() as i64).collect(),
            TensorData::BF16(v) => v.iter().map(|x| x.to_f64() as i64).collect(),
            TensorData::F32(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::F64(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::I1(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::I8(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::I16(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::I32(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::I64(v) => v.clone(),
            TensorData::U8(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::U16(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::U32(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::U64(v) => v.iter().map(|&x| x as i64).collect(),
            TensorData::Narrow(d, v) => v.iter().map(|&x| narrow::decode_int(*d, x)).collect(),
        }
    }

    /// Every element as `i128`: exact for every integer dtype, signed or
    /// unsigned (floats truncate and saturate as in [`TensorData::to_i64_vec`]).
    pub fn to_i128_vec(&self) -> Vec<i128> {
        match self {
            TensorData::U64(v) => v.iter().map(|&x| x as i128).collect(),
            other => other.to_i64_vec().into_iter().map(i128::from).collect(),
        }
    }

    /// Converts `values` to `dtype`, integers keeping their low bits (two's
    /// complement wrapping), floats rounding to nearest.
    pub fn from_i128_slice(dtype: DType, values: &[i128]) -> TensorData {
        if dtype.is_float() {
            let wide: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            return TensorData::from_f64_slice(dtype, &wide);
        }
        let low: Vec<i64> = values.iter().map(|&v| v as i64).collect();
        TensorData::from_i64_slice(dtype, &low)
    }

    /// Every element as `f32`; used by the f32 compute paths (`f16`/`bf16`
    /// widen exactly).
    pub(crate) fn to_f32_vec(&self) -> Vec<f32> {
        match self {
            TensorData::F16(v) => v.iter().map(|x| x.to_f32()).collect(),
            TensorData::BF16(v) => v.iter().map(|x| x.to_f32()).collect(),
            TensorData::F32(v) => v.clone(),
            other => other.to_f64_vec().into_iter().map(|x| x as f32).collect(),
        }
    }

    /// Rounds f32 results once to `dtype` (a float dtype).
    pub(crate) fn from_f32_vec(dtype: DType, values: Vec<f32>) -> TensorData {
        match dtype {
            DType::F16 => TensorData::F16(values.iter().map(|&v| f16::from_f32(v)).collect()),
            DType::BF16 => TensorData::BF16(values.iter().map(|&v| bf16::from_f32(v)).collect()),
            DType::F32 => TensorData::F32(values),
            _ => {
                let wide: Vec<f64> = values.iter().map(|&v| v as f64).collect();
                TensorData::from_f64_slice(dtype, &wide)
            }
        }
    }

    /// The elements at `indices`, in order. Every index must be in bounds
    /// (kernels compute them from validated shapes).
    pub(crate) fn select(&self, indices: &[usize]) -> TensorData {
        map_data!(self, v => indices.iter().map(|&i| v[i]).collect())
    }

    /// Like [`TensorData::select`], but [`FILL`] indices take the single
    /// element of `fill` (which must have this dtype and one element).
    pub(crate) fn select_or(&self, indices: &[usize], fill: &TensorData) -> TensorData {
        let extended = TensorData::concat(&[self, fill]);
        let n = self.len();
        let remapped: Vec<usize> = indices
            .iter()
            .map(|&i| if i == FILL { n } else { i })
            .collect();
        extended.select(&remapped)
    }

    /// The elements of every part, one after the other. All parts must have
    /// the dtype of the first; an empty list gives empty `f32` data.
    pub(crate) fn concat(parts: &[&TensorData]) -> TensorData {
        let Some(first) = parts.first() else {
            return TensorData::F32(Vec::new());
        };
        macro_rules! join {
            ($variant:ident) => {{
                let mut out = Vec::new();
                for part in parts {
                    if let TensorData::$variant(v) = part {
                        out.extend_from_slice(v);
                    }
                }
                TensorData::$variant(out)
            }};
        }
        match first {
            TensorData::F16(_) => join!(F16),
            TensorData::BF16(_) => join!(BF16),
            TensorData::F32(_) => join!(F32),
            TensorData::F64(_) => join!(F64),
            TensorData::I1(_) => join!(I1),
            TensorData::I8(_) => join!(I8),
            TensorData::I16(_) => join!(I16),
            TensorData::I32(_) => join!(I32),
            TensorData::I64(_) => join!(I64),
            TensorData::U8(_) => join!(U8),
            TensorData::U16(_) => join!(U16),
            TensorData::U32(_) => join!(U32),
            TensorData::U64(_) => join!(U64),
            TensorData::Narrow(d, _) => {
                let mut out = Vec::new();
                for part in parts {
                    if let TensorData::Narrow(_, v) = part {
                        out.extend_from_slice(v);
                    }
                }
                TensorData::Narrow(*d, out)
            }
        }
    }
}

/// A dense host tensor: a shape and a row-major, contiguous element buffer.
///
/// The element count of the buffer always equals the product of the shape
/// (1 for the scalar shape `[]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    shape: Vec<usize>,
    data: TensorData,
}

/// A tensor's elements in memory the caller owns (a NumPy array's, a
/// tensor's own): its dtype, its shape and its little-endian bytes. A
/// compiled plan reads its inputs in place ([`crate::compiled::CompiledModel::run_views`]).
#[derive(Clone, Copy, Debug)]
pub struct TensorView<'a> {
    dtype: DType,
    shape: &'a [usize],
    bytes: &'a [u8],
}

impl<'a> TensorView<'a> {
    /// A view of `bytes` as elements of `dtype` in `shape`; an error when
    /// their count differs from the shape's, or for the narrow types
    /// (which no array holds as bytes of their own).
    pub fn new(dtype: DType, shape: &'a [usize], bytes: &'a [u8]) -> Result<Self, KernelError> {
        let n = checked_numel("tensor view", shape)?;
        if dtype.is_narrow() || n.checked_mul(dtype.byte_size()) != Some(bytes.len()) {
            return Err(KernelError::ShapeMismatch {
                op: "tensor view",
                detail: format!(
                    "shape {shape:?} of {dtype} does not take {} bytes",
                    bytes.len()
                ),
            });
        }
        Ok(TensorView {
            dtype,
            shape,
            bytes,
        })
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The shape.
    pub fn shape(&self) -> &'a [usize] {
        self.shape
    }

    /// The elements' little-endian bytes (`i1`: one byte, 0 or 1).
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// A tensor holding a copy of the elements.
    pub fn to_tensor(&self) -> Result<Tensor, KernelError> {
        Tensor::from_le_bytes(self.dtype, self.shape, self.bytes)
    }
}

/// Product of `shape`, or `None` on overflow.
pub fn num_elements(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// Product of `shape`, or an error naming `op` on overflow.
pub(crate) fn checked_numel(op: &'static str, shape: &[usize]) -> Result<usize, KernelError> {
    num_elements(shape).ok_or_else(|| KernelError::InvalidArgument {
        op,
        detail: format!("shape {shape:?} has more elements than fit in usize"),
    })
}

macro_rules! typed_constructor {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $variant:ident) => {
        $(#[$doc])*
        pub fn $name(shape: Vec<usize>, values: Vec<$ty>) -> Result<Tensor, KernelError> {
            Tensor::new(shape, TensorData::$variant(values))
        }
    };
}

impl Tensor {
    /// A tensor of `shape` over `data`; errors if the element counts differ.
    pub fn new(shape: Vec<usize>, data: TensorData) -> Result<Tensor, KernelError> {
        narrow::check(&data)?;
        let expected = checked_numel("tensor", &shape)?;
        if expected != data.len() {
            return Err(KernelError::ShapeMismatch {
                op: "tensor",
                detail: format!(
                    "shape {shape:?} needs {expected} elements but the {} buffer has {}",
                    data.dtype(),
                    data.len()
                ),
            });
        }
        Ok(Tensor { shape, data })
    }

    /// The tensor's elements, borrowed.
    pub fn view(&self) -> TensorView<'_> {
        TensorView {
            dtype: self.dtype(),
            shape: &self.shape,
            bytes: self.data.as_bytes(),
        }
    }

    /// Builds a tensor whose element count the caller has already checked.
    pub(crate) fn from_parts(shape: Vec<usize>, data: TensorData) -> Tensor {
        debug_assert_eq!(num_elements(&shape), Some(data.len()));
        Tensor { shape, data }
    }

    /// A tensor of zeros (`false` for `i1`).
    ///
    /// # Panics
    /// If the element count of `shape` overflows `usize`.
    pub fn zeros(dtype: DType, shape: &[usize]) -> Tensor {
        let n = num_elements(shape).expect("tensor shape overflows usize");
        Tensor::from_parts(shape.to_vec(), TensorData::zeros(dtype, n))
    }

    typed_constructor!(
        /// An `f16` tensor; errors if the element count does not match `shape`.
        from_f16, f16, F16
    );
    typed_constructor!(
        /// A `bf16` tensor; errors if the element count does not match `shape`.
        from_bf16, bf16, BF16
    );
    typed_constructor!(
        /// An `f32` tensor; errors if the element count does not match `shape`.
        from_f32, f32, F32
    );
    typed_constructor!(
        /// An `f64` tensor; errors if the element count does not match `shape`.
        from_f64, f64, F64
    );
    typed_constructor!(
        /// An `i1` tensor; errors if the element count does not match `shape`.
        from_bool, bool, I1
    );
    typed_constructor!(
        /// An `i8` tensor; errors if the element count does not match `shape`.
        from_i8, i8, I8
    );
    typed_constructor!(
        /// An `i16` tensor; errors if the element count does not match `shape`.
        from_i16, i16, I16
    );
    typed_constructor!(
        /// An `i32` tensor; errors if the element count does not match `shape`.
        from_i32, i32, I32
    );
    typed_constructor!(
        /// A `ui8` tensor; errors if the element count does not match `shape`.
        from_u8, u8, U8
    );
    typed_constructor!(
        /// A `ui16` tensor; errors if the element count does not match `shape`.
        from_u16, u16, U16
    );
    typed_constructor!(
        /// A `ui32` tensor; errors if the element count does not match `shape`.
        from_u32, u32, U32
    );
    typed_constructor!(
        /// A `ui64` tensor; errors if the element count does not match `shape`.
        from_u64, u64, U64
    );
    typed_constructor!(
        /// An `i64` tensor; errors if the element count does not match `shape`.
        from_i64, i64, I64
    );

    /// A rank-0 tensor holding `value` converted to `dtype` (see
    /// [`Tensor::from_f64_vec`] for the conversion).
    pub fn scalar_f64(dtype: DType, value: f64) -> Tensor {
        Tensor::from_parts(Vec::new(), TensorData::from_f64_slice(dtype, &[value]))
    }

    /// A rank-0 tensor holding `value` converted to `dtype` (integers wrap).
    pub fn scalar_i64(dtype: DType, value: i64) -> Tensor {
        Tensor::from_parts(Vec::new(), TensorData::from_i64_slice(dtype, &[value]))
    }

    /// `values` converted to `dtype`: floats round to nearest, integers
    /// truncate toward zero and saturate like Rust `as` (NaN becomes 0),
    /// `i1` is `v != 0`.
    ///
    /// # Panics
    /// If `values.len()` is not the element count of `shape`; use
    /// [`Tensor::new`] with [`TensorData::from_f64_slice`] to get an error.
    pub fn from_f64_vec(dtype: DType, shape: &[usize], values: &[f64]) -> Tensor {
        match Tensor::new(shape.to_vec(), TensorData::from_f64_slice(dtype, values)) {
            Ok(t) => t,
            Err(e) => panic!("Tensor::from_f64_vec: {e}"),
        }
    }

    /// `values` converted to `dtype` (integers wrap, floats round, `i1` is
    /// `v != 0`).
    ///
    /// # Panics
    /// If `values.len()` is not the element count of `shape`.
    pub fn from_i64_vec(dtype: DType, shape: &[usize], values: &[i64]) -> Tensor {
        match Tensor::new(shape.to_vec(), TensorData::from_i64_slice(dtype, values)) {
            Ok(t) => t,
            Err(e) => panic!("Tensor::from_i64_vec: {e}"),
        }
    }

    /// The dimensions, outermost first (empty for a scalar).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }

    /// The element buffer.
    pub fn data(&self) -> &TensorData {
        &self.data
    }

    /// Takes the shape and buffer apart.
    pub fn into_parts(self) -> (Vec<usize>, TensorData) {
        (self.shape, self.data)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True when some dimension is zero.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Every element as `f64` (see [`TensorData::to_f64_vec`]).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        self.data.to_f64_vec()
    }

    /// Every element as `i64` (see [`TensorData::to_i64_vec`]).
    pub fn to_i64_vec(&self) -> Vec<i64> {
        self.data.to_i64_vec()
    }

    /// Every element as `i128` (see [`TensorData::to_i128_vec`]).
    pub fn to_i128_vec(&self) -> Vec<i128> {
        self.data.to_i128_vec()
    }

    /// Decodes raw little-endian elements (`i1`: one byte each, nonzero is
    /// true); errors if the byte count does not match `shape` and `dtype`.
    pub fn from_le_bytes(
        dtype: DType,
        shape: &[usize],
        bytes: &[u8],
    ) -> Result<Tensor, KernelError> {
        let n = checked_numel("from_le_bytes", shape)?;
        let expected = n.checked_mul(dtype.byte_size());
        if expected != Some(bytes.len()) {
            return Err(KernelError::ShapeMismatch {
                op: "from_le_bytes",
                detail: format!(
                    "shape {shape:?} of {dtype} needs {} bytes, got {}",
                    expected.map_or_else(|| "too many".to_string(), |e| e.to_string()),
                    bytes.len()
                ),
            });
        }
        macro_rules! decode {
            ($ty:ty, $w:expr, $conv:expr) => {
                bytes
                    .chunks_exact($w)
                    .map(|c| {
                        let mut raw = [0u8; $w];
                        raw.copy_from_slice(c);
                        $conv(<$ty>::from_le_bytes(raw))
                    })
                    .collect()
            };
        }
        let data = match dtype {
            DType::F16 => TensorData::F16(decode!(u16, 2, f16::from_bits)),
            DType::BF16 => TensorData::BF16(decode!(u16, 2, bf16::from_bits)),
            DType::F32 => TensorData::F32(decode!(f32, 4, |x| x)),
            DType::F64 => TensorData::F64(decode!(f64, 8, |x| x)),
            DType::I1 => TensorData::I1(bytes.iter().map(|&b| b != 0).collect()),
            DType::I8 => TensorData::I8(bytes.iter().map(|&b| b as i8).collect()),
            DType::I16 => TensorData::I16(decode!(i16, 2, |x| x)),
            DType::I32 => TensorData::I32(decode!(i32, 4, |x| x)),
            DType::I64 => TensorData::I64(decode!(i64, 8, |x| x)),
            DType::U8 => TensorData::U8(bytes.to_vec()),
            DType::U16 => TensorData::U16(decode!(u16, 2, |x| x)),
            DType::U32 => TensorData::U32(decode!(u32, 4, |x| x)),
            DType::U64 => TensorData::U64(decode!(u64, 8, |x| x)),
            // Integers sign- or zero-extended from their width, floats
            // masked to theirs.
            d => TensorData::Narrow(d, bytes.iter().map(|&b| narrow::normalize(d, b)).collect()),
        };
        Ok(Tensor::from_parts(shape.to_vec(), data))
    }

    /// The raw little-endian element bytes (`i1`: one byte, 0 or 1).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len() * self.dtype().byte_size());
        match &self.data {
            TensorData::F16(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::BF16(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::F32(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::F64(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::I1(v) => out.extend(v.iter().map(|&b| b as u8)),
            TensorData::I8(v) => out.extend(v.iter().map(|&b| b as u8)),
            TensorData::U8(v) => out.extend_from_slice(v),
            TensorData::Narrow(d, v) => out.extend(v.iter().map(|&b| narrow::bits(*d, b))),
            TensorData::I16(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::I32(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::I64(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::U16(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::U32(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            TensorData::U64(v) => v
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_checks_element_count() {
        assert!(Tensor::from_f32(vec![2, 3], vec![0.0; 6]).is_ok());
        let err = Tensor::from_f32(vec![2, 3], vec![0.0; 5]).unwrap_err();
        assert!(matches!(err, KernelError::ShapeMismatch { .. }), "{err}");
        assert!(Tensor::from_i64(vec![], vec![7]).is_ok());
        assert!(Tensor::from_i64(vec![0, 4], vec![]).is_ok());
        assert!(Tensor::from_i64(vec![usize::MAX, 3], vec![]).is_err());
    }

    #[test]
    fn dtype_metadata() {
        let names: Vec<&str> = DType::ALL.iter().map(|d| d.name()).collect();
        assert_eq!(
            names,
            [
                "f16",
                "bf16",
                "f32",
                "f64",
                "i1",
                "i8",
                "i16",
                "i32",
                "i64",
                "ui8",
                "ui16",
                "ui32",
                "ui64",
                "f8E4M3FN",
                "f8E4M3FNUZ",
                "f8E5M2",
                "f8E5M2FNUZ",
                "f4E2M1FN",
                "i4",
                "ui4",
                "i2",
                "ui2",
                "f8E8M0FNU"
            ]
        );
        assert!(DType::F8E8M0.is_float() && DType::F8E8M0.is_narrow());
        assert!(DType::F8E5M2.is_float() && DType::F8E5M2.is_narrow());
        assert!(DType::I4.is_signed_int() && DType::U2.is_unsigned());
        assert_eq!(DType::I4.int_range(), Some((-8, 7)));
        assert_eq!(DType::F4E2M1.byte_size(), 1);
        assert!(DType::BF16.is_float() && !DType::I1.is_float() && !DType::I1.is_int());
        assert_eq!(DType::F16.byte_size(), 2);
        assert_eq!(DType::I1.byte_size(), 1);
        assert_eq!(DType::I64.to_string(), "i64");
    }

    #[test]
    fn f64_conversion_truncates_and_saturates() {
        let vals = [1.9, -1.9, 300.0, -300.0, f64::NAN, 0.0];
        let t = Tensor::from_f64_vec(DType::I8, &[6], &vals);
        assert_eq!(t.data(), &TensorData::I8(vec![1, -1, 127, -128, 0, 0]));
        let b = Tensor::from_f64_vec(DType::I1, &[6], &vals);
        assert_eq!(
            b.data(),
            &TensorData::I1(vec![true, true, true, true, true, false])
        );
        let h = Tensor::from_f64_vec(DType::F16, &[1], &[1.0 / 3.0]);
        assert_eq!(h.data(), &TensorData::F16(vec![f16::from_f64(1.0 / 3.0)]));
        assert_eq!(Tensor::scalar_f64(DType::I32, -2.5).to_i64_vec(), vec![-2]);
        assert_eq!(Tensor::scalar_i64(DType::I8, 300).to_i64_vec(), vec![44]);
    }

    #[test]
    fn le_bytes_round_trip_every_dtype() {
        for dtype in DType::ALL {
            let t = Tensor::from_f64_vec(dtype, &[2, 2], &[0.0, 1.0, -2.0, 3.5]);
            let bytes = t.to_le_bytes();
            assert_eq!(bytes.len(), 4 * dtype.byte_size());
            let back = Tensor::from_le_bytes(dtype, &[2, 2], &bytes).unwrap();
            assert_eq!(back, t, "{dtype}");
        }
        assert!(Tensor::from_le_bytes(DType::F32, &[2], &[0; 7]).is_err());
        let i32s = Tensor::from_le_bytes(DType::I32, &[1], &[1, 1, 0, 0]).unwrap();
        assert_eq!(i32s.to_i64_vec(), vec![257]);
    }
}
