//! The plan cache on disk: a second session over the same directory
//! compiles nothing and gives the same values bit for bit; corrupt,
//! truncated and mismatched entries are compiled again and reported;
//! a directory that cannot be written is refused.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::source;
use strata_runtime::session::{EventKind, ExeMode, Session, SessionError, SessionOptions};
use strata_runtime::{DType, Tensor};

const MLP: &str = "func.func @main(%x: tensor<?x4xf32> {onnx.name = \"x\"}) -> (tensor<?x3xf32> {onnx.name = \"y\"}) {
  %w = graph.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.5, -0.5], [-0.25, 2.0, 1.0], [1.0, -0.75, 0.5]]> : tensor<4x3xf32>
  %b = graph.constant dense<[0.1, -0.2, 0.3]> : tensor<3xf32>
  %0 = graph.matmul %x, %w : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %1 = graph.add %0, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %2 = graph.relu %1 : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %3 = graph.softmax %2 {axis = 1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %3 : tensor<?x3xf32>
}
";

/// A directory of the test's own, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("strata-plan-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn cached(dir: &Path) -> SessionOptions {
    SessionOptions {
        exe_mode: ExeMode::Graph,
        threads: 1,
        cache_dir: Some(dir.to_path_buf()),
        ..SessionOptions::default()
    }
}

fn batch(n: usize) -> Tensor {
    let values: Vec<f64> = (0..n * 4).map(|i| (i as f64 * 0.37).sin() * 2.0).collect();
    Tensor::from_f64_vec(DType::F32, &[n, 4], &values)
}

/// The entries in `dir` (and whether any temporary file is left).
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("cache dir")
        .map(|e| e.expect("entry").path())
        .collect();
    out.sort();
    out
}

fn kinds(s: &Session) -> Vec<(EventKind, &'static str)> {
    s.report()
        .events
        .iter()
        .map(|e| (e.kind, e.level))
        .collect()
}

#[test]
fn a_second_session_loads_every_plan_and_compiles_nothing() {
    let dir = TempDir::new("second");
    let first = Session::new(source(MLP), cached(&dir.0)).expect("session");
    let sizes = [1, 3, 7];
    let values: Vec<Vec<f64>> = sizes
        .iter()
        .map(|&n| first.run(&[batch(n)]).expect("run")[0].to_f64_vec())
        .collect();
    let r = first.report();
    assert_eq!((r.compiles, r.disk_writes, r.disk_hits), (3, 3, 0));
    let files = entries(&dir.0);
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files
        .iter()
        .all(|f| f.extension().is_some_and(|e| e == "strata")));

    // Loading is not compiling: no miss, nothing spent of a budget of 1
    // whose exhaustion is an error.
    let mut options = cached(&dir.0);
    options.recompile_budget = 1;
    options.on_budget_exhausted = strata_recipe::BudgetAction::Error;
    let second = Session::new(source(MLP), options).expect("session");
    for (&n, want) in sizes.iter().zip(&values) {
        let got = second.run(&[batch(n)]).expect("run");
        assert_eq!(&got[0].to_f64_vec(), want, "batch {n}");
    }
    let r = second.report();
    assert_eq!((r.compiles, r.disk_hits, r.disk_writes), (0, 3, 0));
    assert_eq!(r.misses, 0);
    let hit = r
        .events
        .iter()
        .find(|e| e.kind == EventKind::Hit)
        .expect("a disk hit");
    assert_eq!(hit.level, "disk");
    assert_eq!(hit.reason, "machine code loaded");
    assert_eq!(r.to_json()["cache"]["disk_hits"], 3);
}

#[test]
fn another_recipe_or_model_does_not_share_entries() {
    let dir = TempDir::new("keys");
    let a = Session::new(source(MLP), cached(&dir.0)).expect("session");
    a.run(&[batch(2)]).expect("run");
    let mut options = cached(&dir.0);
    options.recipe_sha256 = "0".repeat(64);
    let b = Session::new(source(MLP), options).expect("session");
    b.run(&[batch(2)]).expect("run");
    assert_eq!(b.report().compiles, 1);
    let mut options = cached(&dir.0);
    options.model_sha256 = Some("1".repeat(64));
    let c = Session::new(source(MLP), options).expect("session");
    c.run(&[batch(2)]).expect("run");
    assert_eq!(c.report().compiles, 1);
    assert_eq!(entries(&dir.0).len(), 3);
}

