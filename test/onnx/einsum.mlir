// Einsum equations through each path of the decomposition, checked
// against numpy.einsum (Inputs/einsum.py writes the model and prints the
// expected values): batch matmul (attention scores), an outer product, a
// trace (diagonal), three operands, two contracted labels (broadcast and
// sum), an implicit output and an ellipsis.
// RUN: strata run %S/Inputs/einsum.onnx --print | FileCheck %s
// RUN: strata import %S/Inputs/einsum.onnx | FileCheck %s --check-prefix=IR

// The attention-style equation is one matmul after a transpose of k.
// IR: graph.transpose %{{.*}} {perm = array<i64: 0, 1, 3, 2>}
// IR-NEXT: graph.matmul

// CHECK: scores: f32 {{\[}}1, 2, 3, 5{{\]}}
// CHECK-NEXT: {{\[}}{{\[}}{{\[}}{{\[}}7.0, 1.0, 11.0, 12.0, -6.0{{\]}}, {{\[}}4.0, 2.0, 6.0, -5.0, 4.0{{\]}}, {{\[}}-10.0, -2.0, -1.0, 7.0, -8.0{{\]}}{{\]}}, {{\[}}{{\[}}0.0, 9.0, 15.0, 3.0, -10.0{{\]}}, {{\[}}2.0, 3.0, -15.0, -4.0, 9.0{{\]}}, {{\[}}14.0, 6.0, -2.0, 3.0, 1.0{{\]}}{{\]}}{{\]}}{{\]}}
// CHECK-NEXT: outer: f32 {{\[}}3, 2{{\]}}
// CHECK-NEXT: {{\[}}{{\[}}-6.0, 9.0{{\]}}, {{\[}}6.0, -9.0{{\]}}, {{\[}}6.0, -9.0{{\]}}{{\]}}
// CHECK-NEXT: trace: f32 {{\[}}{{\]}}
// CHECK-NEXT: {{^}}2.0{{$}}
// CHECK-NEXT: chain: f32 {{\[}}2, 2{{\]}}
// CHECK-NEXT: {{\[}}{{\[}}-3.0, -17.0{{\]}}, {{\[}}-11.0, 5.0{{\]}}{{\]}}
// CHECK-NEXT: double: f32 {{\[}}2, 2{{\]}}
// CHECK-NEXT: {{\[}}{{\[}}-2.0, 13.0{{\]}}, {{\[}}-5.0, -23.0{{\]}}{{\]}}
// CHECK-NEXT: implicit: f32 {{\[}}2, 4{{\]}}
// CHECK-NEXT: {{\[}}{{\[}}-4.0, -2.0, 9.0, -2.0{{\]}}, {{\[}}7.0, -6.0, -21.0, 2.0{{\]}}{{\]}}
// CHECK-NEXT: ellipsis: f32 {{\[}}2, 2, 4{{\]}}
// CHECK-NEXT: {{\[}}{{\[}}{{\[}}3.0, 0.0, -11.0, 6.0{{\]}}, {{\[}}-3.0, 3.0, 0.0, 12.0{{\]}}{{\]}}, {{\[}}{{\[}}2.0, -2.0, 0.0, -8.0{{\]}}, {{\[}}6.0, -7.0, -18.0, 0.0{{\]}}{{\]}}{{\]}}
