// A toy model in generic form: two "functions" with tensor arithmetic, weights
// as dense constants (one above the hex threshold), control flow, call sites
// and source locations as a model importer would produce them.
"builtin.module"() <{sym_name = "toy_mlp"}> ({
  "toy.func"() <{function_type = (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x4xf32>, sym_name = "mlp", arg_attrs = [{toy.name = "x"}, {toy.name = "residual"}], res_attrs = [{toy.name = "logits"}]}> ({
  ^bb0(%x: tensor<?x8xf32> loc("model.py":10:1), %res: tensor<?x8xf32> loc("model.py":10:12)):
    %w1 = "toy.constant"() <{value = dense<[[0.0000, 0.1808, 0.3371, 0.4478, 0.4979, 0.4806, 0.3983, 0.2620, 0.0903, -0.0936, -0.2649, -0.4003, -0.4816, -0.4976, -0.4463, -0.3346], [0.4207, 0.4900, 0.4929, 0.4291, 0.3072, 0.1437, -0.0392, -0.2168, -0.3650, -0.4639, -0.5000, -0.4684, -0.3734, -0.2279, -0.0515, 0.1318], [0.4546, 0.3486, 0.1954, 0.0158, -0.1660, -0.3253, -0.4406, -0.4963, -0.4848, -0.4076, -0.2753, -0.1058, 0.0781, 0.2514, 0.3907, 0.4771], [0.0706, -0.1132, -0.2817, -0.4120, -0.4866, -0.4953, -0.4370, -0.3195, -0.1588, 0.0234, 0.2024, 0.3541, 0.4578, 0.4995, 0.4737, 0.3837], [-0.3784, -0.4710, -0.4998, -0.4610, -0.3598, -0.2099, -0.0316, 0.1510, 0.3132, 0.4329, 0.4941, 0.4884, 0.4166, 0.2884, 0.1212, -0.0624], [-0.4795, -0.3957, -0.2584, -0.0862, 0.0978, 0.2685, 0.4028, 0.4827, 0.4972, 0.4444, 0.3315, 0.1737, -0.0076, -0.1879, -0.3427, -0.4512], [-0.1397, 0.0434, 0.2205, 0.3679, 0.4654, 0.5000, 0.4669, 0.3706, 0.2241, 0.0473, -0.1359, -0.3007, -0.4248, -0.4914, -0.4915, -0.4251], [0.3285, 0.4426, 0.4968, 0.4837, 0.4052, 0.2718, 0.1017, -0.0822, -0.2550, -0.3933, -0.4783, -0.4986, -0.4514, -0.3431, -0.1884, -0.0082]]> : tensor<8x16xf32>}> : () -> tensor<8x16xf32> loc("fc1.weight")
    %b1 = "toy.constant"() <{value = dense<[0.0141, -0.0226, -0.0563, -0.0824, -0.0973, -0.0991, -0.0874, -0.0639, -0.0318, 0.0047, 0.0405, 0.0708, 0.0916, 0.0999, 0.0947, 0.0767]> : tensor<16xf32>}> : () -> tensor<16xf32> loc("fc1.bias")
    %w2 = "toy.constant"() <{value = dense<[[0.0000, 0.0904, 0.1686, 0.2239], [0.1199, 0.1911, 0.2364, 0.2498], [0.2104, 0.2450, 0.2464, 0.2145], [0.2494, 0.2389, 0.1961, 0.1267], [0.2273, 0.1743, 0.0977, 0.0079], [0.1496, 0.0671, -0.0246, -0.1129], [0.0353, -0.0566, -0.1408, -0.2060], [-0.0877, -0.1664, -0.2226, -0.2487], [-0.1892, -0.2355, -0.2499, -0.2305], [-0.2444, -0.2469, -0.2160, -0.1559], [-0.2397, -0.1979, -0.1292, -0.0431], [-0.1764, -0.1004, -0.0108, 0.0803], [-0.0699, 0.0217, 0.1103, 0.1839], [0.0538, 0.1384, 0.2043, 0.2426], [0.1642, 0.2213, 0.2484, 0.2419], [0.2345, 0.2500, 0.2316, 0.1819]]> : tensor<16x4xf32>}> : () -> tensor<16x4xf32> loc("fc2.weight")
    %zero = "toy.constant"() <{value = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32> loc("fc2.bias")
    %sum = "toy.add"(%x, %res) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32> loc("add"("model.py":11:9))
    %h = "toy.matmul"(%sum, %w1) {toy.precision = "tf32"} : (tensor<?x8xf32>, tensor<8x16xf32>) -> tensor<?x16xf32> loc("fc1"("model.py":12:9))
    %hb = "toy.add"(%h, %b1) : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32> loc("fc1"("model.py":12:9))
    %a = "toy.gelu"(%hb) <{approximate = "tanh"}> : (tensor<?x16xf32>) -> tensor<?x16xf32> loc(callsite("gelu"("activations.py":40:12) at "model.py":13:9))
    %o = "toy.matmul"(%a, %w2) : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<?x4xf32> loc("fc2"("model.py":14:9))
    %ob = "toy.add"(%o, %zero) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32> loc(fused<"toy.fuse">["fc2"("model.py":14:9), "model.py":14:20])
    %norm:3 = "toy.layer_norm"(%ob) <{axis = -1 : i64, epsilon = 1.0e-5 : f32}> : (tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?x1xf32>) loc("norm"("model.py":15:9))
    "toy.return"(%norm#0) : (tensor<?x4xf32>) -> () loc("model.py":16:5)
  }) : () -> () loc("model.py":10:1)
  "toy.func"() <{function_type = (tensor<2x8xf32>, i1) -> tensor<2x4xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%input: tensor<2x8xf32>, %use_residual: i1):
    %cast = "builtin.unrealized_conversion_cast"(%input) : (tensor<2x8xf32>) -> tensor<?x8xf32>
    "toy.cond_br"(%use_residual)[^with_res, ^no_res] : (i1) -> ()
  ^with_res:
    %r = "toy.call"(%cast, %cast) <{callee = @toy_mlp::@mlp}> : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x4xf32> loc("main.py":3:5)
    "toy.br"(%r)[^exit] : (tensor<?x4xf32>) -> ()
  ^no_res:
    %zeros = "toy.constant"() <{value = dense<0.0> : tensor<2x8xf32>}> : () -> tensor<2x8xf32>
    %zc = "builtin.unrealized_conversion_cast"(%zeros) : (tensor<2x8xf32>) -> tensor<?x8xf32>
    %n = "toy.call"(%cast, %zc) <{callee = @toy_mlp::@mlp}> : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x4xf32> loc("main.py":5:5)
    "toy.br"(%n)[^exit] : (tensor<?x4xf32>) -> ()
  ^exit(%out: tensor<?x4xf32>):
    %shaped = "toy.reshape"(%out) <{shape = array<i64: 2, 4>}> : (tensor<?x4xf32>) -> tensor<2x4xf32>
    %scaled = "toy.mul"(%shaped, %shaped) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %sm = "toy.softmax"(%scaled) <{axis = 1 : i32}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %loop = "toy.for"(%sm) <{lower = 0 : index, upper = 4 : index, step = 1 : index}> ({
    ^bb0(%iv: index, %acc: tensor<2x4xf32>):
      %slice = "toy.slice"(%acc, %iv) : (tensor<2x4xf32>, index) -> tensor<2x1xf32>
      %upd = "toy.insert"(%slice, %acc, %iv) : (tensor<2x1xf32>, tensor<2x4xf32>, index) -> tensor<2x4xf32>
      "toy.yield"(%upd) : (tensor<2x4xf32>) -> ()
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    "toy.return"(%loop) : (tensor<2x4xf32>) -> ()
  }) : () -> ()
}) : () -> () loc("model.py":1:1)
