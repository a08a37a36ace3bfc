func.func @c(%a: i32, %b: i32) -> i32 {
  %i = arith.constant 5 : index
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %a : i32
  }
  case 5 {
    %c = arith.addi %a, %b : i32
    scf.yield %c : i32
  }
  default {
    scf.yield %b : i32
  }
  return %0 : i32
}
func.func @d(%a: i32, %b: i32) -> i32 {
  %i = arith.constant 7 : index
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %a : i32
  }
  default {
    %c = arith.muli %a, %b : i32
    scf.yield %c : i32
  }
  return %0 : i32
}
