//! The CUDA executor of strata's `graph` mode.
//!
//! A plan lowered for a GPU target (`convert-kernel-to-nvptx`, then PTX
//! through LLVM) runs here: [`CudaModel`] loads each kernel's PTX into the
//! driver, allocates the planned arena once, copies the constants in, and
//! per run copies the inputs in, launches the plan's steps on one stream
//! (each kernel on its plan grid, `nvptx.threads` threads a block; each
//! `kernel.gemm` as cuBLAS calls) and copies the outputs back. With
//! [`CudaModel::run_graph`] the launches are captured once into a CUDA
//! graph and replayed.
//!
//! The crate links no LLVM and no CUDA: cudarc loads `libcuda.so` and
//! `libcublas.so` when a model is loaded. [`probe`] finds out first whether
//! there is a driver and a device, so that a machine without one gets
//! [`CudaError::NoDevice`] (cudarc panics when the driver library is
//! missing).

mod blas;
mod model;
mod ptx;

pub use blas::{blas_calls, BlasCall, BlasOperand};
pub use model::{cuda_expect, gpu_kernels, CudaModel, GpuKernel, RunTimes};
pub use ptx::{check_plan, entry_params};

use strata_runtime::artifact::LoadError;
use strata_runtime::plan::RunError;

/// Why the CUDA executor could not load or run a model.
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    /// No driver or no device: the executor cannot run here.
    #[error("no CUDA device: {0}")]
    NoDevice(String),
    /// The device is older than the target the kernels were compiled for.
    #[error("the kernels are compiled for {target}, but device {device} is sm_{major}{minor}")]
    Target {
        target: String,
        device: String,
        major: i32,
        minor: i32,
    },
    /// A driver call failed.
    #[error("CUDA driver: {0}")]
    Driver(#[from] cudarc::driver::DriverError),
    /// A cuBLAS call failed, or cuBLAS could not be loaded.
    #[error("cuBLAS: {0}")]
    Blas(String),
    /// The plan is not one the CUDA executor runs.
    #[error("invalid GPU plan: {0}")]
    Plan(String),
    /// The artifact could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The inputs do not match the plan.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// The device a model runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub ordinal: usize,
    pub name: String,
    /// The compute capability (major, minor): (9, 0) for an H100 or H200.
    pub capability: (i32, i32),
    pub memory_bytes: usize,
}

impl DeviceInfo {
    /// Whether kernels compiled for `target` (`sm_80`, `sm_90`) run on this
    /// device: PTX runs on its target and every later architecture.
    pub fn runs(&self, target: &str) -> bool {
        target_capability(target).is_some_and(|(major, minor)| (major, minor) <= self.capability)
    }
}

/// The compute capability of target `sm_XY`.
pub fn target_capability(target: &str) -> Option<(i32, i32)> {
    let digits = target.strip_prefix("sm_")?;
    let n: i32 = digits.parse().ok()?;
    Some((n / 10, n % 10))
}

/// Set this variable to make [`probe`] report no device (to check the
/// no-GPU path on a machine with one).
pub const NO_CUDA_VAR: &str = "STRATA_NO_CUDA";

/// Whether a CUDA driver and device `ordinal` are present, without creating
/// a context: the device's name and capability, or why there is none.
pub fn probe(ordinal: usize) -> Result<DeviceInfo, CudaError> {
    if std::env::var_os(NO_CUDA_VAR).is_some() {
        return Err(CudaError::NoDevice(format!("{NO_CUDA_VAR} is set")));
    }
    // SAFETY: only tries to open the library (dlopen), calling nothing in it.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(CudaError::NoDevice(
            "no CUDA driver library (libcuda.so) was found".into(),
        ));
    }
    // cudarc panics on a driver that lacks a symbol it needs: report that
    // as no device rather than abort.
    let found = std::panic::catch_unwind(|| -> Result<DeviceInfo, CudaError> {
        use cudarc::driver::result;
        result::init().map_err(|e| CudaError::NoDevice(format!("cuInit failed: {e}")))?;
        let no_device = |what: &str, e: cudarc::driver::DriverError| {
            CudaError::NoDevice(format!("{what} failed: {e}"))
        };
        let count = result::device::get_count().map_err(|e| no_device("cuDeviceGetCount", e))?;
        if count <= 0 {
            return Err(CudaError::NoDevice("the driver reports no devices".into()));
        }
        if ordinal >= count as usize {
            return Err(CudaError::NoDevice(format!(
                "device {ordinal} asked for, the driver reports {count}"
            )));
        }
        let dev = result::device::get(ordinal as i32).map_err(|e| no_device("cuDeviceGet", e))?;
        let name = result::device::get_name(dev).map_err(|e| no_device("cuDeviceGetName", e))?;
        use cudarc::driver::sys::CUdevice_attribute as A;
        // SAFETY: `dev` is a device the driver returned.
        let (major, minor, memory_bytes) = unsafe {
            (
                result::device::get_attribute(
                    dev,
                    A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                )?,
                result::device::get_attribute(
                    dev,
                    A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                )?,
                result::device::total_mem(dev)?,
            )
        };
        Ok(DeviceInfo {
            ordinal,
            name,
            capability: (major, minor),
            memory_bytes,
        })
    });
    found.unwrap_or_else(|_| {
        Err(CudaError::NoDevice(
            "the CUDA driver library could not be used (a symbol is missing)".into(),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_runs_its_target_and_older_ones() {
        let h200 = DeviceInfo {
            ordinal: 0,
            name: "H200".into(),
            capability: (9, 0),
            memory_bytes: 0,
        };
        assert!(h200.runs("sm_80") && h200.runs("sm_90"));
        let a100 = DeviceInfo {
            capability: (8, 0),
            ..h200
        };
        assert!(a100.runs("sm_80") && !a100.runs("sm_90") && !a100.runs("host"));
    }

    #[test]
    fn the_probe_says_why_there_is_no_device() {
        std::env::set_var(NO_CUDA_VAR, "1");
        let e = probe(0).unwrap_err();
        std::env::remove_var(NO_CUDA_VAR);
        assert_eq!(e.to_string(), "no CUDA device: STRATA_NO_CUDA is set");
    }
}
