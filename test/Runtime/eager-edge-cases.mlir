// Edge cases of the interpreter found in review: none may crash, hang or
// allocate absurdly; each gives the ONNX/MLIR result.
// RUN: strata run %s --function empty_huge_slice | FileCheck %s --check-prefix=ZSLICE
// RUN: strata run %s --function huge_pool_window --print | FileCheck %s --check-prefix=POOL
// RUN: strata run %s --function empty_negative_slice | FileCheck %s --check-prefix=SLICE0
// RUN: strata run %s --function negative_step_clamp --print | FileCheck %s --check-prefix=NEGSTEP
// RUN: strata run %s --function cmpi_i1 --print | FileCheck %s --check-prefix=CMPI
// RUN: strata run %s --function call_in_loop --print | FileCheck %s --check-prefix=CALL
// RUN: not strata run %s --function unsqueeze_repeat --input input_0=%S/Inputs/axes-0-0.npy 2>&1 | FileCheck %s --check-prefix=UNSQ

// A zero-element tensor with a huge dimension slices without listing it.
// ZSLICE: output_0: f32 [0, 1]
func.func @empty_huge_slice() -> tensor<0x1xf32> {
  %a = graph.constant dense<> : tensor<0x1000000000000xf32>
  %s = graph.constant dense<[0]> : tensor<1xi64>
  %e = graph.constant dense<[1]> : tensor<1xi64>
  %x = graph.constant dense<[1]> : tensor<1xi64>
  %r = graph.slice %a, %s, %e axes %x : (tensor<0x1000000000000xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<0x1xf32>
  return %r : tensor<0x1xf32>
}

// A huge window costs only the taps that hit the input.
// POOL: output_0: f32 [1, 1, 1, 1]
// POOL-NEXT: {{\[\[\[\[}}1.0]]]]
func.func @huge_pool_window() -> tensor<1x1x1x1xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %r = graph.max_pool2d %x {kernel_shape = array<i64: 1, 1000000000001>, pads = array<i64: 0, 500000000000, 0, 500000000000>} : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %r : tensor<1x1x1x1xf32>
}

// A backwards slice of an empty dimension is empty.
// SLICE0: output_0: f32 [0]
func.func @empty_negative_slice() -> tensor<?xf32> {
  %a = graph.constant dense<> : tensor<0xf32>
  %s = graph.constant dense<[-1]> : tensor<1xi64>
  %e = graph.constant dense<[-9223372036854775807]> : tensor<1xi64>
  %x = graph.constant dense<[0]> : tensor<1xi64>
  %st = graph.constant dense<[-1]> : tensor<1xi64>
  %r = graph.slice %a, %s, %e axes %x steps %st : (tensor<0xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// With a negative step the start clamps to [0, d - 1] (ONNX spec, as
// onnxruntime): starts = -100 on 4 elements selects element 0.
// NEGSTEP: output_0: f32 [1]
// NEGSTEP-NEXT: [1.0]
func.func @negative_step_clamp() -> tensor<1xf32> {
  %a = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = graph.constant dense<[-100]> : tensor<1xi64>
  %e = graph.constant dense<[-100]> : tensor<1xi64>
  %x = graph.constant dense<[0]> : tensor<1xi64>
  %st = graph.constant dense<[-1]> : tensor<1xi64>
  %r = graph.slice %a, %s, %e axes %x steps %st : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  return %r : tensor<1xf32>
}

// Signed predicates read i1 true as -1 (MLIR).
// CMPI: output_0: i1 []
// CMPI-NEXT: true
// CMPI-NEXT: output_1: i1 []
// CMPI-NEXT: true
func.func @cmpi_i1() -> (i1, i1) {
  %t = arith.constant true
  %f = arith.constant false
  %r = arith.cmpi slt, %t, %f : i1
  %u = arith.cmpi ugt, %t, %f : i1
  return %r, %u : i1, i1
}

// A call inside a loop body finds its callee in the module.
// CALL: output_0: i64 []
// CALL-NEXT: {{^}}7{{$}}
func.func private @inc(%x: i64) -> i64 {
  %one = arith.constant 1 : i64
  %r = arith.addi %x, %one : i64
  return %r : i64
}
func.func @call_in_loop() -> i64 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 5 : i64
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %z) -> (i64) {
    %y = func.call @inc(%a) : (i64) -> i64
    scf.yield %y : i64
  }
  return %r : i64
}

// Unsqueeze axes may not repeat (the shape function says so too, when the
// axes are known at compile time; here they arrive as an input).
// UNSQ: error: 'graph.unsqueeze' op axes [0, 0] repeat an axis
func.func @unsqueeze_repeat(%axes: tensor<2xi64>) -> tensor<*xf32> {
  %x = graph.constant dense<1.0> : tensor<2x3xf32>
  %r = graph.unsqueeze %x, %axes : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
