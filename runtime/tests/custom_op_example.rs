//! Runs examples/custom_op (registration, IR, ONNX import, the error
//! without registration) as a test.

#[path = "../../examples/custom_op/main.rs"]
mod example;

#[test]
fn custom_op_example_runs() {
    assert_eq!(example::main(), Ok(()));
}
