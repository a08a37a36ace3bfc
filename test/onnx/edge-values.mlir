// Values where a careless import goes wrong, checked against the ONNX
// reference implementation (Inputs/edge-values.py writes the models): Celu
// with a negative alpha, Asinh of large negative numbers (no cancellation),
// Mod with fmod=1 on uint64 values of 2^63 and more (unsigned remainder),
// Shrink on int8 with a lambd beyond the type (bounds saturate),
// DynamicQuantizeLinear of all zeros (scale 1/255, not 0), DequantizeLinear
// of uint16 with an f16 scale (computed in f32), Einsum whose ellipsis
// broadcasts a contracted dimension (not a matmul), and a DepthToSpace whose
// blocksize overflows (an error, not a panic).
// RUN: strata run %S/Inputs/edge-values.onnx --print | FileCheck %s
// RUN: not strata import %S/Inputs/huge-blocksize.onnx 2>&1 | FileCheck %s --check-prefix=HUGE

// CHECK: celu: f32 [2]
// CHECK-NEXT: [1.0, -1.7182817459106445]
// CHECK-NEXT: asinh: f32 [3]
// CHECK-NEXT: [-9.903487205505371, -5.298342227935791, 0.4812118411064148]
// CHECK-NEXT: mod: ui64 [2]
// CHECK-NEXT: [5, 1]
// CHECK-NEXT: shrink: i8 [3]
// CHECK-NEXT: [0, 0, 0]
// CHECK-NEXT: dq: ui8 [3]
// CHECK-NEXT: [0, 0, 0]
// CHECK-NEXT: dq_scale: f32 []
// CHECK-NEXT: {{^}}0.003921568859368563{{$}}
// CHECK-NEXT: dq_zp: ui8 []
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: deq: f16 [2]
// CHECK-NEXT: [32.78125, 0.0]
// CHECK-NEXT: ein: f32 [3]
// CHECK-NEXT: [18.0, 44.0, 78.0]

// HUGE: huge-blocksize.onnx: node 'd2s': DepthToSpace blocksize 4294967296 is too large for [4, 2, 2]
