#!/usr/bin/env python3
"""Generate random func/arith/math/scf functions, deterministically from seeds.

For the differential check (test/tests/differential.rs): each program is one
`func.func` over i32, i64, f32, index and i1 arguments with constants drawn
from a small set of interesting values (0, 1, -1, extremes of the common
cases), integer and float arithmetic, comparisons, selects, casts, math
functions, `scf.if` with results and `scf.for` loops with a loop-carried
value. Folders and canonicalization patterns get many chances to fire: some
integer ops take two fresh constants, some comparisons are negated with
`xori ..., true`, and every fourth program returns every value it computes
(so no fold is hidden by dead-code elimination). The programs only need to be
valid IR, not meaningful. A quarter of the seeds
give programs of elementwise ops on vector and tensor constants instead, and
another quarter nested `scf.if`/`scf.for` with calls inside.

Usage: gen-dialect-program.py --first S --count N --out DIR
writes DIR/prog-<seed>.mlir for seeds S .. S+N-1.
"""

import argparse
import os
from random import Random

INT_BINARY = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi",
              "maxui", "minui", "divsi", "divui", "remsi", "remui", "ceildivsi",
              "floordivsi", "shli", "shrsi", "shrui"]
FLOAT_BINARY = ["arith.addf", "arith.subf", "arith.mulf", "arith.maximumf",
                "arith.minimumf", "arith.divf", "arith.maxnumf", "arith.minnumf",
                "arith.remf", "math.powf"]
FLOAT_UNARY = ["arith.negf", "math.exp", "math.absf", "math.sqrt", "math.log",
               "math.tanh", "math.sin"]
CASTS = [("extsi", "i32", "i64"), ("extui", "i32", "i64"), ("trunci", "i64", "i32"),
         ("index_cast", "i32", "index"), ("index_cast", "index", "i64"),
         ("index_castui", "i64", "index"), ("sitofp", "i32", "f32"),
         ("uitofp", "i64", "f32"), ("fptosi", "f32", "i32"), ("fptoui", "f32", "i64"),
         ("bitcast", "i32", "f32"), ("bitcast", "f32", "i32")]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF = ["oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ord",
        "uno", "true", "false"]
TYPES = ["i32", "i64", "f32", "index", "i1"]


def vector_program(seed):
    """Elementwise ops on vector and tensor constants (dense and splat)."""
    r = Random(seed)
    values = {"vector<4xi32>": ["%v"], "tensor<2xf32>": ["%t"], "vector<4xi1>": []}
    lines = []
    counter = [0]

    def new():
        counter[0] += 1
        return "%%w%d" % counter[0]

    for _ in range(3):
        v = new()
        lines.append("  %s = arith.constant %s : vector<4xi32>" % (v, r.choice(
            ["dense<0>", "dense<1>", "dense<-1>", "dense<[1, 2, 3, 4]>", "dense<[0, -1, 7, -8]>"])))
        values["vector<4xi32>"].append(v)
        v = new()
        lines.append("  %s = arith.constant %s : tensor<2xf32>" % (v, r.choice(
            ["dense<0.0>", "dense<1.0>", "dense<[1.5, -2.0]>", "dense<[0.0, 3.0]>"])))
        values["tensor<2xf32>"].append(v)
    for _ in range(r.randint(3, 12)):
        kind = r.random()
        v = new()
        if kind < 0.45:
            op = r.choice(["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minui", "divsi", "remui", "shli"])
            lines.append("  %s = arith.%s %s, %s : vector<4xi32>" % (
                v, op, r.choice(values["vector<4xi32>"]), r.choice(values["vector<4xi32>"])))
            values["vector<4xi32>"].append(v)
        elif kind < 0.75:
            op = r.choice(["arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf", "arith.minnumf"])
            lines.append("  %s = %s %s, %s : tensor<2xf32>" % (
                v, op, r.choice(values["tensor<2xf32>"]), r.choice(values["tensor<2xf32>"])))
            values["tensor<2xf32>"].append(v)
        elif kind < 0.9:
            lines.append("  %s = arith.cmpi %s, %s, %s : vector<4xi32>" % (
                v, r.choice(["eq", "slt", "ugt", "ne"]), r.choice(values["vector<4xi32>"]),
                r.choice(values["vector<4xi32>"])))
            values["vector<4xi1>"].append(v)
        elif values["vector<4xi1>"]:
            lines.append("  %s = arith.select %s, %s, %s : vector<4xi1>, vector<4xi32>" % (
                v, r.choice(values["vector<4xi1>"]), r.choice(values["vector<4xi32>"]),
                r.choice(values["vector<4xi32>"])))
            values["vector<4xi32>"].append(v)
        else:
            lines.append("  %s = math.absf %s : tensor<2xf32>" % (v, r.choice(values["tensor<2xf32>"])))
            values["tensor<2xf32>"].append(v)
    return ("func.func @f(%%v: vector<4xi32>, %%t: tensor<2xf32>) -> (vector<4xi32>, tensor<2xf32>) {\n"
            "%s\n  return %s, %s : vector<4xi32>, tensor<2xf32>\n}\n" % (
                "\n".join(lines), r.choice(values["vector<4xi32>"]), r.choice(values["tensor<2xf32>"])))


