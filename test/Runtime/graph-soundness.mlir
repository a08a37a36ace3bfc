// Plans that once reached undefined behaviour in graph mode are computed
// or refused with a located error (docs/runtime.md, "Soundness").
// RUN: strata run %s --function narrow_ints --mode graph --recipe %S/Inputs/no-fusion.toml 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: not strata run %s --function wide_map --mode graph 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not strata run %s --function huge_splat --mode graph 2>&1 | FileCheck %s --check-prefix=SPLAT
// RUN: not strata run %s --function big_tiles --mode graph --recipe %S/Inputs/big-tiles.toml 2>&1 | FileCheck %s --check-prefix=TILES

// An i12 buffer between two kernels takes 2 bytes an element, as LLVM
// stores it (it was planned at 1 and overran the arena).
// NARROW: output_0: i32 [1048576]
func.func @narrow_ints(%x: tensor<1048576xi32>) -> tensor<1048576xi32> {
  %a = tensor.map ins(%x : tensor<1048576xi32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%v: i32):
    %t = arith.trunci %v : i32 to i12
    tensor.yield %t : i12
  } : tensor<1048576xi12>
  %b = tensor.map ins(%a : tensor<1048576xi12>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%v: i12):
    %t = arith.extsi %v : i12 to i32
    tensor.yield %t : i32
  } : tensor<1048576xi32>
  return %b : tensor<1048576xi32>
}

// The verifier bounds this map exactly ((d0 + 2^33) floordiv (2^32 + 1) is
// at most 1), but the kernels index in 32 bits: refused, not truncated.
// WIDE: error: 'tensor.map' op has an indexing map term 'd0 + 8589934592' whose values over the domain [3] do not fit the kernel's 32-bit index arithmetic
func.func @wide_map(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = tensor.map ins(%x : tensor<3xf32>) maps [affine_map<(d0) -> ((d0 + 8589934592) floordiv 4294967297)>] {
  ^bb0(%v: f32):
    tensor.yield %v : f32
  } : tensor<3xf32>
  return %y : tensor<3xf32>
}

// A splat the size of 4 TB stays a splat; the buffer a plan would need for
// it is refused at the op.
// SPLAT: error: 'arith.constant' op a constant of type 'memref<1000000x1000000xf32>' needs 4000000000000 bytes, more than a plan's limit of 8589934592 bytes per buffer
func.func @huge_splat() -> tensor<1000000x1000000xf32> {
  %c = arith.constant dense<1.0> : tensor<1000000x1000000xf32>
  return %c : tensor<1000000x1000000xf32>
}

// Tiles live on the kernel's stack frame: 1024 x 1024 f64 tiles (24 MiB)
// would jump the guard page, and are refused at compile time.
// TILES: error: 'kernel.dot' op the kernel's tiles need more than 2097152 bytes of stack (a tile of [1024, 1024] brings them to 8388608): use smaller tile sizes (the recipe's codegen block sizes)
func.func @big_tiles(%a: tensor<1024x1024xf64>, %b: tensor<1024x1024xf64>) -> tensor<1024x1024xf64> {
  %y = graph.matmul %a, %b : (tensor<1024x1024xf64>, tensor<1024x1024xf64>) -> tensor<1024x1024xf64>
  return %y : tensor<1024x1024xf64>
}
