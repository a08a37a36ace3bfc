#!/usr/bin/env python3
"""Lists the op types each ONNX backend node test uses.

Run with the venv made by scripts/setup-onnx:

    .local/onnx-venv/bin/python scripts/onnx-node-tests-ops.py [NODE_TEST_DIR] > ops.tsv

NODE_TEST_DIR defaults to .local/onnx-node-tests (onnx/backend/test/data/node).
Prints one TSV line per test folder, sorted by name:

    test_name <TAB> op_types <TAB> opset

op_types is the sorted, comma-separated set of op types in the model, including the
ops inside subgraphs (If/Loop/Scan bodies); ops outside the default domain are
written `domain:OpType`. opset is the version imported for the default domain
(`ai.onnx`), or `-` when the model imports none. A test whose model cannot be
loaded gets `ERROR` and a message on stderr.
"""

import os
import sys

import onnx

DEFAULT_DOMAINS = ("", "ai.onnx")


def graph_ops(graph, ops):
    for node in graph.node:
        domain = "" if node.domain in DEFAULT_DOMAINS else node.domain
        ops.add(f"{domain}:{node.op_type}" if domain else node.op_type)
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                graph_ops(attr.g, ops)
            elif attr.type == onnx.AttributeProto.GRAPHS:
                for g in attr.graphs:
                    graph_ops(g, ops)
    return ops


def main(argv):
    root = argv[1] if len(argv) > 1 else ".local/onnx-node-tests"
    if not os.path.isdir(root):
        sys.exit(f"{argv[0]}: no such directory: {root} (run scripts/setup-onnx)")
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "model.onnx")
        if not os.path.isfile(path):
            continue
        try:
            model = onnx.load(path, load_external_data=False)
        except Exception as e:  # noqa: BLE001 - report and go on
            print(f"{name}: {e}", file=sys.stderr)
            print(f"{name}\tERROR\t-")
            continue
        ops = sorted(graph_ops(model.graph, set()))
        opset = next((str(o.version) for o in model.opset_import if o.domain in DEFAULT_DOMAINS), "-")
        print(f"{name}\t{','.join(ops)}\t{opset}")


if __name__ == "__main__":
    main(sys.argv)