def scf_program(seed):
    """Nested scf.if and scf.for (up to three deep) with calls (effects) and
    arithmetic inside, results used or not."""
    r = Random(seed)
    lines = []
    counter = [0]
    values = {"i32": ["%a", "%b"], "i1": ["%c", "%d"], "index": ["%n"]}
    depth = [0]

    def new():
        counter[0] += 1
        return "%%s%d" % counter[0]

    def indent():
        return "  " * depth[0] + "  "

    for ty, choices in (("i32", ["0 : i32", "1 : i32", "2 : i32", "5 : i32"]),
                        ("i1", ["true", "false"]), ("index", ["0 : index", "1 : index", "2 : index", "5 : index"])):
        v = new()
        lines.append("  %s = arith.constant %s" % (v, r.choice(choices)))
        values[ty].append(v)

    def region(defined):
        depth[0] += 1
        inner = []
        body(r.randint(0, 3), inner)
        lines.append(indent() + "scf.yield %s : i32" % r.choice(values["i32"]))
        for ty, v in inner:
            values[ty].remove(v)
        for ty, v in defined:
            values[ty].remove(v)
        depth[0] -= 1

    def body(count, scope):
        for _ in range(count):
            kind = r.random()
            if kind < 0.3:
                v = new()
                lines.append(indent() + "%s = arith.%s %s, %s : i32" % (
                    v, r.choice(["addi", "muli", "subi"]), r.choice(values["i32"]), r.choice(values["i32"])))
                values["i32"].append(v)
                scope.append(("i32", v))
            elif kind < 0.4:
                v = new()
                lines.append(indent() + "%s = arith.cmpi %s, %s, %s : i32" % (
                    v, r.choice(["eq", "slt", "ne"]), r.choice(values["i32"]), r.choice(values["i32"])))
                values["i1"].append(v)
                scope.append(("i1", v))
            elif kind < 0.5:
                lines.append(indent() + "func.call @use(%s) : (i32) -> ()" % r.choice(values["i32"]))
            elif kind < 0.75 and depth[0] < 3:
                v = new()
                lines.append(indent() + "%s = scf.if %s -> (i32) {" % (v, r.choice(values["i1"])))
                region([])
                lines.append(indent() + "} else {")
                region([])
                lines.append(indent() + "}")
                values["i32"].append(v)
                scope.append(("i32", v))
            elif depth[0] < 3:
                v, iv, acc = new(), new(), new()
                lines.append(indent() + "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i32) {" % (
                    v, iv, r.choice(values["index"]), r.choice(values["index"]), r.choice(values["index"]),
                    acc, r.choice(values["i32"])))
                values["i32"].append(acc)
                region([("i32", acc)])
                lines.append(indent() + "}")
                values["i32"].append(v)
                scope.append(("i32", v))

    body(r.randint(3, 10), [])
    return ("func.func private @use(i32)\n"
            "func.func @f(%%a: i32, %%b: i32, %%c: i1, %%d: i1, %%n: index) -> i32 {\n"
            "%s\n  return %s : i32\n}\n" % ("\n".join(lines), r.choice(values["i32"])))