/// Damages the only entry of `dir` with `damage`, then checks that a new
/// session refuses it (an event), compiles again, gives `want`, and leaves a
/// valid entry that a third session loads.
fn refused_then_replaced(dir: &Path, want: &[f64], damage: &dyn Fn(&Path)) {
    let files = entries(dir);
    assert_eq!(files.len(), 1);
    damage(&files[0]);
    let session = Session::new(source(MLP), cached(dir)).expect("session");
    let got = session.run(&[batch(2)]).expect("run");
    assert_eq!(got[0].to_f64_vec(), want);
    let r = session.report();
    assert_eq!((r.compiles, r.disk_rejected, r.disk_writes), (1, 1, 1));
    let compile = r
        .events
        .iter()
        .find(|e| e.kind == EventKind::Compile)
        .expect("a compile");
    assert_eq!(compile.reason, "corrupt");
    assert!(kinds(&session).contains(&(EventKind::DiskRejected, "disk")));
    let again = Session::new(source(MLP), cached(dir)).expect("session");
    assert_eq!(again.run(&[batch(2)]).expect("run")[0].to_f64_vec(), want);
    assert_eq!(again.report().compiles, 0);
    assert_eq!(entries(dir).len(), 1, "one entry, no temporary file");
}

#[test]
fn corrupt_truncated_and_mismatched_entries_are_compiled_again() {
    let dir = TempDir::new("corrupt");
    let first = Session::new(source(MLP), cached(&dir.0)).expect("session");
    let want = first.run(&[batch(2)]).expect("run")[0].to_f64_vec();
    // A flipped byte (the checksum), a truncated file, not an artifact.
    refused_then_replaced(&dir.0, &want, &|f| {
        let mut bytes = std::fs::read(f).expect("read");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x5a;
        std::fs::write(f, bytes).expect("write");
    });
    refused_then_replaced(&dir.0, &want, &|f| {
        let bytes = std::fs::read(f).expect("read");
        std::fs::write(f, &bytes[..bytes.len() / 3]).expect("write");
    });
    refused_then_replaced(&dir.0, &want, &|f| {
        std::fs::write(f, b"not an artifact").expect("write")
    });
    // A sound entry of another key (batch 5) under this key's name.
    let other = TempDir::new("corrupt-other");
    let session = Session::new(source(MLP), cached(&other.0)).expect("session");
    session.run(&[batch(5)]).expect("run");
    let sound = std::fs::read(&entries(&other.0)[0]).expect("read");
    refused_then_replaced(&dir.0, &want, &|f| {
        std::fs::write(f, &sound).expect("write")
    });
}

#[test]
fn entries_keep_machine_code_only_and_one_without_it_is_compiled_again() {
    let dir = TempDir::new("slim");
    let first = Session::new(source(MLP), cached(&dir.0)).expect("session");
    let want = first.run(&[batch(2)]).expect("run")[0].to_f64_vec();
    let files = entries(&dir.0);
    let entry = strata_artifact::Artifact::read(&files[0]).expect("an artifact");
    let names: Vec<&str> = entry.sections().map(|(n, _)| n).collect();
    // The plan declares its kernels; their bitcode and tile programs,
    // which a load on this CPU never reads, are not kept.
    assert!(names.contains(&"plan.mlir") && names.contains(&"host/kernels.so"));
    assert!(
        !names
            .iter()
            .any(|n| n.ends_with(".bc") || *n == "kernels.mlir"),
        "{names:?}"
    );
    let plan = String::from_utf8_lossy(entry.section("plan.mlir").expect("plan")).into_owned();
    assert!(plan.contains("kernel.func @"), "{plan}");
    assert!(
        !plan
            .lines()
            .any(|l| l.trim_start().starts_with("kernel.func @") && l.ends_with('{')),
        "{plan}"
    );
    assert!(entry.manifest.kernels.iter().all(|k| match &k.selection {
        strata_artifact::Selection::Generated { code, .. } => code == "host/kernels.so",
        _ => true,
    }));
    // Without its machine code (a file consistent with its checksums) the
    // entry cannot run: refused, compiled again.
    refused_then_replaced(&dir.0, &want, &|f| {
        let entry = strata_artifact::Artifact::read(f).expect("an artifact");
        let sections = entry
            .sections()
            .filter(|(n, _)| *n != "host/kernels.so")
            .map(|(n, b)| (n.to_string(), b.to_vec()))
            .collect();
        strata_artifact::Artifact::new(entry.manifest.clone(), sections)
            .write(f)
            .expect("write");
    });
}

