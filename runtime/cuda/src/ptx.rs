//! Reading a kernel's signature from its PTX, so that a plan whose launch
//! does not fit the kernel (another parameter count, a parameter that is
//! not a 64-bit address) is refused before anything runs, on a machine
//! without a GPU too. The driver would take the launch and read garbage.

use strata_runtime::plan::{Plan, PlanWork};

use crate::{CudaError, GpuKernel};

/// The parameter types of entry `name` in `ptx` (`.u64`, `.b32`, ...), in
/// order; an error when the PTX declares no such entry or its parameter
/// list does not parse.
pub fn entry_params(ptx: &str, name: &str) -> Result<Vec<String>, String> {
    let mut rest = ptx;
    let list = loop {
        let at = rest
            .find(".entry")
            .ok_or_else(|| format!("the PTX declares no entry '{name}'"))?;
        rest = &rest[at + ".entry".len()..];
        let after = rest.trim_start();
        let Some(tail) = after.strip_prefix(name) else {
            continue;
        };
        // The name must end here (not a longer name with this prefix).
        let tail = tail.trim_start();
        if let Some(params) = tail.strip_prefix('(') {
            let end = params
                .find(')')
                .ok_or_else(|| format!("the parameter list of '{name}' does not end"))?;
            break &params[..end];
        }
        if tail.starts_with('{') || tail.starts_with('.') {
            break "";
        }
    };
    list.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut words = p.split_whitespace();
            match (words.next(), words.next()) {
                (Some(".param"), Some(ty)) if ty.starts_with('.') => Ok(ty.to_string()),
                _ => Err(format!("cannot read parameter '{p}' of '{name}'")),
            }
        })
        .collect()
}

/// Checks every kernel launch of `plan` against its PTX: the kernel is
/// there, and takes one 64-bit parameter per buffer the launch passes.
pub fn check_plan(plan: &Plan, kernels: &[GpuKernel]) -> Result<(), CudaError> {
    for step in &plan.steps {
        let PlanWork::Kernel { callee, .. } = &step.work else {
            continue;
        };
        let k = kernels
            .iter()
            .find(|k| k.name == *callee)
            .ok_or_else(|| CudaError::Plan(format!("no PTX for kernel @{callee}")))?;
        let params = entry_params(&k.ptx, callee)
            .map_err(|m| CudaError::Plan(format!("kernel @{callee}: {m}")))?;
        if params.len() != step.args.len() {
            return Err(CudaError::Plan(format!(
                "step {} launches @{callee} with {} buffers, but its PTX takes {} parameters",
                step.name,
                step.args.len(),
                params.len()
            )));
        }
        if let Some((i, ty)) = params
            .iter()
            .enumerate()
            .find(|(_, t)| !matches!(t.as_str(), ".u64" | ".b64" | ".s64"))
        {
            return Err(CudaError::Plan(format!(
                "kernel @{callee}: parameter {i} is {ty}, not a 64-bit address"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = r#"
.version 8.7
.target sm_90
.address_size 64

	// .globl	k0
.visible .entry k0_add(
	.param .u64 k0_add_param_0,
	.param .u64 k0_add_param_1
)
{
	ret;
}

.visible .entry k0(
	.param .u64 k0_param_0,
	.param .u64 k0_param_1,
	.param .b32 k0_param_2
)
.maxntid 128, 1, 1
{
	ret;
}
"#;

    #[test]
    fn reads_the_named_entry_only() {
        assert_eq!(entry_params(PTX, "k0_add").unwrap(), vec![".u64", ".u64"]);
        assert_eq!(
            entry_params(PTX, "k0").unwrap(),
            vec![".u64", ".u64", ".b32"]
        );
        let missing = entry_params(PTX, "k1").unwrap_err();
        assert!(missing.contains("no entry 'k1'"), "{missing}");
    }

    #[test]
    fn malformed_lists_are_errors() {
        let bad = ".visible .entry k(\n .param .u64 a,\n";
        assert!(entry_params(bad, "k").unwrap_err().contains("does not end"));
        let odd = ".visible .entry k(\n u64 a\n)\n{}";
        assert!(entry_params(odd, "k").unwrap_err().contains("cannot read"));
        let none = ".visible .entry k()\n{}";
        assert!(entry_params(none, "k").unwrap().is_empty());
    }
}
