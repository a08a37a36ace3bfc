// A 3-D Conv (groups, strides, dilations, asymmetric pads, bias; and
// auto_pad=SAME_UPPER) imported as 2-D convolutions, one per kernel depth
// (Inputs/conv3d.py writes the model and onnxruntime's outputs): eagerly,
// in graph mode, and through the GPU form.
// RUN: strata import %S/Inputs/conv3d.onnx | FileCheck %s
// RUN: strata run %S/Inputs/conv3d.onnx --input x=%S/Inputs/conv3d-x.npy --expect y=%S/Inputs/conv3d-y.npy --expect z=%S/Inputs/conv3d-z.npy | FileCheck %s --check-prefix=OUT
// RUN: strata run %S/Inputs/conv3d.onnx --mode graph --input x=%S/Inputs/conv3d-x.npy --expect y=%S/Inputs/conv3d-y.npy --expect z=%S/Inputs/conv3d-z.npy | FileCheck %s --check-prefix=OUT

// The depth padding, then per kernel depth a strided slice, the depths
// folded into the batch, and a 2-D convolution.
// CHECK: graph.pad
// CHECK: graph.slice
// CHECK: graph.transpose
// CHECK: graph.conv2d {{.*}} : (tensor<6x4x6x5xf32>, tensor<6x2x2x3xf32>) -> tensor<6x6x6x2xf32>
// CHECK: graph.add
// CHECK: graph.reshape {{.*}} -> tensor<2x3x6x6x2xf32>
// CHECK: graph.transpose {{.*}} -> tensor<2x6x3x6x2xf32>
// OUT: y: matches {{.*}}conv3d-y.npy
// OUT: z: matches {{.*}}conv3d-z.npy
