#!/usr/bin/env python3
"""
Tiny random-weight models of the audio products (stem separation, voice cloning: ZipVoice, Pocket TTS) in the exact layouts sherpa-onnx loads, for
Voxdesk's tests.

    /usr/bin/python3 scripts/tiny-models/make_tiny_product_models.py OUT_DIR [NAME ...]

writes OUT_DIR/<name>/ for each model named (all when none is). Deterministic, like make_tiny_models.py (tests cache
the output by this file's hash: test/helpers/generated-models.ts). What is real is the file format: the input and
output names, shapes, element types and metadata keys the sherpa-onnx C library reads (sources cited beside each
model), so its loading, STFT, model run and inverse STFT are exercised; the stems the random weights give mean
nothing. Needs Debian's python3-onnx and python3-numpy only.
"""
import json
import os
import shutil
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


# ---------------------------------------------------------------------------------------------------------------------
# ZipVoice (distill), the layout of sherpa-onnx-zipvoice-distill-int8-zh-en-emilia.tar.bz2 plus vocos_24khz.onnx from
# the vocoder-models release (sherpa-onnx/csrc/offline-tts-zipvoice-model.cc, offline-tts-zipvoice-impl.h,
# offline-tts-zipvoice-model-meta-data.h, vocos-vocoder.cc, vocoder.cc, matcha-tts-lexicon.cc):
# - encoder.int8.onnx: tokens int64 [1, N], prompt_tokens int64 [1, M], prompt_features_len int64 [1], speed float [1]
#   -> text_condition float [1, T, feat_dim], where T counts the prompt's frames and the new ones; metadata use_espeak.
# - decoder.int8.onnx: t float [1], x, text_condition, speech_condition float [1, T, feat_dim], guidance_scale float
#   [1] -> v float [1, T, feat_dim] (the flow-matching velocity); metadata version, feat_dim, sample_rate, n_fft,
#   hop_length, window_length, num_mels, which the library's mel frontend and frame count use.
# - vocos_24khz.onnx: mels float [1, num_mels, T] -> mag, x, y float [1, n_fft / 2 + 1, T] (the library runs the
#   inverse STFT); metadata model_type vocos and the STFT settings.
# - tokens.txt (a " " token is required), lexicon.txt (Chinese characters; English goes through espeak-ng) and
#   espeak-ng-data/ (copied from ../shared/models/tiny/tiny-kokoro, the English subset).
# Here the encoder makes 6 frames a token (divided by speed) and the decoder's velocity moves x towards a mix of the
# text and prompt conditions; the vocoder gives random phases of a magnitude that follows the mel.
# ---------------------------------------------------------------------------------------------------------------------

