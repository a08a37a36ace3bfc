// convert-tensor-to-kernel, row form: a fusion group of reductions over
// the last axis and maps on the rows (softmax, after tensor-fuse) becomes a
// kernel with one program per row. The row is loaded once as a masked tile of
// the next power of two of its length; each reduction selects its init value
// where the mask is off and combines it once more with the init, maps on the
// row use the reduced scalar splat over the tile, one masked store writes the
// row.
// REQUIRES: strata-opt
// RUN: strata-opt '--pass-pipeline=builtin.module(tensor-fuse,convert-tensor-to-kernel)' %s | FileCheck %s
// Without fusion each op is a kernel of its own:
// RUN: strata-opt --convert-tensor-to-kernel %s | FileCheck %s --check-prefix=UNFUSED

// CHECK-LABEL: func.func @softmax(%arg0: memref<5x100xf32>) -> memref<5x100xf32>
// CHECK-NEXT:    %[[OUT:.*]] = kernel.alloc offset 0 : memref<5x100xf32>
// CHECK-NEXT:    %[[ROWS:.*]] = arith.constant 5 : index
// CHECK-NEXT:    kernel.launch @softmax_0_reduce grid(%[[ROWS]]) (%arg0, %[[OUT]]) : memref<5x100xf32>, memref<5x100xf32>
// CHECK-NEXT:    return %[[OUT]]
// CHECK-LABEL: kernel.func @softmax_0_reduce(%arg0: !kernel.ptr<f32>, %arg1: !kernel.ptr<f32>)
// CHECK-NEXT:    %[[ROW:.*]] = program_id x : i32
// CHECK-NEXT:    %[[R:.*]] = range 0, 128 : tensor<128xi32>
// CHECK-NEXT:    %[[C100:.*]] = arith.constant 100 : i32
// CHECK-NEXT:    %[[S100:.*]] = splat %[[C100]] : i32 -> tensor<128xi32>
// CHECK-NEXT:    %[[MASK:.*]] = arith.cmpi slt, %[[R]], %[[S100]] : tensor<128xi32>
// CHECK:         %[[X:.*]] = load %{{.*}}, %[[MASK]] : tensor<128x!kernel.ptr<f32>>
// CHECK:         %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[SNINF:.*]] = splat %[[NINF]] : f32 -> tensor<128xf32>
// CHECK-NEXT:    %[[XM:.*]] = arith.select %[[MASK]], %[[X]], %[[SNINF]] : tensor<128xi1>, tensor<128xf32>
// CHECK-NEXT:    %[[M:.*]] = reduce %[[XM]] axis = 0 {
// CHECK:           arith.maximumf
// CHECK:         } : tensor<128xf32> -> f32
// CHECK-NEXT:    %[[MAX:.*]] = arith.maximumf %[[M]], %[[NINF]] : f32
// CHECK-NEXT:    %[[SMAX:.*]] = splat %[[MAX]] : f32 -> tensor<128xf32>
// CHECK-NEXT:    %[[D:.*]] = arith.subf %[[X]], %[[SMAX]] : tensor<128xf32>
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[D]] : tensor<128xf32>
// CHECK:         reduce %{{.*}} axis = 0 {
// CHECK:           arith.addf
// CHECK:         %[[Q:.*]] = arith.divf %[[E]], %{{.*}} : tensor<128xf32>
// CHECK:         store %{{.*}}, %[[Q]], %[[MASK]] : tensor<128x!kernel.ptr<f32>>
// CHECK-NEXT:    return
// CHECK-NOT:   kernel.func

// UNFUSED-COUNT-4: kernel.launch
// UNFUSED-NOT: kernel.launch
// UNFUSED: kernel.func @softmax_0_reduce
// UNFUSED: kernel.func @softmax_1_map
// UNFUSED: kernel.func @softmax_2_reduce
// UNFUSED: kernel.func @softmax_3_map

func.func @softmax(%x: tensor<5x100xf32>) -> tensor<5x100xf32> {
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
  return %sm : tensor<5x100xf32>
}
