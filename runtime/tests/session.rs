//! The session: exe modes, the plan cache and its events, input checks,
//! runs from several threads at once, and hybrid mode's partitions.

mod common;

use std::sync::{Arc, Mutex};

use common::source;
use strata_runtime::session::{
    EventKind, ExeMode, Rules, SegmentKind, Session, SessionError, SessionOptions,
};
use strata_runtime::{DType, Tensor};

/// A model with a symbolic batch: `relu(x @ w + b)`, then a row softmax.
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

fn options(mode: ExeMode) -> SessionOptions {
    SessionOptions {
        exe_mode: mode,
        threads: 1,
        // Memory only, whatever STRATA_CACHE_DIR says: the counts below
        // are of one session's compiles.
        cache_dir: None,
        ..SessionOptions::default()
    }
}

fn batch(n: usize) -> Tensor {
    let values: Vec<f64> = (0..n * 4).map(|i| (i as f64 * 0.37).sin() * 2.0).collect();
    Tensor::from_f64_vec(DType::F32, &[n, 4], &values)
}

fn close(a: &[Tensor], b: &[Tensor]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.shape(), y.shape());
        for (p, q) in x.to_f64_vec().iter().zip(y.to_f64_vec()) {
            assert!((p - q).abs() <= 1e-5 + 1e-4 * q.abs(), "{p} vs {q}");
        }
    }
}

#[test]
fn a_session_is_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<Session>();
}

#[test]
fn graph_mode_compiles_once_per_shape_and_matches_eager() {
    let graph = Session::new(source(MLP), options(ExeMode::Graph)).expect("session");
    let eager = Session::new(source(MLP), options(ExeMode::Eager)).expect("session");
    for n in [2, 3, 2, 1, 3] {
        let x = [batch(n)];
        close(
            &graph.run(&x).expect("graph"),
            &eager.run(&x).expect("eager"),
        );
    }
    let r = graph.report();
    assert_eq!((r.runs, r.compiles, r.hits, r.misses), (5, 3, 2, 3));
    let compiles: Vec<(&str, &str)> = r
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Compile)
        .map(|e| (e.key.as_str(), e.reason.as_str()))
        .collect();
    assert_eq!(
        compiles,
        [
            ("[2x4]", "cold"),
            ("[3x4]", "new-shape"),
            ("[1x4]", "new-shape")
        ]
    );
    assert_eq!(r.plans, 3);
    // Eager mode compiles nothing.
    let e = eager.report();
    assert_eq!((e.runs, e.compiles, e.events.len()), (5, 0, 0));
    let json = r.to_json();
    assert_eq!(json["exe_mode"], "graph");
    assert_eq!(json["cache"]["hits"], 2);
    assert_eq!(json["events"][0]["reason"], "cold");
}

#[test]
fn views_run_in_place_once_their_plan_is_compiled() {
    let session = Session::new(source(MLP), options(ExeMode::Graph)).expect("session");
    let eager = Session::new(source(MLP), options(ExeMode::Eager)).expect("session");
    let x = batch(3);
    // Held elsewhere: the bytes of a plain buffer, not a tensor's.
    let bytes = x.to_le_bytes();
    let shape = [3, 4];
    let view = strata_runtime::TensorView::new(DType::F32, &shape, &bytes).expect("view");
    let first = session.run_views(&[view]).expect("compiles on a copy");
    let second = session.run_views(&[view]).expect("runs in place");
    assert_eq!(first[0].to_f64_vec(), second[0].to_f64_vec());
    close(
        &second,
        &eager.run(std::slice::from_ref(&x)).expect("eager"),
    );
    let r = session.report();
    assert_eq!((r.runs, r.compiles, r.hits), (2, 1, 1));
    // Checked as tensors are.
    let wrong = strata_runtime::TensorView::new(DType::F32, &[4, 3], &bytes).expect("view");
    let e = session.run_views(&[wrong]).expect_err("shape");
    assert!(e.to_string().contains("has shape [4, 3]"), "{e}");
    assert!(strata_runtime::TensorView::new(DType::F32, &[5, 4], &bytes).is_err());
}

