// The folders of the math ops added for MLIR 22 conformance: the CHECK
// lines are what mlir-opt --canonicalize prints (the C library's results
// for f32 and f64, no fold for f16 but atan2(0, 0), NaN results,
// logarithms of negative numbers left alone, the integer ops on any width,
// classifications).
// RUN: strata-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @acosh_f32
// CHECK-NEXT: %cst = arith.constant 0xFFC00000 : f32
// CHECK-NEXT: %cst_0 = arith.constant 1.31695795 : f32
// CHECK-NEXT: %cst_1 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_2 = arith.constant 0x7F800000 : f32
// CHECK-NEXT: return %cst, %cst, %cst_0, %cst, %cst_1, %cst_2, %cst : f32, f32, f32, f32, f32, f32, f32
func.func @acosh_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.acosh %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.acosh %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.acosh %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.acosh %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.acosh %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.acosh %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.acosh %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @acosh_f64
// CHECK-NEXT: %cst = arith.constant 0xFFF8000000000000 : f64
// CHECK-NEXT: %cst_0 = arith.constant 1.3169578969248166 : f64
// CHECK-NEXT: %cst_1 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: return %cst, %cst, %cst_0, %cst, %cst_1, %cst : f64, f64, f64, f64, f64, f64
func.func @acosh_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.acosh %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.acosh %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.acosh %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.acosh %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.acosh %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.acosh %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @asinh_f32
// CHECK-NEXT: %cst = arith.constant 0.481211841 : f32
// CHECK-NEXT: %cst_0 = arith.constant -0.481211841 : f32
// CHECK-NEXT: %cst_1 = arith.constant 1.44363546 : f32
// CHECK-NEXT: %cst_2 = arith.constant -0.881373584 : f32
// CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_4 = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %cst_5 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5 : f32, f32, f32, f32, f32, f32, f32
func.func @asinh_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.asinh %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.asinh %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.asinh %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.asinh %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.asinh %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.asinh %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.asinh %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @asinh_f64
// CHECK-NEXT: %cst = arith.constant 0.48121182505960347 : f64
// CHECK-NEXT: %cst_0 = arith.constant -0.48121182505960347 : f64
// CHECK-NEXT: %cst_1 = arith.constant 1.4436354751788103 : f64
// CHECK-NEXT: %cst_2 = arith.constant -0.88137358701954305 : f64
// CHECK-NEXT: %cst_3 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_4 = arith.constant 1.000000e-310 : f64
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f64, f64, f64, f64, f64, f64
func.func @asinh_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.asinh %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.asinh %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.asinh %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.asinh %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.asinh %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.asinh %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @atanh_f32
// CHECK-NEXT: %cst = arith.constant 0.549306154 : f32
// CHECK-NEXT: %cst_0 = arith.constant -0.549306154 : f32
// CHECK-NEXT: %cst_1 = arith.constant 0xFFC00000 : f32
// CHECK-NEXT: %cst_2 = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_4 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_1, %cst_4 : f32, f32, f32, f32, f32, f32, f32
func.func @atanh_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.atanh %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.atanh %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.atanh %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.atanh %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.atanh %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.atanh %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.atanh %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @atanh_f64
// CHECK-NEXT: %cst = arith.constant 0.54930614433405478 : f64
// CHECK-NEXT: %cst_0 = arith.constant -0.54930614433405478 : f64
// CHECK-NEXT: %cst_1 = arith.constant 0xFFF8000000000000 : f64
// CHECK-NEXT: %cst_2 = arith.constant 0xFFF0000000000000 : f64
// CHECK-NEXT: %cst_3 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_4 = arith.constant 1.000000e-310 : f64
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f64, f64, f64, f64, f64, f64
func.func @atanh_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.atanh %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.atanh %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.atanh %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.atanh %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.atanh %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.atanh %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @cosh_f32
// CHECK-NEXT: %cst = arith.constant 1.12762594 : f32
// CHECK-NEXT: %cst_0 = arith.constant 3.76219583 : f32
// CHECK-NEXT: %cst_1 = arith.constant 1.54308057 : f32
// CHECK-NEXT: %cst_2 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_3 = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %cst_4 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: return %cst, %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f32, f32, f32, f32, f32, f32, f32
func.func @cosh_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.cosh %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.cosh %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.cosh %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.cosh %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.cosh %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.cosh %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.cosh %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @cosh_f64
// CHECK-NEXT: %cst = arith.constant 1.1276259652063807 : f64
// CHECK-NEXT: %cst_0 = arith.constant 3.7621956910836314 : f64
// CHECK-NEXT: %cst_1 = arith.constant 1.5430806348152437 : f64
// CHECK-NEXT: %cst_2 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_3 = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: return %cst, %cst, %cst_0, %cst_1, %cst_2, %cst_3 : f64, f64, f64, f64, f64, f64
func.func @cosh_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.cosh %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.cosh %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.cosh %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.cosh %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.cosh %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.cosh %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @sinh_f32
// CHECK-NEXT: %cst = arith.constant 0.521095276 : f32
// CHECK-NEXT: %cst_0 = arith.constant -0.521095276 : f32
// CHECK-NEXT: %cst_1 = arith.constant 3.62686038 : f32
// CHECK-NEXT: %cst_2 = arith.constant -1.17520118 : f32
// CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_4 = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %cst_5 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5 : f32, f32, f32, f32, f32, f32, f32
func.func @sinh_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.sinh %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.sinh %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.sinh %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.sinh %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.sinh %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.sinh %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.sinh %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @sinh_f64
// CHECK-NEXT: %cst = arith.constant 0.52109530549374738 : f64
// CHECK-NEXT: %cst_0 = arith.constant -0.52109530549374738 : f64
// CHECK-NEXT: %cst_1 = arith.constant 3.626860407847019 : f64
// CHECK-NEXT: %cst_2 = arith.constant -1.1752011936438014 : f64
// CHECK-NEXT: %cst_3 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_4 = arith.constant 1.000000e-310 : f64
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f64, f64, f64, f64, f64, f64
func.func @sinh_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.sinh %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.sinh %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.sinh %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.sinh %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.sinh %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.sinh %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @erf_f32
// CHECK-NEXT: %cst = arith.constant 0.520499885 : f32
// CHECK-NEXT: %cst_0 = arith.constant -0.520499885 : f32
// CHECK-NEXT: %cst_1 = arith.constant 0.995322287 : f32
// CHECK-NEXT: %cst_2 = arith.constant -0.842700779 : f32
// CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_4 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %cst_5 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5 : f32, f32, f32, f32, f32, f32, f32
func.func @erf_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.erf %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.erf %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.erf %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.erf %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.erf %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.erf %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.erf %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @erf_f64
// CHECK-NEXT: %cst = arith.constant 0.52049987781304652 : f64
// CHECK-NEXT: %cst_0 = arith.constant -0.52049987781304652 : f64
// CHECK-NEXT: %cst_1 = arith.constant 0.99532226501895271 : f64
// CHECK-NEXT: %cst_2 = arith.constant -0.84270079294971489 : f64
// CHECK-NEXT: %cst_3 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_4 = arith.constant 1.1283791670955219E-310 : f64
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f64, f64, f64, f64, f64, f64
func.func @erf_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.erf %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.erf %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.erf %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.erf %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.erf %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.erf %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @erfc_f32
// CHECK-NEXT: %cst = arith.constant 0.479500115 : f32
// CHECK-NEXT: %cst_0 = arith.constant 1.520500e+00 : f32
// CHECK-NEXT: %cst_1 = arith.constant 0.0046777348 : f32
// CHECK-NEXT: %cst_2 = arith.constant 1.84270072 : f32
// CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_4 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %cst_5 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5 : f32, f32, f32, f32, f32, f32, f32
func.func @erfc_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.erfc %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.erfc %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.erfc %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.erfc %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.erfc %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.erfc %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.erfc %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @erfc_f64
// CHECK-NEXT: %cst = arith.constant 0.47950012218695348 : f64
// CHECK-NEXT: %cst_0 = arith.constant 1.5204998778130465 : f64
// CHECK-NEXT: %cst_1 = arith.constant 0.0046777349810472654 : f64
// CHECK-NEXT: %cst_2 = arith.constant 1.842700792949715 : f64
// CHECK-NEXT: %cst_3 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_4 = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f64, f64, f64, f64, f64, f64
func.func @erfc_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.erfc %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.erfc %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.erfc %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.erfc %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.erfc %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.erfc %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @exp2_f32
// CHECK-NEXT: %cst = arith.constant 1.41421354 : f32
// CHECK-NEXT: %cst_0 = arith.constant 0.707106769 : f32
// CHECK-NEXT: %cst_1 = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: %cst_2 = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_4 = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %cst_5 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5 : f32, f32, f32, f32, f32, f32, f32
func.func @exp2_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.exp2 %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.exp2 %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.exp2 %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.exp2 %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.exp2 %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.exp2 %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.exp2 %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @exp2_f64
// CHECK-NEXT: %cst = arith.constant 1.4142135623730951 : f64
// CHECK-NEXT: %cst_0 = arith.constant 0.70710678118654757 : f64
// CHECK-NEXT: %cst_1 = arith.constant 4.000000e+00 : f64
// CHECK-NEXT: %cst_2 = arith.constant 5.000000e-01 : f64
// CHECK-NEXT: %cst_3 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_4 = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f64, f64, f64, f64, f64, f64
func.func @exp2_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.exp2 %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.exp2 %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.exp2 %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.exp2 %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.exp2 %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.exp2 %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @log2_f32
// CHECK-NEXT: %cst = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %cst_0 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_1 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %cst_2 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: %cst_3 = arith.constant -1.000000e+00 : f32
// CHECK-NEXT: %cst_4 = arith.constant -5.000000e-01 : f32
// CHECK-NEXT: %0 = math.log2 %cst_4 : f32
// CHECK-NEXT: %1 = math.log2 %cst_3 : f32
// CHECK-NEXT: %2 = math.log2 %cst_2 : f32
// CHECK-NEXT: return %cst_3, %0, %cst_1, %1, %cst_0, %cst, %2 : f32, f32, f32, f32, f32, f32, f32
func.func @log2_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.log2 %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.log2 %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.log2 %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.log2 %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.log2 %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.log2 %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.log2 %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @log2_f64
// CHECK-NEXT: %cst = arith.constant -1029.7977094150824 : f64
// CHECK-NEXT: %cst_0 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_1 = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %cst_2 = arith.constant -1.000000e+00 : f64
// CHECK-NEXT: %cst_3 = arith.constant -5.000000e-01 : f64
// CHECK-NEXT: %0 = math.log2 %cst_3 : f64
// CHECK-NEXT: %1 = math.log2 %cst_2 : f64
// CHECK-NEXT: return %cst_2, %0, %cst_1, %1, %cst_0, %cst : f64, f64, f64, f64, f64, f64
func.func @log2_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.log2 %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.log2 %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.log2 %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.log2 %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.log2 %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.log2 %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @log10_f32
// CHECK-NEXT: %cst = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %cst_0 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_1 = arith.constant 3.010300e-01 : f32
// CHECK-NEXT: %cst_2 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: %cst_3 = arith.constant -1.000000e+00 : f32
// CHECK-NEXT: %cst_4 = arith.constant -5.000000e-01 : f32
// CHECK-NEXT: %cst_5 = arith.constant -3.010300e-01 : f32
// CHECK-NEXT: %0 = math.log10 %cst_4 : f32
// CHECK-NEXT: %1 = math.log10 %cst_3 : f32
// CHECK-NEXT: %2 = math.log10 %cst_2 : f32
// CHECK-NEXT: return %cst_5, %0, %cst_1, %1, %cst_0, %cst, %2 : f32, f32, f32, f32, f32, f32, f32
func.func @log10_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.log10 %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.log10 %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.log10 %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.log10 %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.log10 %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.log10 %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.log10 %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @log10_f64
// CHECK-NEXT: %cst = arith.constant -3.100000e+02 : f64
// CHECK-NEXT: %cst_0 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_1 = arith.constant 0.3010299956639812 : f64
// CHECK-NEXT: %cst_2 = arith.constant -1.000000e+00 : f64
// CHECK-NEXT: %cst_3 = arith.constant -5.000000e-01 : f64
// CHECK-NEXT: %cst_4 = arith.constant -0.3010299956639812 : f64
// CHECK-NEXT: %0 = math.log10 %cst_3 : f64
// CHECK-NEXT: %1 = math.log10 %cst_2 : f64
// CHECK-NEXT: return %cst_4, %0, %cst_1, %1, %cst_0, %cst : f64, f64, f64, f64, f64, f64
func.func @log10_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.log10 %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.log10 %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.log10 %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.log10 %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.log10 %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.log10 %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @cbrt_f32
// CHECK-NEXT: %cst = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %cst_1 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_2 = arith.constant -1.000000e+00 : f32
// CHECK-NEXT: %cst_3 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %cst_4 = arith.constant -5.000000e-01 : f32
// CHECK-NEXT: %cst_5 = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %0 = math.cbrt %cst_5 : f32
// CHECK-NEXT: %1 = math.cbrt %cst_4 : f32
// CHECK-NEXT: %2 = math.cbrt %cst_3 : f32
// CHECK-NEXT: %3 = math.cbrt %cst_2 : f32
// CHECK-NEXT: %4 = math.cbrt %cst_1 : f32
// CHECK-NEXT: %5 = math.cbrt %cst_0 : f32
// CHECK-NEXT: %6 = math.cbrt %cst : f32
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32, f32, f32
func.func @cbrt_f32() -> (f32, f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.5 : f32
  %r0 = math.cbrt %c0 : f32
  %c1 = arith.constant -0.5 : f32
  %r1 = math.cbrt %c1 : f32
  %c2 = arith.constant 2.0 : f32
  %r2 = math.cbrt %c2 : f32
  %c3 = arith.constant -1.0 : f32
  %r3 = math.cbrt %c3 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %r4 = math.cbrt %c4 : f32
  %c5 = arith.constant 0x7F800000 : f32
  %r5 = math.cbrt %c5 : f32
  %c6 = arith.constant -0.0 : f32
  %r6 = math.cbrt %c6 : f32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : f32, f32, f32, f32, f32, f32, f32
}
// CHECK-LABEL: func.func @cbrt_f64
// CHECK-NEXT: %cst = arith.constant 1.000000e-310 : f64
// CHECK-NEXT: %cst_0 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_1 = arith.constant -1.000000e+00 : f64
// CHECK-NEXT: %cst_2 = arith.constant 2.000000e+00 : f64
// CHECK-NEXT: %cst_3 = arith.constant -5.000000e-01 : f64
// CHECK-NEXT: %cst_4 = arith.constant 5.000000e-01 : f64
// CHECK-NEXT: %0 = math.cbrt %cst_4 : f64
// CHECK-NEXT: %1 = math.cbrt %cst_3 : f64
// CHECK-NEXT: %2 = math.cbrt %cst_2 : f64
// CHECK-NEXT: %3 = math.cbrt %cst_1 : f64
// CHECK-NEXT: %4 = math.cbrt %cst_0 : f64
// CHECK-NEXT: %5 = math.cbrt %cst : f64
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5 : f64, f64, f64, f64, f64, f64
func.func @cbrt_f64() -> (f64, f64, f64, f64, f64, f64) {
  %c0 = arith.constant 0.5 : f64
  %r0 = math.cbrt %c0 : f64
  %c1 = arith.constant -0.5 : f64
  %r1 = math.cbrt %c1 : f64
  %c2 = arith.constant 2.0 : f64
  %r2 = math.cbrt %c2 : f64
  %c3 = arith.constant -1.0 : f64
  %r3 = math.cbrt %c3 : f64
  %c4 = arith.constant 0x7FF8000000000000 : f64
  %r4 = math.cbrt %c4 : f64
  %c5 = arith.constant 1.0e-310 : f64
  %r5 = math.cbrt %c5 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
// CHECK-LABEL: func.func @binary
// CHECK-NEXT: %cst = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_0 = arith.constant -1.57079637 : f32
// CHECK-NEXT: %cst_1 = arith.constant 1.5707963267948966 : f64
// CHECK-NEXT: %cst_2 = arith.constant -3.000000e+00 : f16
// CHECK-NEXT: %cst_3 = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %cst_4 = arith.constant 0x7E00 : f16
// CHECK-NEXT: return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f32, f32, f64, f16, f16, f16
func.func @binary() -> (f32, f32, f64, f16, f16, f16) {
  %z = arith.constant 0.0 : f32
  %m = arith.constant -2.0 : f32
  %a = math.atan2 %z, %z : f32
  %b = math.atan2 %m, %z : f32
  %x = arith.constant 1.5 : f64
  %y = arith.constant -0.0 : f64
  %c = math.atan2 %x, %y : f64
  %h = arith.constant 3.0 : f16
  %n = arith.constant -0.0 : f16
  %d = math.copysign %h, %n : f16
  %e = math.copysign %n, %h : f16
  %hz = arith.constant 0.0 : f16
  %g = math.atan2 %hz, %n : f16
  return %a, %b, %c, %d, %e, %g : f32, f32, f64, f16, f16, f16
}
// CHECK-LABEL: func.func @integer
// CHECK-NEXT: %cst = arith.constant dense<[15, 0]> : vector<2xi16>
// CHECK-NEXT: %c12 = arith.constant 12 : index
// CHECK-NEXT: %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT: %c0_i8 = arith.constant 0 : i8
// CHECK-NEXT: %c-128_i8 = arith.constant -128 : i8
// CHECK-NEXT: %c7_i8 = arith.constant 7 : i8
// CHECK-NEXT: %c8_i8 = arith.constant 8 : i8
// CHECK-NEXT: %c1_i8 = arith.constant 1 : i8
// CHECK-NEXT: %c27_i32 = arith.constant 27 : i32
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = math.ipowi %c0_i8, %c-1_i8 : i8
// CHECK-NEXT: return %c-128_i8, %c7_i8, %c8_i8, %c1_i8, %c27_i32, %c0_i32, %c-1_i8, %0, %c12, %cst : i8, i8, i8, i8, i32, i32, i8, i8, index, vector<2xi16>
func.func @integer() -> (i8, i8, i8, i8, i32, i32, i8, i8, index, vector<2xi16>) {
  %min = arith.constant -128 : i8
  %one = arith.constant 1 : i8
  %a = math.absi %min : i8
  %b = math.ctlz %one : i8
  %zero = arith.constant 0 : i8
  %c = math.cttz %zero : i8
  %d = math.ctpop %min : i8
  %three = arith.constant 3 : i32
  %m2 = arith.constant -2 : i32
  %e = math.ipowi %three, %three : i32
  %f = math.ipowi %three, %m2 : i32
  %mone = arith.constant -1 : i8
  %g = math.ipowi %mone, %mone : i8
  %h = math.ipowi %zero, %mone : i8
  %i = arith.constant 4096 : index
  %j = math.cttz %i : index
  %v = arith.constant dense<[1, -1]> : vector<2xi16>
  %k = math.ctlz %v : vector<2xi16>
  return %a, %b, %c, %d, %e, %f, %g, %h, %j, %k : i8, i8, i8, i8, i32, i32, i8, i8, index, vector<2xi16>
}
// CHECK-LABEL: func.func @classify
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: %cst = arith.constant dense<[1.000000e+00, 0x7FC00000, 0xFF800000, 9.999940e-41, 0.000000e+00]> : vector<5xf32>
// CHECK-NEXT: %0 = math.isfinite %cst : vector<5xf32>
// CHECK-NEXT: %1 = math.isinf %cst : vector<5xf32>
// CHECK-NEXT: %2 = math.isnan %cst : vector<5xf32>
// CHECK-NEXT: %3 = math.isnormal %cst : vector<5xf32>
// CHECK-NEXT: return %0, %1, %2, %3, %false : vector<5xi1>, vector<5xi1>, vector<5xi1>, vector<5xi1>, i1
func.func @classify() -> (vector<5xi1>, vector<5xi1>, vector<5xi1>, vector<5xi1>, i1) {
  %v = arith.constant dense<[1.0, 0x7FC00000, 0xFF800000, 1.0e-40, 0.0]> : vector<5xf32>
  %a = math.isfinite %v : vector<5xf32>
  %b = math.isinf %v : vector<5xf32>
  %c = math.isnan %v : vector<5xf32>
  %d = math.isnormal %v : vector<5xf32>
  %h = arith.constant 6.0e-5 : f16
  %e = math.isnormal %h : f16
  return %a, %b, %c, %d, %e : vector<5xi1>, vector<5xi1>, vector<5xi1>, vector<5xi1>, i1
}
