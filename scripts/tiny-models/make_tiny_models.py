#!/usr/bin/env python3
"""
Tiny random-weight models in the exact layouts sherpa-onnx loads, for Voxdesk's tests.

    python3 scripts/tiny-models/make_tiny_models.py OUT_DIR [NAME ...]

writes OUT_DIR/<name>/ for each model named (all when none is). Everything is deterministic: the same script makes
the same bytes, so tests cache the output by this file's hash (test/helpers/generated-models.ts). What is real is the
file format — each model's input and output names, shapes, element types and metadata are those sherpa-onnx reads
(its sources are cited beside each model) — so the sherpa-onnx code that loads and runs the family is exercised;
the text, labels and audio the weights give mean nothing. The weights are as small as the format allows: the
dimensions that sherpa-onnx reads from the metadata (mel bins, vocabulary, special token ids, layer counts) are the
real model's, the hidden sizes are not. Needs Debian's python3-onnx and python3-numpy only.
"""
import base64
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]
IR_VERSION = 8  # what onnxruntime 1.17+ reads; sherpa-onnx-node 1.13.8 bundles 1.2x


def save(graph, path, metadata=None):
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="voxdesk-tiny-models")
    model.ir_version = IR_VERSION
    for key, value in (metadata or {}).items():
        entry = model.metadata_props.add()
        entry.key = key
        entry.value = str(value)
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------------------------------------------------
# Whisper large-v3-turbo's shape (sherpa-onnx/csrc/offline-whisper-model.cc; scripts/whisper/export-onnx.py): 128 mel
# bins, a 51,866-token vocabulary, the large-v3 special tokens (100 languages, yue last), four decoder layers. The
# encoder turns mel [N, 128, T] into cross-attention keys and values [n_text_layer, N, T/2, state]; the decoder takes
# tokens, the self-attention caches, the cross keys and values and the offset, and gives logits [N, n_tokens, vocab]
# and the caches back. Its logits depend on the tokens and the audio, and end-of-text gains with every position, so
# a few tokens come out and decoding ends.
# ---------------------------------------------------------------------------------------------------------------------

WHISPER_V3_LANGUAGES = (
    "en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr bg lt la mi ml "
    "cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo so af oc ka be tg sd gu am "
    "yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jw su yue"
).split()