#[test]
fn the_cache_evicts_the_least_recently_used_plan() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let session = Session::new(
        source(MLP),
        SessionOptions {
            plan_cache_limit: 2,
            on_event: Some(Arc::new(move |e| {
                sink.lock()
                    .unwrap()
                    .push((e.kind, e.key.clone(), e.reason.clone()))
            })),
            ..options(ExeMode::Graph)
        },
    )
    .expect("session");
    for n in [1, 2, 1, 3, 2] {
        session.run(&[batch(n)]).expect("runs");
    }
    let log = events.lock().unwrap().clone();
    let want = [
        (EventKind::Compile, "[1x4]", "cold"),
        (EventKind::Compile, "[2x4]", "new-shape"),
        (EventKind::Hit, "[1x4]", ""),
        // 3 pushes out 2, the least recently used; 2 comes back.
        (EventKind::Compile, "[3x4]", "new-shape"),
        (EventKind::Evict, "[2x4]", ""),
        (EventKind::Compile, "[2x4]", "evicted"),
        (EventKind::Evict, "[1x4]", ""),
    ];
    let got: Vec<(EventKind, &str, &str)> = log
        .iter()
        .map(|(k, key, r)| (*k, key.as_str(), r.as_str()))
        .collect();
    assert_eq!(got, want);
    let r = session.report();
    assert_eq!((r.compiles, r.evictions, r.plans), (4, 2, 2));
}

#[test]
fn the_event_callback_may_call_back_into_the_session() {
    // Events reach the callback after the session's lock is released: a
    // callback that reads the report does not deadlock.
    let slot: Arc<std::sync::OnceLock<std::sync::Weak<Session>>> = Arc::default();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (from, log) = (Arc::clone(&slot), Arc::clone(&seen));
    let session = Arc::new(
        Session::new(
            source(MLP),
            SessionOptions {
                on_event: Some(Arc::new(move |e| {
                    if let Some(s) = from.get().and_then(std::sync::Weak::upgrade) {
                        log.lock().unwrap().push((e.kind, s.report().compiles));
                    }
                })),
                ..options(ExeMode::Graph)
            },
        )
        .expect("session"),
    );
    let _ = slot.set(Arc::downgrade(&session));
    session.run(&[batch(2)]).expect("runs");
    session.run(&[batch(2)]).expect("runs");
    assert_eq!(
        *seen.lock().unwrap(),
        vec![(EventKind::Compile, 1), (EventKind::Hit, 1)]
    );
}

