// The kernel dialect's ops in their custom form: printing what was parsed
// gives the same text, and the generic form reads back to it.
// REQUIRES: strata-opt
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s

// The layouts of @layouts below, printed as aliases before the module.
// CHECK: #[[B:blocked[0-9]*]] = #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[M:mma[0-9]*]] = #nvptx.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>

// One program per row of a ?x128 softmax; masks guard the rows.
// CHECK-LABEL: kernel.func @softmax(%arg0: !kernel.ptr<f32>, %arg1: !kernel.ptr<f32>, %arg2: i32) attributes {grid = 1 : i32, num_warps = 4 : i32} {
// CHECK-NEXT:    %0 = program_id x : i32
// CHECK-NEXT:    %1 = range 0, 128 : tensor<128xi32>
// CHECK:         %6 = addptr %5, %4 : tensor<128x!kernel.ptr<f32>>, tensor<128xi32>
// CHECK:         %9 = load %6, %8, %cst : tensor<128x!kernel.ptr<f32>>
// CHECK-NEXT:    %10 = reduce %9 axis = 0 {
// CHECK-NEXT:    ^bb0(%arg3: f32, %arg4: f32):
// CHECK-NEXT:      %{{.*}} = arith.maximumf %arg3, %arg4 : f32
// CHECK-NEXT:      kernel.yield %{{.*}} : f32
// CHECK-NEXT:    } : tensor<128xf32> -> f32
// CHECK:         store %{{.*}}, %{{.*}}, %8 : tensor<128x!kernel.ptr<f32>>
// CHECK-NEXT:    return
kernel.func @softmax(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %n: i32) attributes {grid = 1 : i32, num_warps = 4 : i32} {
  %row = kernel.program_id x : i32
  %cols = kernel.range 0, 128 : tensor<128xi32>
  %c128 = arith.constant 128 : i32
  %base = arith.muli %row, %c128 : i32
  %sbase = kernel.splat %base : i32 -> tensor<128xi32>
  %offs = arith.addi %sbase, %cols : tensor<128xi32>
  %px = kernel.splat %x : !kernel.ptr<f32> -> tensor<128x!kernel.ptr<f32>>
  %in = kernel.addptr %px, %offs : tensor<128x!kernel.ptr<f32>>, tensor<128xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32>
  %inrow = arith.cmpi slt, %row, %n : i32
  %ok = kernel.splat %inrow : i1 -> tensor<128xi1>
  %v = kernel.load %in, %ok, %ninf : tensor<128x!kernel.ptr<f32>>
  %m = kernel.reduce %v axis = 0 {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    kernel.yield %r : f32
  } : tensor<128xf32> -> f32
  %sm = kernel.splat %m : f32 -> tensor<128xf32>
  %d = arith.subf %v, %sm : tensor<128xf32>
  %e = math.exp %d : tensor<128xf32>
  %s = kernel.reduce %e axis = 0 {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    kernel.yield %r : f32
  } : tensor<128xf32> -> f32
  %ss = kernel.splat %s : f32 -> tensor<128xf32>
  %o = arith.divf %e, %ss : tensor<128xf32>
  %py = kernel.splat %y : !kernel.ptr<f32> -> tensor<128x!kernel.ptr<f32>>
  %out = kernel.addptr %py, %offs : tensor<128x!kernel.ptr<f32>>, tensor<128xi32>
  kernel.store %out, %o, %ok : tensor<128x!kernel.ptr<f32>>
  kernel.return
}

// A 2-D tile matmul step: f16 operands, an f32 accumulator.
// CHECK-LABEL: kernel.func @dot(%arg0: !kernel.ptr<f16>) attributes {grid = 2 : i32, num_warps = 8 : i32} {
// CHECK:         %{{.*}} = expand_dims %{{.*}} axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
// CHECK:         %{{.*}} = broadcast %{{.*}} : tensor<16x1xi32> -> tensor<16x16xi32>
// CHECK:         %{{.*}} = load %{{.*}} : tensor<16x16x!kernel.ptr<f16>>
// CHECK:         %{{.*}} = dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
kernel.func @dot(%a: !kernel.ptr<f16>) attributes {grid = 2 : i32, num_warps = 8 : i32} {
  %r = kernel.range 0, 16 : tensor<16xi32>
  %e = kernel.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %b = kernel.broadcast %e : tensor<16x1xi32> -> tensor<16x16xi32>
  %p = kernel.splat %a : !kernel.ptr<f16> -> tensor<16x16x!kernel.ptr<f16>>
  %q = kernel.addptr %p, %b : tensor<16x16x!kernel.ptr<f16>>, tensor<16x16xi32>
  %t = kernel.load %q : tensor<16x16x!kernel.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = kernel.dot %t, %t, %z : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  kernel.return
}

// Tiles in layouts (the encodings of their types, printed as #blocked and
// #mma aliases) and a layout conversion; a load's value is in its pointers'
// layout (the aliases are printed first, checked at the top of this file).
// CHECK-LABEL: func.func @layouts(
// CHECK:         %{{.*}} = kernel.load %{{.*}} : tensor<16x16x!kernel.ptr<f16>, #[[B]]>
// CHECK:         %{{.*}} = kernel.convert_layout %{{.*}} : tensor<32x32xf32, #[[M]]> -> tensor<32x32xf32, #[[B]]>
func.func @layouts(%q: tensor<16x16x!kernel.ptr<f16>, #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, %acc: tensor<32x32xf32, #nvptx.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>) {
  %t = kernel.load %q : tensor<16x16x!kernel.ptr<f16>, #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
  %c = kernel.convert_layout %acc : tensor<32x32xf32, #nvptx.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>> -> tensor<32x32xf32, #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
  return
}

// The host plan: arena buffers, constants, views and launches.
// CHECK-LABEL: func.func @plan(%arg0: memref<4x128xf32>) -> memref<512xf32> {
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %0 = kernel.alloc offset 0 : memref<4x128xf32>
// CHECK-NEXT:    %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:    kernel.launch @softmax grid(%c4) (%arg0, %0, %c4_i32) : memref<4x128xf32>, memref<4x128xf32>, i32
// CHECK-NEXT:    %1 = kernel.view %0 : memref<4x128xf32> to memref<512xf32>
// CHECK-NEXT:    %2 = kernel.constant dense<1.000000e+00> : tensor<2xf32> : memref<2xf32>
// CHECK-NEXT:    return %1 : memref<512xf32>
func.func @plan(%x: memref<4x128xf32>) -> memref<512xf32> {
  %c4 = arith.constant 4 : index
  %y = kernel.alloc offset 0 : memref<4x128xf32>
  %n = arith.constant 4 : i32
  kernel.launch @softmax grid(%c4) (%x, %y, %n) : memref<4x128xf32>, memref<4x128xf32>, i32
  %flat = kernel.view %y : memref<4x128xf32> to memref<512xf32>
  %w = kernel.constant dense<1.0> : tensor<2xf32> : memref<2xf32>
  return %flat : memref<512xf32>
}

// A plan step checking a gather's indices.
// CHECK-LABEL: func.func @check(%arg0: memref<3x2xi32>) {
// CHECK-NEXT:    kernel.check_indices %arg0 {axes = array<i64: 0, 1>, message = "index {index}", sizes = array<i64: 10, 4>} : memref<3x2xi32>
func.func @check(%i: memref<3x2xi32>) {
  kernel.check_indices %i {axes = array<i64: 0, 1>, message = "index {index}", sizes = array<i64: 10, 4>} : memref<3x2xi32>
  return
}