ZIPVOICE_SYMBOLS = [" ", "!", "'", ",", "-", ".", "?", ":", ";"] + list("abcdefghijklmnopqrstuvwxyz") + list(
    "\u0251\u0250\u0252\u00e6\u0253\u0299\u03b2\u0254\u0255\u00e7\u0257\u0256\u00f0\u02a4\u0259\u0258\u025a\u025b\u025c\u025d\u025e\u025f\u0284\u0261\u0260\u0262\u029b\u0266\u0267\u0127\u0265\u029c\u0268\u026a\u029d\u026d\u026c\u026b\u026e\u029f\u0271\u026f\u0270\u014b\u0273\u0272\u0274\u00f8\u0275\u0278\u03b8\u0153\u0276\u0298\u0279\u027a\u027e\u027b\u0280\u0281\u027d\u0282\u0283\u0288\u02a7\u0289\u028a\u028b\u2c71\u028c\u0263\u0264\u028d\u03c7\u028e\u028f\u0291\u0290\u0292\u0294\u02a1\u0295\u02a2\u01c0\u01c1\u01c2\u01c3\u02c8\u02cc\u02d0\u02d1\u02bc\u02b4\u02b0\u02b1\u02b2\u02b7\u02e0\u02e4\u02de\u2193\u2191\u2192\u2197\u2198\u1d7b"
) + ["n", "i3", "h", "ao3", "sh", "ir4", "j", "ie4"]
ZIPVOICE_LEXICON = {"你": "n i3", "好": "h ao3", "世": "sh ir4", "界": "j ie4"}
TINY_ESPEAK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "models", "tiny", "tiny-kokoro", "espeak-ng-data")


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def zipvoice(out):
    feat, frames_per_token, n_fft, hop = 100, 6.0, 1024, 256
    f32 = lambda v: np.array(v, dtype=np.float32)
    i64 = lambda v: np.array(v, dtype=np.int64)
    r = np.random.default_rng(31)
    encoder = helper.make_graph(
        [
            helper.make_node("Shape", ["tokens"], ["shape"]),
            helper.make_node("Gather", ["shape", "one_i"], ["n_i"], axis=0),
            helper.make_node("Cast", ["n_i"], ["n"], to=TensorProto.FLOAT),
            helper.make_node("Squeeze", ["speed"], ["speed_s"]),
            helper.make_node("Mul", ["n", "frames_per_token"], ["frames_at_1"]),
            helper.make_node("Div", ["frames_at_1", "speed_s"], ["frames_f"]),
            helper.make_node("Ceil", ["frames_f"], ["frames_c"]),
            helper.make_node("Cast", ["frames_c"], ["frames"], to=TensorProto.INT64),
            helper.make_node("Squeeze", ["prompt_features_len"], ["prompt_len"]),
            helper.make_node("Add", ["prompt_len", "frames"], ["total"]),
            helper.make_node("Unsqueeze", ["total", "axis0"], ["total_1"]),
            helper.make_node("Concat", ["one_1", "total_1", "feat_1"], ["out_shape"], axis=0),
            helper.make_node("Cast", ["tokens"], ["tokens_f"], to=TensorProto.FLOAT),
            helper.make_node("ReduceMean", ["tokens_f"], ["token_mean"], keepdims=0),
            helper.make_node("Mul", ["token_mean", "token_gain"], ["shift"]),
            helper.make_node("Add", ["condition", "shift"], ["condition_shifted"]),
            helper.make_node("Expand", ["condition_shifted", "out_shape"], ["text_condition"]),
        ],
        "tiny_zipvoice_encoder",
        [
            helper.make_tensor_value_info("tokens", TensorProto.INT64, [1, "N"]),
            helper.make_tensor_value_info("prompt_tokens", TensorProto.INT64, [1, "M"]),
            helper.make_tensor_value_info("prompt_features_len", TensorProto.INT64, [1]),
            helper.make_tensor_value_info("speed", TensorProto.FLOAT, [1]),
        ],
        [helper.make_tensor_value_info("text_condition", TensorProto.FLOAT, [1, "T", feat])],
        [
            const("one_i", i64(1)),
            const("axis0", i64([0])),
            const("one_1", i64([1])),
            const("feat_1", i64([feat])),
            const("frames_per_token", f32(frames_per_token)),
            const("token_gain", f32(0.001)),
            const("condition", (r.standard_normal((1, 1, feat)) * 0.5 - 4.0).astype(np.float32)),
        ],
    )
    save(encoder, os.path.join(out, "encoder.int8.onnx"), {"use_espeak": 1, "comment": "tiny random-weight test model in the layout of ZipVoice-Distill's encoder"})
    decoder = helper.make_graph(
        [
            helper.make_node("Mul", ["speech_condition", "half"], ["speech_half"]),
            helper.make_node("Add", ["text_condition", "speech_half"], ["target"]),
            helper.make_node("Sub", ["target", "x"], ["delta"]),
            helper.make_node("Mul", ["delta", "guidance_scale"], ["v"]),
        ],
        "tiny_zipvoice_decoder",
        [
            helper.make_tensor_value_info("t", TensorProto.FLOAT, [1]),
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "T", feat]),
            helper.make_tensor_value_info("text_condition", TensorProto.FLOAT, [1, "T", feat]),
            helper.make_tensor_value_info("speech_condition", TensorProto.FLOAT, [1, "T", feat]),
            helper.make_tensor_value_info("guidance_scale", TensorProto.FLOAT, [1]),
        ],
        [helper.make_tensor_value_info("v", TensorProto.FLOAT, [1, "T", feat])],
        [const("half", f32(0.5))],
    )
    meta = {"version": 1, "feat_dim": feat, "sample_rate": 24000, "n_fft": n_fft, "hop_length": hop, "window_length": n_fft, "num_mels": feat,
            "comment": "tiny random-weight test model in the layout of ZipVoice-Distill's decoder"}
    save(decoder, os.path.join(out, "decoder.int8.onnx"), meta)
    bins = n_fft // 2 + 1
    vocoder = helper.make_graph(
        [
            helper.make_node("Transpose", ["mels"], ["mels_t"], perm=[0, 2, 1]),
            helper.make_node("MatMul", ["mels_t", "weight"], ["hidden_t"]),
            helper.make_node("Transpose", ["hidden_t"], ["hidden"], perm=[0, 2, 1]),
            helper.make_node("Mul", ["hidden", "mag_gain"], ["mag_log"]),
            helper.make_node("Clip", ["mag_log", "low", "high"], ["mag_clipped"]),
            helper.make_node("Exp", ["mag_clipped"], ["mag"]),
            helper.make_node("Cos", ["hidden"], ["x"]),
            helper.make_node("Sin", ["hidden"], ["y"]),
        ],
        "tiny_vocos",
        [helper.make_tensor_value_info("mels", TensorProto.FLOAT, [1, feat, "T"])],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, bins, "T"]) for n in ("mag", "x", "y")],
        [
            const("weight", (r.standard_normal((feat, bins)) * 0.1).astype(np.float32)),
            const("mag_gain", f32(0.1)),
            const("low", f32(-8.0)),
            const("high", f32(-1.0)),
        ],
    )
    save(vocoder, os.path.join(out, "vocos_24khz.onnx"), {"model_type": "vocos", "n_fft": n_fft, "hop_length": hop, "win_length": n_fft, "center": 1, "normalized": 0,
                                                          "window_type": "hann", "pad_mode": "reflect", "comment": "tiny random-weight test model in the layout of vocos_24khz.onnx"})
    with open(os.path.join(out, "tokens.txt"), "w", encoding="utf-8") as f:
        for i, sym in enumerate(ZIPVOICE_SYMBOLS):
            f.write(f"{sym} {i}\n")
    with open(os.path.join(out, "lexicon.txt"), "w", encoding="utf-8") as f:
        for word, phones in ZIPVOICE_LEXICON.items():
            f.write(f"{word} {phones}\n")
    shutil.copytree(os.path.normpath(TINY_ESPEAK), os.path.join(out, "espeak-ng-data"))


