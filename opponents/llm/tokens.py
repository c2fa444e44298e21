"""A tokenizer-free token estimate, for servers whose replies carry no ``usage``.

llama.cpp's servers never put ``usage`` in a stream (even when asked with
``stream_options.include_usage``), so tcgtui counts those tokens from text and
records ``tokens_estimated`` with the decision.  The estimate is also the unit
of ``--history-tokens``.

Characters per token, measured on the card game's own prompts (``docs/llm.md``
has the table and how it was measured):

- ASCII (English words, digits, punctuation, the spaces of Arabic text):
  about 4.3 characters per token on Llama 3's, Qwen2's and GPT-2's BPE; 4 is used.
- Other characters (Arabic letters): about 3.6 per token on Llama 3's and Qwen2's
  vocabularies; the old constant, 2, made Arabic prompts look 1.8 times longer
  than they are.  Vocabularies without Arabic merges are far worse
  (GPT-2 and Llama 2's SentencePiece: under 1 character per token): the
  estimate is for the multilingual models people play with, and says so.
"""

from __future__ import annotations

ASCII_CHARS_PER_TOKEN = 4.0
OTHER_CHARS_PER_TOKEN = 3.6
ESTIMATOR = "chars-v2"      # recorded with estimated counts; bump when the constants change


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` is on a multilingual BPE vocabulary (see above)."""
    if not text:
        return 0
    ascii_chars = len(text.encode("ascii", "ignore"))
    other = len(text) - ascii_chars
    return max(1, round(ascii_chars / ASCII_CHARS_PER_TOKEN + other / OTHER_CHARS_PER_TOKEN))
