// The reference interpreter on graph.if, graph.loop and graph.scan (values
// checked by hand): both branches, a loop stopped by its condition, a loop
// that runs zero times (an empty stacked output), nested control flow, a
// reversed scan, and a loop value that changes shape against its declared
// type (a located error).
// RUN: strata run %s --function branches --print | FileCheck %s --check-prefix=IF
// RUN: strata run %s --function early_exit --print | FileCheck %s --check-prefix=LOOP
// RUN: strata run %s --function zero_trips --print | FileCheck %s --check-prefix=ZERO
// RUN: strata run %s --function nested --print | FileCheck %s --check-prefix=NESTED
// RUN: strata run %s --function scan --print | FileCheck %s --check-prefix=SCAN
// RUN: not strata run %s --function bad_shape 2>&1 | FileCheck %s --check-prefix=BAD

// IF: output_0: f32 [3]
// IF-NEXT: [2.0, 4.0, 6.0]
// IF-NEXT: output_1: f32 [2]
// IF-NEXT: [0.0, 1.0]
func.func @branches() -> (tensor<?xf32>, tensor<?xf32>) {
  %x = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %true = graph.constant dense<true> : tensor<i1>
  %false = graph.constant dense<false> : tensor<i1>
  %a = func.call @pick(%true, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<?xf32>
  %b = func.call @pick(%false, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<?xf32>
  return %a, %b : tensor<?xf32>, tensor<?xf32>
}

func.func @pick(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<?xf32> {
  %r = graph.if %c : tensor<i1> -> (tensor<?xf32>) {
    %d = graph.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %d : tensor<3xf32>
  } else {
    %s0 = graph.constant dense<0> : tensor<1xi64>
    %s2 = graph.constant dense<2> : tensor<1xi64>
    %one = graph.constant dense<1.0> : tensor<f32>
    %s = graph.slice %x, %s0, %s2 : (tensor<3xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
    %m = graph.sub %s, %one : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    graph.yield %m : tensor<2xf32>
  }
  return %r : tensor<?xf32>
}

// Doubles %acc until it reaches 20 (at most 10 times), stacking each value.
// LOOP: output_0: f32 []
// LOOP-NEXT: 24.0
// LOOP-NEXT: output_1: f32 [3]
// LOOP-NEXT: [6.0, 12.0, 24.0]
// LOOP-NEXT: output_2: i64 [3]
// LOOP-NEXT: [0, 1, 2]
func.func @early_exit() -> (tensor<f32>, tensor<?xf32>, tensor<?xi64>) {
  %n = graph.constant dense<10> : tensor<i64>
  %true = graph.constant dense<true> : tensor<i1>
  %three = graph.constant dense<3.0> : tensor<f32>
  %limit = graph.constant dense<20.0> : tensor<f32>
  %r:3 = graph.loop(%n, %true, %three) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<?xf32>, tensor<?xi64>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<f32>):
    %next = graph.add %acc, %acc : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %go = graph.less %next, %limit : (tensor<f32>, tensor<f32>) -> tensor<i1>
    graph.yield %go, %next, %next, %i : tensor<i1>, tensor<f32>, tensor<f32>, tensor<i64>
  }
  return %r#0, %r#1, %r#2 : tensor<f32>, tensor<?xf32>, tensor<?xi64>
}

// ZERO: output_0: f32 []
// ZERO-NEXT: 3.0
// ZERO-NEXT: output_1: f32 [0, 2]
func.func @zero_trips() -> (tensor<f32>, tensor<?x2xf32>) {
  %n = graph.constant dense<0> : tensor<i64>
  %true = graph.constant dense<true> : tensor<i1>
  %three = graph.constant dense<3.0> : tensor<f32>
  %v = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r:2 = graph.loop(%n, %true, %three) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<?x2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<f32>):
    graph.yield %c, %acc, %v : tensor<i1>, tensor<f32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<?x2xf32>
}

// Sums the even iteration numbers below 6 (an if inside a loop).
// NESTED: output_0: i64 []
// NESTED-NEXT: 6
func.func @nested() -> tensor<i64> {
  %n = graph.constant dense<6> : tensor<i64>
  %true = graph.constant dense<true> : tensor<i1>
  %zero = graph.constant dense<0> : tensor<i64>
  %two = graph.constant dense<2> : tensor<i64>
  %r = graph.loop(%n, %true, %zero) : (tensor<i64>, tensor<i1>, tensor<i64>) -> (tensor<i64>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<i64>):
    %m = graph.mod %i, %two : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %even = graph.equal %m, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %next = graph.if %even : tensor<i1> -> (tensor<i64>) {
      %s = graph.add %acc, %i : (tensor<i64>, tensor<i64>) -> tensor<i64>
      graph.yield %s : tensor<i64>
    } else {
      graph.yield %acc : tensor<i64>
    }
    graph.yield %c, %next : tensor<i1>, tensor<i64>
  }
  return %r : tensor<i64>
}

// A running sum over the columns of %xs, scanned from the last column, the
// sums stacked from the end (so in column order again).
// SCAN: output_0: f32 [2]
// SCAN-NEXT: [6.0, 60.0]
// SCAN-NEXT: output_1: f32 [3, 2]
// SCAN-NEXT: {{\[\[}}6.0, 60.0], [5.0, 50.0], [3.0, 30.0]]
func.func @scan() -> (tensor<2xf32>, tensor<3x2xf32>) {
  %h0 = graph.constant dense<0.0> : tensor<2xf32>
  %xs = graph.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]> : tensor<2x3xf32>
  %r:2 = graph.scan(%h0, %xs) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>, scan_input_directions = array<i64: 1>, scan_output_directions = array<i64: 1>} : (tensor<2xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  ^bb0(%h: tensor<2xf32>, %x: tensor<2xf32>):
    %h2 = graph.add %h, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %h2, %h2 : tensor<2xf32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<3x2xf32>
}

// The body declares its carried value 1-D of one element; the value it
// yields is dynamic (an if of two sizes), so the verifier accepts it, and
// the second iteration is refused at run time, located at the loop.
// BAD: eager-control-flow.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'graph.loop' op loop value #2 must have shape tensor<1xf32>, but has shape [2]
func.func @bad_shape() -> tensor<1xf32> {
  %n = graph.constant dense<3> : tensor<i64>
  %true = graph.constant dense<true> : tensor<i1>
  %zero = graph.constant dense<0> : tensor<i64>
  %v = graph.constant dense<[1.0]> : tensor<1xf32>
  %w = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = graph.loop(%n, %true, %v) : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> (tensor<1xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<1xf32>):
    %first = graph.equal %i, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %next = graph.if %first : tensor<i1> -> (tensor<?xf32>) {
      graph.yield %w : tensor<2xf32>
    } else {
      graph.yield %acc : tensor<1xf32>
    }
    graph.yield %c, %next : tensor<i1>, tensor<?xf32>
  }
  return %r : tensor<1xf32>
}
