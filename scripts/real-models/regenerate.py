#!/usr/bin/env python3
"""Rebuilds a stored real model's weights from their seed.

usage: regenerate.py MODEL_DIR OUT.onnx

MODEL_DIR (a directory of test/models/) holds `model.onnx`, whose large
float initializers have a name, a type and a shape but no values, and
`weights.json`, which says how to make them again: for each such
initializer the mean and standard deviation of the values the exporter
wrote (torch's initialization of the architecture), filled back in as
mean + std * N(0, 1) from NumPy's generator seeded with [seed, crc32(name)],
so each tensor's values depend on its name and the seed only. A tensor whose
values were all the same (a normalization's ones, a bias's zeros) comes back
exactly. The SHA-256 of the values made is checked against the one recorded
when the model was exported, so that a NumPy that draws differently is an
error here, not a wrong result in the tests. Writes OUT.onnx, and copies
the inputs and onnxruntime's outputs (`input_<i>.npy`, `output_<i>.npy`)
beside it, so that its directory runs on its own (`strata run`,
scripts/bench/eager.py).

scripts/real-models/export.py writes these directories;
test/tests/real_models.rs runs this script (with the venv of
scripts/setup-onnx) before it runs each model.
"""
import hashlib
import json
import os
import shutil
import sys
import zlib

import numpy as np
import onnx
from onnx import numpy_helper


def values(spec, seed):
    """The values of one stripped initializer, as export.py recorded it."""
    shape = tuple(spec["shape"])
    dtype = np.dtype(spec["dtype"])
    if spec["std"] == 0.0:
        return np.full(shape, spec["mean"], dtype=dtype)
    rng = np.random.default_rng([seed, zlib.crc32(spec["name"].encode())])
    drawn = rng.standard_normal(shape, dtype=np.float64)
    return (spec["mean"] + spec["std"] * drawn).astype(dtype)


def fill(model, specs):
    """Fills the stripped initializers of `model` in place; returns the digest."""
    seed = specs["seed"]
    made = {s["name"]: values(s, seed) for s in specs["tensors"]}
    digest = hashlib.sha256()
    for spec in specs["tensors"]:
        digest.update(made[spec["name"]].tobytes())
    for i, t in enumerate(model.graph.initializer):
        if t.name in made:
            model.graph.initializer[i].CopyFrom(numpy_helper.from_array(made[t.name], t.name))
    return digest.hexdigest()


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    directory, out = argv[1], argv[2]
    try:
        model = onnx.load(os.path.join(directory, "model.onnx"), load_external_data=False)
        with open(os.path.join(directory, "weights.json")) as f:
            specs = json.load(f)
    except (OSError, ValueError, onnx.onnx_cpp2py_export.checker.ValidationError) as e:
        print(f"regenerate.py: {directory}: {e}", file=sys.stderr)
        return 1
    digest = fill(model, specs)
    if digest != specs["sha256"]:
        print(
            f"regenerate.py: {directory}: the weights made here (sha256 {digest}) are not those "
            f"recorded at export ({specs['sha256']}): this NumPy draws differently",
            file=sys.stderr,
        )
        return 1
    out_dir = os.path.dirname(os.path.abspath(out))
    os.makedirs(out_dir, exist_ok=True)
    onnx.save(model, out)
    for name in sorted(os.listdir(directory)):
        if name.endswith(".npy") and name.startswith(("input_", "output_")):
            shutil.copyfile(os.path.join(directory, name), os.path.join(out_dir, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
