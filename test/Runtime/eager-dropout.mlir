// graph.dropout in the reference interpreter: kept elements are scaled by
// 1 / (1 - ratio), dropped ones are 0, and the mask says which is which.
// The draws depend only on the seed, so the same program prints the same
// values on every run (the values below pin strata's generator); a false `training` operand makes it the identity.
// RUN: strata run %s --function train --print | FileCheck %s --check-prefix=TRAIN
// RUN: strata run %s --function train --print > %t.1 && strata run %s --function train --print > %t.2 && diff %t.1 %t.2
// RUN: strata run %s --function infer --print | FileCheck %s --check-prefix=INFER
// RUN: not strata run %s --function bad_ratio 2>&1 | FileCheck %s --check-prefix=BAD

// TRAIN: output_0: f32 [8]
// TRAIN-NEXT: [0.0, 4.0, 4.0, 0.0, 0.0, 4.0, 0.0, 4.0]
// TRAIN-NEXT: output_1: i1 [8]
// TRAIN-NEXT: [false, true, true, false, false, true, false, true]
func.func @train() -> (tensor<8xf32>, tensor<8xi1>) {
  %x = graph.constant dense<2.0> : tensor<8xf32>
  %r = graph.constant dense<0.5> : tensor<f32>
  %y:2 = graph.dropout %x, %r {seed = 3 : i64} : (tensor<8xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xi1>)
  return %y#0, %y#1 : tensor<8xf32>, tensor<8xi1>
}

// INFER: output_0: f32 [3]
// INFER-NEXT: [1.0, 2.0, 3.0]
// INFER-NEXT: output_1: i1 [3]
// INFER-NEXT: [true, true, true]
func.func @infer() -> (tensor<3xf32>, tensor<3xi1>) {
  %x = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = graph.constant dense<0.9> : tensor<f32>
  %t = graph.constant dense<false> : tensor<i1>
  %y:2 = graph.dropout %x, %r training %t : (tensor<3xf32>, tensor<f32>, tensor<i1>) -> (tensor<3xf32>, tensor<3xi1>)
  return %y#0, %y#1 : tensor<3xf32>, tensor<3xi1>
}

// BAD: error: 'graph.dropout' op dropout: invalid argument: ratio 1 is outside [0, 1)
func.func @bad_ratio() -> tensor<3xf32> {
  %x = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = graph.constant dense<1.0> : tensor<f32>
  %y = graph.dropout %x, %r : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