#[test]
fn runs_from_several_threads_match_one_thread() {
    let session = Arc::new(Session::new(source(MLP), options(ExeMode::Graph)).expect("session"));
    let reference = Session::new(source(MLP), options(ExeMode::Eager)).expect("session");
    let sizes = [1, 2, 3, 5, 8];
    let want: Vec<Vec<Tensor>> = sizes
        .iter()
        .map(|&n| reference.run(&[batch(n)]).expect("eager"))
        .collect();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let session = Arc::clone(&session);
            std::thread::spawn(move || {
                (0..20)
                    .map(|i| {
                        let k = (i + t) % sizes.len();
                        (k, session.run(&[batch(sizes[k])]).expect("runs"))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for t in threads {
        for (k, got) in t.join().expect("thread") {
            close(&got, &want[k]);
        }
    }
    let r = session.report();
    // Each shape compiled once, however the threads raced.
    assert_eq!(r.compiles, sizes.len() as u64);
    assert_eq!(r.hits + r.misses, 80);
    assert_eq!(r.misses, sizes.len() as u64);
}

#[test]
fn inputs_that_do_not_fit_are_refused_with_their_name() {
    for mode in [ExeMode::Eager, ExeMode::Graph] {
        let session = Session::new(source(MLP), options(mode)).expect("session");
        let wrong_dtype = Tensor::from_f64_vec(DType::F64, &[2, 4], &[0.0; 8]);
        let e = session.run(&[wrong_dtype]).expect_err("f64").to_string();
        assert_eq!(
            e,
            "input 'x' is f64 [2, 4], but the model takes f32 (tensor<?x4xf32>)"
        );
        let wrong_dim = Tensor::from_f64_vec(DType::F32, &[2, 5], &[0.0; 10]);
        let e = session.run(&[wrong_dim]).expect_err("2x5").to_string();
        assert_eq!(
            e,
            "input 'x' has shape [2, 5], which the model's tensor<?x4xf32> does not admit"
        );
        let e = session.run(&[]).expect_err("none").to_string();
        assert!(e.contains("expected 1 input(s) (x), got 0"), "{e}");
        // Nothing compiled for a refused input.
        assert_eq!(session.report().compiles, 0);
    }
}

#[test]
fn a_compile_failure_is_located_and_an_event() {
    let text = "func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {\n  %a = graph.constant dense<1> : tensor<i64>\n  %0 = graph.cumsum %x, %a : (tensor<4x8xf32>, tensor<i64>) -> tensor<4x8xf32>\n  return %0 : tensor<4x8xf32>\n}\n";
    let session = Session::new(source(text), options(ExeMode::Graph)).expect("session");
    let x = Tensor::from_f64_vec(DType::F32, &[4, 8], &[1.0; 32]);
    let e = session
        .run(std::slice::from_ref(&x))
        .expect_err("no lowering");
    assert!(matches!(e, SessionError::Compile(_)));
    let text_of = e.to_string();
    assert!(
        text_of.starts_with(
            "model.mlir:3:8: error: 'graph.cumsum' op cannot be lowered to tensor yet"
        ),
        "{text_of}"
    );
    let r = session.report();
    assert_eq!((r.compiles, r.misses), (0, 1));
    assert_eq!(r.events[0].kind, EventKind::CompileFailed);
    // The failure is remembered: the same key fails at once, with the
    // same error, and is not compiled again.
    let again = session
        .run(std::slice::from_ref(&x))
        .expect_err("remembered");
    assert_eq!(again.to_string(), text_of);
    let r = session.report();
    assert_eq!((r.misses, r.failed_again, r.events.len()), (1, 1, 1));
    assert_eq!(r.to_json()["cache"]["failed_again"], 1);
    // Eager mode runs it.
    let eager = Session::new(source(text), options(ExeMode::Eager)).expect("session");
    assert_eq!(eager.run(&[x]).expect("eager")[0].to_f64_vec()[7], 8.0);
}

#[test]
fn inputs_the_lowering_needs_as_constants_make_one_plan_per_value() {
    let text = "func.func @main(%x: tensor<2x3xf32>, %axes: tensor<1xi64>) -> tensor<*xf32> {
  %s = graph.reduce_sum %x axes %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %s : tensor<*xf32>
}
";
    let session = Session::new(source(text), options(ExeMode::Graph)).expect("session");
    let x = Tensor::from_f64_vec(DType::F32, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let axis = |a: f64| Tensor::from_f64_vec(DType::I64, &[1], &[a]);
    let rows = session.run(&[x.clone(), axis(1.0)]).expect("axis 1");
    assert_eq!(rows[0].to_f64_vec(), [6.0, 15.0]);
    let cols = session.run(&[x.clone(), axis(0.0)]).expect("axis 0");
    assert_eq!(cols[0].to_f64_vec(), [5.0, 7.0, 9.0]);
    session.run(&[x.clone(), axis(1.0)]).expect("axis 1 again");
    let r = session.report();
    assert_eq!((r.compiles, r.hits), (2, 1));
    // A failure with some values is not a failure with others.
    let bad = session.run(&[x.clone(), axis(5.0)]).expect_err("axis 5");
    assert!(matches!(bad, SessionError::Compile(_)), "{bad}");
    let y = Tensor::from_f64_vec(DType::F32, &[2, 3], &[1.0; 6]);
    let fresh = Session::new(source(text), options(ExeMode::Graph)).expect("session");
    fresh
        .run(&[y.clone(), axis(5.0)])
        .expect_err("axis 5 first");
    let rows = fresh.run(&[y, axis(1.0)]).expect("then axis 1 compiles");
    assert_eq!(rows[0].to_f64_vec(), [3.0, 3.0]);
    assert_eq!(fresh.report().failed_again, 0);
    let compiles: Vec<_> = r
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Compile)
        .collect();
    assert_eq!(compiles[0].pinned, ["input_1"]);
    assert_eq!(compiles[1].reason, "new-values");
}

/// `relu`, then `cumsum` (which does not lower), then a matmul and a
/// softmax: a compiled segment, an eager island, a compiled segment.
const ISLAND: &str = "func.func @main(%x: tensor<?x4xf32> {onnx.name = \"x\"}) -> (tensor<?x3xf32> {onnx.name = \"y\"}, tensor<?x4xf32> {onnx.name = \"c\"}) {
  %w = graph.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.5, -0.5], [-0.25, 2.0, 1.0], [1.0, -0.75, 0.5]]> : tensor<4x3xf32>
  %axis = graph.constant dense<1> : tensor<i64>
  %0 = graph.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = graph.cumsum %0, %axis : (tensor<?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
  %2 = graph.matmul %1, %w : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %3 = graph.softmax %2 {axis = 1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %3, %1 : tensor<?x3xf32>, tensor<?x4xf32>
}
";

fn hybrid(rules: Rules) -> SessionOptions {
    SessionOptions {
        rules,
        ..options(ExeMode::Hybrid)
    }
}

fn excluding(ops: &[&str]) -> Rules {
    Rules {
        exclude_ops: ops.iter().map(|s| s.to_string()).collect(),
        ..Rules::default()
    }
}

#[test]
fn hybrid_runs_islands_eagerly_between_compiled_segments() {
    let session = Session::new(source(ISLAND), hybrid(Rules::default())).expect("session");
    let eager = Session::new(source(ISLAND), options(ExeMode::Eager)).expect("session");
    for n in [2, 5] {
        let x = [batch(n)];
        close(
            &session.run(&x).expect("hybrid"),
            &eager.run(&x).expect("eager"),
        );
    }
    let r = session.report();
    assert_eq!(r.compiles, 2);
    let (key, p) = &r.partitions[0];
    assert_eq!(key, "[2x4]");
    let kinds: Vec<(SegmentKind, Vec<&str>)> = p
        .segments
        .iter()
        .map(|s| (s.kind, s.ops.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        kinds,
        [
            (SegmentKind::Compiled, vec!["graph.relu"]),
            (SegmentKind::Eager, vec!["graph.cumsum"]),
            (SegmentKind::Compiled, vec!["graph.matmul", "graph.softmax"]),
        ]
    );
    let why = &p.segments[1].why[0];
    assert_eq!(why.reason, "no-lowering");
    assert_eq!(why.location, "model.mlir:5:8");
    assert_eq!(why.message, "cannot be lowered to tensor yet");
    assert_eq!((p.ops_compiled(), p.ops_total()), (3, 4));
    let json = r.to_json();
    assert_eq!(json["coverage"]["ops_compiled"], 3);
    assert_eq!(json["segments"][1]["reasons"][0]["reason"], "no-lowering");
}

/// A model that takes a sequence and returns one: the tensor arithmetic
/// compiles, the sequence ops are islands.
const SEQUENCES: &str = "func.func @main(%s: !graph.seq<tensor<2x4xf32>> {onnx.name = \"s\"}, %x: tensor<2x4xf32> {onnx.name = \"x\"}) -> (!graph.seq<tensor<2x4xf32>> {onnx.name = \"grown\"}, tensor<i64> {onnx.name = \"n\"}, tensor<2x4xf32> {onnx.name = \"y\"}) {
  %r = graph.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %g = graph.sequence_insert %s, %r : (!graph.seq<tensor<2x4xf32>>, tensor<2x4xf32>) -> !graph.seq<tensor<2x4xf32>>
  %n = graph.sequence_length %g : (!graph.seq<tensor<2x4xf32>>) -> tensor<i64>
  %zero = graph.constant dense<0> : tensor<i64>
  %f = graph.sequence_at %g, %zero : (!graph.seq<tensor<2x4xf32>>, tensor<i64>) -> tensor<2x4xf32>
  %y = graph.add %f, %r : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %g, %n, %y : !graph.seq<tensor<2x4xf32>>, tensor<i64>, tensor<2x4xf32>
}
";

#[test]
fn hybrid_takes_and_returns_sequences() {
    use strata_runtime::Datum;
    let session = Session::new(source(SEQUENCES), hybrid(Rules::default())).expect("session");
    let eager = Session::new(source(SEQUENCES), options(ExeMode::Eager)).expect("session");
    let x = batch(2);
    for n in [0, 3] {
        let s = Datum::Sequence((0..n).map(|_| batch(2)).collect());
        let inputs = vec![s, Datum::Tensor(x.clone())];
        let got = session.run_values(inputs.clone()).expect("hybrid");
        let want = eager.run_values(inputs).expect("eager");
        assert_eq!(got, want, "{n} tensors in the sequence");
        let Datum::Sequence(grown) = &got[0] else {
            panic!("{:?}", got[0].describe())
        };
        assert_eq!(grown.len(), n + 1);
    }
    // The sequence's length is not in the key: one plan.
    let r = session.report();
    assert_eq!(r.compiles, 1);
    let (key, p) = &r.partitions[0];
    assert_eq!(key, "[scalar, 2x4]");
    let kinds: Vec<(SegmentKind, Vec<&str>)> = p
        .segments
        .iter()
        .map(|s| (s.kind, s.ops.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        kinds,
        [
            (SegmentKind::Compiled, vec!["graph.relu"]),
            (
                SegmentKind::Eager,
                vec![
                    "graph.sequence_insert",
                    "graph.sequence_length",
                    "graph.sequence_at"
                ]
            ),
            (SegmentKind::Compiled, vec!["graph.add"]),
        ]
    );
    // A value of the wrong kind is refused with the input's name.
    let wrong = vec![Datum::Sequence(vec![x.clone()]), Datum::Sequence(vec![x])];
    let e = session
        .run_values(wrong)
        .expect_err("a sequence for a tensor");
    assert_eq!(
        e.to_string(),
        "input 'x' is a sequence, but the model takes tensor<2x4xf32>"
    );
}

#[test]
fn hybrid_without_islands_is_graph_mode() {
    let session = Session::new(source(MLP), hybrid(Rules::default())).expect("session");
    let graph = Session::new(source(MLP), options(ExeMode::Graph)).expect("session");
    let x = [batch(3)];
    let (h, g) = (
        session.run(&x).expect("hybrid"),
        graph.run(&x).expect("graph"),
    );
    assert_eq!(h[0].to_f64_vec(), g[0].to_f64_vec());
    let r = session.report();
    let p = &r.partitions[0].1;
    assert_eq!(p.segments.len(), 1);
    assert_eq!(p.segments[0].kind, SegmentKind::Compiled);
}

#[test]
fn hybrid_with_every_op_excluded_is_eager_bit_for_bit() {
    let all = ["matmul", "add", "relu", "softmax"];
    let session = Session::new(source(MLP), hybrid(excluding(&all))).expect("session");
    let eager = Session::new(source(MLP), options(ExeMode::Eager)).expect("session");
    let x = [batch(4)];
    let (h, e) = (
        session.run(&x).expect("hybrid"),
        eager.run(&x).expect("eager"),
    );
    assert_eq!(h[0].to_f64_vec(), e[0].to_f64_vec());
    let r = session.report();
    let p = &r.partitions[0].1;
    assert_eq!(p.ops_compiled(), 0);
    assert!(p.island_ops().all(|w| w.reason == "excluded-by-recipe"));
}

#[test]
fn hybrid_matches_eager_for_any_exclusion() {
    let names = ["graph.matmul", "add", "Relu", "softmax"];
    let eager = Session::new(source(MLP), options(ExeMode::Eager)).expect("session");
    let x = [batch(3)];
    let want = eager.run(&x).expect("eager");
    for mask in 0u32..16 {
        let chosen: Vec<&str> = names
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, n)| *n)
            .collect();
        let session = Session::new(source(MLP), hybrid(excluding(&chosen))).expect("session");
        close(&session.run(&x).expect("hybrid"), &want);
        let p = &session.report().partitions[0].1;
        assert_eq!(p.ops_total() - p.ops_compiled(), chosen.len(), "{chosen:?}");
    }
}

#[test]
fn small_compiled_segments_join_the_islands() {
    let rules = Rules {
        min_segment_ops: 2,
        ..Rules::default()
    };
    let session = Session::new(source(ISLAND), hybrid(rules)).expect("session");
    let eager = Session::new(source(ISLAND), options(ExeMode::Eager)).expect("session");
    let x = [batch(2)];
    close(
        &session.run(&x).expect("hybrid"),
        &eager.run(&x).expect("eager"),
    );
    let p = &session.report().partitions[0].1;
    let kinds: Vec<SegmentKind> = p.segments.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [SegmentKind::Eager, SegmentKind::Compiled]);
    assert_eq!(p.segments[0].why[0].reason, "min-segment-ops");
    assert_eq!(p.segments[0].why[1].reason, "no-lowering");
}

