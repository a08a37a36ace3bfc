// convert-tensor-to-kernel, elementwise form. A group of identity maps
// becomes a 1-D kernel over the flattened result, at most `block` elements
// per program (a divisor of the elements where one is near `block`, else a
// mask at the ragged end), every input read at the flat offset. A group that reads an input through another map (here a
// broadcast) is tiled over its inner dims instead: whole dims while the
// tile holds at most `block` elements, the other indices scalars per
// program, so each read is affine in the tile's indices.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-tensor-to-kernel %s | FileCheck %s
// RUN: strata-opt --convert-tensor-to-kernel=block=256 %s | FileCheck %s --check-prefix=B256
// RUN: strata-opt '--pass-pipeline=builtin.module(convert-tensor-to-kernel{block=256})' %s | FileCheck %s --check-prefix=B256

// The host plan: the output buffer and one launch over two programs: 600
// elements each (a block that divides the 1,200 elements needs no mask).
// CHECK-LABEL: func.func @ew(%arg0: memref<4x300xf32>, %arg1: memref<4x300xf32>) -> memref<4x300xf32> attributes {kernel.arena_bytes = 4800 : i64, kernel.unplanned_bytes = 4800 : i64} {
// CHECK-NEXT:    %[[OUT:.*]] = kernel.alloc offset 0 : memref<4x300xf32>
// CHECK-NEXT:    %[[G:.*]] = arith.constant 2 : index
// CHECK-NEXT:    kernel.launch @ew_0_map grid(%[[G]]) (%arg0, %arg1, %[[OUT]]) : memref<4x300xf32>, memref<4x300xf32>, memref<4x300xf32>
// CHECK-NEXT:    return %[[OUT]] : memref<4x300xf32>

// A broadcast of the bias along the rows (@bcast below): tiles of
// [3, 300] (three whole rows), 4 programs.
// CHECK-LABEL: func.func @bcast(
// CHECK:         %[[G:.*]] = arith.constant 4 : index
// CHECK-NEXT:    kernel.launch @bcast_0_map grid(%[[G]])

// CHECK-LABEL: kernel.func @ew_0_map(%arg0: !kernel.ptr<f32>, %arg1: !kernel.ptr<f32>, %arg2: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
// CHECK-NEXT:    %[[PID:.*]] = program_id x : i32
// CHECK-NEXT:    %[[BLOCK:.*]] = arith.constant 600 : i32
// CHECK-NEXT:    %[[BASE:.*]] = arith.muli %[[PID]], %[[BLOCK]] overflow<nsw> : i32
// CHECK-NEXT:    %[[R:.*]] = range 0, 600 : tensor<600xi32>
// CHECK-NEXT:    %[[SB:.*]] = splat %[[BASE]] : i32 -> tensor<600xi32>
// CHECK-NEXT:    %[[OFFS:.*]] = arith.addi %[[SB]], %[[R]] overflow<nsw> : tensor<600xi32>
// CHECK-NOT:     arith.cmpi
// CHECK:         %[[PX:.*]] = addptr %{{.*}}, %[[OFFS]] : tensor<600x!kernel.ptr<f32>>, tensor<600xi32>
// CHECK-NEXT:    %[[X:.*]] = load %[[PX]] : tensor<600x!kernel.ptr<f32>>
// CHECK:         %[[PY:.*]] = addptr %{{.*}}, %[[OFFS]] : tensor<600x!kernel.ptr<f32>>, tensor<600xi32>
// CHECK-NEXT:    %[[Y:.*]] = load %[[PY]] : tensor<600x!kernel.ptr<f32>>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[X]], %[[Y]] : tensor<600xf32>
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[S]] : tensor<600xf32>
// CHECK:         %[[PO:.*]] = addptr %{{.*}}, %[[OFFS]] : tensor<600x!kernel.ptr<f32>>, tensor<600xi32>
// CHECK-NEXT:    store %[[PO]], %[[T]] : tensor<600x!kernel.ptr<f32>>
// CHECK-NEXT:    return

// With block=256: five blocks of 240, a divisor of 1,200.
// B256-LABEL: func.func @ew(
// B256: %{{.*}} = arith.constant 5 : index
// With block=256 a tile of @bcast holds no whole row: [1, 150], two
// programs per row.
// B256-LABEL: func.func @bcast(
// B256:         %{{.*}} = arith.constant 24 : index
// B256: range 0, 240 : tensor<240xi32>

func.func @ew(%x: tensor<4x300xf32>, %y: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %r = tensor.map ins(%x, %y : tensor<4x300xf32>, tensor<4x300xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    %t = math.tanh %s : f32
    tensor.yield %t : f32
  } : tensor<4x300xf32>
  return %r : tensor<4x300xf32>
}

// In @bcast's kernel the row index is the program's, the column a range, so
// the bias is read at the range itself. The tiles divide the domain: no mask.
// CHECK-LABEL: kernel.func @bcast_0_map(%arg0: !kernel.ptr<f32>, %arg1: !kernel.ptr<f32>, %arg2: !kernel.ptr<f32>)
// CHECK-NEXT:    %[[PID:.*]] = program_id x : i32
// CHECK:         %[[RR:.*]] = range 0, 3 : tensor<3xi32>
// CHECK:         %[[ROW:.*]] = arith.muli %[[PID]], %{{.*}} overflow<nsw> : i32
// CHECK:         %[[COL:.*]] = range 0, 300 : tensor<300xi32>
// CHECK-NEXT:    %[[C1:.*]] = expand_dims %[[COL]] axis = 0 : tensor<300xi32> -> tensor<1x300xi32>
// CHECK-NEXT:    %[[CB:.*]] = broadcast %[[C1]] : tensor<1x300xi32> -> tensor<3x300xi32>
// CHECK-NOT:     arith.remsi
// CHECK:         %[[PB:.*]] = addptr %{{.*}}, %[[CB]] : tensor<3x300x!kernel.ptr<f32>>, tensor<3x300xi32>
// CHECK-NEXT:    %{{.*}} = load %[[PB]] : tensor<3x300x!kernel.ptr<f32>>
// CHECK:         store %{{.*}}, %{{.*}} : tensor<3x300x!kernel.ptr<f32>>
// CHECK-NEXT:    return

// B256-LABEL: kernel.func @bcast_0_map(
// B256:         range 0, 150 : tensor<150xi32>

func.func @bcast(%x: tensor<12x300xf32>, %b: tensor<300xf32>) -> tensor<12x300xf32> {
  %y = tensor.map ins(%x, %b : tensor<12x300xf32>, tensor<300xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    tensor.yield %s : f32
  } : tensor<12x300xf32>
  return %y : tensor<12x300xf32>
}

// 1031 elements (a prime): no block divides them, so blocks of 1024 and a
// mask on the last one.
// CHECK-LABEL: kernel.func @ragged_0_map(
// CHECK:         %[[R:.*]] = range 0, 1024 : tensor<1024xi32>
// CHECK:         %[[N:.*]] = arith.constant 1031 : i32
// CHECK:         %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1024xi32>
// CHECK:         load %{{.*}}, %[[MASK]] : tensor<1024x!kernel.ptr<f32>>
// CHECK:         store %{{.*}}, %{{.*}}, %[[MASK]] : tensor<1024x!kernel.ptr<f32>>

func.func @ragged(%x: tensor<1031xf32>) -> tensor<1031xf32> {
  %y = tensor.map ins(%x : tensor<1031xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%a: f32):
    %e = math.exp %a : f32
    tensor.yield %e : f32
  } : tensor<1031xf32>
  return %y : tensor<1031xf32>
}
