// arith-expand: ceildivui, ceildivsi, floordivsi, the float and integer
// min/max ops and the scaling extensions and truncations become simpler
// arith ops, op for op as MLIR 22 writes them (scalars, vectors, tensors,
// fast-math flags and rounding modes carried over). The CHECK lines are
// mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --arith-expand | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @f(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: f32, %arg4: vector<4xi32>, %arg5: vector<4xi32>, %arg6: bf16, %arg7: f8E8M0FNU, %arg8: f4E2M1FN) {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %0 = arith.cmpi eq, %arg0, %c0_i32 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %1 = arith.subi %arg0, %c1_i32 : i32
// CHECK-NEXT:     %2 = arith.divui %1, %arg1 : i32
// CHECK-NEXT:     %3 = arith.addi %2, %c1_i32 : i32
// CHECK-NEXT:     %4 = arith.select %0, %c0_i32, %3 : i32
// CHECK-NEXT:     %c0_i32_0 = arith.constant 0 : i32
// CHECK-NEXT:     %c1_i32_1 = arith.constant 1 : i32
// CHECK-NEXT:     %5 = arith.divsi %arg0, %arg1 : i32
// CHECK-NEXT:     %6 = arith.muli %5, %arg1 : i32
// CHECK-NEXT:     %7 = arith.cmpi ne, %arg0, %6 : i32
// CHECK-NEXT:     %8 = arith.cmpi slt, %arg0, %c0_i32_0 : i32
// CHECK-NEXT:     %9 = arith.cmpi slt, %arg1, %c0_i32_0 : i32
// CHECK-NEXT:     %10 = arith.cmpi eq, %8, %9 : i1
// CHECK-NEXT:     %11 = arith.andi %7, %10 : i1
// CHECK-NEXT:     %12 = arith.addi %5, %c1_i32_1 : i32
// CHECK-NEXT:     %13 = arith.select %11, %12, %5 : i32
// CHECK-NEXT:     %14 = arith.divsi %arg0, %arg1 : i32
// CHECK-NEXT:     %15 = arith.muli %14, %arg1 : i32
// CHECK-NEXT:     %16 = arith.cmpi ne, %arg0, %15 : i32
// CHECK-NEXT:     %c0_i32_2 = arith.constant 0 : i32
// CHECK-NEXT:     %17 = arith.cmpi slt, %arg0, %c0_i32_2 : i32
// CHECK-NEXT:     %18 = arith.cmpi slt, %arg1, %c0_i32_2 : i32
// CHECK-NEXT:     %19 = arith.cmpi ne, %17, %18 : i1
// CHECK-NEXT:     %20 = arith.andi %16, %19 : i1
// CHECK-NEXT:     %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:     %21 = arith.addi %14, %c-1_i32 : i32
// CHECK-NEXT:     %22 = arith.select %20, %21, %14 : i32
// CHECK-NEXT:     %23 = arith.cmpf ugt, %arg2, %arg3 : f32
// CHECK-NEXT:     %24 = arith.select %23, %arg2, %arg3 : f32
// CHECK-NEXT:     %25 = arith.cmpf uno, %arg3, %arg3 : f32
// CHECK-NEXT:     %26 = arith.select %25, %arg3, %24 : f32
// CHECK-NEXT:     %27 = arith.cmpf ult, %arg2, %arg3 : f32
// CHECK-NEXT:     %28 = arith.select %27, %arg2, %arg3 : f32
// CHECK-NEXT:     %29 = arith.cmpf uno, %arg3, %arg3 : f32
// CHECK-NEXT:     %30 = arith.select %29, %arg3, %28 : f32
// CHECK-NEXT:     %31 = arith.cmpf ugt, %arg2, %arg3 : f32
// CHECK-NEXT:     %32 = arith.select %31, %arg2, %arg3 : f32
// CHECK-NEXT:     %33 = arith.cmpf uno, %arg2, %arg2 : f32
// CHECK-NEXT:     %34 = arith.select %33, %arg3, %32 : f32
// CHECK-NEXT:     %35 = arith.cmpf ult, %arg2, %arg3 : f32
// CHECK-NEXT:     %36 = arith.select %35, %arg2, %arg3 : f32
// CHECK-NEXT:     %37 = arith.cmpf uno, %arg2, %arg2 : f32
// CHECK-NEXT:     %38 = arith.select %37, %arg3, %36 : f32
// CHECK-NEXT:     %cst = arith.constant dense<0> : vector<4xi32>
// CHECK-NEXT:     %cst_3 = arith.constant dense<1> : vector<4xi32>
// CHECK-NEXT:     %39 = arith.divsi %arg4, %arg5 : vector<4xi32>
// CHECK-NEXT:     %40 = arith.muli %39, %arg5 : vector<4xi32>
// CHECK-NEXT:     %41 = arith.cmpi ne, %arg4, %40 : vector<4xi32>
// CHECK-NEXT:     %42 = arith.cmpi slt, %arg4, %cst : vector<4xi32>
// CHECK-NEXT:     %43 = arith.cmpi slt, %arg5, %cst : vector<4xi32>
// CHECK-NEXT:     %44 = arith.cmpi eq, %42, %43 : vector<4xi1>
// CHECK-NEXT:     %45 = arith.andi %41, %44 : vector<4xi1>
// CHECK-NEXT:     %46 = arith.addi %39, %cst_3 : vector<4xi32>
// CHECK-NEXT:     %47 = arith.select %45, %46, %39 : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:     %48 = arith.extf %arg6 : bf16 to f32
// CHECK-NEXT:     %49 = arith.truncf %arg2 : f32 to bf16
// CHECK-NEXT:     %50 = arith.extf %arg7 : f8E8M0FNU to f32
// CHECK-NEXT:     %51 = arith.truncf %arg2 : f32 to f8E8M0FNU
// CHECK-NEXT:     %52 = arith.extf %arg8 : f4E2M1FN to f32
// CHECK-NEXT:     %53 = arith.cmpi sgt, %arg0, %arg1 : i32
// CHECK-NEXT:     %54 = arith.select %53, %arg0, %arg1 : i32
// CHECK-NEXT:     "test.use"(%4, %13, %22, %26, %30, %34, %38, %47, %48, %49, %50, %51, %52, %54) : (i32, i32, i32, f32, f32, f32, f32, vector<4xi32>, f32, bf16, f32, f8E8M0FNU, f32, i32) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @g(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: f32) {
// CHECK-NEXT:     %0 = arith.cmpf ugt, %arg2, %arg3 : f32
// CHECK-NEXT:     %1 = arith.select %0, %arg2, %arg3 : f32
// CHECK-NEXT:     %2 = arith.cmpf uno, %arg3, %arg3 : f32
// CHECK-NEXT:     %3 = arith.select %2, %arg3, %1 : f32
// CHECK-NEXT:     %4 = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-NEXT:     %5 = arith.select %4, %arg0, %arg1 : i32
// CHECK-NEXT:     %6 = arith.cmpi ugt, %arg0, %arg1 : i32
// CHECK-NEXT:     %7 = arith.select %6, %arg0, %arg1 : i32
// CHECK-NEXT:     %8 = arith.cmpi ult, %arg0, %arg1 : i32
// CHECK-NEXT:     %9 = arith.select %8, %arg0, %arg1 : i32
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %10 = arith.divsi %arg0, %arg1 : i32
// CHECK-NEXT:     %11 = arith.muli %10, %arg1 : i32
// CHECK-NEXT:     %12 = arith.cmpi ne, %arg0, %11 : i32
// CHECK-NEXT:     %13 = arith.cmpi slt, %arg0, %c0_i32 : i32
// CHECK-NEXT:     %14 = arith.cmpi slt, %arg1, %c0_i32 : i32
// CHECK-NEXT:     %15 = arith.cmpi eq, %13, %14 : i1
// CHECK-NEXT:     %16 = arith.andi %12, %15 : i1
// CHECK-NEXT:     %17 = arith.addi %10, %c1_i32 : i32
// CHECK-NEXT:     %18 = arith.select %16, %17, %10 : i32
// CHECK-NEXT:     "test.use"(%3, %5, %7, %9, %18) : (f32, i32, i32, i32, i32) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @scaling(%arg0: f32, %arg1: f8E8M0FNU, %arg2: vector<4xf16>, %arg3: vector<4xf16>, %arg4: f4E2M1FN, %arg5: f8E8M0FNU, %arg6: f16, %arg7: f16) {
// CHECK-NEXT:     %0 = arith.extf %arg5 : f8E8M0FNU to f32
// CHECK-NEXT:     %1 = arith.extf %arg4 : f4E2M1FN to f32
// CHECK-NEXT:     %2 = arith.mulf %1, %0 : f32
// CHECK-NEXT:     %3 = arith.truncf %arg7 : f16 to f8E8M0FNU
// CHECK-NEXT:     %4 = arith.extf %3 : f8E8M0FNU to f32
// CHECK-NEXT:     %5 = arith.extf %arg6 : f16 to f32
// CHECK-NEXT:     %6 = arith.mulf %5, %4 : f32
// CHECK-NEXT:     %7 = arith.extf %arg1 : f8E8M0FNU to f32
// CHECK-NEXT:     %8 = arith.divf %arg0, %7 : f32
// CHECK-NEXT:     %9 = arith.truncf %8 : f32 to f4E2M1FN
// CHECK-NEXT:     %10 = arith.truncf %arg3 fastmath<fast> : vector<4xf16> to vector<4xf8E8M0FNU>
// CHECK-NEXT:     %11 = arith.extf %10 fastmath<fast> : vector<4xf8E8M0FNU> to vector<4xf16>
// CHECK-NEXT:     %12 = arith.divf %arg2, %11 fastmath<fast> : vector<4xf16>
// CHECK-NEXT:     %13 = arith.truncf %12 to_nearest_even fastmath<fast> : vector<4xf16> to vector<4xf6E3M2FN>
// CHECK-NEXT:     %14 = arith.extf %arg5 fastmath<fast> : f8E8M0FNU to f16
// CHECK-NEXT:     %15 = arith.extf %arg4 fastmath<fast> : f4E2M1FN to f16
// CHECK-NEXT:     %16 = arith.mulf %15, %14 fastmath<fast> : f16
// CHECK-NEXT:     "test.use"(%2, %6, %9, %13, %16) : (f32, f32, f4E2M1FN, vector<4xf6E3M2FN>, f16) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @in_loop(%arg0: tensor<4xi64>, %arg1: tensor<4xi64>, %arg2: index) -> tensor<4xi64> {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %0 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %arg0) -> (tensor<4xi64>) {
// CHECK-NEXT:       %1 = arith.divsi %arg4, %arg1 : tensor<4xi64>
// CHECK-NEXT:       %2 = arith.muli %1, %arg1 : tensor<4xi64>
// CHECK-NEXT:       %3 = arith.cmpi ne, %arg4, %2 : tensor<4xi64>
// CHECK-NEXT:       %cst = arith.constant dense<0> : tensor<4xi64>
// CHECK-NEXT:       %4 = arith.cmpi slt, %arg4, %cst : tensor<4xi64>
// CHECK-NEXT:       %5 = arith.cmpi slt, %arg1, %cst : tensor<4xi64>
// CHECK-NEXT:       %6 = arith.cmpi ne, %4, %5 : tensor<4xi1>
// CHECK-NEXT:       %7 = arith.andi %3, %6 : tensor<4xi1>
// CHECK-NEXT:       %cst_0 = arith.constant dense<-1> : tensor<4xi64>
// CHECK-NEXT:       %8 = arith.addi %1, %cst_0 : tensor<4xi64>
// CHECK-NEXT:       %9 = arith.select %7, %8, %1 : tensor<4xi1>, tensor<4xi64>
// CHECK-NEXT:       scf.yield %9 : tensor<4xi64>
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : tensor<4xi64>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @f(%a: i32, %b: i32, %x: f32, %y: f32, %v: vector<4xi32>, %w: vector<4xi32>, %h: bf16, %e: f8E8M0FNU, %g: f4E2M1FN) -> () {
  %0 = arith.ceildivui %a, %b : i32
  %1 = arith.ceildivsi %a, %b : i32
  %2 = arith.floordivsi %a, %b : i32
  %3 = arith.maximumf %x, %y : f32
  %4 = arith.minimumf %x, %y : f32
  %5 = arith.maxnumf %x, %y : f32
  %6 = arith.minnumf %x, %y : f32
  %7 = arith.ceildivsi %v, %w : vector<4xi32>
  %8 = arith.extf %h : bf16 to f32
  %9 = arith.truncf %x : f32 to bf16
  %10 = arith.extf %e : f8E8M0FNU to f32
  %11 = arith.truncf %x : f32 to f8E8M0FNU
  %12 = arith.extf %g : f4E2M1FN to f32
  %13 = arith.maxsi %a, %b : i32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13) : (i32, i32, i32, f32, f32, f32, f32, vector<4xi32>, f32, bf16, f32, f8E8M0FNU, f32, i32) -> ()
  return
}

