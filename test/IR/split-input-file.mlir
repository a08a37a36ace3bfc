// REQUIRES: strata-opt
// --split-input-file processes each chunk on its own: the outputs are joined
// with the marker (a failed chunk prints nothing), diagnostics keep the line
// numbers of the whole file, and the implicit module of a later chunk is
// located at the end of the marker that starts it. With --verify-diagnostics,
// a missing or an unexpected diagnostic makes strata-opt fail and is reported.
//
// The check lines below avoid spelling the marker itself, which would split
// the file there.
//
// RUN: not strata-opt --allow-unregistered-dialect --split-input-file %s 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: not strata-opt --allow-unregistered-dialect --split-input-file --mlir-print-debuginfo %s 2> /dev/null | FileCheck --check-prefix=LOC %s
// RUN: not strata-opt --allow-unregistered-dialect --split-input-file --output-split-marker=//== %s 2> /dev/null | FileCheck --check-prefix=MARKER %s
// RUN: not strata-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s -o /dev/null 2> %t.verify
// RUN: FileCheck --check-prefix=VERIFY %s < %t.verify

// CHECK:      module {
// CHECK-NEXT:   "foo.a"() : () -> ()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: //{{ }}-----
// CHECK-NEXT: //{{ }}-----
// CHECK-NEXT: module {
// CHECK-NEXT:   "foo.c"() : () -> ()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: //{{ }}-----
// CHECK-NEXT: //{{ }}-----
// CHECK-NEXT: module {
// CHECK-NEXT:   "foo.e"() : () -> ()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: //{{ }}-----
// CHECK-NEXT: module {
// CHECK-NEXT:   "foo.f"() : () -> ()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NOT:  {{.}}

// MARKER:      "foo.a"
// MARKER-NEXT: }
// MARKER-EMPTY:
// MARKER-NEXT: //==
// MARKER-NEXT: //==
// MARKER-NEXT: module {
// MARKER-NEXT:   "foo.c"

// The first chunk's module is at 0:0, as for an unsplit file.
// LOC:      "foo.a"() : () -> () loc(#[[A:loc[0-9]*]])
// LOC-NEXT: } loc(#[[M:loc[0-9]*]])
// LOC-DAG:  #[[M]] = loc("{{.*}}split-input-file.mlir":0:0)
// LOC-DAG:  #[[A]] = loc("{{.*}}split-input-file.mlir":[[@LINE+1]]:1)
"foo.a"() : () -> ()

// -----

// A parse error in the second chunk, reported at its line in the whole file.
// ERR:      split-input-file.mlir:[[@LINE+2]]:9: error: use of undeclared SSA value name
// expected-error @+1 {{use of undeclared SSA value name}}
"foo.b"(%x) : (i32) -> ()

// -----

// The module of a later chunk is at the end of its marker (column 9).
// LOC:      "foo.c"() : () -> () loc(#[[C:loc[0-9]*]])
// LOC-NEXT: } loc(#[[M:loc[0-9]*]])
// LOC-DAG:  #[[M]] = loc("{{.*}}split-input-file.mlir":[[@LINE-5]]:9)
// LOC-DAG:  #[[C]] = loc("{{.*}}split-input-file.mlir":[[@LINE+1]]:1)
"foo.c"() : () -> ()

// -----

// A verifier error with no expected-error: unexpected with --verify-diagnostics.
// ERR:         split-input-file.mlir:[[@LINE+3]]:1: error: 'builtin.module' op requires one region
// VERIFY:      split-input-file.mlir:[[@LINE+2]]:1: error: unexpected error: 'builtin.module' op requires one region
// VERIFY-NEXT: "builtin.module"() : () -> ()
"builtin.module"() : () -> ()

// -----

// An expected error that is never produced (without --verify-diagnostics the
// chunk is fine). Expectations are checked after the last chunk, so this
// failure is reported last.
// VERIFY:      split-input-file.mlir:[[@LINE+2]]:4: error: expected error "this error is never produced" was not produced
// VERIFY-NEXT: // expected-error @+1 {{[{][{]}}this error is never produced
// expected-error @+1 {{this error is never produced}}
"foo.e"() : () -> ()

// -----

// ERR-NOT:    error
// VERIFY-NOT: error
// LOC:      "foo.f"() : () -> () loc(#[[F:loc[0-9]*]])
// LOC-NEXT: } loc(#[[M:loc[0-9]*]])
// LOC-DAG:  #[[M]] = loc("{{.*}}split-input-file.mlir":[[@LINE-6]]:9)
// LOC-DAG:  #[[F]] = loc("{{.*}}split-input-file.mlir":[[@LINE+1]]:1)
"foo.f"() : () -> ()