#[test]
fn include_ops_keeps_the_others_eager() {
    let rules = Rules {
        include_ops: vec!["matmul".into()],
        ..Rules::default()
    };
    let session = Session::new(source(MLP), hybrid(rules)).expect("session");
    let eager = Session::new(source(MLP), options(ExeMode::Eager)).expect("session");
    let x = [batch(2)];
    close(
        &session.run(&x).expect("hybrid"),
        &eager.run(&x).expect("eager"),
    );
    let p = &session.report().partitions[0].1;
    assert_eq!(p.ops_compiled(), 1);
    assert!(p.island_ops().all(|w| w.reason == "not-included"));
}

#[test]
fn options_follow_the_recipe() {
    let mut recipe = strata_recipe::Recipe::default();
    recipe.codegen.threads = 3;
    recipe.runtime.plan_cache_limit = 5;
    recipe.runtime.exe_mode = ExeMode::Eager;
    let o = SessionOptions::from_recipe(&recipe);
    assert_eq!((o.threads, o.plan_cache_limit), (3, 5));
    assert_eq!(o.exe_mode, ExeMode::Eager);
    assert_eq!(o.pipeline, recipe.pipeline());
    let auto = SessionOptions::default();
    assert_eq!(auto.threads, 0);
    assert!(auto.resolved_threads() >= 1);
}

