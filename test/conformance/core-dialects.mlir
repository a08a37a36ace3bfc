// The four core dialects together in pretty form, exactly as mlir-opt prints
// them: a softmax, GELU and layer-norm statistics with math ops on scalars,
// vectors and tensors, a matmul loop nest with scf.for/scf.if, scf.while loops
// (gcd, Newton iteration), casts, bit manipulation, flags and recursion.
// mlir-opt reads its generic output back to the same text.
module {
  func.func private @load(index) -> f32 attributes {my.readonly}
  func.func private @store(index, f32)
  func.func private @load2d(index, index) -> f32
  func.func private @store2d(index, index, f32)
  func.func @softmax(%arg0: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %0 = scf.for %arg1 = %c0 to %arg0 step %c1 iter_args(%arg2 = %cst) -> (f32) {
      %3 = func.call @load(%arg1) : (index) -> f32
      %4 = arith.maximumf %arg2, %3 : f32
      scf.yield %4 : f32
    }
    %1 = scf.for %arg1 = %c0 to %arg0 step %c1 iter_args(%arg2 = %cst_0) -> (f32) {
      %3 = func.call @load(%arg1) : (index) -> f32
      %4 = arith.subf %3, %0 fastmath<nnan,ninf> : f32
      %5 = math.exp %4 fastmath<afn> : f32
      func.call @store(%arg1, %5) : (index, f32) -> ()
      %6 = arith.addf %arg2, %5 fastmath<reassoc> : f32
      scf.yield %6 : f32
    }
    %2 = arith.divf %cst_1, %1 fastmath<arcp> : f32
    scf.for %arg1 = %c0 to %arg0 step %c1 {
      %3 = func.call @load(%arg1) : (index) -> f32
      %4 = arith.mulf %3, %2 : f32
      func.call @store(%arg1, %4) : (index, f32) -> ()
    }
    return
  }
  func.func @exp_shifted(%arg0: tensor<4x128xf32>, %arg1: tensor<4x128xf32>) -> tensor<4x128xf32> {
    %0 = arith.subf %arg0, %arg1 : tensor<4x128xf32>
    %1 = math.exp %0 : tensor<4x128xf32>
    return %1 : tensor<4x128xf32>
  }
  func.func @gelu(%arg0: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>) {
    %cst = arith.constant dense<5.000000e-01> : vector<8xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : vector<8xf32>
    %cst_1 = arith.constant dense<0.707106769> : vector<8xf32>
    %cst_2 = arith.constant dense<0.797884583> : vector<8xf32>
    %cst_3 = arith.constant dense<4.471500e-02> : vector<8xf32>
    %0 = arith.mulf %arg0, %cst_1 : vector<8xf32>
    %1 = math.erf %0 : vector<8xf32>
    %2 = arith.addf %1, %cst_0 : vector<8xf32>
    %3 = arith.mulf %arg0, %cst : vector<8xf32>
    %4 = arith.mulf %3, %2 : vector<8xf32>
    %5 = arith.mulf %arg0, %arg0 : vector<8xf32>
    %6 = arith.mulf %5, %arg0 : vector<8xf32>
    %7 = math.fma %cst_3, %6, %arg0 fastmath<contract> : vector<8xf32>
    %8 = arith.mulf %cst_2, %7 : vector<8xf32>
    %9 = math.tanh %8 : vector<8xf32>
    %10 = arith.addf %9, %cst_0 : vector<8xf32>
    %11 = arith.mulf %3, %10 : vector<8xf32>
    return %4, %11 : vector<8xf32>, vector<8xf32>
  }
  func.func @norm_stats(%arg0: index) -> (f32, f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.99999974E-6 : f32
    %0:2 = scf.for %arg1 = %c0 to %arg0 step %c1 iter_args(%arg2 = %cst, %arg3 = %cst) -> (f32, f32) {
      %9 = func.call @load(%arg1) : (index) -> f32
      %10 = arith.addf %arg2, %9 : f32
      %11 = math.fma %9, %9, %arg3 : f32
      scf.yield %10, %11 : f32, f32
    }
    %1 = arith.index_cast %arg0 : index to i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.divf %0#0, %2 : f32
    %4 = arith.divf %0#1, %2 : f32
    %5 = arith.mulf %3, %3 : f32
    %6 = arith.subf %4, %5 : f32
    %7 = arith.addf %6, %cst_0 : f32
    %8 = math.rsqrt %7 : f32
    return %3, %8 : f32, f32
  }
  func.func @matmul(%arg0: index, %arg1: index, %arg2: index, %arg3: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    scf.for %arg4 = %c0 to %arg0 step %c1 {
      scf.for %arg5 = %c0 to %arg1 step %c1 {
        %0 = scf.for %arg6 = %c0 to %arg2 step %c1 iter_args(%arg7 = %cst) -> (f32) {
          %1 = arith.cmpi ult, %arg6, %arg3 : index
          %2 = scf.if %1 -> (f32) {
            %3 = func.call @load2d(%arg4, %arg6) : (index, index) -> f32
            %4 = func.call @load2d(%arg6, %arg5) : (index, index) -> f32
            %5 = math.fma %3, %4, %arg7 : f32
            scf.yield %5 : f32
          } else {
            scf.yield %arg7 : f32
          }
          scf.yield %2 : f32
        }
        func.call @store2d(%arg4, %arg5, %0) : (index, index, f32) -> ()
      }
    }
    return
  }
  func.func @gcd(%arg0: i64, %arg1: i64) -> i64 {
    %0:2 = scf.while (%arg2 = %arg0, %arg3 = %arg1) : (i64, i64) -> (i64, i64) {
      %c0_i64 = arith.constant 0 : i64
      %1 = arith.cmpi ne, %arg3, %c0_i64 : i64
      scf.condition(%1) %arg2, %arg3 : i64, i64
    } do {
    ^bb0(%arg2: i64, %arg3: i64):
      %1 = arith.remui %arg2, %arg3 : i64
      scf.yield %arg3, %1 : i64, i64
    }
    return %0#0 : i64
  }
  func.func @newton_sqrt(%arg0: f64) -> (f64, i32) {
    %cst = arith.constant 5.000000e-01 : f64
    %cst_0 = arith.constant 9.9999999999999998E-13 : f64
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %0:2 = scf.while (%arg1 = %arg0, %arg2 = %c0_i32) : (f64, i32) -> (f64, i32) {
      %1 = arith.divf %arg0, %arg1 : f64
      %2 = arith.addf %arg1, %1 : f64
      %3 = arith.mulf %2, %cst : f64
      %4 = arith.subf %3, %arg1 : f64
      %5 = math.absf %4 : f64
      %6 = arith.cmpf ogt, %5, %cst_0 : f64
      %7 = arith.cmpi slt, %arg2, %c64_i32 : i32
      %8 = arith.andi %6, %7 : i1
      scf.condition(%8) %3, %arg2 : f64, i32
    } do {
    ^bb0(%arg1: f64, %arg2: i32):
      %1 = arith.addi %arg2, %c1_i32 overflow<nsw> : i32
      scf.yield %arg1, %1 : f64, i32
    }
    return %0#0, %0#1 : f64, i32
  }
  func.func @quantize(%arg0: f32, %arg1: f32, %arg2: i32) -> i8 {
    %cst = arith.constant -1.280000e+02 : f32
    %cst_0 = arith.constant 1.270000e+02 : f32
    %0 = arith.divf %arg0, %arg1 : f32
    %1 = arith.maxnumf %0, %cst : f32
    %2 = arith.minnumf %1, %cst_0 : f32
    %3 = arith.fptosi %2 : f32 to i32
    %4 = arith.addi %3, %arg2 : i32
    %5 = arith.trunci %4 : i32 to i8
    return %5 : i8
  }
  func.func @polar(%arg0: f32, %arg1: f32, %arg2: f32) -> (f32, f32, f32, i1) {
    %0 = math.cos %arg1 : f32
    %1 = math.sin %arg1 : f32
    %2 = arith.mulf %arg0, %0 : f32
    %3 = arith.mulf %arg0, %1 : f32
    %4 = math.powf %arg0, %arg2 : f32
    %5 = math.log %4 : f32
    %6 = math.sqrt %arg0 : f32
    %7 = arith.cmpf uno, %6, %6 : f32
    %8 = arith.select %7, %arg0, %6 : f32
    %9 = arith.truncf %8 : f32 to f16
    %10 = arith.extf %9 : f16 to f32
    %11 = arith.negf %10 : f32
    %12 = arith.minimumf %11, %5 : f32
    return %2, %3, %12, %7 : f32, f32, f32, i1
  }
  func.func @bits(%arg0: i32, %arg1: i32) -> (i32, i1, i64, index) {
    %c32_i32 = arith.constant 32 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = arith.shli %arg0, %arg1 : i32
    %1 = arith.subi %c32_i32, %arg1 : i32
    %2 = arith.shrui %arg0, %1 : i32
    %3 = arith.ori %0, %2 : i32
    %4 = arith.shrsi %arg0, %c1_i32 : i32
    %5 = arith.xori %4, %arg0 : i32
    %6 = arith.andi %5, %c1_i32 : i32
    %7 = arith.trunci %6 : i32 to i1
    %8 = arith.extui %3 : i32 to i64
    %9 = arith.divui %8, %8 : i64
    %10 = arith.index_castui %3 : i32 to index
    %11 = arith.bitcast %3 : i32 to f32
    %12 = arith.bitcast %11 : f32 to i32
    %13 = arith.maxui %12, %arg0 : i32
    %14 = arith.minsi %13, %3 : i32
    %15 = arith.ceildivsi %14, %c32_i32 : i32
    %16 = arith.floordivsi %15, %c32_i32 : i32
    %17 = arith.remsi %16, %c32_i32 : i32
    return %17, %7, %9, %10 : i32, i1, i64, index
  }
  func.func @fact(%arg0: i64) -> i64 {
    %c1_i64 = arith.constant 1 : i64
    %0 = arith.cmpi sle, %arg0, %c1_i64 : i64
    %1 = scf.if %0 -> (i64) {
      scf.yield %c1_i64 : i64
    } else {
      %2 = arith.subi %arg0, %c1_i64 : i64
      %3 = func.call @fact(%2) : (i64) -> i64
      %4 = arith.muli %arg0, %3 overflow<nsw, nuw> : i64
      scf.yield %4 : i64
    }
    return %1 : i64
  }
  func.func @main() -> i64 attributes {my.entry} {
    %c20_i64 = arith.constant 20 : i64
    %c48_i64 = arith.constant 48 : i64
    %c18_i64 = arith.constant 18 : i64
    %0 = call @gcd(%c48_i64, %c18_i64) : (i64, i64) -> i64
    %1 = call @fact(%c20_i64) : (i64) -> i64
    %2 = arith.addi %0, %1 : i64
    return %2 : i64
  }
}