def program(seed):
    """A scalar program; every fourth seed a vector/tensor one, and every
    fourth (another residue) one of nested scf ops."""
    if seed % 4 == 3:
        return vector_program(seed)
    if seed % 4 == 2:
        return scf_program(seed)
    r = Random(seed)
    values = {"i32": ["%a"], "i64": ["%b"], "f32": ["%f"], "index": ["%n"], "i1": ["%c"]}
    lines = []
    counter = [0]

    def new():
        counter[0] += 1
        return "%%v%d" % counter[0]

    def pick(ty):
        return r.choice(values[ty])

    def constant(ty):
        v = new()
        if ty == "f32":
            text = "%s : f32" % r.choice(["0.0", "1.0", "-2.5", "0.5", "3.0"])
        elif ty == "i1":
            text = r.choice(["true", "false"])
        else:
            text = "%d : %s" % (r.choice([0, 1, 2, -1, -2, 3, 6, 7, -8]), ty)
        lines.append("  %s = arith.constant %s" % (v, text))
        values[ty].append(v)

    for ty in TYPES:
        for _ in range(2):
            constant(ty)
    for _ in range(r.randint(5, 25)):
        kind = r.random()
        v = new()
        if kind < 0.35:
            ty = r.choice(["i32", "i64", "index"])
            if r.random() < 0.3:
                # Two fresh constants: the op's folder gets to run on them.
                a, b = new(), new()
                lines.append("  %s = arith.constant %d : %s" % (a, r.choice([6, -6, 7, -7, 1, -1, 0]), ty))
                lines.append("  %s = arith.constant %d : %s" % (b, r.choice([2, -2, 3, -3, 1, -1, 0]), ty))
                lines.append("  %s = arith.%s %s, %s : %s" % (v, r.choice(INT_BINARY), a, b, ty))
            else:
                lines.append("  %s = arith.%s %s, %s : %s" % (v, r.choice(INT_BINARY), pick(ty), pick(ty), ty))
            values[ty].append(v)
        elif kind < 0.5:
            if r.random() < 0.6:
                lines.append("  %s = %s %s, %s : f32" % (v, r.choice(FLOAT_BINARY), pick("f32"), pick("f32")))
            else:
                lines.append("  %s = %s %s : f32" % (v, r.choice(FLOAT_UNARY), pick("f32")))
            values["f32"].append(v)
        elif kind < 0.6:
            if r.random() < 0.7:
                ty = r.choice(["i32", "i64"])
                lines.append("  %s = arith.cmpi %s, %s, %s : %s" % (v, r.choice(CMPI), pick(ty), pick(ty), ty))
                if r.random() < 0.4:
                    # The negation of a comparison (xori with true) inverts
                    # its predicate.
                    values["i1"].append(v)
                    t, v = new(), new()
                    lines.append("  %s = arith.constant true" % t)
                    lines.append("  %s = arith.xori %s, %s : i1" % (v, values["i1"][-1], t))
            else:
                lines.append("  %s = arith.cmpf %s, %s, %s : f32" % (v, r.choice(CMPF), pick("f32"), pick("f32")))
            values["i1"].append(v)
        elif kind < 0.7:
            ty = r.choice(["i32", "i64", "f32", "i1"])
            lines.append("  %s = arith.select %s, %s, %s : %s" % (v, pick("i1"), pick(ty), pick(ty), ty))
            values[ty].append(v)
        elif kind < 0.8:
            name, src, dst = r.choice(CASTS)
            lines.append("  %s = arith.%s %s : %s to %s" % (v, name, pick(src), src, dst))
            values[dst].append(v)
        elif kind < 0.9:
            ty = r.choice(["i32", "f32"])
            lines.append("  %s = scf.if %s -> (%s) {" % (v, pick("i1"), ty))
            lines.append("    scf.yield %s : %s" % (pick(ty), ty))
            lines.append("  } else {")
            lines.append("    scf.yield %s : %s" % (pick(ty), ty))
            lines.append("  }")
            values[ty].append(v)
        else:
            iv, acc, body = new(), new(), new()
            lines.append("  %s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i32) {"
                         % (v, iv, pick("index"), pick("index"), pick("index"), acc, pick("i32")))
            lines.append("    %s = arith.addi %s, %s : i32" % (body, acc, pick("i32")))
            lines.append("    scf.yield %s : i32" % body)
            lines.append("  }")
            values["i32"].append(v)
    if seed % 4 == 0:
        # Every computed value is returned, so that every fold shows.
        returned = [(v, ty) for ty in ["i32", "i64", "f32", "i1", "index"]
                    for v in values[ty] if v.startswith("%v")]
    else:
        returned = [(pick(ty), ty) for ty in ["i32", "i64", "f32", "i1"]]
    types = ", ".join(t for _, t in returned)
    return ("func.func @f(%%a: i32, %%b: i64, %%f: f32, %%n: index, %%c: i1) -> (%s) {\n"
            "%s\n  return %s : %s\n}\n" % (types, "\n".join(lines), ", ".join(v for v, _ in returned),
                                           types))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for seed in range(args.first, args.first + args.count):
        with open(os.path.join(args.out, "prog-%d.mlir" % seed), "w") as f:
            f.write(program(seed))


if __name__ == "__main__":
    main()