# ---------------------------------------------------------------------------------------------------------------------
# Pocket TTS, the layout of sherpa-onnx-pocket-tts-int8-2026-01-26.tar.bz2 (sherpa-onnx/csrc/offline-tts-pocket-model.cc,
# offline-tts-pocket-impl.h, sentence-piece-tokenizer.cc). No metadata is read; what counts is the inputs and outputs:
# - text_conditioner.onnx: token ids int64 [1, L] -> text embeddings float [1, L, 1024].
# - encoder.onnx (Mimi encoder): reference audio float [1, 1, N] at 24 kHz -> voice embeddings float [1, T, 1024].
# - lm_main.int8.onnx: seq float [1, S, 32] (NaN for the first frame), embeddings float [1, E, 1024], then its state
#   tensors (zeros of the declared shapes at the start, dynamic dims as 1) -> conditioning, eos logit [1, 1] and the
#   next states in input order. Generation stops a few frames after the eos logit passes -4.
# - lm_flow.int8.onnx: c (the conditioning), s and t float [1, 1], x float [1, 32] -> the flow's velocity [1, 32].
# - decoder.int8.onnx (Mimi decoder): latent float [1, C, 32], then its states -> audio float [1, 1, 1920 C] and the
#   next states.
# - vocab.json {token: id} with the 256 byte tokens <0xNN>, token_scores.json {token: score} (SentencePiece).
# Here lm_main counts the frames made and the context seen in its two states and raises the eos logit once there are
# twice as many frames as context; the decoder makes 80 ms of a tone per frame whose pitch follows the latent.
# ---------------------------------------------------------------------------------------------------------------------

POCKET_WORDS = ["\u2581hello", "\u2581world", "\u2581the", "\u2581this", "\u2581is", "\u2581a", "\u2581test", "\u2581and", "\u2581you"]


