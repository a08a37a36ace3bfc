// Ops outside the default domain (Inputs/other-domains.py writes the
// models). FlexAttention's score_mod subgraph is inlined where the node
// stands and may read the outer graph's values (here a bias); its result
// matches the reference computation eagerly and in graph mode. Forms the
// importer refuses are located errors, and so is a default-domain node in
// a model that imports only another domain.
// RUN: strata import %S/Inputs/flex-outer.onnx | FileCheck %s
// RUN: strata run %S/Inputs/flex-outer.onnx --input q=%S/Inputs/flex-outer-q.npy --input k=%S/Inputs/flex-outer-k.npy --input v=%S/Inputs/flex-outer-v.npy --input b=%S/Inputs/flex-outer-b.npy --expect y=%S/Inputs/flex-outer-y.npy | FileCheck %s --check-prefix=OUT
// RUN: strata run %S/Inputs/flex-outer.onnx --mode graph --input q=%S/Inputs/flex-outer-q.npy --input k=%S/Inputs/flex-outer-k.npy --input v=%S/Inputs/flex-outer-v.npy --input b=%S/Inputs/flex-outer-b.npy --expect y=%S/Inputs/flex-outer-y.npy | FileCheck %s --check-prefix=OUT
// Binarizer on integers compares in f64 (a threshold of -0.5 keeps 0);
// TfIdfVectorizer with max_skip_count 10^12 builds only the distances
// that fit in the row:
// RUN: strata run %S/Inputs/binarizer-int.onnx --input x=%S/Inputs/binarizer-int-x.npy --expect y=%S/Inputs/binarizer-int-y.npy | FileCheck %s --check-prefix=OUT
// RUN: strata run %S/Inputs/tfidf-skips.onnx --input x=%S/Inputs/tfidf-skips-x.npy --expect y=%S/Inputs/tfidf-skips-y.npy | FileCheck %s --check-prefix=OUT
// RUN: not strata import %S/Inputs/flex-3d.onnx 2>&1 | FileCheck %s --check-prefix=FLEX3D
// RUN: not strata import %S/Inputs/momentum-mode.onnx 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not strata import %S/Inputs/no-default-opset.onnx 2>&1 | FileCheck %s --check-prefix=NODEFAULT
// RUN: not strata import %S/Inputs/tfidf-strings.onnx 2>&1 | FileCheck %s --check-prefix=STRINGS

// The bias is computed before the attention; the key and value heads
// repeat for the two query heads; the score_mod's add reads the bias.
// CHECK: %[[BIAS:.*]] = graph.neg %arg3
// CHECK: graph.expand
// CHECK: %[[SCORES:.*]] = graph.matmul
// CHECK: %[[MOD:.*]] = graph.add %[[SCORES]], %[[BIAS]]
// CHECK: graph.softmax %[[MOD]]

// OUT: y: matches {{.*}}-y.npy

// FLEX3D: flex-3d.onnx: node 'attn': FlexAttention needs a 4-D Q
// MODE: momentum-mode.onnx: node 'opt': Momentum has mode 'heavy' (expected 'standard' or 'nesterov')
// NODEFAULT: no-default-opset.onnx: node 'act': Relu is of the default ONNX domain, which the model does not import
// STRINGS: tfidf-strings.onnx: node 'tfidf': TfIdfVectorizer with pool_strings is not supported (strata has no string tensors)