/// [`MLP`] with its batch named, for buckets.
const MLP_BATCH: &str = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = \"x\"}) -> (tensor<?x3xf32> {onnx.name = \"y\"}) {
  %w = graph.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.5, -0.5], [-0.25, 2.0, 1.0], [1.0, -0.75, 0.5]]> : tensor<4x3xf32>
  %b = graph.constant dense<[0.1, -0.2, 0.3]> : tensor<3xf32>
  %0 = graph.matmul %x, %w : (tensor<?x4xf32, #graph.dims<batch>>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %1 = graph.add %0, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %2 = graph.relu %1 : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %3 = graph.softmax %2 {axis = 1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %3 : tensor<?x3xf32>
}
";

fn bucketed(outside: strata_recipe::OutsideBuckets) -> SessionOptions {
    SessionOptions {
        buckets: [("batch".to_string(), vec![1, 4, 8])].into_iter().collect(),
        outside_buckets: outside,
        pad_value: f64::NAN,
        ..options(ExeMode::Graph)
    }
}

#[test]
fn buckets_pad_and_slice_back_bit_for_bit() {
    let session = Session::new(
        source(MLP_BATCH),
        bucketed(strata_recipe::OutsideBuckets::Pad),
    )
    .expect("session");
    let exact = Session::new(source(MLP_BATCH), options(ExeMode::Graph)).expect("session");
    for n in [1, 2, 3, 4, 5, 8, 2] {
        let x = [batch(n)];
        let (b, e) = (
            session.run(&x).expect("bucket"),
            exact.run(&x).expect("exact"),
        );
        assert_eq!(b[0].shape(), &[n, 3]);
        // NaN in the padded rows never reaches a real one.
        assert_eq!(b[0].to_f64_vec(), e[0].to_f64_vec(), "batch {n}");
    }
    let r = session.report();
    // Buckets 1, 4 and 8 only.
    assert_eq!(r.compiles, 3);
    let keys: Vec<&str> = r
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Compile)
        .map(|e| e.key.as_str())
        .collect();
    assert_eq!(keys, ["[1x4]", "[4x4]", "[8x4]"]);
    // 2 -> 4, 3 -> 4, 5 -> 8, 2 -> 4: 2 + 1 + 3 + 2 padded rows of 25 run.
    assert!(
        (r.padding_waste - 8.0 / 33.0).abs() < 1e-9,
        "{}",
        r.padding_waste
    );
}

