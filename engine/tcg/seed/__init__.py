"""The card game under ``--protocol seed``: TCG-Bench's released code's rules, loops and opponents."""
