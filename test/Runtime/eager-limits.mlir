// Results whose size comes from values (resize sizes, conv_transpose2d's
// output_shape, gather indices repeating slices) are refused above the
// interpreter's 8 GiB limit with an error, before anything is allocated:
// each graph op's shape function runs on the concrete operands first (the
// kernels of resize and conv_transpose2d check again).
// RUN: not strata run %s --function resize 2>&1 | FileCheck %s --check-prefix=RESIZE
// RUN: not strata run %s --function conv 2>&1 | FileCheck %s --check-prefix=CONV
// RUN: not strata run %s --function gather 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not strata run %s --function roi_grid 2>&1 | FileCheck %s --check-prefix=ROI
// RUN: not strata run %s --function roi_huge 2>&1 | FileCheck %s --check-prefix=ROIHUGE

// RESIZE: error: 'graph.resize' op result of shape [1048576, 1048576] is larger than the interpreter's limit of 8589934592 bytes
func.func @resize() -> tensor<?x?xf32> {
  %x = graph.constant dense<1.0> : tensor<2x2xf32>
  %s = graph.constant dense<[1048576, 1048576]> : tensor<2xi64>
  %y = graph.resize %x sizes %s : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// CONV: error: 'graph.conv_transpose2d' op result of shape [1, 1, 1048576, 1048576] is larger than the interpreter's limit of 8589934592 bytes
func.func @conv() -> tensor<1x1x1048576x1048576xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %y = graph.conv_transpose2d %x, %w {output_shape = array<i64: 1048576, 1048576>} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1048576x1048576xf32>
  return %y : tensor<1x1x1048576x1048576xf32>
}

// GATHER: error: 'graph.gather' op result of shape [1024, 1024, 2097152] is larger than the interpreter's limit of 8589934592 bytes
func.func @gather() -> tensor<1024x1024x2097152xf32> {
  %x = graph.constant dense<1.0> : tensor<1x2097152xf32>
  %i = graph.constant dense<0> : tensor<1024x1024xi64>
  %y = graph.gather %x[%i] : (tensor<1x2097152xf32>, tensor<1024x1024xi64>) -> tensor<1024x1024x2097152xf32>
  return %y : tensor<1024x1024x2097152xf32>
}

// Every graph op's shape function runs on the concrete operands first, so
// even broadcasting two small tensors cannot ask for more than the limit.
// RUN: not strata run %s --function broadcast 2>&1 | FileCheck %s --check-prefix=BCAST
// BCAST: error: 'graph.add' op result of shape [1048576, 1048576] is larger than the interpreter's limit of 8589934592 bytes
func.func @broadcast() -> tensor<1048576x1048576xf32> {
  %a = graph.constant dense<1.0> : tensor<1048576x1xf32>
  %b = graph.constant dense<1.0> : tensor<1x1048576xf32>
  %y = graph.add %a, %b : (tensor<1048576x1xf32>, tensor<1x1048576xf32>) -> tensor<1048576x1048576xf32>
  return %y : tensor<1048576x1048576xf32>
}

// A convolution whose result fits but whose im2col buffer (kH * kW times
// larger) does not; the eager fuzz target found the pattern (a 7x7 input
// padded by hundreds of millions on the right). Result: 4 x 300000004 f32
// (4.8 GB); buffer: 3 times that.
// RUN: not strata run %s --function conv_pad 2>&1 | FileCheck %s --check-prefix=IM2COL
// IM2COL: error: 'graph.conv2d' op needs an im2col buffer of 14400000192 bytes, larger than the interpreter's limit of 8589934592 bytes
func.func @conv_pad() -> tensor<1x1x4x300000004xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x7x7xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x3x1xf32>
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 599999999>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>, tensor<1x1x3x1xf32>) -> tensor<1x1x4x300000004xf32>
  return %y : tensor<1x1x4x300000004xf32>
}

// Attention's score matrix [L, S] can dwarf its result [L, Ev].
// RUN: not strata run %s --function attention 2>&1 | FileCheck %s --check-prefix=SCORES
// SCORES: error: 'graph.attention' op needs attention scores of shape [65536, 65536], larger than the interpreter's limit of 8589934592 bytes
func.func @attention() -> tensor<65536x1xf32> {
  %q = graph.constant dense<1.0> : tensor<65536x1xf32>
  %y = graph.attention %q, %q, %q : (tensor<65536x1xf32>, tensor<65536x1xf32>, tensor<65536x1xf32>) -> tensor<65536x1xf32>
  return %y : tensor<65536x1xf32>
}

// Grouped-query heads (2 key heads for 4 query heads) count at the query
// heads' number in the bound.
// RUN: not strata run %s --function attention_gqa 2>&1 | FileCheck %s --check-prefix=GQA
// GQA: error: 'graph.attention' op needs attention scores of shape [1, 4, 65536, 65536], larger than the interpreter's limit of 8589934592 bytes
func.func @attention_gqa() -> tensor<1x4x65536x1xf32> {
  %q = graph.constant dense<1.0> : tensor<1x4x65536x1xf32>
  %k = graph.constant dense<1.0> : tensor<1x2x65536x1xf32>
  %y = graph.attention %q, %k, %k : (tensor<1x4x65536x1xf32>, tensor<1x2x65536x1xf32>, tensor<1x2x65536x1xf32>) -> tensor<1x4x65536x1xf32>
  return %y : tensor<1x4x65536x1xf32>
}

// roi_align's sampling grid grows with the region (sampling_ratio 0): a
// region of about 10^12 pixels a side is refused before its samples are made.
// ROI: error: 'graph.roi_align' op roi_align: invalid argument: region 0 needs a sampling grid of {{[0-9]+}} points per bin side (at most 4096)
func.func @roi_grid() -> tensor<1x1x1x1xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x4x4xf32>
  %r = graph.constant dense<[[0.0, 0.0, 1.0e12, 1.0e12]]> : tensor<1x4xf32>
  %b = graph.constant dense<0> : tensor<1xi64>
  %y = graph.roi_align %x, %r, %b : (tensor<1x1x4x4xf32>, tensor<1x4xf32>, tensor<1xi64>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}

// ... and so is a grid of more than 2^24 samples for one region.
// ROIHUGE: error: 'graph.roi_align' op roi_align: invalid argument: region 0 needs more than 16777216 bilinear samples
func.func @roi_huge() -> tensor<1x1x4096x4096xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x4x4xf32>
  %r = graph.constant dense<[[0.0, 0.0, 2.0, 2.0]]> : tensor<1x4xf32>
  %b = graph.constant dense<0> : tensor<1xi64>
  %y = graph.roi_align %x, %r, %b {output_height = 4096 : i64, output_width = 4096 : i64, sampling_ratio = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<1x4xf32>, tensor<1xi64>) -> tensor<1x1x4096x4096xf32>
  return %y : tensor<1x1x4096x4096xf32>
}
