//! PTX from LLVM's NVPTX back end, assembled by NVIDIA's ptxas for sm_80
//! and sm_90: the first step of the GPU descent (the kernel → nvptx
//! lowering comes next). ptxas comes from scripts/setup-cuda; without it
//! the test fails and says so, unless STRATA_SKIP_CUDA_TOOLS is set (then it
//! says "skipped").

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use strata_lowering::llvm::nvptx::{check_with_ptxas, ptx, ptxas_path, GpuTarget};

/// A kernel adding one to each element: one thread per element, the
/// thread id from an NVVM special register.
const KERNEL: &str = r#"
define ptx_kernel void @add_one(ptr addrspace(1) %p, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %g = getelementptr float, ptr addrspace(1) %p, i32 %i
  %v = load float, ptr addrspace(1) %g
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(1) %g
  br label %done
done:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
"#;

#[test]
fn ptx_from_llvm_assembles_with_ptxas() {
    let ctx = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(KERNEL.as_bytes(), "add_one");
    let module = ctx.create_module_from_ir(buffer).expect("the IR parses");
    for name in ["sm_80", "sm_90"] {
        let target = GpuTarget::parse(name).expect("a target");
        let text = ptx(&module, target).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(text.contains(".version 8.8"), "{text}");
        assert!(text.contains(&format!(".target {name}")), "{text}");
        assert!(text.contains(".entry add_one"), "{text}");
        if ptxas_path().is_none() {
            if std::env::var_os("STRATA_SKIP_CUDA_TOOLS").is_some() {
                eprintln!("skipped: ptxas is missing and STRATA_SKIP_CUDA_TOOLS is set");
                return;
            }
            panic!("ptxas is missing: run scripts/setup-cuda (or set STRATA_SKIP_CUDA_TOOLS=1 to skip)");
        }
        let kernels = check_with_ptxas(&text, target).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(kernels.len(), 1, "{kernels:?}");
        assert_eq!(kernels[0].name, "add_one");
        assert!(
            kernels[0].registers > 0 && kernels[0].spill_stores == 0,
            "{kernels:?}"
        );
    }
}

#[test]
fn ptxas_rejects_bad_ptx_with_its_message() {
    if ptxas_path().is_none() {
        if std::env::var_os("STRATA_SKIP_CUDA_TOOLS").is_some() {
            eprintln!("skipped: ptxas is missing and STRATA_SKIP_CUDA_TOOLS is set");
            return;
        }
        panic!(
            "ptxas is missing: run scripts/setup-cuda (or set STRATA_SKIP_CUDA_TOOLS=1 to skip)"
        );
    }
    let target = GpuTarget::parse("sm_90").expect("a target");
    let bad = ".version 8.8\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus; }\n";
    let err = check_with_ptxas(bad, target)
        .expect_err("rejected")
        .to_string();
    assert!(err.contains("ptxas rejected the PTX for sm_90"), "{err}");
    assert!(GpuTarget::parse("sm_70").is_none());
}