def whisper_turbo(out):
    n_mels, n_vocab, n_text_layer, n_text_ctx, state = 128, 51866, 4, 448, 16
    eot, sot = 50257, 50258
    languages = list(range(50259, 50259 + len(WHISPER_V3_LANGUAGES)))
    # large-v3 added yue, so its special tokens sit one above large-v2's.
    translate, transcribe, sot_lm, sot_prev, no_speech, no_timestamps = 50359, 50360, 50361, 50362, 50363, 50364
    assert len(languages) == 100 and languages[-1] == translate - 1
    r = rng(1)

    conv_w = r.standard_normal((state, n_mels, 3)).astype(np.float32) * 0.05
    layer_scale = np.arange(1, n_text_layer + 1, dtype=np.float32).reshape(n_text_layer, 1, 1, 1)
    mel = helper.make_tensor_value_info("mel", TensorProto.FLOAT, ["n_audio", n_mels, "T"])
    cross_k = helper.make_tensor_value_info("n_layer_cross_k", TensorProto.FLOAT, [n_text_layer, "n_audio", "T_audio", state])
    cross_v = helper.make_tensor_value_info("n_layer_cross_v", TensorProto.FLOAT, [n_text_layer, "n_audio", "T_audio", state])
    encoder = helper.make_graph(
        [
            helper.make_node("Conv", ["mel", "conv_w"], ["conv"], strides=[2], pads=[1, 1]),
            helper.make_node("Tanh", ["conv"], ["act"]),
            helper.make_node("Transpose", ["act"], ["frames"], perm=[0, 2, 1]),
            helper.make_node("Unsqueeze", ["frames", "axis0"], ["one_layer"]),
            helper.make_node("Mul", ["one_layer", "layer_scale"], ["n_layer_cross_k"]),
            helper.make_node("Neg", ["n_layer_cross_k"], ["n_layer_cross_v"]),
        ],
        "whisper_turbo_encoder",
        [mel],
        [cross_k, cross_v],
        [const("conv_w", conv_w), const("layer_scale", layer_scale), const("axis0", np.array([0], dtype=np.int64))],
    )
    meta = {
        "model_type": "whisper-large-v3-turbo (tiny random weights)",
        "comment": "voxdesk tiny random-weight test model in the shape of sherpa-onnx-whisper-turbo",
        "version": "1",
        "maintainer": "voxdesk",
        "n_mels": n_mels,
        "n_audio_ctx": 1500,
        "n_audio_state": state,
        "n_audio_head": 1,
        "n_audio_layer": 1,
        "n_vocab": n_vocab,
        "n_text_ctx": n_text_ctx,
        "n_text_state": state,
        "n_text_head": 1,
        "n_text_layer": n_text_layer,
        "sot_sequence": f"{sot},{languages[0]},{transcribe}",
        "all_language_tokens": ",".join(map(str, languages)),
        "all_language_codes": ",".join(WHISPER_V3_LANGUAGES),
        "sot": sot,
        "sot_index": 0,
        "eot": eot,
        "blank_id": 220,
        "is_multilingual": 1,
        "no_speech": no_speech,
        "non_speech_tokens": "",
        "transcribe": transcribe,
        "translate": translate,
        "sot_prev": sot_prev,
        "sot_lm": sot_lm,
        "no_timestamps": no_timestamps,
    }
    save(encoder, os.path.join(out, "turbo-encoder.int8.onnx"), meta)

    # Logits = tanh(sin(token · f) + their mean + mean audio) @ sin(a ⊗ ids) + 0.6 · position on end-of-text, special tokens past
    # end-of-text held down; everything vocabulary-wide is computed at run time (stored, it would be megabytes).
    freq = (r.standard_normal((state,)) * 3).astype(np.float32)
    a = r.standard_normal((state, 1)).astype(np.float32)
    cache_shape = [n_text_layer, "n_audio", n_text_ctx, state]
    inputs = [
        helper.make_tensor_value_info("tokens", TensorProto.INT64, ["n_audio", "n_tokens"]),
        helper.make_tensor_value_info("in_n_layer_self_k_cache", TensorProto.FLOAT, cache_shape),
        helper.make_tensor_value_info("in_n_layer_self_v_cache", TensorProto.FLOAT, cache_shape),
        helper.make_tensor_value_info("n_layer_cross_k", TensorProto.FLOAT, [n_text_layer, "n_audio", "T_audio", state]),
        helper.make_tensor_value_info("n_layer_cross_v", TensorProto.FLOAT, [n_text_layer, "n_audio", "T_audio", state]),
        helper.make_tensor_value_info("offset", TensorProto.INT64, [1]),
    ]
    outputs = [
        helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n_audio", "n_tokens", n_vocab]),
        helper.make_tensor_value_info("out_n_layer_self_k_cache", TensorProto.FLOAT, cache_shape),
        helper.make_tensor_value_info("out_n_layer_self_v_cache", TensorProto.FLOAT, cache_shape),
    ]
    decoder = helper.make_graph(
        [
            helper.make_node("Cast", ["tokens"], ["tokens_f"], to=TensorProto.FLOAT),
            helper.make_node("Unsqueeze", ["tokens_f", "axis_last"], ["tokens_col"]),
            helper.make_node("Mul", ["tokens_col", "freq"], ["token_angles"]),
            helper.make_node("Sin", ["token_angles"], ["emb"]),
            helper.make_node("ReduceMean", ["n_layer_cross_k"], ["audio4"], axes=[0, 2], keepdims=0),
            helper.make_node("Unsqueeze", ["audio4", "axis1"], ["audio_raw"]),
            helper.make_node("Mul", ["audio_raw", "audio_weight"], ["audio"]),
            # The mean over the tokens given at once: the first step sees the whole start sequence, so the task
            # (transcribe or translate) and the language change what comes out.
            helper.make_node("ReduceMean", ["emb"], ["context"], axes=[1], keepdims=1),
            helper.make_node("Add", ["emb", "context"], ["with_context"]),
            helper.make_node("Add", ["with_context", "audio"], ["mixed"]),
            helper.make_node("Tanh", ["mixed"], ["hidden"]),
            helper.make_node("Range", ["zero", "vocab", "one"], ["ids"]),
            helper.make_node("Cast", ["ids"], ["ids_f"], to=TensorProto.FLOAT),
            helper.make_node("Unsqueeze", ["ids_f", "axis0"], ["ids_row"]),
            helper.make_node("Mul", ["a", "ids_row"], ["angles"]),
            helper.make_node("Sin", ["angles"], ["projection"]),
            helper.make_node("MatMul", ["hidden", "projection"], ["scores"]),
            helper.make_node("Equal", ["ids", "eot"], ["is_eot"]),
            helper.make_node("Cast", ["is_eot"], ["eot_onehot"], to=TensorProto.FLOAT),
            helper.make_node("Greater", ["ids", "eot"], ["is_special"]),
            helper.make_node("Cast", ["is_special"], ["special"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["special", "held_down"], ["special_mask"]),
            # positions = offset + [0, n_tokens)
            helper.make_node("Shape", ["tokens"], ["tokens_shape"]),
            helper.make_node("Gather", ["tokens_shape", "one"], ["n_tokens"], axis=0),
            helper.make_node("Range", ["zero", "n_tokens", "one"], ["steps"]),
            helper.make_node("Add", ["steps", "offset"], ["positions"]),
            helper.make_node("Cast", ["positions"], ["positions_f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["positions_f", "eot_gain"], ["gain"]),
            helper.make_node("Unsqueeze", ["gain", "axis1"], ["gain_col"]),
            helper.make_node("Mul", ["gain_col", "eot_onehot"], ["eot_bias"]),
            helper.make_node("Add", ["scores", "eot_bias"], ["biased"]),
            helper.make_node("Add", ["biased", "special_mask"], ["logits"]),
            helper.make_node("Identity", ["in_n_layer_self_k_cache"], ["out_n_layer_self_k_cache"]),
            helper.make_node("Identity", ["in_n_layer_self_v_cache"], ["out_n_layer_self_v_cache"]),
        ],
        "whisper_turbo_decoder",
        inputs,
        outputs,
        [
            const("freq", freq),
            const("a", a),
            const("eot_gain", np.array(0.6, dtype=np.float32)),
            const("audio_weight", np.array(0.1, dtype=np.float32)),
            const("held_down", np.array(-1e4, dtype=np.float32)),
            const("eot", np.array(eot, dtype=np.int64)),
            const("vocab", np.array(n_vocab, dtype=np.int64)),
            const("axis0", np.array([0], dtype=np.int64)),
            const("axis1", np.array([1], dtype=np.int64)),
            const("axis_last", np.array([-1], dtype=np.int64)),
            const("zero", np.array(0, dtype=np.int64)),
            const("one", np.array(1, dtype=np.int64)),
        ],
    )
    save(decoder, os.path.join(out, "turbo-decoder.int8.onnx"), {"comment": meta["comment"]})

    # tokens.txt: the byte-level BPE vocabulary as sherpa-onnx's export writes it ("<base64 of the bytes> <id>"), for
    # the 50,257 text tokens; special tokens are not listed (sherpa-onnx skips ids it cannot find).
    letters = "etaoinshrdlucmfwypvbgkjqxz"
    with open(os.path.join(out, "turbo-tokens.txt"), "w") as f:
        for i in range(eot):
            word = (" " if i % 3 == 0 else "") + letters[i % 26] + letters[(i // 26) % 26]
            f.write(f"{base64.b64encode(word.encode()).decode()} {i}\n")


# ---------------------------------------------------------------------------------------------------------------------
# NeMo Canary 180M flash (sherpa-onnx/csrc/offline-canary-model.cc, offline-recognizer-canary-impl.h;
# scripts/nemo/canary/export_onnx_180m_flash.py): an EncDecMultiTaskModel encoder x [N, T, 128] + x_len → enc_states
# [N, T/8, H], enc_len, enc_mask (bool); a decoder taking decoder_input_ids int32 [N, 2] (token, position), six
# decoder_mems_list_i [N, n, H], enc_states and enc_mask, and giving logits [N, 1, vocab] and the six memories one
# longer. tokens.txt has exactly vocab_size lines (sherpa-onnx exits otherwise) with the prompt's special tokens.
# The hidden size is declared in the metadata (decoder_hidden_size, which sherpa-onnx reads) rather than 1024.
# ---------------------------------------------------------------------------------------------------------------------

CANARY_SPECIAL = (
    ["<unk>", "<|nospeech|>", "<pad>", "<|endoftext|>", "<|startoftranscript|>", "<|pnc|>", "<|nopnc|>",
     "<|startofcontext|>", "<|itn|>", "<|noitn|>", "<|timestamp|>", "<|notimestamp|>", "<|diarize|>", "<|nodiarize|>",
     "<|spkchange|>", "<|audioseparator|>", "<|emo:undefined|>", "<|emo:neutral|>", "<|emo:happy|>", "<|emo:sad|>",
     "<|emo:angry|>"]
    + [f"<|{code}|>" for code in "en es de fr bg hr cs da nl et fi el hu it lv lt mt pl pt ro sk sl sv ru uk".split()]
)


def canary(out):
    feat_dim, subsampling, vocab, layers, hidden = 128, 8, 5248, 6, 16
    eos = CANARY_SPECIAL.index("<|endoftext|>")
    n_special = len(CANARY_SPECIAL)
    r = rng(2)

    conv_w = (r.standard_normal((hidden, feat_dim, subsampling)) * 0.05).astype(np.float32)
    encoder = helper.make_graph(
        [
            helper.make_node("Transpose", ["x"], ["channels_first"], perm=[0, 2, 1]),
            helper.make_node("Conv", ["channels_first", "conv_w"], ["conv"], strides=[subsampling], pads=[0, subsampling - 1]),
            helper.make_node("Tanh", ["conv"], ["act"]),
            helper.make_node("Transpose", ["act"], ["enc_states"], perm=[0, 2, 1]),
            helper.make_node("Add", ["x_len", "round_up"], ["x_len_up"]),
            helper.make_node("Div", ["x_len_up", "factor"], ["enc_len"]),
            helper.make_node("Shape", ["enc_states"], ["states_shape"]),
            helper.make_node("Gather", ["states_shape", "one"], ["frames"], axis=0),
            helper.make_node("Range", ["zero", "frames", "one"], ["frame_ids"]),
            helper.make_node("Unsqueeze", ["frame_ids", "axis0"], ["frame_row"]),
            helper.make_node("Unsqueeze", ["enc_len", "axis1"], ["len_col"]),
            helper.make_node("Less", ["frame_row", "len_col"], ["enc_mask"]),
        ],
        "canary_encoder",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "T", feat_dim]),
            helper.make_tensor_value_info("x_len", TensorProto.INT64, ["N"]),
        ],
        [
            helper.make_tensor_value_info("enc_states", TensorProto.FLOAT, ["N", "T_out", hidden]),
            helper.make_tensor_value_info("enc_len", TensorProto.INT64, ["N"]),
            helper.make_tensor_value_info("enc_mask", TensorProto.BOOL, ["N", "T_out"]),
        ],
        [
            const("conv_w", conv_w),
            const("round_up", np.array(subsampling - 1, dtype=np.int64)),
            const("factor", np.array(subsampling, dtype=np.int64)),
            const("zero", np.array(0, dtype=np.int64)),
            const("one", np.array(1, dtype=np.int64)),
            const("axis0", np.array([0], dtype=np.int64)),
            const("axis1", np.array([1], dtype=np.int64)),
        ],
    )
    meta = {
        "vocab_size": vocab,
        "normalize_type": "per_feature",
        "subsampling_factor": subsampling,
        "model_type": "EncDecMultiTaskModel",
        "version": "1",
        "model_author": "voxdesk tiny random-weight test model",
        "url": "https://huggingface.co/nvidia/canary-180m-flash",
        "feat_dim": feat_dim,
        "num_decoder_layers": layers,
        "decoder_hidden_size": hidden,
    }
    save(encoder, os.path.join(out, "encoder.int8.onnx"), meta)

    # hidden = tanh(sin(token · f) + 0.2 · Σ memory + mean audio); logits = hidden @ sin(a ⊗ ids) + 0.5 · position on
    # end-of-text, special tokens held down. Every memory is the previous one with this step's embedding appended.
    freq = (r.standard_normal((hidden,)) * 3).astype(np.float32)
    a = r.standard_normal((hidden, 1)).astype(np.float32)
    mems_in = [f"decoder_mems_list_{i}" for i in range(layers)]
    mems_out = [f"next_decoder_mem_list_{i}" for i in range(layers)]
    nodes = [
        helper.make_node("Cast", ["decoder_input_ids"], ["ids64"], to=TensorProto.INT64),
        helper.make_node("Gather", ["ids64", "zero"], ["token"], axis=1),
        helper.make_node("Gather", ["ids64", "one"], ["position"], axis=1),
        helper.make_node("Cast", ["token"], ["token_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["token_f", "axes_12"], ["token_col"]),
        helper.make_node("Mul", ["token_col", "freq"], ["token_angles"]),
        helper.make_node("Sin", ["token_angles"], ["emb"]),
    ]
    for i in range(layers):
        nodes.append(helper.make_node("Concat", [mems_in[i], "emb"], [mems_out[i]], axis=1))
    nodes += [
        helper.make_node("ReduceSum", [mems_out[0], "axis1"], ["memory"], keepdims=1),
        helper.make_node("Mul", ["memory", "memory_weight"], ["context"]),
        helper.make_node("ReduceMean", ["enc_states"], ["audio"], axes=[1], keepdims=1),
        helper.make_node("Add", ["emb", "context"], ["with_context"]),
        helper.make_node("Add", ["with_context", "audio"], ["mixed"]),
        helper.make_node("Tanh", ["mixed"], ["hidden_state"]),
        helper.make_node("Range", ["zero", "vocab", "one"], ["vocab_ids"]),
        helper.make_node("Cast", ["vocab_ids"], ["vocab_ids_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["vocab_ids_f", "axis0"], ["ids_row"]),
        helper.make_node("Mul", ["a", "ids_row"], ["angles"]),
        helper.make_node("Sin", ["angles"], ["projection"]),
        helper.make_node("MatMul", ["hidden_state", "projection"], ["scores"]),
        helper.make_node("Equal", ["vocab_ids", "eos"], ["is_eos"]),
        helper.make_node("Cast", ["is_eos"], ["eos_onehot"], to=TensorProto.FLOAT),
        helper.make_node("Less", ["vocab_ids", "n_special"], ["is_special"]),
        helper.make_node("Not", ["is_eos"], ["not_eos"]),
        helper.make_node("And", ["is_special", "not_eos"], ["held"]),
        helper.make_node("Cast", ["held"], ["held_f"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["held_f", "held_down"], ["special_mask"]),
        helper.make_node("Cast", ["position"], ["position_f"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["position_f", "eos_gain"], ["gain"]),
        helper.make_node("Unsqueeze", ["gain", "axes_12"], ["gain_3d"]),
        helper.make_node("Mul", ["gain_3d", "eos_onehot"], ["eos_bias"]),
        helper.make_node("Add", ["scores", "eos_bias"], ["biased"]),
        helper.make_node("Add", ["biased", "special_mask"], ["logits"]),
    ]
    inputs = [helper.make_tensor_value_info("decoder_input_ids", TensorProto.INT32, ["N", 2])]
    inputs += [helper.make_tensor_value_info(name, TensorProto.FLOAT, ["N", "num_tokens", hidden]) for name in mems_in]
    inputs += [
        helper.make_tensor_value_info("enc_states", TensorProto.FLOAT, ["N", "T", hidden]),
        helper.make_tensor_value_info("enc_mask", TensorProto.BOOL, ["N", "T"]),
    ]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 1, vocab])]
    outputs += [helper.make_tensor_value_info(name, TensorProto.FLOAT, ["N", "num_tokens_2", hidden]) for name in mems_out]
    decoder = helper.make_graph(
        nodes,
        "canary_decoder",
        inputs,
        outputs,
        [
            const("freq", freq),
            const("a", a),
            const("memory_weight", np.array(0.2, dtype=np.float32)),
            const("eos_gain", np.array(0.5, dtype=np.float32)),
            const("held_down", np.array(-1e4, dtype=np.float32)),
            const("eos", np.array(eos, dtype=np.int64)),
            const("n_special", np.array(n_special, dtype=np.int64)),
            const("vocab", np.array(vocab, dtype=np.int64)),
            const("zero", np.array(0, dtype=np.int64)),
            const("one", np.array(1, dtype=np.int64)),
            const("axis0", np.array([0], dtype=np.int64)),
            const("axis1", np.array([1], dtype=np.int64)),
            const("axes_12", np.array([1, 2], dtype=np.int64)),
        ],
    )
    save(decoder, os.path.join(out, "decoder.int8.onnx"), {"comment": meta["model_author"]})

    letters = "etaoinshrdlucmfwypvbgkjqxz"
    with open(os.path.join(out, "tokens.txt"), "w", encoding="utf-8") as f:
        for i, token in enumerate(CANARY_SPECIAL):
            f.write(f"{token} {i}\n")
        for i in range(n_special, vocab):
            k = i - n_special
            piece = ("\u2581" if k % 4 == 0 else "") + letters[k % 26] + letters[(k // 26) % 26]
            f.write(f"{piece} {i}\n")


# ---------------------------------------------------------------------------------------------------------------------
# CT-Transformer punctuation (sherpa-onnx/csrc/offline-ct-transformer-model.cc, offline-punctuation-ct-transformer-impl.h;
# the zh-en vocab272727 export): one model, text int32 [N, T] + text_len int32 [N] → logits [N, T, 6] over the
# punctuations "<unk>|_|，|。|？|、" (the last dimension static: sherpa-onnx reads it from the output's type), with the
# vocabulary in the metadata (tokens joined by "|", vocab_size, unk_symbol). The tiny vocabulary is a few hundred
# English words; each word's row says which mark follows it ("_" for none), so the output is deterministic.
# ---------------------------------------------------------------------------------------------------------------------

PUNCT_WORDS = (
    "the of and to a in is you that it he was for on are as with his they i at be this have from or one had by word "
    "but not what all were we when your can said there use an each which she do how their if will up other about out "
    "many then them these so some her would make like him into time has look two more write go see number no way could "
    "people my than first water been call who oil its now find long down day did get come made may part over new "
    "ask fellow americans country world citizens freedom man together hello test yes thank"
).split()


def punctuation(out):
    marks = ["<unk>", "_", "，", "。", "？", "、"]
    vocab = ["<unk>", "<s>", "</s>"] + PUNCT_WORDS
    r = rng(3)
    table = np.zeros((len(vocab), len(marks)), dtype=np.float32)
    table[:, 1] = 2.0  # no mark after most words
    for i, word in enumerate(vocab):
        if word in ("americans", "you", "hello", "yes"):
            table[i, 2] = 4.0  # a comma after them
        elif word in ("country", "world"):
            table[i, 3] = 4.0  # a full stop
        else:
            table[i] += r.standard_normal(len(marks)).astype(np.float32) * 0.1
    graph = helper.make_graph(
        [
            helper.make_node("Gather", ["table", "text"], ["logits"], axis=0),
            # text_len is an input of the real model; here it only has to be accepted.
            helper.make_node("Identity", ["text_len"], ["unused_len"]),
        ],
        "ct_transformer_punctuation",
        [
            helper.make_tensor_value_info("text", TensorProto.INT32, ["N", "T"]),
            helper.make_tensor_value_info("text_len", TensorProto.INT32, ["N"]),
        ],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", "T", len(marks)])],
        [const("table", table)],
    )
    meta = {
        "model_type": "ct_transformer",
        "version": "1",
        "model_author": "voxdesk tiny random-weight test model",
        "comment": "tiny test model in the layout of sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12",
        "vocab_size": len(vocab),
        "tokens": "|".join(vocab),
        "punctuations": "|".join(marks),
        "unk_symbol": "<unk>",
    }
    save(graph, os.path.join(out, "model.int8.onnx"), meta)


# ---------------------------------------------------------------------------------------------------------------------
# Kokoro v1.0 multilingual (sherpa-onnx/csrc/offline-tts-kokoro-model.cc, kokoro-multi-lang-lexicon.cc;
# scripts/kokoro/v1.0/add_meta_data.py, generate_voices_bin.py): inputs tokens int64 [1, L], style float [1, D] and
# speed float [1], output audio float [num_samples] at 24 kHz. Metadata version 2 makes sherpa-onnx use its
# multi-language frontend (lexicon-us-en.txt and lexicon-zh.txt, espeak-ng for the rest, `lang` per request);
# voices.bin holds n_speakers x style_dim[0] x style_dim[2] floats, the 53 v1.0 speakers in upstream's order. The
# vocabulary is Kokoro's 178 phoneme symbols. Each token becomes 600 samples of a tone whose pitch follows the
# speaker's style and the tokens, so the audio length says how many tokens the frontend made.
# ---------------------------------------------------------------------------------------------------------------------

KOKORO_SYMBOLS = (
    ["$", ";", ":", ",", ".", "!", "?", "\u00a1", "\u00bf", "\u2014", "\u2026", '"', "\u00ab", "\u00bb", "\u201c", "\u201d", " "]
    + list("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    + list("\u0251\u0250\u0252\u00e6\u0253\u0299\u03b2\u0254\u0255\u00e7\u0257\u0256\u00f0\u02a4\u0259\u0258\u025a\u025b\u025c\u025d\u025e\u025f\u0284\u0261\u0260\u0262\u029b\u0266\u0267\u0127\u0265\u029c\u0268\u026a\u029d\u026d\u026c\u026b\u026e\u029f\u0271\u026f\u0270\u014b\u0273\u0272\u0274\u00f8\u0275\u0278\u03b8\u0153\u0276\u0298\u0279\u027a\u027e\u027b\u0280\u0281\u027d\u0282\u0283\u0288\u02a7\u0289\u028a\u028b\u2c71\u028c\u0263\u0264\u028d\u03c7\u028e\u028f\u0291\u0290\u0292\u0294\u02a1\u0295\u02a2\u01c0\u01c1\u01c2\u01c3\u02c8\u02cc\u02d0\u02d1\u02bc\u02b4\u02b0\u02b1\u02b2\u02b7\u02e0\u02e4\u02de\u2193\u2191\u2192\u2197\u2198")
)
KOKORO_TAIL = [("'", 176), ("\u0329", 175), ("\u1d7b", 177)]

KOKORO_V1_SPEAKERS = (
    "af_alloy af_aoede af_bella af_heart af_jessica af_kore af_nicole af_nova af_river af_sarah af_sky am_adam am_echo "
    "am_eric am_fenrir am_liam am_michael am_onyx am_puck am_santa bf_alice bf_emma bf_isabella bf_lily bm_daniel "
    "bm_fable bm_george bm_lewis ef_dora em_alex ff_siwis hf_alpha hf_beta hm_omega hm_psi if_sara im_nicola jf_alpha "
    "jf_gongitsune jf_nezumi jf_tebukuro jm_kumo pf_dora pm_alex pm_santa zf_xiaobei zf_xiaoni zf_xiaoxiao zf_xiaoyi "
    "zm_yunjian zm_yunxi zm_yunxia zm_yunyang"
).split()

# A few words of each lexicon, spelled with Kokoro's symbols (lexicon-us-en.txt, lexicon-zh.txt).
KOKORO_EN_LEXICON = {"hello": "h ə l ˈ O", "world": "w ˈ ɜ ɹ l d", "this": "ð ˈ ɪ s", "is": "ˈ ɪ z", "a": "ə", "test": "t ˈ ɛ s t"}
KOKORO_ZH_LEXICON = {"你": "n i", "好": "h a u", "世": "ʂ ɨ", "界": "t ɕ j e", "你好": "n i h a u"}


def kokoro_symbols():
    table = [(sym.encode().decode("unicode_escape") if "\\u" in sym else sym, i) for i, sym in enumerate(KOKORO_SYMBOLS)]
    return table + [(sym.encode().decode("unicode_escape") if "\\u" in sym else sym, i) for sym, i in KOKORO_TAIL]


def kokoro_v1(out):
    style_len, style_dim = 510, 8
    r = rng(5)
    tokens = helper.make_tensor_value_info("tokens", TensorProto.INT64, [1, "L"])
    style = helper.make_tensor_value_info("style", TensorProto.FLOAT, [1, style_dim])
    speed = helper.make_tensor_value_info("speed", TensorProto.FLOAT, [1])
    audio = helper.make_tensor_value_info("audio", TensorProto.FLOAT, ["num_samples"])
    nodes, inits = tone_voice_graph("kokoro", ["tokens", "style", "speed"], "audio", 600)
    graph = helper.make_graph(nodes, "tiny_kokoro_v1", [tokens, style, speed], [audio], inits)
    speakers = KOKORO_V1_SPEAKERS
    meta = {
        "model_type": "kokoro",
        "language": "multi-lang, e.g., English, Chinese",
        "has_espeak": 1,
        "sample_rate": 24000,
        "version": 2,
        "voice": "en-us",
        "style_dim": f"{style_len},1,{style_dim}",
        "n_speakers": len(speakers),
        "id2speaker": ",".join(f"{i}->{s}" for i, s in enumerate(speakers)),
        "speaker2id": ",".join(f"{s}->{i}" for i, s in enumerate(speakers)),
        "speaker_names": ",".join(speakers),
        "maintainer": "k2-fsa",
        "comment": "This is Kokoro v1.0, a multilingual TTS model, supporting English, Chinese, French, Japanese etc.; tiny random-weight test model",
    }
    save(graph, os.path.join(out, "model.onnx"), meta)
    voices = r.standard_normal((len(speakers), style_len, 1, style_dim)).astype(np.float32)
    with open(os.path.join(out, "voices.bin"), "wb") as f:
        f.write(voices.tobytes())
    with open(os.path.join(out, "tokens.txt"), "w", encoding="utf-8") as f:
        for sym, i in kokoro_symbols():
            f.write(f"{sym} {i}\n")
    for name, lexicon in (("lexicon-us-en.txt", KOKORO_EN_LEXICON), ("lexicon-zh.txt", KOKORO_ZH_LEXICON)):
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            for word, phones in lexicon.items():
                f.write(f"{word} {phones}\n")



def tone_voice_graph(name, input_names, output_name, hop):
    """A style voice's graph (Kokoro, Kitten): tokens int64 [1, L], style [1, D], speed [1] -> `hop` samples a token."""
    tokens, style, speed = input_names
    nodes = [
        helper.make_node("Shape", [tokens], ["shape"]),
        helper.make_node("Gather", ["shape", "one_i"], ["length_i"], axis=0),
        helper.make_node("Cast", ["length_i"], ["length"], to=TensorProto.FLOAT),
        helper.make_node("Squeeze", [speed], ["speed_s"]),
        helper.make_node("Mul", ["length", "hop"], ["samples_at_1"]),
        helper.make_node("Div", ["samples_at_1", "speed_s"], ["samples_f"]),
        helper.make_node("Floor", ["samples_f"], ["limit"]),
        helper.make_node("Range", ["zero", "limit", "step"], ["t"]),
        helper.make_node("ReduceMean", [style], ["style_mean"], keepdims=0),
        helper.make_node("Cast", [tokens], ["tokens_f"], to=TensorProto.FLOAT),
        helper.make_node("ReduceMean", ["tokens_f"], ["token_mean"], keepdims=0),
        helper.make_node("Mul", ["style_mean", "style_gain"], ["f1"]),
        helper.make_node("Mul", ["token_mean", "token_gain"], ["f2"]),
        helper.make_node("Add", ["f1", "f2"], ["f12"]),
        helper.make_node("Add", ["f12", "base_freq"], ["freq"]),
        helper.make_node("Mul", ["t", "freq"], ["phase"]),
        helper.make_node("Sin", ["phase"], ["wave"]),
        helper.make_node("Mul", ["wave", "amplitude"], [output_name]),
    ]
    f32 = lambda v: np.array(v, dtype=np.float32)
    return nodes, [
        const("one_i", np.array(1, dtype=np.int64)),
        const("hop", f32(float(hop))),
        const("zero", f32(0.0)),
        const("step", f32(1.0)),
        const("style_gain", f32(0.05)),
        const("token_gain", f32(0.0005)),
        const("base_freq", f32(0.06)),
        const("amplitude", f32(0.3)),
    ]


# ---------------------------------------------------------------------------------------------------------------------
# Kitten TTS nano v0.1 (sherpa-onnx/csrc/offline-tts-kitten-model.cc; scripts/kitten-tts/nano_v0_1): model_type
# kitten-tts, inputs input_ids int64 [1, L], style float [1, D], speed float [1], output waveform at 24 kHz; style_dim
# "1,D" and voices.bin of n_speakers x D floats for its eight expr-voice-* speakers; Kokoro's vocabulary; espeak-ng
# phonemizes (has_espeak 1). Each token becomes 600 samples of a tone.
# ---------------------------------------------------------------------------------------------------------------------

KITTEN_SPEAKERS = ["expr-voice-2-m", "expr-voice-2-f", "expr-voice-3-m", "expr-voice-3-f", "expr-voice-4-m", "expr-voice-4-f", "expr-voice-5-m", "expr-voice-5-f"]


def kitten(out):
    style_dim = 8
    nodes, inits = tone_voice_graph("kitten", ["input_ids", "style", "speed"], "waveform", 600)
    graph = helper.make_graph(
        nodes,
        "tiny_kitten",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, "L"]),
            helper.make_tensor_value_info("style", TensorProto.FLOAT, [1, style_dim]),
            helper.make_tensor_value_info("speed", TensorProto.FLOAT, [1]),
        ],
        [helper.make_tensor_value_info("waveform", TensorProto.FLOAT, ["num_samples"])],
        inits,
    )
    meta = {
        "model_type": "kitten-tts",
        "language": "English",
        "has_espeak": 1,
        "sample_rate": 24000,
        "version": 1,
        "voice": "en-us",
        "style_dim": f"1,{style_dim}",
        "n_speakers": len(KITTEN_SPEAKERS),
        "speaker2id": ",".join(f"{s}->{i}" for i, s in enumerate(KITTEN_SPEAKERS)),
        "id2speaker": ",".join(f"{i}->{s}" for i, s in enumerate(KITTEN_SPEAKERS)),
        "speaker_names": ",".join(KITTEN_SPEAKERS),
        "maintainer": "k2-fsa",
        "comment": "This is kitten-tts-nano-0.1 and supports only English; tiny random-weight test model",
    }
    save(graph, os.path.join(out, "model.fp16.onnx"), meta)
    voices = rng(6).standard_normal((len(KITTEN_SPEAKERS), style_dim)).astype(np.float32)
    with open(os.path.join(out, "voices.bin"), "wb") as f:
        f.write(voices.tobytes())
    with open(os.path.join(out, "tokens.txt"), "w", encoding="utf-8") as f:
        for sym, i in kokoro_symbols():
            f.write(f"{sym} {i}\n")


# ---------------------------------------------------------------------------------------------------------------------
# Matcha-TTS from icefall (matcha-icefall-en_US-ljspeech; sherpa-onnx/csrc/offline-tts-matcha-model.cc,
# offline-tts-matcha-impl.h, hifigan-vocoder.cc, vocoder.cc): the acoustic model takes x int64 [1, L], x_length int64
# [1], noise_scale float [1] and length_scale float [1] and gives mel [1, 80, T]; sherpa-onnx phonemizes with espeak-ng
# (has_espeak 1), puts a blank (pad_id) between tokens and ^ … $ around them (use_eos_bos 1). The HiFi-GAN vocoder
# (metadata model_type hifigan) turns mel [1, 80, T] into audio [1, 256 T] at 22.05 kHz. Here the acoustic model
# makes 4 frames a token (times length_scale) and the vocoder a tone of 256 samples a frame.
# ---------------------------------------------------------------------------------------------------------------------

MATCHA_SYMBOLS = ["_", "^", "$", " ", "!", "'", "(", ")", ",", "-", ".", ":", ";", "?"] + list("abcdefghijklmnopqrstuvwxyz") + list(
    "\u0251\u0250\u0252\u00e6\u0253\u0299\u03b2\u0254\u0255\u00e7\u0257\u0256\u00f0\u02a4\u0259\u0258\u025a\u025b\u025c\u025d\u025e\u025f\u0284\u0261\u0260\u0262\u029b\u0266\u0267\u0127\u0265\u029c\u0268\u026a\u029d\u026d\u026c\u026b\u026e\u029f\u0271\u026f\u0270\u014b\u0273\u0272\u0274\u00f8\u0275\u0278\u03b8\u0153\u0276\u0298\u0279\u027a\u027e\u027b\u0280\u0281\u027d\u0282\u0283\u0288\u02a7\u0289\u028a\u028b\u2c71\u028c\u0263\u0264\u028d\u03c7\u028e\u028f\u0291\u0290\u0292\u0294\u02a1\u0295\u02a2\u01c0\u01c1\u01c2\u01c3\u02c8\u02cc\u02d0\u02d1\u02bc\u02b4\u02b0\u02b1\u02b2\u02b7\u02e0\u02e4\u02de\u2193\u2191\u2192\u2197\u2198\u1d7b"
)


def matcha(out):
    n_mels = 80
    f32 = lambda v: np.array(v, dtype=np.float32)
    acoustic = helper.make_graph(
        [
            helper.make_node("Shape", ["x"], ["shape"]),
            helper.make_node("Gather", ["shape", "one_i"], ["length_i"], axis=0),
            helper.make_node("Cast", ["length_i"], ["length"], to=TensorProto.FLOAT),
            helper.make_node("Squeeze", ["length_scale"], ["scale"]),
            helper.make_node("Mul", ["length", "frames_per_token"], ["frames_at_1"]),
            helper.make_node("Mul", ["frames_at_1", "scale"], ["frames_f"]),
            helper.make_node("Floor", ["frames_f"], ["frames"]),
            helper.make_node("Range", ["zero", "frames", "step"], ["t"]),
            helper.make_node("Cast", ["x"], ["x_f"], to=TensorProto.FLOAT),
            helper.make_node("ReduceMean", ["x_f"], ["x_mean"], keepdims=0),
            helper.make_node("Mul", ["x_mean", "token_gain"], ["offset"]),
            helper.make_node("Add", ["t", "offset"], ["t_off"]),
            helper.make_node("Unsqueeze", ["t_off", "axes01"], ["t3"]),
            helper.make_node("Mul", ["t3", "bins"], ["scaled"]),
            helper.make_node("Sin", ["scaled"], ["mel"]),
        ],
        "tiny_matcha_acoustic",
        [
            helper.make_tensor_value_info("x", TensorProto.INT64, [1, "L"]),
            helper.make_tensor_value_info("x_length", TensorProto.INT64, [1]),
            helper.make_tensor_value_info("noise_scale", TensorProto.FLOAT, [1]),
            helper.make_tensor_value_info("length_scale", TensorProto.FLOAT, [1]),
        ],
        [helper.make_tensor_value_info("mel", TensorProto.FLOAT, [1, n_mels, "T"])],
        [
            const("one_i", np.array(1, dtype=np.int64)),
            const("frames_per_token", f32(4.0)),
            const("zero", f32(0.0)),
            const("step", f32(1.0)),
            const("token_gain", f32(0.01)),
            const("axes01", np.array([0, 1], dtype=np.int64)),
            const("bins", (np.arange(1, n_mels + 1, dtype=np.float32) * 0.01).reshape(1, n_mels, 1)),
        ],
    )
    save(
        acoustic,
        os.path.join(out, "model-steps-3.onnx"),
        {
            "model_type": "matcha-tts",
            "language": "English",
            "voice": "en-us",
            "has_espeak": 1,
            "n_speakers": 1,
            "sample_rate": 22050,
            "version": 1,
            "pad_id": 0,
            "use_eos_bos": 1,
            "dataset": "LJ Speech",
            "comment": "tiny random-weight test model in the layout of matcha-icefall-en_US-ljspeech",
        },
    )
    vocoder = helper.make_graph(
        [
            helper.make_node("Shape", ["mel"], ["shape"]),
            helper.make_node("Gather", ["shape", "two_i"], ["frames_i"], axis=0),
            helper.make_node("Cast", ["frames_i"], ["frames"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["frames", "hop"], ["samples"]),
            helper.make_node("Range", ["zero", "samples", "step"], ["t"]),
            helper.make_node("ReduceMean", ["mel"], ["mel_mean"], keepdims=0),
            helper.make_node("Mul", ["mel_mean", "mel_gain"], ["shift"]),
            helper.make_node("Add", ["shift", "base_freq"], ["freq"]),
            helper.make_node("Mul", ["t", "freq"], ["phase"]),
            helper.make_node("Sin", ["phase"], ["wave"]),
            helper.make_node("Mul", ["wave", "amplitude"], ["wave_scaled"]),
            helper.make_node("Unsqueeze", ["wave_scaled", "axis0"], ["audio"]),
        ],
        "tiny_hifigan",
        [helper.make_tensor_value_info("mel", TensorProto.FLOAT, [1, n_mels, "T"])],
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, [1, "num_samples"])],
        [
            const("two_i", np.array(2, dtype=np.int64)),
            const("hop", f32(256.0)),
            const("zero", f32(0.0)),
            const("step", f32(1.0)),
            const("mel_gain", f32(0.01)),
            const("base_freq", f32(0.05)),
            const("amplitude", f32(0.3)),
            const("axis0", np.array([0], dtype=np.int64)),
        ],
    )
    save(vocoder, os.path.join(out, "hifigan_v2.onnx"), {"model_type": "hifigan", "comment": "tiny random-weight test model in the layout of sherpa-onnx's hifigan_v2.onnx"})
    with open(os.path.join(out, "tokens.txt"), "w", encoding="utf-8") as f:
        for i, sym in enumerate(MATCHA_SYMBOLS):
            f.write(f"{sym} {i}\n")



# ---------------------------------------------------------------------------------------------------------------------
# DPDFNet (sherpa-onnx/csrc/offline-speech-denoiser-dpdfnet-model.cc, online-speech-denoiser-dpdfnet-impl.h; the
# speech-enhancement-models release's dpdfnet_baseline.onnx): one STFT frame at a time — spec float [1, 1, F, 2]
# (real, imaginary) and the recurrent state float [S] in, the enhanced frame [1, 1, F, 2] and the next state out;
# model_type dpdfnet, profile dpdfnet_16khz (a streaming export: OnlineSpeechDenoiser runs only those), the STFT
# (16 kHz, n_fft 320, hop 160, Vorbis window), the ERB and spectral band counts and
# the initial normalisation states in the metadata, whose sizes sherpa-onnx checks against the graph. Here the
# enhanced frame is the input scaled by a gain per frequency bin that falls towards the top, and the state carries
# a running mean of the frames' energy.
# ---------------------------------------------------------------------------------------------------------------------


def dpdfnet(out):
    n_fft, hop, erb_bins, spec_bins = 320, 160, 32, 96
    freq_bins = n_fft // 2 + 1
    erb_norm, spec_norm = 32, 96
    state_size = erb_norm + spec_norm + 16
    f32 = lambda v: np.array(v, dtype=np.float32)
    gain = np.linspace(0.9, 0.3, freq_bins, dtype=np.float32).reshape(1, 1, freq_bins, 1)
    graph = helper.make_graph(
        [
            helper.make_node("Mul", ["spec", "gain"], ["spec_e"]),
            helper.make_node("Mul", ["spec", "spec"], ["power"]),
            helper.make_node("ReduceMean", ["power"], ["energy"], keepdims=0),
            helper.make_node("Mul", ["state", "decay"], ["kept"]),
            helper.make_node("Mul", ["energy", "rate"], ["fresh"]),
            helper.make_node("Add", ["kept", "fresh"], ["state_out"]),
        ],
        "tiny_dpdfnet",
        [
            helper.make_tensor_value_info("spec", TensorProto.FLOAT, [1, 1, freq_bins, 2]),
            helper.make_tensor_value_info("state", TensorProto.FLOAT, [state_size]),
        ],
        [
            helper.make_tensor_value_info("spec_e", TensorProto.FLOAT, [1, 1, freq_bins, 2]),
            helper.make_tensor_value_info("state_out", TensorProto.FLOAT, [state_size]),
        ],
        [const("gain", gain), const("decay", f32(0.9)), const("rate", f32(0.1))],
    )
    floats = lambda values: ",".join(f"{v:.6f}" for v in values)
    meta = {
        "model_type": "dpdfnet",
        "version": 1,
        "profile": "dpdfnet_16khz",
        "sample_rate": 16000,
        "n_fft": n_fft,
        "hop_length": hop,
        "window_length": n_fft,
        "normalized": 0,
        "center": 0,
        "window_type": "vorbis",
        "pad_mode": "reflect",
        "freq_bins": freq_bins,
        "erb_bins": erb_bins,
        "spec_bins": spec_bins,
        "state_size": state_size,
        "erb_norm_state_size": erb_norm,
        "spec_norm_state_size": spec_norm,
        "erb_norm_init": floats(np.linspace(-60.0, -90.0, erb_norm)),
        "spec_norm_init": floats(np.linspace(0.001, 0.0001, spec_norm)),
        "comment": "tiny random-weight test model in the layout of sherpa-onnx's dpdfnet_baseline.onnx",
    }
    save(graph, os.path.join(out, "dpdfnet_baseline.onnx"), meta)



# ---------------------------------------------------------------------------------------------------------------------
# A Coqui character-level VITS (vits-coqui-bg-cv and the other Common Voice exports; sherpa-onnx/csrc/
# offline-tts-vits-model.cc RunVitsPiperOrCoqui, offline-tts-character-frontend.cc): metadata comment "coqui" and
# frontend "characters", so sherpa-onnx spells the text letter by letter from tokens.txt (with <PAD>, <EOS>, <BOS> and
# <BLNK>, whose ids the metadata repeats) and puts a blank between letters; no lexicon, no espeak-ng data. Inputs x
# int64 [1, L], x_length int64 [1] and the scales float [3] (noise, length, noise w); output y [1, 1, N] at 22.05 kHz.
# Here each token becomes 256 samples (times the length scale) of a tone.
# ---------------------------------------------------------------------------------------------------------------------


def coqui_bg(out):
    letters = list("\u0430\u0431\u0432\u0433\u0434\u0435\u0436\u0437\u0438\u0439\u043a\u043b\u043c\u043d\u043e\u043f\u0440\u0441\u0442\u0443\u0444\u0445\u0446\u0447\u0448\u0449\u044a\u044c\u044e\u044f")
    symbols = ["<PAD>", "<EOS>", "<BOS>", "<BLNK>"] + letters + list("!',-.:;? ")
    f32 = lambda v: np.array(v, dtype=np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("Shape", ["x"], ["shape"]),
            helper.make_node("Gather", ["shape", "one_i"], ["length_i"], axis=0),
            helper.make_node("Cast", ["length_i"], ["length"], to=TensorProto.FLOAT),
            helper.make_node("Gather", ["noise_scale", "one_i"], ["length_scale"], axis=0),
            helper.make_node("Mul", ["length", "hop"], ["samples_at_1"]),
            helper.make_node("Mul", ["samples_at_1", "length_scale"], ["samples_f"]),
            helper.make_node("Floor", ["samples_f"], ["limit"]),
            helper.make_node("Range", ["zero", "limit", "step"], ["t"]),
            helper.make_node("Cast", ["x"], ["x_f"], to=TensorProto.FLOAT),
            helper.make_node("ReduceMean", ["x_f"], ["x_mean"], keepdims=0),
            helper.make_node("Mul", ["x_mean", "token_gain"], ["shift"]),
            helper.make_node("Add", ["shift", "base_freq"], ["freq"]),
            helper.make_node("Mul", ["t", "freq"], ["phase"]),
            helper.make_node("Sin", ["phase"], ["wave"]),
            helper.make_node("Mul", ["wave", "amplitude"], ["wave_scaled"]),
            helper.make_node("Unsqueeze", ["wave_scaled", "axes01"], ["y"]),
        ],
        "tiny_coqui_vits",
        [
            helper.make_tensor_value_info("x", TensorProto.INT64, [1, "L"]),
            helper.make_tensor_value_info("x_length", TensorProto.INT64, [1]),
            helper.make_tensor_value_info("noise_scale", TensorProto.FLOAT, [3]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, "num_samples"])],
        [
            const("one_i", np.array(1, dtype=np.int64)),
            const("hop", f32(256.0)),
            const("zero", f32(0.0)),
            const("step", f32(1.0)),
            const("token_gain", f32(0.001)),
            const("base_freq", f32(0.05)),
            const("amplitude", f32(0.3)),
            const("axes01", np.array([0, 1], dtype=np.int64)),
        ],
    )
    meta = {
        "model_type": "vits",
        "comment": "coqui",
        "language": "Bulgarian",
        "frontend": "characters",
        "add_blank": 1,
        "n_speakers": 0,
        "sample_rate": 22050,
        "use_eos_bos": 0,
        "blank_id": 3,
        "bos_id": 2,
        "eos_id": 1,
        "pad_id": 0,
    }
    save(graph, os.path.join(out, "model.onnx"), meta)
    with open(os.path.join(out, "tokens.txt"), "w", encoding="utf-8") as f:
        for i, sym in enumerate(symbols):
            f.write(f"{sym} {i}\n")


MODELS = {
    "whisper-turbo": whisper_turbo,
    "canary": canary,
    "punctuation": punctuation,
    "kokoro-v1": kokoro_v1,
    "kitten": kitten,
    "matcha": matcha,
    "dpdfnet": dpdfnet,
    "coqui-bg": coqui_bg,
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
