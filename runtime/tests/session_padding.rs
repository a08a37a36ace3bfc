//! Shape buckets on models that compute shapes from their inputs: the
//! padding proof follows sizes read with `shape_of` through shape
//! arithmetic, `reshape`, `range` and a gather from a flattened value,
//! and refuses a size that becomes data.

mod common;

use common::source;
use strata_runtime::session::{ExeMode, Session, SessionOptions};
use strata_runtime::{DType, Tensor};

fn options(buckets: &[(&str, &[i64])]) -> SessionOptions {
    SessionOptions {
        exe_mode: ExeMode::Graph,
        threads: 1,
        cache_dir: None,
        buckets: buckets
            .iter()
            .map(|(s, b)| (s.to_string(), b.to_vec()))
            .collect(),
        pad_value: f64::NAN,
        ..SessionOptions::default()
    }
}

/// What an exported transformer does with its input's shape: heads split
/// and merged back by reshapes whose targets are read with `shape_of`,
/// position ids from `range(0, seq)`, the mask gathered from its
/// flattened form at `row * seq + column` (as `transformers` builds its
/// attention mask), and the first token of each row.
const SHAPED: &str = "func.func @main(%x: tensor<?x?x8xf32, #graph.dims<batch, seq>>, %m: tensor<?x?xi64, #graph.dims<batch, seq>>) -> (tensor<?x?x8xf32>, tensor<?x?x1xi64>, tensor<?x8xf32>) {
  %shape = graph.shape_of %x : (tensor<?x?x8xf32, #graph.dims<batch, seq>>) -> tensor<3xi64>
  %c0 = graph.constant dense<0> : tensor<i64>
  %c1 = graph.constant dense<1> : tensor<i64>
  %v0 = graph.constant dense<[0]> : tensor<1xi64>
  %v1 = graph.constant dense<[1]> : tensor<1xi64>
  %b = graph.gather %shape[%v0] : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %s = graph.gather %shape[%v1] : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %heads = graph.constant dense<[-1, 4]> : tensor<2xi64>
  %split = graph.concat %b, %s, %heads {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<4xi64>
  %y = graph.reshape %x, %split : (tensor<?x?x8xf32, #graph.dims<batch, seq>>, tensor<4xi64>) -> tensor<?x?x2x4xf32>
  %t = graph.transpose %y {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x?x2x4xf32>) -> tensor<?x2x?x4xf32>
  %e = graph.exp %t : (tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
  %u = graph.transpose %e {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x2x?x4xf32>) -> tensor<?x?x2x4xf32>
  %merged = graph.reshape %u, %shape : (tensor<?x?x2x4xf32>, tensor<3xi64>) -> tensor<?x?x8xf32>
  %bs = graph.gather %shape[%c0] : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %ss = graph.gather %shape[%c1] : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %pos = graph.range %c0, %ss, %c1 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %posf = graph.cast %pos {to = f32} : (tensor<?xi64>) -> tensor<?xf32>
  %posc = graph.unsqueeze %posf, %v1 : (tensor<?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %out = graph.add %merged, %posc : (tensor<?x?x8xf32>, tensor<?x1xf32>) -> tensor<?x?x8xf32>
  %flat = graph.flatten %m {axis = 2 : i64} : (tensor<?x?xi64, #graph.dims<batch, seq>>) -> tensor<?x1xi64>
  %rows = graph.range %c0, %bs, %c1 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %rowc = graph.unsqueeze %rows, %v1 : (tensor<?xi64>, tensor<1xi64>) -> tensor<?x1xi64>
  %start = graph.mul %rowc, %s : (tensor<?x1xi64>, tensor<1xi64>) -> tensor<?x1xi64>
  %cols = graph.unsqueeze %pos, %v0 : (tensor<?xi64>, tensor<1xi64>) -> tensor<1x?xi64>
  %at = graph.add %start, %cols : (tensor<?x1xi64>, tensor<1x?xi64>) -> tensor<?x?xi64>
  %mask = graph.gather %flat[%at] : (tensor<?x1xi64>, tensor<?x?xi64>) -> tensor<?x?x1xi64>
  %first = graph.gather %out[%c0] {axis = 1 : i64} : (tensor<?x?x8xf32>, tensor<i64>) -> tensor<?x8xf32>
  return %out, %mask, %first : tensor<?x?x8xf32>, tensor<?x?x1xi64>, tensor<?x8xf32>
}
";

fn inputs(b: usize, s: usize) -> Vec<Tensor> {
    let x: Vec<f64> = (0..b * s * 8).map(|i| (i as f64 * 0.37).sin()).collect();
    let m: Vec<f64> = (0..b * s).map(|i| ((i * 7) % 5) as f64).collect();
    vec![
        Tensor::from_f64_vec(DType::F32, &[b, s, 8], &x),
        Tensor::from_f64_vec(DType::I64, &[b, s], &m),
    ]
}

#[test]
fn sizes_read_from_padded_inputs_are_followed() {
    let buckets = options(&[("batch", &[1, 4, 8]), ("seq", &[2, 8])]);
    let session = Session::new(source(SHAPED), buckets).expect("session");
    let exact = Session::new(source(SHAPED), options(&[])).expect("session");
    let eager = Session::new(
        source(SHAPED),
        SessionOptions {
            exe_mode: ExeMode::Eager,
            ..options(&[])
        },
    )
    .expect("session");
    for (b, s) in [(3, 5), (1, 1), (2, 7), (4, 8), (5, 3)] {
        let x = inputs(b, s);
        let got = session.run(&x).expect("bucket");
        let want = exact.run(&x).expect("exact");
        let reference = eager.run(&x).expect("eager");
        assert_eq!(got.len(), 3);
        for (i, ((g, w), r)) in got.iter().zip(&want).zip(&reference).enumerate() {
            assert_eq!(g.shape(), w.shape(), "output {i} at {b}x{s}");
            // NaN in the padding never reaches a real element: nothing is
            // masked here, so the real elements are the exact plan's bit
            // for bit, and the interpreter's within its `exp`'s ulp.
            assert_eq!(g.to_f64_vec(), w.to_f64_vec(), "output {i} at {b}x{s}");
            for (p, q) in g.to_f64_vec().iter().zip(r.to_f64_vec()) {
                assert!((p - q).abs() <= 1e-6 * q.abs().max(1.0), "{p} vs {q}");
            }
        }
    }
    let report = session.report();
    assert!(report.padding_waste > 0.0);
    // (3,5) -> 4x8, (1,1) -> 1x2, (2,7) -> 4x8, (4,8), (5,3) -> 8x8.
    assert_eq!(report.compiles, 3);
}

/// The refusal of a padded run of `text` (batch buckets [1, 4, 8], a
/// request of batch 3).
fn refusal(text: &'static str, x: Tensor) -> String {
    let session = Session::new(source(text), options(&[("batch", &[1, 4, 8])])).expect("session");
    let e = session.run(&[x]).expect_err("refused").to_string();
    assert_eq!(session.report().compiles, 0, "refused before compiling");
    e
}

fn rows(n: usize) -> Tensor {
    let v: Vec<f64> = (0..n * 4).map(|i| i as f64 * 0.5).collect();
    Tensor::from_f64_vec(DType::F32, &[n, 4], &v)
}

#[test]
fn a_size_that_becomes_data_is_refused() {
    // A mean over the batch written by hand: divided by the batch size.
    let mean = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32> {
  %shape = graph.shape_of %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<2xi64>
  %c0 = graph.constant dense<0> : tensor<i64>
  %n = graph.gather %shape[%c0] : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %f = graph.cast %n {to = f32} : (tensor<i64>) -> tensor<f32>
  %y = graph.div %x, %f : (tensor<?x4xf32, #graph.dims<batch>>, tensor<f32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
";
    let e = refusal(mean, rows(3));
    assert_eq!(
        e,
        "model.mlir:5:8: 'graph.cast' op takes a value that is computed from the size 'batch': padding a bucketed dimension is not proven safe here"
    );
    // Arithmetic on a size that the real and the padded size answer
    // differently.
    let compared = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32> {
  %shape = graph.shape_of %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<2xi64>
  %c4 = graph.constant dense<4> : tensor<2xi64>
  %big = graph.greater %shape, %c4 : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
  %y = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
";
    let e = refusal(compared, rows(3));
    assert!(
        e.contains("'graph.greater' op computes 'greater' with the size 'batch', which differs between the padded and the real shapes"),
        "{e}"
    );
    // Positions that do not start at 0: the real ones would not come first.
    let shifted = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?xi64> {
  %shape = graph.shape_of %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<2xi64>
  %c0 = graph.constant dense<0> : tensor<i64>
  %c1 = graph.constant dense<1> : tensor<i64>
  %n = graph.gather %shape[%c0] : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %r = graph.range %c1, %n, %c1 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %r : tensor<?xi64>
}
";
    let e = refusal(shifted, rows(3));
    assert!(
        e.contains("'graph.range' op makes a range from 1 to the size 'batch' by 1"),
        "{e}"
    );
}

#[test]
fn a_merged_padded_dimension_is_refused_where_it_mixes() {
    // Rows and columns merged, then summed: the padded rows would count.
    let summed = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<1xf32> {
  %flat = graph.constant dense<[-1]> : tensor<1xi64>
  %v = graph.reshape %x, %flat : (tensor<?x4xf32, #graph.dims<batch>>, tensor<1xi64>) -> tensor<?xf32>
  %axes = graph.constant dense<[0]> : tensor<1xi64>
  %s = graph.reduce_sum %v axes %axes : (tensor<?xf32>, tensor<1xi64>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}
";
    let e = refusal(summed, rows(3));
    assert!(
        e.contains("'graph.reduce_sum' op takes a value that merges padded dimensions into one ([batch, 4])"),
        "{e}"
    );
    // A gather from the merged rows at `row + [0, 4, 8, 12]`: not
    // positions the proof can match to (row, column).
    let transposed = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32> {
  %flat = graph.constant dense<[-1]> : tensor<1xi64>
  %v = graph.reshape %x, %flat : (tensor<?x4xf32, #graph.dims<batch>>, tensor<1xi64>) -> tensor<?xf32>
  %shape = graph.shape_of %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<2xi64>
  %c0 = graph.constant dense<0> : tensor<i64>
  %c1 = graph.constant dense<1> : tensor<i64>
  %c4 = graph.constant dense<4> : tensor<i64>
  %n = graph.gather %shape[%c0] : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %r = graph.range %c0, %n, %c1 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %v1 = graph.constant dense<[1]> : tensor<1xi64>
  %rc = graph.unsqueeze %r, %v1 : (tensor<?xi64>, tensor<1xi64>) -> tensor<?x1xi64>
  %cols = graph.constant dense<[0, 4, 8, 12]> : tensor<4xi64>
  %at = graph.add %rc, %cols : (tensor<?x1xi64>, tensor<4xi64>) -> tensor<?x4xi64>
  %g = graph.gather %v[%at] : (tensor<?xf32>, tensor<?x4xi64>) -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
";
    let e = refusal(transposed, rows(3));
    assert!(
        e.contains("'graph.gather' op gathers from merged padded dimensions [batch, 4] by indices the proof cannot follow"),
        "{e}"
    );
}

#[test]
fn positions_past_a_table_at_the_bucket_size_are_refused() {
    // Rows 2.. of a table of 5, one per batch row: batch 3 reads rows 2 to
    // 4, its bucket (4) would read row 5.
    let shifted = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32> {
  %shape = graph.shape_of %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<2xi64>
  %c0 = graph.constant dense<0> : tensor<i64>
  %c1 = graph.constant dense<1> : tensor<i64>
  %c2 = graph.constant dense<2> : tensor<i64>
  %n = graph.gather %shape[%c0] : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %r = graph.range %c0, %n, %c1 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %at = graph.add %r, %c2 : (tensor<?xi64>, tensor<i64>) -> tensor<?xi64>
  %table = graph.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0]]> : tensor<5x4xf32>
  %rows = graph.gather %table[%at] : (tensor<5x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  %y = graph.add %x, %rows : (tensor<?x4xf32, #graph.dims<batch>>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
";
    let e = refusal(shifted, rows(3));
    assert!(
        e.contains("'graph.gather' op gathers position 5 of an axis of 5 at the bucket's sizes, past its end"),
        "{e}"
    );
    // Within the table at the bucket's size (batch 2 padded to 3 reads
    // rows 2 to 4): served, and the real rows are the interpreter's.
    let session = Session::new(source(shifted), options(&[("batch", &[1, 3])])).expect("session");
    let eager = Session::new(
        source(shifted),
        SessionOptions {
            exe_mode: ExeMode::Eager,
            ..options(&[])
        },
    )
    .expect("session");
    let x = [rows(2)];
    assert_eq!(
        session.run(&x).expect("bucket 3")[0].to_f64_vec(),
        eager.run(&x).expect("eager")[0].to_f64_vec()
    );
    assert!(session.report().padding_waste > 0.0);
}

/// Inference batch norm: a padded batch stays in its rows (the run matches
/// the exact plan), padded channels are refused.
#[test]
fn batch_norm_keeps_a_padded_batch_apart_and_refuses_padded_channels() {
    let bn = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32> {
  %s = graph.constant dense<[1.0, 2.0, 0.5, 1.5]> : tensor<4xf32>
  %b = graph.constant dense<[0.0, 1.0, -1.0, 0.5]> : tensor<4xf32>
  %m = graph.constant dense<[0.5, 0.0, 1.0, -0.5]> : tensor<4xf32>
  %v = graph.constant dense<[1.0, 4.0, 0.25, 2.0]> : tensor<4xf32>
  %y = graph.batch_norm %x, %s, %b, %m, %v : (tensor<?x4xf32, #graph.dims<batch>>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
";
    let session = Session::new(source(bn), options(&[("batch", &[1, 4, 8])])).expect("session");
    let exact = Session::new(source(bn), options(&[])).expect("session");
    for n in [3, 5] {
        let got = session.run(&[rows(n)]).expect("padded run");
        let want = exact.run(&[rows(n)]).expect("exact run");
        assert_eq!(got[0].shape(), &[n, 4]);
        assert_eq!(got[0].to_f64_vec(), want[0].to_f64_vec());
    }
    let channels = "func.func @main(%x: tensor<2x?xf32, #graph.dims<batch>>, %p: tensor<?xf32, #graph.dims<batch>>) -> tensor<2x?xf32> {
  %y = graph.batch_norm %x, %p, %p, %p, %p : (tensor<2x?xf32, #graph.dims<batch>>, tensor<?xf32, #graph.dims<batch>>, tensor<?xf32, #graph.dims<batch>>, tensor<?xf32, #graph.dims<batch>>, tensor<?xf32, #graph.dims<batch>>) -> tensor<2x?xf32>
  return %y : tensor<2x?xf32>
}
";
    let session =
        Session::new(source(channels), options(&[("batch", &[1, 4, 8])])).expect("session");
    let x = Tensor::from_f64_vec(DType::F32, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let p = Tensor::from_f64_vec(DType::F32, &[3], &[1.0, 1.0, 1.0]);
    let e = session.run(&[x, p]).expect_err("refused").to_string();
    assert!(
        e.contains("'graph.batch_norm' op normalizes per channel, and its channels are padded (dimension 'batch')"),
        "{e}"
    );
}

/// Convolution, pooling and a reduction over the spatial axes, on a
/// padded batch: the real samples match the exact plan; a reduction over
/// the batch is refused.
#[test]
fn convolutions_pooling_and_reductions_keep_a_padded_batch_apart() {
    let convnet = "func.func @main(%x: tensor<?x2x4x4xf32, #graph.dims<batch>>) -> tensor<?x3xf32> {
  %w = graph.constant dense<0.25> : tensor<3x2x3x3xf32>
  %b = graph.constant dense<[0.5, -0.5, 1.0]> : tensor<3xf32>
  %c = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x4x4xf32, #graph.dims<batch>>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<?x3x4x4xf32>
  %p = graph.max_pool2d %c {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x3x4x4xf32>) -> tensor<?x3x2x2xf32>
  %axes = graph.constant dense<[2, 3]> : tensor<2xi64>
  %m = graph.reduce_mean %p axes %axes {keepdims = false} : (tensor<?x3x2x2xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %m : tensor<?x3xf32>
}
";
    let session =
        Session::new(source(convnet), options(&[("batch", &[1, 4, 8])])).expect("session");
    let exact = Session::new(source(convnet), options(&[])).expect("session");
    for n in [3, 5] {
        let v: Vec<f64> = (0..n * 32).map(|i| (i as f64 * 0.61).sin()).collect();
        let x = Tensor::from_f64_vec(DType::F32, &[n, 2, 4, 4], &v);
        let got = session.run(std::slice::from_ref(&x)).expect("padded run");
        let want = exact.run(&[x]).expect("exact run");
        assert_eq!(got[0].shape(), &[n, 3]);
        assert_eq!(got[0].to_f64_vec(), want[0].to_f64_vec());
    }
    let over_batch = "func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<1x4xf32> {
  %axes = graph.constant dense<[0]> : tensor<1xi64>
  %m = graph.reduce_max %x axes %axes : (tensor<?x4xf32, #graph.dims<batch>>, tensor<1xi64>) -> tensor<1x4xf32>
  return %m : tensor<1x4xf32>
}
";
    let e = refusal(over_batch, rows(3));
    assert!(
        e.contains("'graph.reduce_max' op reduces over dimension 'batch', which is padded"),
        "{e}"
    );
}
