//! The plan cache on disk across processes: several `strata run`
//! processes that compile the same plan into one cache directory at once
//! all succeed, agree, and leave one valid entry and no temporary file; a
//! later process compiles nothing.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

/// A model with a symbolic batch.
const MODEL: &str = "func.func @main(%x: tensor<?x4xf32> {onnx.name = \"x\"}) -> (tensor<?x3xf32> {onnx.name = \"y\"}) {
  %w = graph.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.5, -0.5], [-0.25, 2.0, 1.0], [1.0, -0.75, 0.5]]> : tensor<4x3xf32>
  %0 = graph.matmul %x, %w : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %1 = graph.softmax %0 {axis = 1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}
";

/// `strata run` of the model in graph mode at batch 5 with the cache in
/// `cache`, its report in `report`.
fn run(dir: &Path, cache: &Path, report: &Path) -> Command {
    let mut command = Command::new(common::strata());
    command
        .arg("run")
        .arg(dir.join("model.mlir"))
        .args([
            "--mode", "graph", "--dim", "batch=5", "--seed", "3", "--print",
        ])
        .arg("--cache-dir")
        .arg(cache)
        .arg("--report")
        .arg(report)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn report(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("report");
    serde_json::from_str(&text).expect("report JSON")
}

#[test]
fn processes_compiling_one_plan_at_once_leave_one_valid_entry() {
    let dir = std::env::temp_dir().join(format!("strata-plan-cache-procs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("model.mlir"), MODEL).expect("model");
    let cache = dir.join("cache");
    let children: Vec<_> = (0..4)
        .map(|i| {
            run(&dir, &cache, &dir.join(format!("r{i}.json")))
                .spawn()
                .expect("spawn strata")
        })
        .collect();
    let outputs: Vec<_> = children
        .into_iter()
        .map(|c| c.wait_with_output().expect("wait"))
        .collect();
    for out in &outputs {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, outputs[0].stdout, "the processes agree");
    }
    // (`models/` remembers the model's hash, when it is old enough.)
    let names: Vec<String> = std::fs::read_dir(&cache)
        .expect("cache dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "models")
        .collect();
    assert_eq!(names.len(), 1, "one entry, no temporary file: {names:?}");
    assert!(names[0].ends_with(".strata"), "{names:?}");
    // Each process compiled or loaded the plan; none failed to.
    for i in 0..4 {
        let r = report(&dir.join(format!("r{i}.json")));
        let (compiles, hits) = (&r["compiles"], &r["cache"]["disk_hits"]);
        assert_eq!(
            compiles.as_u64().unwrap_or(9) + hits.as_u64().unwrap_or(9),
            1,
            "{r}"
        );
    }
    // A later process loads the entry: no compile, the same values.
    let later = run(&dir, &cache, &dir.join("later.json"))
        .output()
        .expect("strata");
    assert!(later.status.success());
    assert_eq!(later.stdout, outputs[0].stdout);
    let r = report(&dir.join("later.json"));
    assert_eq!(r["compiles"], 0, "{r}");
    assert_eq!(r["cache"]["disk_hits"], 1, "{r}");
    let _ = std::fs::remove_dir_all(&dir);
}
