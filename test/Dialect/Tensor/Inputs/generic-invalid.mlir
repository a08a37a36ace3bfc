// Verifier errors of tensor.generic (run by ../generic.mlir).

func.func @map_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.generic' op expected 2 indexing maps (one per input and one for the result), but found 1}}
  %r = tensor.generic ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> (d0)>] iterators ["parallel"] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_dims(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.generic' op indexing map #0 must have 1 dims (one per iterator) and no symbols}}
  %r = tensor.generic ins(%a : tensor<4xf32>) maps [affine_map<(d0, d1) -> (d0)>, affine_map<(d0) -> (d0)>] iterators ["parallel"] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @reduction_without_init(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.generic' op reduction iterators need an init operand (`outs`)}}
  %r = tensor.generic ins(%a : tensor<4x3xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] iterators ["parallel", "reduction"] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @result_map_reads_a_reduction(%a: tensor<4x3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tensor.generic' op the result's indexing map must be a projected permutation of the parallel dims}}
  %r = tensor.generic ins(%a : tensor<4x3xf32>) outs(%c : tensor<3xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] iterators ["parallel", "reduction"] {
  ^bb0(%x: f32, %acc: f32):
    tensor.yield %x : f32
  } : tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @result_map_misses_a_parallel_dim(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.generic' op the result's indexing map must use every parallel dim}}
  %r = tensor.generic ins(%a : tensor<4x3xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] iterators ["parallel", "parallel"] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @init_type(%a: tensor<4x3xf32>, %c: tensor<5xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.generic' op init and result must have the same type}}
  %r = tensor.generic ins(%a : tensor<4x3xf32>) outs(%c : tensor<5xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] iterators ["parallel", "reduction"] {
  ^bb0(%x: f32, %acc: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sizes_disagree(%a: tensor<4x3xf32>, %b: tensor<5x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'tensor.generic' op domain dim d0 has size 4 in operand #0, but size 5 in operand #1}}
  %r = tensor.generic ins(%a, %b : tensor<4x3xf32>, tensor<5x3xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] iterators ["parallel", "parallel"] {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %x : f32
  } : tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

func.func @body_args(%a: tensor<4x3xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.generic' op}}
  %r = tensor.generic ins(%a : tensor<4x3xf32>) outs(%c : tensor<4xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] iterators ["parallel", "reduction"] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @iterator_name(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.generic' op attribute 'iterator_types' failed to satisfy constraint: array of "parallel" and "reduction" strings}}
  %r = tensor.generic ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>] iterators ["window"] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}
