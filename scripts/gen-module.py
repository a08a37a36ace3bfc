#!/usr/bin/env python3
"""Generate a large MLIR module in generic form, deterministically from a seed.

The module is meant for the conformance check (test/tests/conformance.rs) and
for the parser benchmark (scripts/bench-parse). It only uses unregistered ops
(`gen.*`) plus `builtin.module`, so `mlir-opt --allow-unregistered-dialect`
accepts it. It contains:

  * "functions" (`gen.func`) with typed entry-block arguments, some with
    several blocks joined by branches that pass block arguments;
  * ops with regions (`gen.loop`, `gen.if`, `gen.parallel`) nested a few
    levels deep, whose blocks have arguments and end in `gen.yield`;
  * operands taken from earlier ops, block arguments and enclosing regions,
    always respecting SSA dominance;
  * single and multiple results (`%v3:2`, used as `%v3#1`);
  * properties and discardable attributes of many kinds (integers, floats,
    strings with escapes, arrays, dictionaries, dense elements, dense arrays,
    types, symbol references, unit, dialect attributes);
  * tensor, memref, vector, complex, tuple, integer, float and dialect types;
  * some source locations (file, name, callsite and fused).

Usage: gen-module.py --ops N [--seed S] [-o FILE]
The module has at least N operations (every op counts, terminators included).
"""

import argparse
import sys
from random import Random

# Types given to generated values.
SCALAR_TYPES = ["i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32", "f64"]
OTHER_TYPES = [
    "tensor<4x?xf32>",
    "tensor<8x16xf16>",
    "tensor<2x3x4xi32>",
    "tensor<*xf32>",
    "tensor<16xbf16>",
    "memref<?xf32>",
    "memref<4x4xi32, strided<[4, 1], offset: ?>>",
    "memref<16xf16, 3>",
    "vector<4xf32>",
    "vector<[8]xi8>",
    "vector<2x4xf16>",
    "complex<f32>",
    "tuple<i32, f32>",
    "!gen.token",
    '!gen.buffer<"global", 4>',
]
ALL_TYPES = SCALAR_TYPES + OTHER_TYPES
INT_TYPES = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64}
FLOAT_TYPES = {"f16", "bf16", "f32", "f64"}
# Value ranges of the integer attribute types generated ("" is an untyped i64).
INT_ATTR_RANGES = {
    "i8": (-2**7, 2**7 - 1), "si8": (-2**7, 2**7 - 1), "i16": (-2**15, 2**15 - 1),
    "i32": (-2**31, 2**31 - 1), "ui32": (0, 2**32 - 1), "i64": (-2**63, 2**63 - 1),
    "index": (-2**63, 2**63 - 1), "": (-2**63, 2**63 - 1),
}
# Statically shaped types that a dense constant can have: type -> (shape, element type).
DENSE_TYPES = {
    "tensor<8x16xf16>": ([8, 16], "f16"),
    "tensor<2x3x4xi32>": ([2, 3, 4], "i32"),
    "tensor<16xbf16>": ([16], "bf16"),
    "vector<4xf32>": ([4], "f32"),
    "vector<2x4xf16>": ([2, 4], "f16"),
}

COMPUTE_OPS = ["gen.add", "gen.mul", "gen.sub", "gen.matmul", "gen.conv", "gen.reduce",
               "gen.cast", "gen.select", "gen.load", "gen.transpose", "gen.concat", "gen.call"]
SINK_OPS = ["gen.store", "gen.print", "gen.assert", "gen.barrier"]
ATTR_KEYS = ["axis", "mode", "scale", "alpha", "beta", "name", "layout", "perm", "pad",
             "stride", "groups", "kind", "tile", "flags", "weights", "callee", "shape",
             "dtype", "epsilon", "count", "meta", "options", "bias", "table"]
WORDS = ["relu", "nhwc", "fast", "exact", "tile", "warp", "block", "sum", "max", "x", "w"]
STRING_PIECES = ["", "\\22quoted\\22", "tab\\09sep", "new\\0Aline", "back\\\\slash",
                 "h\u00e9llo", "\u2713", "\\00\\FF", "sp ace"]
FILES = ["model.py", "layers/attention.py", "ops.cc"]

MAX_DEPTH = 4  # region nesting inside a function body