func.func @g(%a: i32, %b: i32, %x: f32, %y: f32) -> () {
  %3 = arith.maximumf %x, %y fastmath<nnan> : f32
  %4 = arith.minsi %a, %b : i32
  %5 = arith.maxui %a, %b : i32
  %6 = arith.minui %a, %b : i32
  %7 = arith.ceildivsi %a, %b : i32
  "test.use"(%3, %4, %5, %6, %7) : (f32, i32, i32, i32, i32) -> ()
  return
}
func.func @scaling(%x: f32, %s: f8E8M0FNU, %h: vector<4xf16>, %hs: vector<4xf16>, %g: f4E2M1FN, %gs: f8E8M0FNU, %t: f16, %ts: f16) -> () {
  %0 = arith.scaling_extf %g, %gs : f4E2M1FN, f8E8M0FNU to f32
  %1 = arith.scaling_extf %t, %ts : f16, f16 to f32
  %2 = arith.scaling_truncf %x, %s : f32, f8E8M0FNU to f4E2M1FN
  %3 = arith.scaling_truncf %h, %hs to_nearest_even fastmath<fast> : vector<4xf16>, vector<4xf16> to vector<4xf6E3M2FN>
  %4 = arith.scaling_extf %g, %gs fastmath<fast> : f4E2M1FN, f8E8M0FNU to f16
  "test.use"(%0, %1, %2, %3, %4) : (f32, f32, f4E2M1FN, vector<4xf6E3M2FN>, f16) -> ()
  return
}

func.func @in_loop(%a: tensor<4xi64>, %b: tensor<4xi64>, %n: index) -> tensor<4xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> tensor<4xi64> {
    %q = arith.floordivsi %x, %b : tensor<4xi64>
    scf.yield %q : tensor<4xi64>
  }
  return %r : tensor<4xi64>
}
