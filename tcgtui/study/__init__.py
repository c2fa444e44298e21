"""Human-baseline studies: a study file (``spec``), each participant's schedule of games (``plan``)
and who has joined (``roster``).  The screens a participant meets live in ``tcgtui.tui.study``;
the statistics that count people, not games, in ``tcgtui.report.people``."""
