//! Host tensors and the numerical kernels of strata's reference interpreter.
//!
//! [`Tensor`] is a dense, row-major host buffer of one [`DType`]; the
//! [`kernels`] module computes on tensors and reports bad input as
//! [`KernelError`] values instead of panicking; [`npy`] reads and writes
//! NumPy `.npy` files. The crate knows nothing about the IR: the interpreter
//! maps operations onto these functions. With the `llvm` feature,
//! [`compiled`] compiles models into plans, [`session`] runs a model
//! many times in an exe mode, with a cache of plans, and [`check`] finds
//! where a plan diverges from eager mode.

pub mod artifact;
#[cfg(feature = "llvm")]
pub mod check;
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
#[cfg(feature = "llvm")]
pub mod session;
pub mod strings;
pub mod tensor;
pub mod workers;

pub use datum::Datum;
pub use kernels::KernelError;
pub use strings::StringTensor;
pub use tensor::{DType, Tensor, TensorData, TensorView};
