#!/usr/bin/env python3
"""
Tiny random-weight models of the audio products (stem separation) in the exact layouts sherpa-onnx loads, for
Voxdesk's tests.

    /usr/bin/python3 scripts/tiny-models/make_tiny_product_models.py OUT_DIR [NAME ...]

writes OUT_DIR/<name>/ for each model named (all when none is). Deterministic, like make_tiny_models.py (tests cache
the output by this file's hash: test/helpers/generated-models.ts). What is real is the file format: the input and
output names, shapes, element types and metadata keys the sherpa-onnx C library reads (sources cited beside each
model), so its loading, STFT, model run and inverse STFT are exercised; the stems the random weights give mean
nothing. Needs Debian's python3-onnx and python3-numpy only.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]
IR_VERSION = 8


def save(graph, path, metadata):
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="voxdesk-tiny-models")
    model.ir_version = IR_VERSION
    for key, value in metadata.items():
        entry = model.metadata_props.add()
        entry.key = key
        entry.value = str(value)
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


# ---------------------------------------------------------------------------------------------------------------------
# Spleeter 2 stems (sherpa-onnx/csrc/offline-source-separation-spleeter-model.cc and -spleeter-impl.h;
# scripts/spleeter/export_onnx.py): two files, vocals.onnx and accompaniment.onnx, each taking the magnitude
# spectrogram x [2 channels, num_splits, 512 frames, 1024 bins] and giving an estimate y of the same shape. The vocals
# file's metadata must say model_type=spleeter and stems=2 (sherpa-onnx exits the process otherwise); the STFT
# (n_fft 4096, hop 1024, hann, not centred, 44.1 kHz) is fixed in the library. Here each bin's estimate is the input
# scaled by a random per-bin gain in (0, 1), a different gain per stem.
# ---------------------------------------------------------------------------------------------------------------------


def spleeter_stem(path, seed, stem):
    gain = (1 / (1 + np.exp(-np.random.default_rng(seed).standard_normal(1024)))).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Mul", ["x", "gain"], ["y"])],
        f"spleeter_{stem}",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, "num_splits", 512, 1024])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, "num_splits", 512, 1024])],
        [numpy_helper.from_array(gain, "gain")],
    )
    meta = {
        "model_type": "spleeter",
        "sample_rate": 44100,
        "version": "1",
        "model_url": "voxdesk tiny random-weight test model",
        "stems": 2,
        "comment": f"tiny test model in the layout of sherpa-onnx-spleeter-2stems ({stem})",
        "model_name": "2stems.tar.gz",
    }
    save(graph, path, meta)


def spleeter_2stems(out):
    spleeter_stem(os.path.join(out, "vocals.onnx"), 11, "vocals")
    spleeter_stem(os.path.join(out, "accompaniment.onnx"), 12, "accompaniment")


# ---------------------------------------------------------------------------------------------------------------------
# UVR MDX-Net (sherpa-onnx/csrc/offline-source-separation-uvr-model.cc and -uvr-impl.h;
# scripts/uvr_mdx/add_meta_data_and_quantize.py): one file taking the complex spectrogram of both channels
# x [N, dim_c = 4 (real/imag of 2 channels), dim_f bins, dim_t frames] and giving the vocals' spectrogram of the same
# shape; the accompaniment is the input minus the vocals. The metadata keys are those the library reads. The real
# models have dim_f 2048 or 3072, dim_t 256 and n_fft = 2 * dim_f; this one keeps the relation n_fft = 2 * dim_f
# (and hop < n_fft) at a small size: a random per-bin gain in (0, 1).
# ---------------------------------------------------------------------------------------------------------------------


def uvr_mdx(out):
    dim_c, dim_f, dim_t = 4, 256, 32
    gain = (1 / (1 + np.exp(-np.random.default_rng(21).standard_normal((dim_f, 1))))).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Mul", ["input", "gain"], ["output"])],
        "uvr_mdx",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch_size", dim_c, dim_f, dim_t])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch_size", dim_c, dim_f, dim_t])],
        [numpy_helper.from_array(gain, "gain")],
    )
    meta = {
        "model_type": "UVR",
        "model_name": "UVR-MDX-NET-tiny",
        "sample_rate": 44100,
        "comment": "voxdesk tiny random-weight test model in the layout of sherpa-onnx's UVR-MDX-NET exports",
        "n_fft": dim_f * 2,
        "center": 1,
        "window_type": "hann",
        "win_length": dim_f * 2,
        "hop_length": 128,
        "dim_t": dim_t,
        "dim_f": dim_f,
        "dim_c": dim_c,
        "stems": 2,
    }
    save(graph, os.path.join(out, "UVR-MDX-NET-tiny.onnx"), meta)


MODELS = {
    "spleeter-2stems": spleeter_2stems,
    "uvr-mdx": uvr_mdx,
}


def main(argv):
    if len(argv) < 2:
        sys.exit(f"usage: {argv[0]} OUT_DIR [{' | '.join(MODELS)} ...]")
    out = argv[1]
    names = argv[2:] or list(MODELS)
    for name in names:
        if name not in MODELS:
            sys.exit(f"unknown model {name}; known: {', '.join(MODELS)}")
        MODELS[name](os.path.join(out, name))


if __name__ == "__main__":
    main(sys.argv)
