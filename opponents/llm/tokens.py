"""A tokenizer-free token estimate, for servers whose replies carry no ``usage``.

llama.cpp's servers never put ``usage`` in a stream (even when asked with
``stream_options.include_usage``), so tcgtui counts those tokens from text,
flags the decision ``tokens_estimated`` and reports the count as an estimate.
The estimate is also the unit of ``--history-tokens``.

Characters per token, measured on the card game's own prompts (its system
message and every turn of a game, in both languages; ``docs/llm.md`` has the
table): ASCII text (English, digits, punctuation, the spaces between Arabic
words) runs 3.9 to 4.1 characters per token on Llama 3's, Qwen2's and
Command R's vocabularies; Arabic letters 2.0 to 2.15.  So: 4 and 2.  On those
vocabularies the estimate is within 10% in both languages (Arabic slightly
high).  Vocabularies without Arabic merges (GPT-2, Llama 2's SentencePiece)
take 0.8 to 0.9 Arabic characters per token: there the estimate is about 2.3
times too low, and only the server's ``usage`` is right.
"""

from __future__ import annotations

ASCII_CHARS_PER_TOKEN = 4
OTHER_CHARS_PER_TOKEN = 2


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` is on a multilingual BPE vocabulary (see above)."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    other = len(text) - ascii_chars
    return -(-ascii_chars // ASCII_CHARS_PER_TOKEN) + -(-other // OTHER_CHARS_PER_TOKEN)
