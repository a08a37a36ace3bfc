// REQUIRES: strata-opt
// RUN: strata-opt --verify-diagnostics --pass-pipeline='builtin.module(test.func(symbol-dce))' %s

// symbol-dce must be anchored on a symbol table; a function is not one.
// expected-error @+1 {{'test.func' op  was scheduled to run under SymbolDCE, but does not define a symbol table}}
"test.func"() <{sym_name = "f", sym_visibility = "private"}> ({
}) : () -> ()

