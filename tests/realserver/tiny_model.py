"""Write a tiny LLaMA with random weights as GGUF: what the real-server tests serve.

Run with the server venv's python (it needs ``gguf`` and ``numpy``, which the project does not):

    python tests/realserver/tiny_model.py OUT.gguf [--seed N]

2 layers, width 64, 4 heads; a SentencePiece-style vocabulary (``tokenizer.ggml.model = llama``)
with the 256 byte tokens, every character and word prefix (up to 8 characters) of tcgtui's own
English and Arabic text (``locales/``), ChatML's two control tokens, and a ChatML chat template in
its metadata, so llama.cpp's server formats the conversation itself.  Under a second to write; a
few megabytes.  Its replies are random text: the game has to get through them.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from pathlib import Path

import gguf
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
WIDTH, LAYERS, HEADS, FFN = 64, 2, 4, 128
MAX_PIECE = 8
CHATML = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
          "'<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}"
          "{% endif %}")
NORMAL, UNKNOWN, CONTROL, BYTE = 1, 2, 3, 6


def corpus() -> str:
    """Every string of the English and Arabic locale files."""
    out: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    for lang in ("en", "ar"):
        for path in sorted((ROOT / "locales" / lang).rglob("*.toml")):
            walk(tomllib.loads(path.read_text(encoding="utf-8")))
    return "\n".join(out)


def vocabulary(text: str, limit: int = 6000) -> tuple[list[str], list[float], list[int]]:
    tokens = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"]
    types = [UNKNOWN, CONTROL, CONTROL, CONTROL, CONTROL]
    tokens += [f"<0x{b:02X}>" for b in range(256)]
    types += [BYTE] * 256
    scores = [0.0] * len(tokens)
    pieces: Counter[str] = Counter()
    for ch in set(text) | {"▁"}:
        if not ch.isspace():
            pieces[ch] += 10 ** 6                      # every character, before any word piece
    for word in text.split():
        word = "▁" + word
        for n in range(2, min(len(word), MAX_PIECE) + 1):
            pieces[word[:n]] += 1
    for rank, (piece, _) in enumerate(pieces.most_common(limit)):
        tokens.append(piece)
        types.append(NORMAL)
        scores.append(float(len(piece)) - rank * 1e-6)   # longer pieces merge first
    return tokens, scores, types


def write(path: Path, seed: int = 0) -> int:
    tokens, scores, types = vocabulary(corpus())
    rng = np.random.default_rng(seed)
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_name("tcgtui-tiny-random")
    w.add_context_length(32768)
    w.add_embedding_length(WIDTH)
    w.add_block_count(LAYERS)
    w.add_feed_forward_length(FFN)
    w.add_head_count(HEADS)
    w.add_head_count_kv(HEADS)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_dimension_count(WIDTH // HEADS)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_unk_token_id(0)
    w.add_bos_token_id(1)
    w.add_eos_token_id(4)                 # <|im_end|> ends a ChatML turn
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)
    w.add_chat_template(CHATML)

    def t(*shape: int, scale: float = 0.3) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)
    n = len(tokens)
    w.add_tensor("token_embd.weight", t(n, WIDTH))
    w.add_tensor("output_norm.weight", np.ones(WIDTH, np.float32))
    w.add_tensor("output.weight", t(n, WIDTH))
    for i in range(LAYERS):
        w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(WIDTH, np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            w.add_tensor(f"blk.{i}.{name}.weight", t(WIDTH, WIDTH))
        w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(WIDTH, np.float32))
        w.add_tensor(f"blk.{i}.ffn_gate.weight", t(FFN, WIDTH))
        w.add_tensor(f"blk.{i}.ffn_up.weight", t(FFN, WIDTH))
        w.add_tensor(f"blk.{i}.ffn_down.weight", t(WIDTH, FFN))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    n = write(args.out, args.seed)
    print(f"{args.out}: {n} tokens", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
