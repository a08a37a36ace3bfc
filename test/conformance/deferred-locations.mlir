// mlir-opt's own debug-info output style: an explicit top-level module whose
// location aliases are used before they are defined (at the end of the file).
// Operations and block arguments may use a later alias; an alias definition
// may only use aliases defined above it.
#loc5 = loc("arg.py":2:10)
"builtin.module"() ({
  %0 = "toy.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32> loc(#loc1)
  %1 = "toy.transpose"(%0) : (tensor<2xf32>) -> tensor<*xf32> loc(#loc2)
  "toy.region"() ({
  ^bb0(%arg0: tensor<2xf32> loc(#loc5), %arg1: i32 loc(#loc8)):
    "toy.print"(%arg0) : (tensor<2xf32>) -> () loc(#loc3)
  }) : () -> () loc(#loc4)
  "toy.return"(%1) : (tensor<*xf32>) -> () loc(#loc6)
}) : () -> () loc(#loc)
#loc = loc("model.py":0:0)
#loc1 = loc("model.py":3:5)
#loc2 = loc("transpose"(#loc1))
#loc7 = loc("caller.py":9:1)
#loc3 = loc(callsite(#loc2 at #loc7))
#loc4 = loc(fused<"pass">[#loc1, #loc2])
#loc6 = loc(unknown)
#loc8 = loc("late_arg")
