// REQUIRES: strata-opt
// Verifier errors of graph.if, graph.loop, graph.scan and graph.yield.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @if_branch_count(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.if' op region #1 yields 0 values, but the op has 1 results}}
  %r = graph.if %c : tensor<i1> -> (tensor<2xf32>) {
    graph.yield %x : tensor<2xf32>
  } else {
    graph.yield
  }
  return
}

// -----

func.func @if_branch_shape(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'graph.if' op value #0 of region #1 has shape [3], which cannot be [2]}}
  %r = graph.if %c : tensor<i1> -> (tensor<2xf32>) {
    graph.yield %x : tensor<2xf32>
  } else {
    graph.yield %y : tensor<3xf32>
  }
  return
}

// -----

func.func @if_branch_elem(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<2xi32>) {
  // expected-error @+1 {{'graph.if' op value #0 of region #1 has element type i32, but f32 is expected}}
  %r = graph.if %c : tensor<i1> -> (tensor<2xf32>) {
    graph.yield %x : tensor<2xf32>
  } else {
    graph.yield %y : tensor<2xi32>
  }
  return
}

// -----

func.func @if_condition(%c: tensor<2xi1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.if' op the condition must be a one-element tensor of i1, but is tensor<2xi1>}}
  %r = graph.if %c : tensor<2xi1> -> (tensor<2xf32>) {
    graph.yield %x : tensor<2xf32>
  } else {
    graph.yield %x : tensor<2xf32>
  }
  return
}

// -----

func.func @if_result_join(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>) {
  // The branches disagree: the result cannot claim a static size.
  // expected-error @+1 {{'graph.if' op value #0 of region #0 has shape [2], which cannot be [3]}}
  %r = graph.if %c : tensor<i1> -> (tensor<3xf32>) {
    graph.yield %x : tensor<2xf32>
  } else {
    graph.yield %y : tensor<3xf32>
  }
  return
}

// -----

func.func @loop_args(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{'graph.loop' op body has 2 arguments, but the iteration number, the condition and 1 carried values make 3}}
  %r = graph.loop(%n, %c, %x) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>) {
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>):
    graph.yield %cc, %x : tensor<i1>, tensor<f32>
  }
  return
}

// -----

func.func @loop_trip_count(%n: tensor<i32>, %c: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{'graph.loop' op the trip count must be a one-element tensor of i64, but is tensor<i32>}}
  %r = graph.loop(%n, %c, %x) : (tensor<i32>, tensor<i1>, tensor<f32>) -> (tensor<f32>) {
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>, %a: tensor<f32>):
    graph.yield %cc, %a : tensor<i1>, tensor<f32>
  }
  return
}

// -----

func.func @loop_iteration_rank(%n: tensor<i64>, %c: tensor<i1>) {
  // expected-error @+1 {{'graph.loop' op body argument #0 (the iteration number) must be a 0-D tensor, but is tensor<1xi64>}}
  graph.loop(%n, %c) : (tensor<i64>, tensor<i1>) -> () {
  ^bb0(%i: tensor<1xi64>, %cc: tensor<i1>):
    graph.yield %cc : tensor<i1>
  }
  return
}

// -----

func.func @loop_carried(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'graph.loop' op yielded carried value #0 has shape [3], which cannot be [2]}}
  %r = graph.loop(%n, %c, %x) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>, %a: tensor<2xf32>):
    graph.yield %cc, %y : tensor<i1>, tensor<3xf32>
  }
  return
}

// -----

func.func @loop_condition_first(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{'graph.loop' op yielded value #0 (the condition) must be a one-element tensor of i1, but is tensor<f32>}}
  %r = graph.loop(%n, %c, %x) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>) {
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>, %a: tensor<f32>):
    graph.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @loop_stacked_result(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op result #0 has shape [5, 3] but its inferred shape is [?, 4] (dimension 1: 3 vs 4)}}
  %r = graph.loop(%n, %c) : (tensor<i64>, tensor<i1>) -> (tensor<5x3xf32>) {
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>):
    graph.yield %cc, %x : tensor<i1>, tensor<4xf32>
  }
  return
}

// -----

func.func @scan_count(%h: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'graph.scan' op num_scan_inputs must be between 1 and the 2 operands, but is 3}}
  %r:2 = graph.scan(%h, %xs) {num_scan_inputs = 3 : i64} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>) {
  ^bb0(%a: tensor<2xf32>, %x: tensor<2xf32>):
    graph.yield %a, %x : tensor<2xf32>, tensor<2xf32>
  }
  return
}

// -----

func.func @scan_slice(%h: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'graph.scan' op body argument #1 (a slice of scanned input #0) has shape [5], which cannot be [2]}}
  %r:2 = graph.scan(%h, %xs) {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x5xf32>) {
  ^bb0(%a: tensor<2xf32>, %x: tensor<5xf32>):
    graph.yield %a, %x : tensor<2xf32>, tensor<5xf32>
  }
  return
}

// -----

func.func @scan_output_shape(%h: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'graph.scan' op result #1 has shape [4, 2] but its inferred shape is [5, 2] (dimension 0: 4 vs 5)}}
  %r:2 = graph.scan(%h, %xs) {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<4x2xf32>) {
  ^bb0(%a: tensor<2xf32>, %x: tensor<2xf32>):
    graph.yield %a, %x : tensor<2xf32>, tensor<2xf32>
  }
  return
}

// -----

func.func @scan_direction(%h: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'graph.scan' op scan_input_directions must be 0 (forward) or 1 (reverse), but has 2}}
  %r:2 = graph.scan(%h, %xs) {num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 2>} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>) {
  ^bb0(%a: tensor<2xf32>, %x: tensor<2xf32>):
    graph.yield %a, %x : tensor<2xf32>, tensor<2xf32>
  }
  return
}

// -----

func.func @yield_parent(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.yield' op expects parent op to be one of 'graph.if, graph.loop, graph.scan'}}
  graph.yield %x : tensor<2xf32>
}
