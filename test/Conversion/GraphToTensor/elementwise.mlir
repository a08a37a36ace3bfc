// Elementwise graph ops become tensor.map, with numpy broadcasting in the
// indexing maps and the interpreter's scalar formulas in the bodies.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s
// RUN: strata-opt --convert-graph-to-tensor %s | strata-opt | FileCheck %s

// CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[B0:map[0-9]*]] = affine_map<(d0, d1) -> (0, d1)>

// A missing leading dim is dropped; a size-1 dim reads index 0.
// CHECK-LABEL: func.func @add_broadcast(
// CHECK: %[[A:.*]] = tensor.map ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8xf32>) maps [#[[ID]], #[[ROW]]] {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: tensor.yield %[[S]] : f32
// CHECK-NEXT: } : tensor<4x8xf32>
// CHECK: tensor.map ins(%[[A]], %arg2 : tensor<4x8xf32>, tensor<1x8xf32>) maps [#[[ID]], #[[B0]]] {
// CHECK: arith.mulf
// CHECK-NOT: graph.
func.func @add_broadcast(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = graph.mul %0, %c : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// relu keeps NaN (x < 0 ? 0 : x), as the interpreter.
// CHECK-LABEL: func.func @relu(
// CHECK: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[C:.*]] = arith.cmpf olt, %[[X]], %[[Z]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[C]], %[[Z]], %[[X]] : f32
// CHECK-NEXT: tensor.yield %[[R]] : f32
func.func @relu(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.relu %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// f16 and bf16 compute in f32.
// CHECK-LABEL: func.func @tanh_f16(
// CHECK: ^bb0(%[[X:.*]]: f16):
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[E]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[T]] : f32 to f16
// CHECK-NEXT: tensor.yield %[[R]] : f16
func.func @tanh_f16(%a: tensor<3xf16>) -> tensor<3xf16> {
  %0 = graph.tanh %a : (tensor<3xf16>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// CHECK-LABEL: func.func @gelu(
// CHECK: %[[R2:.*]] = arith.constant 1.41421354 : f32
// CHECK: arith.divf %{{.*}}, %[[R2]] : f32
// CHECK: math.erf
func.func @gelu(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.gelu %a : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @leaky_relu(
// CHECK: arith.constant 1.000000e-01 : f32
// CHECK: arith.cmpf oge
func.func @leaky_relu(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.leaky_relu %a {alpha = 0.1 : f64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// Comparisons of floats are ordered; integers compare signed.
// CHECK-LABEL: func.func @compare(
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: tensor.yield %{{.*}} : i1
// CHECK: } : tensor<2x3xi1>
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : i32
func.func @compare(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = graph.less %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = graph.greater_equal %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  return %0, %1 : tensor<2x3xi1>, tensor<2x3xi1>
}

// Integer mod takes the sign of the divisor (Python's %).
// CHECK-LABEL: func.func @int_ops(
// CHECK: arith.divsi
// CHECK: arith.remsi
// CHECK: arith.addi
// CHECK: arith.select
// CHECK: arith.andi
func.func @int_ops(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = graph.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = graph.mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = graph.and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @where(
// CHECK: tensor.map ins(%arg0, %arg1, %arg2 : tensor<3xi1>, tensor<2x3xf32>, tensor<f32>) maps [#{{.*}}, #{{.*}}, #{{.*}}] {
// CHECK-NEXT: ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT: %[[R:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : f32
func.func @where(%c: tensor<3xi1>, %x: tensor<2x3xf32>, %y: tensor<f32>) -> tensor<2x3xf32> {
  %0 = graph.where %c, %x, %y : (tensor<3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @clip(
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.cmpf ogt
// CHECK: arith.select
func.func @clip(%x: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4xf32> {
  %0 = graph.clip %x min %lo max %hi : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Casts: float to int truncates (fptosi), to i1 is `!= 0` (NaN is true).
// CHECK-LABEL: func.func @cast(
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.cmpf une
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.uitofp %{{.*}} : i1 to f32
func.func @cast(%x: tensor<4xf32>, %h: tensor<4xbf16>, %b: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xf16>, tensor<4xf32>) {
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xi32>
  %1 = graph.cast %x : (tensor<4xf32>) -> tensor<4xi1>
  %2 = graph.cast %h : (tensor<4xbf16>) -> tensor<4xf16>
  %3 = graph.cast %b : (tensor<4xi1>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi1>, tensor<4xf16>, tensor<4xf32>
}

// Rounding and inverse trigonometric functions are `math` ops; ONNX Round
// takes halves to even (`math.roundeven`).
// CHECK-LABEL: func.func @rounding(
// CHECK: math.floor %{{.*}} : f32
// CHECK: math.ceil %{{.*}} : f32
// CHECK: math.roundeven %{{.*}} : f32
// CHECK: math.atan %{{.*}} : f32
// CHECK: math.asin %{{.*}} : f32
// CHECK: math.acos %{{.*}} : f32
func.func @rounding(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.floor %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.ceil %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.round %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.atan %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.asin %3 : (tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.acos %4 : (tensor<4xf32>) -> tensor<4xf32>
  return %5 : tensor<4xf32>
}
