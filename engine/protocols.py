"""Which protocol a game is played under: tcgtui's own, or the seed's released code.

tcgtui's games follow their seeds with deliberate fixes (honest search, judged
deterministically, paired deals); ``seed`` reproduces what the seed's released
code does instead, quirks included, so a number can be set beside a published
one.  The protocol is a game parameter like any other, so it is stored with
every game and a run's identity, and reports never pool two protocols.

``upstream`` names the user's own checkout of the seed's public repository,
read at run time where a protocol needs the seed's exact wording or data
(tcgtui carries none of it); the command line loads it (the engine does no I/O).
"""

from __future__ import annotations

from tcgtui.engine.registry import Param

TCGTUI, SEED = "tcgtui", "seed"
PROTOCOLS = (TCGTUI, SEED)

PROTOCOL = Param("protocol", str, TCGTUI, choices=PROTOCOLS, flag="--protocol", help_key="arena.protocol")
# Where the seed's text was read from is no key: what was read is the prompt version each player records.
UPSTREAM = Param(
    "upstream", str, "", kind="upstream", flag="--upstream", metavar="DIR", help_key="arena.upstream", keyed=False
)


def protocol_of(params: dict) -> str:
    """The protocol a stored game was played under (games stored before protocols existed: tcgtui's)."""
    return str(params.get("protocol") or TCGTUI)