#[test]
fn shapes_outside_the_buckets() {
    use strata_recipe::OutsideBuckets;
    let pad = Session::new(source(MLP_BATCH), bucketed(OutsideBuckets::Pad)).expect("session");
    let e = pad.run(&[batch(9)]).expect_err("above").to_string();
    assert_eq!(
        e,
        "no shape bucket: dimension 'batch' = 9 is above the largest bucket [1, 4, 8]"
    );
    let reject =
        Session::new(source(MLP_BATCH), bucketed(OutsideBuckets::Reject)).expect("session");
    assert!(reject.run(&[batch(4)]).is_ok());
    let e = reject
        .run(&[batch(3)])
        .expect_err("not a bucket")
        .to_string();
    assert!(e.contains("'batch' = 3 is not a bucket [1, 4, 8]"), "{e}");
    let eager = Session::new(source(MLP_BATCH), bucketed(OutsideBuckets::Eager)).expect("session");
    let reference = Session::new(source(MLP_BATCH), options(ExeMode::Eager)).expect("session");
    let x = [batch(3)];
    close(
        &eager.run(&x).expect("eager"),
        &reference.run(&x).expect("reference"),
    );
    let r = eager.report();
    assert_eq!(r.compiles, 0);
    assert_eq!(r.events[0].kind, EventKind::OutsideBuckets);
}

