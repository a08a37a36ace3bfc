// arith-expand=include-bf16: extf from bf16 to f32 and truncf from f32 to
// bf16 become integer bit operations (rounding to nearest even, NaN to the
// quiet NaN), op for op as MLIR 22 writes them; other conversions stay.
// The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --arith-expand=include-bf16 | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @f(%arg0: bf16, %arg1: f32, %arg2: vector<4xf32>, %arg3: vector<4xbf16>, %arg4: f16) -> (f32, bf16, vector<4xbf16>, vector<4xf32>, f32) {
// CHECK-NEXT:     %0 = arith.bitcast %arg0 : bf16 to i16
// CHECK-NEXT:     %1 = arith.extui %0 : i16 to i32
// CHECK-NEXT:     %c16_i32 = arith.constant 16 : i32
// CHECK-NEXT:     %2 = arith.shli %1, %c16_i32 : i32
// CHECK-NEXT:     %3 = arith.bitcast %2 : i32 to f32
// CHECK-NEXT:     %4 = arith.cmpf une, %arg1, %arg1 : f32
// CHECK-NEXT:     %c32767_i32 = arith.constant 32767 : i32
// CHECK-NEXT:     %c32704_i16 = arith.constant 32704 : i16
// CHECK-NEXT:     %c16_i32_0 = arith.constant 16 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %5 = arith.bitcast %arg1 : f32 to i32
// CHECK-NEXT:     %6 = arith.shrui %5, %c16_i32_0 : i32
// CHECK-NEXT:     %7 = arith.andi %6, %c1_i32 : i32
// CHECK-NEXT:     %8 = arith.addi %7, %c32767_i32 : i32
// CHECK-NEXT:     %9 = arith.addi %5, %8 : i32
// CHECK-NEXT:     %10 = arith.shrui %9, %c16_i32_0 : i32
// CHECK-NEXT:     %11 = arith.trunci %10 : i32 to i16
// CHECK-NEXT:     %12 = arith.select %4, %c32704_i16, %11 : i16
// CHECK-NEXT:     %13 = arith.bitcast %12 : i16 to bf16
// CHECK-NEXT:     %14 = arith.cmpf une, %arg2, %arg2 : vector<4xf32>
// CHECK-NEXT:     %cst = arith.constant dense<32767> : vector<4xi32>
// CHECK-NEXT:     %cst_1 = arith.constant dense<32704> : vector<4xi16>
// CHECK-NEXT:     %cst_2 = arith.constant dense<16> : vector<4xi32>
// CHECK-NEXT:     %cst_3 = arith.constant dense<1> : vector<4xi32>
// CHECK-NEXT:     %15 = arith.bitcast %arg2 : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:     %16 = arith.shrui %15, %cst_2 : vector<4xi32>
// CHECK-NEXT:     %17 = arith.andi %16, %cst_3 : vector<4xi32>
// CHECK-NEXT:     %18 = arith.addi %17, %cst : vector<4xi32>
// CHECK-NEXT:     %19 = arith.addi %15, %18 : vector<4xi32>
// CHECK-NEXT:     %20 = arith.shrui %19, %cst_2 : vector<4xi32>
// CHECK-NEXT:     %21 = arith.trunci %20 : vector<4xi32> to vector<4xi16>
// CHECK-NEXT:     %22 = arith.select %14, %cst_1, %21 : vector<4xi1>, vector<4xi16>
// CHECK-NEXT:     %23 = arith.bitcast %22 : vector<4xi16> to vector<4xbf16>
// CHECK-NEXT:     %24 = arith.bitcast %arg3 : vector<4xbf16> to vector<4xi16>
// CHECK-NEXT:     %25 = arith.extui %24 : vector<4xi16> to vector<4xi32>
// CHECK-NEXT:     %cst_4 = arith.constant dense<16> : vector<4xi32>
// CHECK-NEXT:     %26 = arith.shli %25, %cst_4 : vector<4xi32>
// CHECK-NEXT:     %27 = arith.bitcast %26 : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:     %28 = arith.extf %arg4 : f16 to f32
// CHECK-NEXT:     return %3, %13, %23, %27, %28 : f32, bf16, vector<4xbf16>, vector<4xf32>, f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @f(%a: bf16, %x: f32, %v: vector<4xf32>, %w: vector<4xbf16>, %h: f16) -> (f32, bf16, vector<4xbf16>, vector<4xf32>, f32) {
  %0 = arith.extf %a : bf16 to f32
  %1 = arith.truncf %x : f32 to bf16
  %2 = arith.truncf %v : vector<4xf32> to vector<4xbf16>
  %3 = arith.extf %w : vector<4xbf16> to vector<4xf32>
  %4 = arith.extf %h : f16 to f32
  return %0, %1, %2, %3, %4 : f32, bf16, vector<4xbf16>, vector<4xf32>, f32
}
