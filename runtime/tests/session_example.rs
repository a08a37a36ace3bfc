//! Runs examples/session.rs (a graph-mode session over the MLP example at
//! several batch sizes and from two threads) as a test.

#[path = "../../examples/session.rs"]
mod example;

#[test]
fn session_example_compiles_each_batch_size_once() {
    let report = example::run_example().expect("the example runs");
    // Batches 1, 8, 1, 8, 3, then 1 and 8 from two threads: three plans.
    assert_eq!(report["runs"], 7);
    assert_eq!(report["compiles"], 3);
    assert_eq!(report["cache"]["hits"], 4);
    assert_eq!(report["events"][0]["event"], "compile");
    assert_eq!(report["events"][0]["reason"], "cold");
}