#[test]
fn padding_that_would_mix_is_refused_at_compile_time() {
    // A mean over the batch axis would count the padded rows.
    let text = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<1x4xf32> {
  %a = graph.constant dense<0> : tensor<1xi64>
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.reduce_mean %0 axes %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
";
    let session =
        Session::new(source(text), bucketed(strata_recipe::OutsideBuckets::Pad)).expect("session");
    let refusal = "model.mlir:4:8: 'graph.reduce_mean' op reduces over dimension 'batch', which is padded: padding a bucketed dimension is not proven safe here";
    // Refused before the bucket's plan is compiled.
    let e = session.run(&[batch(3)]).expect_err("refused").to_string();
    assert_eq!(e, refusal);
    assert_eq!(session.report().compiles, 0);
    // At a bucket's own size nothing is padded: it runs.
    session.run(&[batch(4)]).expect("no padding");
    let e = session.run(&[batch(3)]).expect_err("refused").to_string();
    assert_eq!(e, refusal);
    assert_eq!(session.report().compiles, 1);
}

/// Self-attention over a sequence of 4-vectors: the scores' softmax runs
/// along the padded key axis and the last product contracts it.
const ATTENTION: &str = "func.func @main(%x: tensor<?x4xf32, #graph.dims<seq>> {onnx.name = \"x\"}) -> (tensor<?x4xf32> {onnx.name = \"y\"}, tensor<?x?xf32> {onnx.name = \"p\"}) {
  %wq = graph.constant dense<[[0.5, -1.0, 0.25, 0.1], [1.5, 0.5, -0.5, 0.2], [-0.25, 2.0, 1.0, 0.3], [1.0, -0.75, 0.5, 0.4]]> : tensor<4x4xf32>
  %q = graph.matmul %x, %wq : (tensor<?x4xf32, #graph.dims<seq>>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %kt = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<?x4xf32, #graph.dims<seq>>) -> tensor<4x?xf32>
  %s = graph.matmul %q, %kt : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  %p = graph.softmax %s {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = graph.matmul %p, %x : (tensor<?x?xf32>, tensor<?x4xf32, #graph.dims<seq>>) -> tensor<?x4xf32>
  return %y, %p : tensor<?x4xf32>, tensor<?x?xf32>
}
";

#[test]
fn attention_masks_its_padded_keys() {
    let session = Session::new(
        source(ATTENTION),
        SessionOptions {
            buckets: [("seq".to_string(), vec![1, 4, 8])].into_iter().collect(),
            pad_value: f64::NAN,
            ..options(ExeMode::Graph)
        },
    )
    .expect("session");
    let exact = Session::new(source(ATTENTION), options(ExeMode::Graph)).expect("session");
    let eager = Session::new(source(ATTENTION), options(ExeMode::Eager)).expect("session");
    for n in [1, 2, 3, 4, 5, 7, 8] {
        let x = [batch(n)];
        let (b, e) = (
            session.run(&x).expect("bucket"),
            exact.run(&x).expect("exact"),
        );
        assert_eq!(b[0].shape(), &[n, 4]);
        assert_eq!(b[1].shape(), &[n, n]);
        // NaN in the padded keys and rows never reaches a real value; the
        // masked sums run over more (zero) terms, so their order, not
        // their terms, may differ from the exact plan's: a few ulps.
        for (got, want) in b.iter().zip(&e) {
            for (g, w) in got.to_f64_vec().iter().zip(want.to_f64_vec()) {
                let ulps = (g - w).abs() / (f64::from(f32::EPSILON) * w.abs().max(1e-30));
                assert!(g.is_finite() && ulps <= 4.0, "seq {n}: {g} vs {w}");
            }
        }
        close(&b, &eager.run(&x).expect("eager"));
    }
    assert_eq!(session.report().compiles, 3);
}

#[test]
fn hybrid_mode_serves_buckets_with_the_masks_reaching_its_islands() {
    // The softmax over the padded keys runs in an eager island: the mask
    // inserted before it keeps the NaN of the padding out.
    let rules = excluding(&["softmax"]);
    let buckets = [("seq".to_string(), vec![1, 4, 8])].into_iter().collect();
    let session = Session::new(
        source(ATTENTION),
        SessionOptions {
            buckets,
            pad_value: f64::NAN,
            ..hybrid(rules.clone())
        },
    )
    .expect("session");
    let exact = Session::new(source(ATTENTION), hybrid(rules)).expect("session");
    for n in [1, 2, 3, 5, 8] {
        let x = [batch(n)];
        let (b, e) = (
            session.run(&x).expect("bucket"),
            exact.run(&x).expect("exact"),
        );
        assert_eq!(b[0].shape(), &[n, 4]);
        assert_eq!(b[1].shape(), &[n, n]);
        for (got, want) in b.iter().zip(&e) {
            for (g, w) in got.to_f64_vec().iter().zip(want.to_f64_vec()) {
                let ulps = (g - w).abs() / (f64::from(f32::EPSILON) * w.abs().max(1e-30));
                assert!(g.is_finite() && ulps <= 4.0, "seq {n}: {g} vs {w}");
            }
        }
    }
    let r = session.report();
    assert_eq!(r.compiles, 3);
    // Each bucket's plan is a hybrid one, with the softmax an island.
    for (key, p) in &r.partitions {
        let eager: Vec<&str> = p
            .segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Eager)
            .flat_map(|s| s.ops.iter().map(String::as_str))
            .collect();
        assert_eq!(eager, ["graph.softmax"], "{key}");
    }
    // What the padding proof refuses, hybrid mode refuses too.
    let text = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<1x4xf32> {
  %a = graph.constant dense<0> : tensor<1xi64>
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.reduce_mean %0 axes %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
";
    let mixing = Session::new(
        source(text),
        SessionOptions {
            exe_mode: ExeMode::Hybrid,
            ..bucketed(strata_recipe::OutsideBuckets::Pad)
        },
    )
    .expect("session");
    let e = mixing.run(&[batch(3)]).expect_err("refused").to_string();
    assert!(
        e.contains("'graph.reduce_mean' op reduces over dimension 'batch', which is padded"),
        "{e}"
    );
    mixing.run(&[batch(4)]).expect("no padding");
}

fn budgeted(budget: u64, action: strata_recipe::BudgetAction) -> SessionOptions {
    SessionOptions {
        recompile_budget: budget,
        on_budget_exhausted: action,
        ..options(ExeMode::Graph)
    }
}

#[test]
fn a_spent_recompile_budget_acts_and_compiled_plans_keep_serving() {
    use strata_recipe::BudgetAction;
    let session = Session::new(source(MLP), budgeted(2, BudgetAction::Error)).expect("session");
    session.run(&[batch(1)]).expect("first plan");
    session.run(&[batch(2)]).expect("second plan");
    let e = session.run(&[batch(3)]).expect_err("spent").to_string();
    assert_eq!(
        e,
        "recompile budget spent: 2 of 2 plans compiled; on_budget_exhausted = error"
    );
    session
        .run(&[batch(1)])
        .expect("a compiled plan still serves");
    let kinds: Vec<EventKind> = session.report().events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Compile,
            EventKind::Compile,
            EventKind::BudgetWarning,
            EventKind::BudgetExhausted,
            EventKind::Hit
        ]
    );
    // `eager`: the run goes to the interpreter.
    let eager = Session::new(source(MLP), budgeted(1, BudgetAction::Eager)).expect("session");
    let reference = Session::new(source(MLP), options(ExeMode::Eager)).expect("session");
    eager.run(&[batch(1)]).expect("compiles");
    let x = [batch(5)];
    close(
        &eager.run(&x).expect("eager"),
        &reference.run(&x).expect("reference"),
    );
    assert_eq!(eager.report().compiles, 1);
}

#[test]
fn nearest_bucket_serves_from_a_larger_compiled_bucket() {
    let options = SessionOptions {
        recompile_budget: 1,
        on_budget_exhausted: strata_recipe::BudgetAction::NearestBucket,
        ..bucketed(strata_recipe::OutsideBuckets::Pad)
    };
    let session = Session::new(source(MLP_BATCH), options).expect("session");
    let exact = Session::new(source(MLP_BATCH), self::options(ExeMode::Graph)).expect("session");
    session.run(&[batch(8)]).expect("bucket 8");
    let x = [batch(3)];
    let got = session.run(&x).expect("served by bucket 8");
    assert_eq!(
        got[0].to_f64_vec(),
        exact.run(&x).expect("exact")[0].to_f64_vec()
    );
    assert_eq!(session.report().compiles, 1);
}

#[test]
fn a_burst_of_compiles_warns_and_runs_are_traced() {
    let options = SessionOptions {
        trace: true,
        ..budgeted(100, strata_recipe::BudgetAction::Error)
    };
    let session = Session::new(source(MLP), options).expect("session");
    for n in [1, 2, 3, 4, 1] {
        session.run(&[batch(n)]).expect("runs");
    }
    let r = session.report();
    let burst: Vec<&str> = r
        .events
        .iter()
        .filter(|e| e.kind == EventKind::BudgetWarning)
        .map(|e| e.reason.as_str())
        .collect();
    assert_eq!(burst, ["a burst: 4 compiles in the last 16 runs"]);
    let trace = r.to_chrome_trace();
    let events = trace["traceEvents"].as_array().expect("events");
    let runs = events.iter().filter(|e| e["name"] == "run").count();
    assert_eq!(runs, 5);
    let compiles = events
        .iter()
        .filter(|e| {
            e["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("compile "))
        })
        .count();
    assert_eq!(compiles, 4);
}

#[test]
fn padding_is_refused_where_it_could_reach_real_values() {
    let refused = |text: &'static str| {
        let session = Session::new(source(text), bucketed(strata_recipe::OutsideBuckets::Pad))
            .expect("session");
        session.run(&[batch(3)]).expect_err("refused").to_string()
    };
    // A transpose without perm reverses the axes: the reduction then sums
    // over the padded batch.
    let transposed = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<4xf32> {
  %axes = graph.constant dense<[1]> : tensor<1xi64>
  %t = graph.transpose %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<4x?xf32>
  %s = graph.reduce_sum %t axes %axes {keepdims = false} : (tensor<4x?xf32>, tensor<1xi64>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
";
    let e = refused(transposed);
    assert!(
        e.contains("'graph.reduce_sum' op reduces over dimension 'batch', which is padded"),
        "{e}"
    );
    // The batch size read from the input (it would fold to the bucket's).
    let sized = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32> {
  %n = graph.size %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<i64>
  %f = graph.cast %n {to = f32} : (tensor<i64>) -> tensor<f32>
  %y = graph.div %x, %f : (tensor<?x4xf32, #graph.dims<batch>>, tensor<f32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
";
    let e = refused(sized);
    assert!(
        e.contains("'graph.cast' op takes a value that is computed from the size '4*batch'"),
        "{e}"
    );
}
