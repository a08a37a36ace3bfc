// math-sincos-fusion: math.sin and math.cos of one value with the same
// flags in one block become one math.sincos where the first of them was.
// The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --math-sincos-fusion | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func private @sink(f32)
// CHECK-NEXT:   func.func @pairs(%arg0: f32, %arg1: f32) -> (f32, f32, f32, f32) {
// CHECK-NEXT:     %sin, %cos = math.sincos %arg1 : f32
// CHECK-NEXT:     %sin_0, %cos_1 = math.sincos %arg0 : f32
// CHECK-NEXT:     call @sink(%cos) : (f32) -> ()
// CHECK-NEXT:     return %sin_0, %cos_1, %cos, %sin : f32, f32, f32, f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @flags_differ(%arg0: f32) -> (f32, f32) {
// CHECK-NEXT:     %0 = math.sin %arg0 fastmath<afn> : f32
// CHECK-NEXT:     %1 = math.cos %arg0 : f32
// CHECK-NEXT:     return %0, %1 : f32, f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @vectors(%arg0: vector<2xf64>) -> (vector<2xf64>, vector<2xf64>) {
// CHECK-NEXT:     %sin, %cos = math.sincos %arg0 fastmath<fast> : vector<2xf64>
// CHECK-NEXT:     return %sin, %cos : vector<2xf64>, vector<2xf64>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func private @sink(f32)

func.func @pairs(%x: f32, %y: f32) -> (f32, f32, f32, f32) {
  %0 = math.cos %y : f32
  %1 = math.sin %x : f32
  func.call @sink(%0) : (f32) -> ()
  %2 = math.cos %x : f32
  %3 = math.sin %y : f32
  return %1, %2, %0, %3 : f32, f32, f32, f32
}

func.func @flags_differ(%x: f32) -> (f32, f32) {
  %0 = math.sin %x fastmath<afn> : f32
  %1 = math.cos %x : f32
  return %0, %1 : f32, f32
}

func.func @vectors(%x: vector<2xf64>) -> (vector<2xf64>, vector<2xf64>) {
  %0 = math.sin %x fastmath<fast> : vector<2xf64>
  %1 = math.cos %x fastmath<fast> : vector<2xf64>
  return %0, %1 : vector<2xf64>, vector<2xf64>
}
