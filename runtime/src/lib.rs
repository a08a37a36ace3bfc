//! Host tensors and the numerical kernels of strata's reference interpreter.
//!
//! [`Tensor`] is a dense, row-major host buffer of one [`DType`]; the
//! [`kernels`] module computes on tensors and reports bad input as
//! [`KernelError`] values instead of panicking; [`npy`] reads and writes
//! NumPy `.npy` files. The crate knows nothing about the IR: the interpreter
//! maps operations onto these functions.

pub mod artifact;
#[cfg(feature = "llvm")]
pub mod compiled;
pub mod custom_c;
pub mod datum;
mod dtype;
pub mod interp;
pub mod kernels;
pub mod narrow;
pub mod npy;
pub mod plan;
pub mod strings;
pub mod tensor;

pub use datum::Datum;
pub use kernels::KernelError;
pub use strings::StringTensor;
pub use tensor::{DType, Tensor, TensorData};
