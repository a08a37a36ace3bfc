// convert-tensor-to-kernel, elementwise form. A group of identity maps
// becomes a 1-D kernel over the flattened result, `block` elements per
// program with a mask at the ragged end, every input read at the flat
// offset. A group that reads an input through another map (here a
// broadcast) is tiled over its inner dims instead: whole dims while the
// tile holds at most `block` elements, the other indices scalars per
// program, so each read is affine in the tile's indices.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-tensor-to-kernel %s | FileCheck %s
// RUN: strata-opt --convert-tensor-to-kernel=block=256 %s | FileCheck %s --check-prefix=B256
// RUN: strata-opt '--pass-pipeline=builtin.module(convert-tensor-to-kernel{block=256})' %s | FileCheck %s --check-prefix=B256

// The host plan: the output buffer and one launch over ceil(1200 / 1024) programs.
// CHECK-LABEL: func.func @ew(%arg0: memref<4x300xf32>, %arg1: memref<4x300xf32>) -> memref<4x300xf32> attributes {kernel.arena_bytes = 4800 : i64} {
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
// CHECK-NEXT:    %[[BLOCK:.*]] = arith.constant 1024 : i32
// CHECK-NEXT:    %[[BASE:.*]] = arith.muli %[[PID]], %[[BLOCK]] overflow<nsw> : i32
// CHECK-NEXT:    %[[R:.*]] = range 0, 1024 : tensor<1024xi32>
// CHECK-NEXT:    %[[SB:.*]] = splat %[[BASE]] : i32 -> tensor<1024xi32>
// CHECK-NEXT:    %[[OFFS:.*]] = arith.addi %[[SB]], %[[R]] overflow<nsw> : tensor<1024xi32>
// CHECK-NEXT:    %[[N:.*]] = arith.constant 1200 : i32
// CHECK-NEXT:    %[[SN:.*]] = splat %[[N]] : i32 -> tensor<1024xi32>
// CHECK-NEXT:    %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %[[SN]] : tensor<1024xi32>
// CHECK:         %[[PX:.*]] = addptr %{{.*}}, %[[OFFS]] : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
// CHECK-NEXT:    %[[X:.*]] = load %[[PX]], %[[MASK]] : tensor<1024x!kernel.ptr<f32>>
// CHECK:         %[[PY:.*]] = addptr %{{.*}}, %[[OFFS]] : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
// CHECK-NEXT:    %[[Y:.*]] = load %[[PY]], %[[MASK]] : tensor<1024x!kernel.ptr<f32>>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32>
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[S]] : tensor<1024xf32>
// CHECK:         %[[PO:.*]] = addptr %{{.*}}, %[[OFFS]] : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
// CHECK-NEXT:    store %[[PO]], %[[T]], %[[MASK]] : tensor<1024x!kernel.ptr<f32>>
// CHECK-NEXT:    return

// B256-LABEL: func.func @ew(
// B256: %{{.*}} = arith.constant 5 : index
// With block=256 a tile of @bcast holds no whole row: [1, 150], two
// programs per row.
// B256-LABEL: func.func @bcast(
// B256:         %{{.*}} = arith.constant 24 : index
// B256: range 0, 256 : tensor<256xi32>

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
