// REQUIRES: strata-opt
// A combiner may use values from outside it (canonicalize hoists its
// constants to the kernel's body): they are the kernel's uniform values.
// RUN: strata-opt %s --canonicalize --convert-kernel-to-nvptx | FileCheck %s
// RUN: strata-opt %s --canonicalize --convert-kernel-to-nvptx --convert-kernel-to-nvptx | FileCheck %s --check-prefix=TWICE

// CHECK: module @gpu
// CHECK: func.func @clamped_max
// CHECK: %[[CAP:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: scf.for
// CHECK: arith.maximumf
// CHECK: arith.minimumf %{{.*}}, %[[CAP]] : f32
// The pass run again replaces its GPU form.
// TWICE-COUNT-1: module @gpu
// TWICE-NOT: module @gpu
kernel.func @clamped_max(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r4 = range 0, 4 : tensor<4xi32>
  %r8 = range 0, 8 : tensor<8xi32>
  %rows = expand_dims %r4 axis = 1 : tensor<4xi32> -> tensor<4x1xi32>
  %c8 = arith.constant dense<8> : tensor<4x1xi32>
  %ro = arith.muli %rows, %c8 : tensor<4x1xi32>
  %rb = broadcast %ro : tensor<4x1xi32> -> tensor<4x8xi32>
  %cols = expand_dims %r8 axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %cb = broadcast %cols : tensor<1x8xi32> -> tensor<4x8xi32>
  %o = arith.addi %rb, %cb : tensor<4x8xi32>
  %p = splat %x : !kernel.ptr<f32> -> tensor<4x8x!kernel.ptr<f32>>
  %po = addptr %p, %o : tensor<4x8x!kernel.ptr<f32>>, tensor<4x8xi32>
  %v = load %po : tensor<4x8x!kernel.ptr<f32>>
  %m = kernel.reduce %v axis = 1 {
  ^bb0(%a: f32, %b: f32):
    %cap = arith.constant 6.0 : f32
    %mx = arith.maximumf %a, %b : f32
    %r = arith.minimumf %mx, %cap : f32
    kernel.yield %r : f32
  } : tensor<4x8xf32> -> tensor<4xf32>
  %q = splat %y : !kernel.ptr<f32> -> tensor<4x!kernel.ptr<f32>>
  %qo = addptr %q, %r4 : tensor<4x!kernel.ptr<f32>>, tensor<4xi32>
  store %qo, %m : tensor<4x!kernel.ptr<f32>>
  return
}