class Generator:
    """Writes one module; `count` is the number of ops written so far."""

    def __init__(self, seed):
        self.rng = Random(seed)
        self.out = []
        self.count = 0
        self.next_value = 0
        self.next_func = 0

    # ----------------------------------------------------------------- values

    def new_name(self):
        """A fresh result name; block arguments reuse its number with another prefix."""
        self.next_value += 1
        return "%v" + str(self.next_value)

    def pick(self, scope):
        """Picks a visible value (name, type). `scope` is a list of frames,
        innermost last; each frame is a list of (name, type) in definition
        order. Prefers the innermost frame and recent values."""
        rng = self.rng
        frame = scope[-1]
        if not frame or rng.random() < 0.3:
            frame = rng.choice([f for f in scope if f])
        return frame[-1 - int(rng.random() ** 3 * len(frame))]

    def pick_typed(self, scope, ty):
        """A visible value of type `ty`, or None."""
        for frame in reversed(scope):
            for name, vty in reversed(frame):
                if vty == ty:
                    return name
        return None

    # ------------------------------------------------------------- attributes

    def int_attr(self):
        """An integer attribute: untyped (i64) or typed, small or extreme."""
        rng = self.rng
        ty = rng.choice(["i8", "i16", "i32", "i64", "index", "si8", "ui32", ""])
        lo, hi = INT_ATTR_RANGES[ty]
        v = rng.choice([0, 1, lo, hi, rng.randint(-100, 100) if lo < 0 else rng.randint(0, 100),
                        rng.randint(lo, hi)])
        return str(v) + (" : " + ty if ty else "")

    def float_literal(self):
        """A float literal MLIR accepts (it always contains a '.')."""
        rng = self.rng
        x = rng.choice([0.0, 1.0, -2.5, 0.1, rng.uniform(-10, 10), rng.uniform(-1e6, 1e6),
                        rng.uniform(-1e-6, 1e-6), float(rng.randint(1, 10**8))])
        if rng.random() < 0.5:
            return "%.*f" % (rng.randint(1, 9), x)
        return "%.*e" % (rng.randint(1, 12), x)

    def float_attr(self):
        rng = self.rng
        ty = rng.choice(["f16", "bf16", "f32", "f64", ""])
        if rng.random() < 0.05:
            lit = {"f16": "0x7E00", "bf16": "0x7FC0", "f32": "0x7FC00000",
                   "f64": "0x7FF8000000000000", "": "0x7FF0000000000000"}[ty]
            return lit + " : " + (ty or "f64")
        return self.float_literal() + (" : " + ty if ty else "")

    def string_attr(self):
        rng = self.rng
        s = rng.choice(WORDS) + rng.choice(STRING_PIECES) + str(rng.randint(0, 99))
        return '"' + s + '"'

    def dense_attr(self, ty=None):
        rng = self.rng
        if ty is None:
            ty = rng.choice(list(DENSE_TYPES))
        shape, elt = DENSE_TYPES[ty]
        is_float = elt in FLOAT_TYPES
        if rng.random() < 0.5:
            value = "%.1f" % rng.randint(-8, 8) if is_float else str(rng.randint(-8, 8))
            return "dense<" + value + "> : " + ty

        def nested(dims):
            if not dims:
                if is_float:
                    return "%.2f" % rng.uniform(-4, 4)
                return str(rng.randint(-100, 100))
            return "[" + ", ".join(nested(dims[1:]) for _ in range(dims[0])) + "]"

        return "dense<" + nested(shape) + "> : " + ty

    def attr(self, depth=0):
        """A random attribute value; containers nest up to depth 2."""
        rng = self.rng
        r = rng.random()
        if r < 0.22:
            return self.int_attr()
        if r < 0.36:
            return self.float_attr()
        if r < 0.48:
            return self.string_attr()
        if r < 0.53:
            return rng.choice(["true", "false", "unit"])
        if r < 0.60:
            return rng.choice(ALL_TYPES)
        if r < 0.66:
            n = rng.randint(0, 9)
            return rng.choice(["@f%d", "@kernels::@f%d", '@"sym with space %d"']) % n
        if r < 0.74:
            elt = rng.choice(["i64", "i32", "i1", "f32"])
            n = rng.randint(0, 5)
            if elt == "i1":
                vals = [rng.choice(["true", "false"]) for _ in range(n)]
            elif elt == "f32":
                vals = ["%.2f" % rng.uniform(-5, 5) for _ in range(n)]
            else:
                vals = [str(rng.randint(-64, 64)) for _ in range(n)]
            return "array<" + elt + (": " + ", ".join(vals) if vals else "") + ">"
        if r < 0.82:
            return self.dense_attr()
        if r < 0.86:
            return rng.choice(['#gen.layout<nhwc>', '#gen.kind<"x", [1, 2]>', "#gen.flag",
                               '#gen<"opaque body">', "#gen.range<0, ?>"])
        if depth >= 2:
            return self.int_attr()
        if r < 0.93:
            return "[" + ", ".join(self.attr(depth + 1) for _ in range(rng.randint(0, 4))) + "]"
        return self.attr_dict(rng.randint(0, 3), depth + 1)

    def attr_dict(self, n, depth=0):
        """`{k = v, ...}` with n distinct keys (unit values print as a bare key)."""
        entries = []
        for key in self.rng.sample(ATTR_KEYS, n):
            value = self.attr(depth)
            entries.append(key if value == "unit" else key + " = " + value)
        return "{" + ", ".join(entries) + "}"

    def constant_value(self, ty):
        """A `value` attribute whose type agrees with `ty` where that is easy."""
        rng = self.rng
        if ty in INT_TYPES:
            if ty == "i1":
                return rng.choice(["true", "false"])
            bits = INT_TYPES[ty]
            return str(rng.randint(-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)) + " : " + ty
        if ty in FLOAT_TYPES:
            return self.float_literal() + " : " + ty
        if ty in DENSE_TYPES:
            return self.dense_attr(ty)
        return '#gen.const<"' + ty.replace('"', "") + '">'

    def loc(self):
        """An optional trailing location, on roughly one op in five."""
        rng = self.rng
        r = rng.random()
        if r < 0.8:
            return ""
        file_loc = '"%s":%d:%d' % (rng.choice(FILES), rng.randint(1, 2000), rng.randint(1, 80))
        if r < 0.9:
            return " loc(" + file_loc + ")"
        if r < 0.95:
            return ' loc("%s%d"(%s))' % (rng.choice(WORDS), rng.randint(0, 9), file_loc)
        if r < 0.98:
            return ' loc(callsite("%s" at %s))' % (rng.choice(WORDS), file_loc)
        return ' loc(fused<"gen.fuse">["%s", %s])' % (rng.choice(WORDS), file_loc)

    def op_attrs(self):
        """Properties and discardable attributes, each present on some ops."""
        rng = self.rng
        props = " <" + self.attr_dict(rng.randint(1, 3)) + ">" if rng.random() < 0.35 else ""
        attrs = " " + self.attr_dict(rng.randint(1, 3)) if rng.random() < 0.3 else ""
        return props, attrs

    # -------------------------------------------------------------------- ops

    def emit(self, indent, text):
        """Writes a line that starts an op, and counts the op."""
        self.out.append(indent + text)
        self.count += 1

    def simple_op(self, scope, indent):
        """A compute op, a constant or a result-less op; returns its results."""
        rng = self.rng
        r = rng.random()
        props, attrs = self.op_attrs()
        if r < 0.15:
            ty = rng.choice(ALL_TYPES)
            name = self.new_name()
            self.emit(indent, '%s = "gen.constant"() <{value = %s}>%s : () -> %s%s'
                      % (name, self.constant_value(ty), attrs, ty, self.loc()))
            return [(name, ty)]
        operands = [self.pick(scope) for _ in range(rng.randint(1, 3))]
        operand_list = ", ".join(v for v, _ in operands)
        operand_types = ", ".join(t for _, t in operands)
        if r < 0.22:
            self.emit(indent, '"%s"(%s)%s%s : (%s) -> ()%s'
                      % (rng.choice(SINK_OPS), operand_list, props, attrs, operand_types, self.loc()))
            return []
        n_results = 1 if rng.random() < 0.85 else rng.randint(2, 4)
        result_types = [operands[0][1] if rng.random() < 0.5 else rng.choice(ALL_TYPES)
                        for _ in range(n_results)]
        name = self.new_name()
        if n_results == 1:
            results = [(name, result_types[0])]
            lhs, rhs = name, result_types[0]
        else:
            results = [(name + "#" + str(i), t) for i, t in enumerate(result_types)]
            lhs, rhs = "%s:%d" % (name, n_results), "(" + ", ".join(result_types) + ")"
        self.emit(indent, '%s = "%s"(%s)%s%s : (%s) -> %s%s'
                  % (lhs, rng.choice(COMPUTE_OPS), operand_list, props, attrs, operand_types,
                     rhs, self.loc()))
        return results

    def region_op(self, scope, indent, depth, budget):
        """An op with one or two regions, each a single block ending in
        gen.yield; returns its results."""
        rng = self.rng
        kind = rng.choice(["gen.loop", "gen.if", "gen.parallel"])
        # Each region is (block arguments, types its gen.yield returns). Block
        # arguments are named after the op's result number, reserved here.
        number = str(self.next_value + 1)
        if kind == "gen.if":
            cond = self.pick_typed(scope, "i1")
            operands = [(cond, "i1")] if cond else []
            result_types = [rng.choice(ALL_TYPES) for _ in range(rng.randint(0, 2))]
            regions = [([], result_types), ([], result_types)]
        elif kind == "gen.loop":
            # Loop-carried values: the operands come back as block arguments
            # after the induction variable and are yielded as the results.
            operands = [self.pick(scope) for _ in range(rng.randint(0, 2))]
            result_types = [t for _, t in operands]
            args = [("%i" + number, "index")]
            args += [("%a" + number + "_" + str(k), t) for k, t in enumerate(result_types)]
            regions = [(args, result_types)]
        else:
            operands = [self.pick(scope) for _ in range(rng.randint(0, 2))]
            result_types = []
            args = [("%i" + number + "_" + str(k), "index") for k in range(rng.randint(1, 3))]
            regions = [(args, [])]
        name = self.new_name()
        if len(result_types) == 0:
            lhs = ""
            results = []
        elif len(result_types) == 1:
            lhs = name + " = "
            results = [(name, result_types[0])]
        else:
            lhs = "%s:%d = " % (name, len(result_types))
            results = [(name + "#" + str(i), t) for i, t in enumerate(result_types)]
        props, attrs = self.op_attrs()
        self.emit(indent, '%s"%s"(%s)%s ({' % (lhs, kind, ", ".join(v for v, _ in operands), props))
        for i, (args, yield_types) in enumerate(regions):
            if i:
                self.out.append(indent + "}, {")
            self.block(scope, indent, depth + 1, args, budget // len(regions), yield_types)
        self.out.append('%s})%s : (%s) -> %s%s'
                        % (indent, attrs, ", ".join(t for _, t in operands),
                           self.type_list(result_types), self.loc()))
        return results

    @staticmethod
    def type_list(types):
        """Result types as written after `->`: one bare type, else a list."""
        if len(types) == 1 and not types[0].startswith("("):
            return types[0]
        return "(" + ", ".join(types) + ")"

    def block_ops(self, scope, indent, depth, budget):
        """Ops of one block (without terminator) into the innermost frame."""
        rng = self.rng
        frame = scope[-1]
        start = self.count
        while self.count - start < budget:
            left = budget - (self.count - start)
            if depth < MAX_DEPTH and left > 6 and rng.random() < 0.08:
                frame.extend(self.region_op(scope, indent, depth, rng.randint(3, min(left, 60))))
            else:
                frame.extend(self.simple_op(scope, indent))

    def block(self, scope, indent, depth, args, budget, yield_types):
        """One single-block region body: a `^bb0` header when it has arguments
        (and on a few blocks without), ops, and a gen.yield of `yield_types`."""
        inner = indent + "  "
        if args or self.rng.random() < 0.1:
            header = ", ".join("%s: %s%s" % (n, t, self.arg_loc()) for n, t in args)
            self.out.append(indent + "^bb0" + ("(" + header + ")" if args else "") + ":")
        frame = list(args)
        scope = scope + [frame]
        self.block_ops(scope, inner, depth, max(budget - 1, 1))
        self.terminate(frame, scope, inner, "gen.yield", yield_types)

    def arg_loc(self):
        """An optional block-argument location, on one argument in ten."""
        return ' loc("%s":%d:1)' % (self.rng.choice(FILES), self.rng.randint(1, 999)) \
            if self.rng.random() < 0.1 else ""

    def function(self, indent, budget):
        """A gen.func: one block, or an entry block branching to more blocks.
        Non-entry blocks only use values of the entry block and their own
        (the entry block dominates every block)."""
        rng = self.rng
        self.next_func += 1
        arg_types = [rng.choice(ALL_TYPES) for _ in range(rng.randint(1, 4))]
        if "i1" not in arg_types:
            arg_types.append("i1")
        result_types = [rng.choice(arg_types) for _ in range(rng.randint(0, 2))]
        args = [("%arg" + str(self.next_func) + "_" + str(k), t) for k, t in enumerate(arg_types)]
        fn_type = "(" + ", ".join(arg_types) + ") -> " + self.type_list(result_types)
        visibility = ', sym_visibility = "private"' if rng.random() < 0.2 else ""
        self.emit(indent, '"gen.func"() <{function_type = %s, sym_name = "f%d"%s}> ({'
                  % (fn_type, self.next_func, visibility))
        inner = indent + "  "
        self.out.append(indent + "^bb0(" + ", ".join("%s: %s" % a for a in args) + "):")
        entry = list(args)
        n_blocks = 1 if budget < 40 or rng.random() < 0.6 else rng.randint(2, 5)
        per_block = max(budget // n_blocks, 2)
        self.block_ops([entry], inner, 1, per_block - 1)
        if n_blocks == 1:
            self.terminate(entry, [entry], inner, "gen.return", result_types)
        else:
            # Block i > 0 takes arguments of some function-argument types.
            block_args = [[rng.choice(arg_types) for _ in range(rng.randint(0, 2))]
                          for _ in range(n_blocks)]
            cond = args[arg_types.index("i1")][0]
            self.branch([entry], inner, [1, rng.randint(1, n_blocks - 1)], block_args, cond)
            for b in range(1, n_blocks):
                params = [("%%b%d_%d_%d" % (self.next_func, b, k), t)
                          for k, t in enumerate(block_args[b])]
                header = "(" + ", ".join("%s: %s" % p for p in params) + ")" if params else ""
                self.out.append("%s^bb%d%s:" % (indent, b, header))
                frame = list(params)
                scope = [entry, frame]
                self.block_ops(scope, inner, 1, per_block - 1)
                if b == n_blocks - 1:
                    self.terminate(frame, scope, inner, "gen.return", result_types)
                else:
                    targets = [b + 1] if rng.random() < 0.6 else [b + 1, rng.randint(1, n_blocks - 1)]
                    self.branch(scope, inner, targets, block_args, cond)
        self.out.append(indent + "}) : () -> ()" + self.loc())

    def terminate(self, frame, scope, indent, terminator, types):
        """The block's terminator, returning visible values of `types`; a
        gen.undef supplies a value of a type that is not visible."""
        values = []
        for ty in types:
            v = self.pick_typed(scope, ty)
            if v is None:
                v = self.new_name()
                self.emit(indent, '%s = "gen.undef"() : () -> %s' % (v, ty))
                frame.append((v, ty))
            values.append(v)
        self.emit(indent, '"%s"(%s) : (%s) -> ()' % (terminator, ", ".join(values), ", ".join(types)))

    def branch(self, scope, indent, targets, block_args, cond):
        """`gen.br` (one target) or `gen.cond_br` (two): operands are the
        condition, then the arguments of each target in order."""
        operands = [] if len(targets) == 1 else [(cond, "i1")]
        for t in targets:
            for ty in block_args[t]:
                operands.append((self.pick_typed(scope, ty), ty))
        op = "gen.br" if len(targets) == 1 else "gen.cond_br"
        self.emit(indent, '"%s"(%s)[%s] : (%s) -> ()'
                  % (op, ", ".join(v for v, _ in operands), ", ".join("^bb%d" % t for t in targets),
                     ", ".join(t for _, t in operands)))

    def module(self, n_ops):
        self.emit("", '"builtin.module"() <{sym_name = "generated"}> ({')
        while self.count < n_ops:
            self.function("  ", min(self.rng.randint(20, 400), max(n_ops - self.count, 20)))
        self.out.append('}) {gen.ops = %d : i64} : () -> ()' % self.count)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, required=True, help="minimum number of operations")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("-o", "--output", help="output file (default: stdout)")
    args = parser.parse_args()
    gen = Generator(args.seed)
    gen.module(args.ops)
    text = "// Generated by scripts/gen-module.py --ops %d --seed %d\n" % (args.ops, args.seed) \
        + "\n".join(gen.out) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
