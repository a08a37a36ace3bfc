// Verifier and parser errors of scf.index_switch, with mlir-opt's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @count(%i: index) {
  // expected-error @+1 {{'scf.index_switch' op has 1 case regions but 2 case values}}
  "scf.index_switch"(%i) <{cases = array<i64: 1, 2>}> ({
    scf.yield
  }, {
    scf.yield
  }) : (index) -> ()
  return
}

// -----

func.func @duplicate(%i: index) {
  // expected-error @+1 {{'scf.index_switch' op has duplicate case value: 1}}
  scf.index_switch %i
  case 1 {
    scf.yield
  }
  case 1 {
    scf.yield
  }
  default {
  }
  return
}

// -----

func.func @count_of_values(%i: index, %a: i32) -> i32 {
  // expected-error @+1 {{'scf.index_switch' op expected each region to return 1 values, but default region returns 0}}
  %0 = scf.index_switch %i -> i32
  case 1 {
    scf.yield %a : i32
  }
  default {
    // expected-note @+1 {{see yield operation here}}
    scf.yield
  }
  return %0 : i32
}

// -----

func.func @types(%i: index, %a: i32, %f: f32) -> i32 {
  // expected-error @+1 {{'scf.index_switch' op expected result #0 of each region to be 'i32'}}
  %0 = scf.index_switch %i -> i32
  case 1 {
    // expected-note @+1 {{case region #0 returns 'f32' here}}
    scf.yield %f : f32
  }
  default {
    scf.yield %a : i32
  }
  return %0 : i32
}

// -----

func.func @no_default(%i: index) {
  scf.index_switch %i
  case 1 {
    scf.yield
  }
  // expected-error @+1 {{expected 'default'}}
  return
}