#[test]
fn a_directory_that_cannot_be_made_is_refused() {
    let dir = TempDir::new("file");
    std::fs::create_dir_all(&dir.0).expect("dir");
    let file = dir.0.join("a-file");
    std::fs::write(&file, b"x").expect("write");
    let err = Session::new(source(MLP), cached(&file.join("cache")))
        .err()
        .expect("refused");
    assert!(matches!(err, SessionError::CacheDir { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("a-file/cache") && text.contains("plan cache directory"),
        "{text}"
    );
}

#[test]
fn plans_that_hold_input_values_are_found_by_their_values() {
    let text = "func.func @main(%x: tensor<2x3xf32>, %axes: tensor<1xi64>) -> tensor<*xf32> {
  %s = graph.reduce_sum %x axes %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %s : tensor<*xf32>
}
";
    let dir = TempDir::new("pinned");
    let x = Tensor::from_f64_vec(DType::F32, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let axis = |a: f64| Tensor::from_f64_vec(DType::I64, &[1], &[a]);
    let first = Session::new(source(text), cached(&dir.0)).expect("session");
    first.run(&[x.clone(), axis(1.0)]).expect("axis 1");
    assert_eq!(first.report().compiles, 1);
    let second = Session::new(source(text), cached(&dir.0)).expect("session");
    let rows = second.run(&[x.clone(), axis(1.0)]).expect("axis 1");
    assert_eq!(rows[0].to_f64_vec(), [6.0, 15.0]);
    assert_eq!(second.report().compiles, 0);
    // Another value is another plan, compiled and then kept.
    let cols = second.run(&[x, axis(0.0)]).expect("axis 0");
    assert_eq!(cols[0].to_f64_vec(), [5.0, 7.0, 9.0]);
    assert_eq!(second.report().compiles, 1);
    assert_eq!(entries(&dir.0).len(), 2);
}

/// `relu`, then a `cumsum` that does not lower (an island), then a
/// product and a softmax: two compiled segments around an eager island.
const ISLAND: &str = "func.func @main(%x: tensor<?x4xf32> {onnx.name = \"x\"}) -> (tensor<?x3xf32> {onnx.name = \"y\"}) {
  %w = graph.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.5, -0.5], [-0.25, 2.0, 1.0], [1.0, -0.75, 0.5]]> : tensor<4x3xf32>
  %axis = graph.constant dense<1> : tensor<i64>
  %0 = graph.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = graph.cumsum %0, %axis : (tensor<?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
  %2 = graph.matmul %1, %w : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %3 = graph.softmax %2 {axis = 1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %3 : tensor<?x3xf32>
}
";

fn hybrid_cached(dir: &Path) -> SessionOptions {
    SessionOptions {
        exe_mode: ExeMode::Hybrid,
        ..cached(dir)
    }
}

#[test]
fn hybrid_plans_and_segments_are_kept_on_disk_and_loaded_by_the_next_session() {
    let dir = TempDir::new("hybrid");
    let first = Session::new(source(ISLAND), hybrid_cached(&dir.0)).expect("session");
    let want: Vec<Vec<f64>> = [2, 5]
        .iter()
        .map(|&n| first.run(&[batch(n)]).expect("run")[0].to_f64_vec())
        .collect();
    let r = first.report();
    // Two shapes, two compiled segments and the plan each: six entries.
    assert_eq!((r.compiles, r.disk_writes, r.disk_hits), (2, 6, 0));
    assert_eq!(entries(&dir.0).len(), 6);
    let writes: Vec<&str> = r
        .events
        .iter()
        .filter(|e| e.kind == EventKind::DiskWrite)
        .map(|e| e.reason.as_str())
        .collect();
    assert!(
        writes[0].starts_with("strata_segment_0: ") && writes[0].ends_with("machine code"),
        "{writes:?}"
    );
    assert!(writes[2].starts_with("hybrid plan: "), "{writes:?}");

    // The next session loads each plan and its segments: it does not load
    // the model again (nor partition it), compiles nothing, misses
    // nothing, and gives the same values bit for bit.
    let loads = Arc::new(AtomicUsize::new(0));
    let second = Session::new(counting(ISLAND, &loads), hybrid_cached(&dir.0)).expect("session");
    for (n, want) in [2, 5].iter().zip(&want) {
        assert_eq!(
            &second.run(&[batch(*n)]).expect("run")[0].to_f64_vec(),
            want
        );
    }
    assert_eq!(
        loads.load(Ordering::SeqCst),
        1,
        "the session's own load only"
    );
    let r = second.report();
    assert_eq!(
        (r.compiles, r.misses, r.disk_hits, r.disk_writes),
        (0, 0, 2, 0)
    );
    let hit = r
        .events
        .iter()
        .find(|e| e.kind == EventKind::Hit)
        .expect("a disk hit");
    assert_eq!(
        (hit.level, hit.reason.as_str()),
        (
            "disk",
            "hybrid plan, 2 compiled segments: machine code loaded"
        )
    );
    assert_eq!(r.partitions.len(), 2, "the plans' partitions are reported");

    // Damaged entries are refused and made again; they are replaced.
    for f in entries(&dir.0) {
        std::fs::write(&f, b"not an artifact").expect("write");
    }
    let third = Session::new(source(ISLAND), hybrid_cached(&dir.0)).expect("session");
    assert_eq!(
        third.run(&[batch(2)]).expect("run")[0].to_f64_vec(),
        want[0]
    );
    let r = third.report();
    assert_eq!((r.compiles, r.disk_rejected, r.disk_writes), (1, 3, 3));
    let compile = r
        .events
        .iter()
        .find(|e| e.kind == EventKind::Compile)
        .expect("a compile");
    assert_eq!(compile.reason, "corrupt");

    // A plan whose segment is gone is made again from the model; the
    // other segment still loads.
    let gone = entries(&dir.0)
        .into_iter()
        .find(|f| {
            let bytes = std::fs::read(f).expect("read");
            let text = String::from_utf8_lossy(&bytes);
            text.contains("segment \"strata_segment_2\"") && text.contains("shapes [[2, 4]]")
        })
        .expect("the last segment's entry at batch 2");
    std::fs::remove_file(gone).expect("remove");
    let fourth = Session::new(source(ISLAND), hybrid_cached(&dir.0)).expect("session");
    assert_eq!(
        fourth.run(&[batch(2)]).expect("run")[0].to_f64_vec(),
        want[0]
    );
    assert_eq!(fourth.report().compiles, 1);

    // Hybrid and graph mode entries are apart: a model that compiles
    // whole in hybrid mode has an entry of its own, and its plan.
    let whole = Session::new(source(MLP), hybrid_cached(&dir.0)).expect("session");
    whole.run(&[batch(2)]).expect("run");
    let again = Session::new(source(MLP), hybrid_cached(&dir.0)).expect("session");
    again.run(&[batch(2)]).expect("run");
    let r = again.report();
    assert_eq!((r.compiles, r.disk_hits), (0, 1));
    let hit = r
        .events
        .iter()
        .find(|e| e.kind == EventKind::Hit)
        .expect("hit");
    assert_eq!(
        hit.reason,
        "hybrid plan, compiled whole: machine code loaded"
    );
}

/// `source(text)`, counting its loads in `loads`.
fn counting(text: &'static str, loads: &Arc<AtomicUsize>) -> strata_runtime::session::Source {
    let counted = Arc::clone(loads);
    let model = source(text);
    Arc::new(move || {
        counted.fetch_add(1, Ordering::SeqCst);
        model()
    })
}

/// The MLP's signature: `@main` declared, no body.
const MLP_SIGNATURE: &str = "func.func private @main(tensor<?x4xf32> {onnx.name = \"x\"}) -> (tensor<?x3xf32> {onnx.name = \"y\"})\n";

/// A session made from the MLP's signature, counting the loads of the
/// model its source makes.
fn from_signature(dir: &Path, loads: &Arc<AtomicUsize>) -> Session {
    let (ctx, module) = source(MLP_SIGNATURE)().expect("signature");
    let options = SessionOptions {
        model_sha256: Some("ab".repeat(32)),
        ..cached(dir)
    };
    Session::from_signature(ctx, module, counting(MLP, loads), options).expect("session")
}

#[test]
fn a_warm_start_from_the_signature_never_loads_the_model() {
    let dir = TempDir::new("signature");
    let loads = Arc::new(AtomicUsize::new(0));
    let cold = from_signature(&dir.0, &loads);
    assert_eq!(cold.inputs()[0].name, "x");
    let want = cold.run(&[batch(3)]).expect("cold")[0].to_f64_vec();
    // The compile loaded the model once.
    assert_eq!(
        (loads.load(Ordering::SeqCst), cold.report().compiles),
        (1, 1)
    );

    let warm = from_signature(&dir.0, &loads);
    assert_eq!(warm.run(&[batch(3)]).expect("warm")[0].to_f64_vec(), want);
    assert_eq!(warm.report().disk_hits, 1);
    assert_eq!(
        loads.load(Ordering::SeqCst),
        1,
        "the warm start loaded the model"
    );
    // Inputs are checked against the signature.
    let e = warm.run(&[Tensor::from_f64_vec(DType::F32, &[3, 5], &[0.0; 15])]);
    assert!(e.is_err());

    // Without the model's hash there is no key: refused.
    let (ctx, module) = source(MLP_SIGNATURE)().expect("signature");
    let e = Session::from_signature(ctx, module, source(MLP), cached(&dir.0))
        .err()
        .expect("refused");
    assert_eq!(
        e.to_string(),
        "a session made from a signature needs the model's sha256"
    );
}
