//! `nvptx` modules to PTX (`strata_lowering::nvptx_to_llvm`), assembled by
//! ptxas for sm_80 and sm_90, and the located errors for what the
//! translation does not handle. Without ptxas the assembling fails and says
//! so, unless STRATA_SKIP_CUDA_TOOLS is set (then it says "skipped").

use strata_ir::{parser, Context, SourceBuffer};
use strata_lowering::llvm::nvptx::{check_with_ptxas, ptxas_path};
use strata_lowering::nvptx_to_llvm::{to_ptx, GpuError};

/// `y[i] = exp(x[i])` for `i < n`, one thread per element: the guide's
/// example (docs/gpu.md).
fn scale(target: &str) -> String {
    format!(
        r#"module attributes {{nvptx.target = "{target}"}} {{
  func.func @scale(%x: !nvptx.ptr<f32, global>, %y: !nvptx.ptr<f32, global>, %n: i32) {{
    %tid = nvptx.thread_id x : i32
    %bid = nvptx.block_id x : i32
    %ntid = nvptx.block_dim x : i32
    %b = arith.muli %bid, %ntid : i32
    %i = arith.addi %b, %tid : i32
    %in = arith.cmpi slt, %i, %n : i32
    scf.if %in {{
      %v = nvptx.load %x[%i] : !nvptx.ptr<f32, global> -> f32
      %e = math.exp %v : f32
      nvptx.store %e, %y[%i] : f32, !nvptx.ptr<f32, global>
    }}
    return
  }}
}}
"#
    )
}

fn parse(ctx: &mut Context, text: &str) -> strata_ir::Operation {
    strata_dialects::register_all(ctx);
    let buffer = SourceBuffer::new("k.mlir", text);
    let module = parser::parse_source(ctx, &buffer).unwrap_or_else(|d| panic!("{}", d[0].message));
    strata_ir::verifier::verify(ctx, module).unwrap_or_else(|d| panic!("{}", d[0].message));
    module
}

#[test]
fn a_kernel_with_libdevice_math_assembles_for_both_targets() {
    for target in ["sm_80", "sm_90"] {
        let mut ctx = Context::new();
        let module = parse(&mut ctx, &scale(target));
        let (ptx, t) = to_ptx(&ctx, module).unwrap_or_else(|e| panic!("{target}: {e}"));
        assert_eq!(t.name(), target);
        assert!(ptx.contains(&format!(".target {target}")), "{ptx}");
        assert!(ptx.contains(".entry scale("), "{ptx}");
        // libdevice's expf is inlined: no call is left.
        assert!(!ptx.contains("__nv_expf"), "{ptx}");
        assert!(ptx.contains("ex2.approx"), "{ptx}");
        if ptxas_path().is_none() {
            if std::env::var_os("STRATA_SKIP_CUDA_TOOLS").is_some() {
                eprintln!("skipped: ptxas is missing and STRATA_SKIP_CUDA_TOOLS is set");
                return;
            }
            panic!("ptxas is missing: run scripts/setup-cuda (or set STRATA_SKIP_CUDA_TOOLS=1 to skip)");
        }
        let kernels = check_with_ptxas(&ptx, t).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(kernels.len(), 1, "{kernels:?}");
        assert!(
            kernels[0].registers > 0 && kernels[0].spill_stores == 0,
            "{kernels:?}"
        );
    }
}

#[test]
fn what_the_translation_does_not_handle_is_a_located_error() {
    let cases = [
        (
            r#"module attributes {nvptx.target = "sm_90"} {
  func.func @k(%x: f32) -> f32 {
    return %x : f32
  }
}"#,
            "returns values: a GPU kernel returns nothing",
        ),
        (
            r#"module attributes {nvptx.target = "sm_90"} {
  func.func @k(%p: !nvptx.ptr<f32, global>, %i: i32) {
    %v = nvptx.load %p[%i] : !nvptx.ptr<f32, global> -> vector<4xf32>
    %w = arith.addf %v, %v : vector<4xf32>
    nvptx.store %w, %p[%i] : vector<4xf32>, !nvptx.ptr<f32, global>
    return
  }
}"#,
            "computes on vectors",
        ),
        (
            r#"module {
  func.func @k() {
    return
  }
}"#,
            "has no 'nvptx.target'",
        ),
    ];
    for (text, message) in cases {
        let mut ctx = Context::new();
        let module = parse(&mut ctx, text);
        match to_ptx(&ctx, module) {
            Err(e @ GpuError::Unsupported(_)) => {
                let d = e.diagnostic().expect("located");
                assert!(d.message.contains(message), "{}", d.message);
            }
            Err(other) => panic!("{message}: {other}"),
            Ok(_) => panic!("{message}: translated"),
        }
    }
}

/// A kernel that shares one value per thread through shared memory inside
/// a loop; `body` is the loop's body around the store and the load.
fn sharing(body: &str) -> String {
    format!(
        r#"module attributes {{nvptx.target = "sm_90"}} {{
  func.func @share(%y: !nvptx.ptr<f32, global>) attributes {{nvptx.threads = 128 : i64}} {{
    %buf = nvptx.shared_alloc {{elements = 128 : i64}} : !nvptx.ptr<f32, shared>
    %tid = nvptx.thread_id x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %c127 = arith.constant 127 : i32
    %next = arith.addi %tid, %c1 : i32
    %j = arith.andi %next, %c127 : i32
    %x = arith.sitofp %tid : i32 to f32
    %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (f32) : i32 {{
{body}
      scf.yield %sum : f32
    }}
    nvptx.store %s, %y[%tid] : f32, !nvptx.ptr<f32, global>
    return
  }}
}}
"#
    )
}

/// The emulation runs each phase for every thread before the next, so it
/// checks the barriers around shared memory first: a store and a load of
/// one buffer need a barrier between them on every path, around loops
/// too, and a barrier may not be under scf.if.
#[test]
fn the_emulation_rejects_shared_memory_races() {
    let store = "      nvptx.store %acc, %buf[%tid] : f32, !nvptx.ptr<f32, shared>";
    let load = "      %v = nvptx.load %buf[%j] : !nvptx.ptr<f32, shared> -> f32\n      %sum = arith.addf %acc, %v : f32";
    let barrier = "      nvptx.barrier";
    let cases = [
        // Barriers before the store (the previous iteration's loads) and
        // before the load: no race.
        (format!("{barrier}\n{store}\n{barrier}\n{load}"), None),
        // No barrier between the store and the load.
        (
            format!("{barrier}\n{store}\n{load}"),
            Some("may read shared memory that another thread stored"),
        ),
        // The next iteration's store overwrites what this one's loads read.
        (
            format!("{store}\n{barrier}\n{load}"),
            Some("may overwrite shared memory that another thread loaded"),
        ),
        // A barrier that only some threads reach.
        (
            format!(
                "      %odd = arith.cmpi eq, %c1, %c1 : i32\n      scf.if %odd {{\n  {barrier}\n      }}\n{store}\n{barrier}\n{load}"
            ),
            Some("is a barrier inside scf.if"),
        ),
    ];
    for (body, want) in cases {
        let mut ctx = Context::new();
        let module = parse(&mut ctx, &sharing(&body));
        let got = strata_lowering::nvptx_to_llvm::emulation_bitcode(&ctx, module);
        match (want, got) {
            (None, Ok(_)) => {}
            (None, Err(e)) => panic!("{body}\nrejected: {e}"),
            (Some(w), Err(e)) => assert!(e.to_string().contains(w), "{body}\n{e}"),
            (Some(w), Ok(_)) => panic!("{body}\naccepted, expected: {w}"),
        }
    }
}
