// strata-translate's command line: help, version, bad flags and files are
// errors with exit status 1, and a failed translation leaves no -o file.
// RUN: strata-translate --help | FileCheck %s --check-prefix=HELP
// RUN: strata-translate --version | FileCheck %s --check-prefix=VERSION
// RUN: not strata-translate --emit=cubin %s 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not strata-translate --bogus %s 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not strata-translate %S/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not strata-translate %s %s 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: rm -f %t.ll && echo 'kernel.func @k() { %%x = arith.ceildivsi }' > %t.bad.mlir
// RUN: echo stale > %t.ll && not strata-translate %t.bad.mlir -o %t.ll 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.ll
// An empty module translates to an empty LLVM module:
// RUN: strata-translate %s | FileCheck %s --check-prefix=EMPTY

// HELP: USAGE: strata-translate [options] <input file | ->
// HELP: --emit=llvm-ir
// VERSION: strata-translate {{[0-9]+\.[0-9]+\.[0-9]+}}
// EMIT: strata-translate: --emit='cubin': unknown output format; the formats are: llvm-ir, ptx
// FLAG: strata-translate: unknown option '--bogus' (see --help)
// MISSING: strata-translate: cannot open input file '{{.*}}does-not-exist.mlir'
// TWO: strata-translate: too many positional arguments
// BAD: bad.mlir:1:{{[0-9]+}}: error:
// EMPTY: ModuleID = 'strata_kernels'
// EMPTY-NOT: define
