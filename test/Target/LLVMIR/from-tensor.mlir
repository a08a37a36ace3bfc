// A module after convert-tensor-to-kernel translates as it is: its kernels
// become entry points, the host plan (func.func on memrefs) is not code.
// REQUIRES: strata-opt
// RUN: strata-opt --tensor-fuse --convert-tensor-to-kernel %s | strata-translate --emit=llvm-ir - | FileCheck %s
// RUN: strata-opt --tensor-fuse --convert-tensor-to-kernel %s | strata-translate -O3 - | FileCheck %s --check-prefix=O3

// CHECK-NOT: define {{.*}}@main(
// CHECK-LABEL: define void @main_0_reduce(ptr %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5) {
// CHECK: call float @llvm.maximum.f32(
// exp is an inline polynomial (vectorizable), with 2^n built in the exponent bits.
// CHECK: call float @llvm.rint.f32(
// CHECK: shl i32 %{{[0-9]+}}, 23
// CHECK: fdiv
// CHECK-LABEL: define void @main_1_contract(ptr %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5) {
// CHECK: %pid_y = srem i64
// CHECK: call <8 x float> @llvm.fmuladd.v8f32(
// CHECK-NOT: define {{.*}}@main(

// O3-LABEL: define void @main_0_reduce(
// O3-LABEL: define void @main_1_contract(
// O3: {{<[0-9]+ x float>}}

func.func @main(%x: tensor<5x100xf32>, %w: tensor<100x40xf32>, %b: tensor<40xf32>) -> (tensor<5x100xf32>, tensor<5x40xf32>) {
  %m = tensor.reduce ins(%x : tensor<5x100xf32>) dims [1] init(0xFF800000 : f32) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    tensor.yield %r : f32
  } : tensor<5xf32>
  %e = tensor.map ins(%x, %m : tensor<5x100xf32>, tensor<5xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] {
  ^bb0(%a: f32, %mx: f32):
    %d = arith.subf %a, %mx : f32
    %ex = math.exp %d : f32
    tensor.yield %ex : f32
  } : tensor<5x100xf32>
  %s = tensor.reduce ins(%e : tensor<5x100xf32>) dims [1] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    tensor.yield %r : f32
  } : tensor<5xf32>
  %sm = tensor.map ins(%e, %s : tensor<5x100xf32>, tensor<5xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] {
  ^bb0(%a: f32, %t: f32):
    %q = arith.divf %a, %t : f32
    tensor.yield %q : f32
  } : tensor<5x100xf32>
  %mm = tensor.contract ins(%x, %w : tensor<5x100xf32>, tensor<100x40xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<5x40xf32>
  %y = tensor.map ins(%mm, %b : tensor<5x40xf32>, tensor<40xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%a: f32, %bias: f32):
    %z = arith.addf %a, %bias : f32
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %z, %zero : f32
    tensor.yield %relu : f32
  } : tensor<5x40xf32>
  return %sm, %y : tensor<5x100xf32>, tensor<5x40xf32>
}