def pocket(out):
    dim, latent, hop = 1024, 32, 1920
    f32 = lambda v: np.array(v, dtype=np.float32)
    i64 = lambda v: np.array(v, dtype=np.int64)
    r = np.random.default_rng(41)
    conditioner = helper.make_graph(
        [
            helper.make_node("Cast", ["token_ids"], ["ids_f"], to=TensorProto.FLOAT),
            helper.make_node("Unsqueeze", ["ids_f", "axis2"], ["ids_3"]),
            helper.make_node("Mul", ["ids_3", "scale"], ["scaled"]),
            helper.make_node("Sin", ["scaled"], ["embeddings"]),
        ],
        "tiny_pocket_text_conditioner",
        [helper.make_tensor_value_info("token_ids", TensorProto.INT64, [1, "L"])],
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, [1, "L", dim])],
        [const("axis2", i64([2])), const("scale", (r.standard_normal((1, 1, dim)) * 0.1).astype(np.float32))],
    )
    save(conditioner, os.path.join(out, "text_conditioner.onnx"), {"comment": "tiny random-weight test model in the layout of Pocket TTS's text conditioner"})
    encoder = helper.make_graph(
        [
            helper.make_node("ReduceMean", ["audio"], ["mean"], keepdims=1),
            helper.make_node("Mul", ["mean", "weight"], ["weighted"]),
            helper.make_node("Add", ["weighted", "bias"], ["voice"]),
        ],
        "tiny_pocket_mimi_encoder",
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, [1, 1, "N"])],
        [helper.make_tensor_value_info("voice", TensorProto.FLOAT, [1, 1, dim])],
        [const("weight", (r.standard_normal((1, 1, dim))).astype(np.float32)), const("bias", (r.standard_normal((1, 1, dim)) * 0.1).astype(np.float32))],
    )
    save(encoder, os.path.join(out, "encoder.onnx"), {"comment": "tiny random-weight test model in the layout of Pocket TTS's Mimi encoder"})
    lm_main = helper.make_graph(
        [
            helper.make_node("Shape", ["seq"], ["seq_shape"]),
            helper.make_node("Gather", ["seq_shape", "one_i"], ["frames_i"], axis=0),
            helper.make_node("Cast", ["frames_i"], ["frames"], to=TensorProto.FLOAT),
            helper.make_node("Shape", ["embeddings"], ["emb_shape"]),
            helper.make_node("Gather", ["emb_shape", "one_i"], ["context_i"], axis=0),
            helper.make_node("Cast", ["context_i"], ["context"], to=TensorProto.FLOAT),
            helper.make_node("Add", ["state_frames", "frames"], ["next_frames"]),
            helper.make_node("Add", ["state_context", "context"], ["next_context"]),
            helper.make_node("Mul", ["next_context", "two"], ["twice_context"]),
            helper.make_node("Sub", ["next_frames", "twice_context"], ["margin"]),
            helper.make_node("Sub", ["margin", "four"], ["eos_1"]),
            helper.make_node("Reshape", ["eos_1", "shape_11"], ["eos_logit"]),
            helper.make_node("IsNaN", ["seq"], ["nan"]),
            helper.make_node("Where", ["nan", "zero", "seq"], ["seq_clean"]),
            helper.make_node("ReduceSum", ["seq_clean", "axis1"], ["seq_sum"], keepdims=0),
            helper.make_node("Mul", ["next_context", "context_gain"], ["context_shift"]),
            helper.make_node("Add", ["seq_sum", "context_shift"], ["pre"]),
            helper.make_node("Add", ["pre", "bias"], ["pre_b"]),
            helper.make_node("Tanh", ["pre_b"], ["conditioning"]),
        ],
        "tiny_pocket_lm_main",
        [
            helper.make_tensor_value_info("seq", TensorProto.FLOAT, [1, "S", latent]),
            helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, [1, "E", dim]),
            helper.make_tensor_value_info("state_frames", TensorProto.FLOAT, [1]),
            helper.make_tensor_value_info("state_context", TensorProto.FLOAT, [1]),
        ],
        [
            helper.make_tensor_value_info("conditioning", TensorProto.FLOAT, [1, latent]),
            helper.make_tensor_value_info("eos_logit", TensorProto.FLOAT, [1, 1]),
            helper.make_tensor_value_info("next_frames", TensorProto.FLOAT, [1]),
            helper.make_tensor_value_info("next_context", TensorProto.FLOAT, [1]),
        ],
        [
            const("one_i", i64(1)),
            const("two", f32(2.0)),
            const("four", f32(4.0)),
            const("zero", f32(0.0)),
            const("shape_11", i64([1, 1])),
            const("axis1", i64([1])),
            const("context_gain", f32(0.05)),
            const("bias", (r.standard_normal((1, latent)) * 0.5).astype(np.float32)),
        ],
    )
    save(lm_main, os.path.join(out, "lm_main.int8.onnx"), {"comment": "tiny random-weight test model in the layout of Pocket TTS's language model"})
    lm_flow = helper.make_graph(
        [helper.make_node("Sub", ["c", "x"], ["v"])],
        "tiny_pocket_lm_flow",
        [
            helper.make_tensor_value_info("c", TensorProto.FLOAT, [1, latent]),
            helper.make_tensor_value_info("s", TensorProto.FLOAT, [1, 1]),
            helper.make_tensor_value_info("t", TensorProto.FLOAT, [1, 1]),
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, latent]),
        ],
        [helper.make_tensor_value_info("v", TensorProto.FLOAT, [1, latent])],
        [],
    )
    save(lm_flow, os.path.join(out, "lm_flow.int8.onnx"), {"comment": "tiny random-weight test model in the layout of Pocket TTS's flow head"})
    decoder = helper.make_graph(
        [
            helper.make_node("Shape", ["latent"], ["shape"]),
            helper.make_node("Gather", ["shape", "one_i"], ["chunk_i"], axis=0),
            helper.make_node("Cast", ["chunk_i"], ["chunk"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["chunk", "hop"], ["samples"]),
            helper.make_node("Range", ["zero", "samples", "step"], ["t"]),
            helper.make_node("Squeeze", ["state_phase"], ["phase0"]),
            helper.make_node("Add", ["t", "phase0"], ["t_abs"]),
            helper.make_node("ReduceMean", ["latent"], ["latent_mean"], keepdims=0),
            helper.make_node("Mul", ["latent_mean", "latent_gain"], ["shift"]),
            helper.make_node("Add", ["shift", "base_freq"], ["freq"]),
            helper.make_node("Mul", ["t_abs", "freq"], ["arg"]),
            helper.make_node("Sin", ["arg"], ["wave"]),
            helper.make_node("Mul", ["wave", "amplitude"], ["wave_scaled"]),
            helper.make_node("Unsqueeze", ["wave_scaled", "axes01"], ["audio"]),
            helper.make_node("Add", ["state_phase", "samples"], ["next_phase"]),
        ],
        "tiny_pocket_mimi_decoder",
        [helper.make_tensor_value_info("latent", TensorProto.FLOAT, [1, "C", latent]), helper.make_tensor_value_info("state_phase", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, [1, 1, "N"]), helper.make_tensor_value_info("next_phase", TensorProto.FLOAT, [1])],
        [
            const("one_i", i64(1)),
            const("hop", f32(float(hop))),
            const("zero", f32(0.0)),
            const("step", f32(1.0)),
            const("latent_gain", f32(0.01)),
            const("base_freq", f32(0.05)),
            const("amplitude", f32(0.3)),
            const("axes01", i64([0, 1])),
        ],
    )
    save(decoder, os.path.join(out, "decoder.int8.onnx"), {"comment": "tiny random-weight test model in the layout of Pocket TTS's Mimi decoder"})
    vocab = {f"<0x{i:02X}>": i for i in range(256)}
    scores = {f"<0x{i:02X}>": -10.0 for i in range(256)}
    for piece in ["\u2581"] + list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.,!?'") + POCKET_WORDS:
        vocab[piece] = len(vocab)
        scores[piece] = -1.0 if len(piece) > 1 else -5.0
    with open(os.path.join(out, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(out, "token_scores.json"), "w", encoding="utf-8") as f:
        json.dump(scores, f, ensure_ascii=False)


MODELS = {
    "spleeter-2stems": spleeter_2stems,
    "uvr-mdx": uvr_mdx,
    "zipvoice-distill": zipvoice,
    "pocket-tts": pocket,
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
