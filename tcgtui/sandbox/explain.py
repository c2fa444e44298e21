"""``tcgtui duel check --explain``: the sandbox's layers on this machine, one line each, and
whether model code runs here (the same probe every check uses)."""

from __future__ import annotations

import os
import platform

from tcgtui import locales
from tcgtui.sandbox import Limits, SandboxUnavailable, boundary_or_refuse, layers


def explain(text: locales.Catalog) -> list[str]:
    found = layers.probe()
    limits = Limits()
    who = text.t("sandbox.explain.root") if os.geteuid() == 0 else text.t("sandbox.explain.user", uid=os.geteuid())
    lines = [text.t("sandbox.explain.title", system=f"{platform.system()} {platform.release()}", who=who)]

    def row(layer: str, key: str, **values: object) -> None:
        lines.append(f"  {text.t('sandbox.explain.' + layer):<12} {text.t('sandbox.explain.' + key, **values)}")
    row("namespaces", {"user": "ns_user", "root": "ns_root", "": "ns_none"}[found.namespaces])
    if found.pid_max:
        row("tasks", "tasks_pid_max", count=layers.TASKS)
    elif found.threads_bounded:
        row("tasks", "tasks_nproc", count=layers.THREADS)
    else:
        row("tasks", "tasks_none")
    if found.landlock:
        parts = [text.t("sandbox.explain.landlock_files", abi=found.landlock)]
        parts += [text.t("sandbox.explain.landlock_tcp")] * (found.landlock >= 4)
        parts += [text.t("sandbox.explain.landlock_scope")] * (found.landlock >= 6)
        lines.append(f"  {text.t('sandbox.explain.landlock'):<12} " + "; ".join(parts))
    else:
        row("landlock", "landlock_none")
    row("seccomp", "seccomp_yes" if found.seccomp else "seccomp_none", count=len(layers.REFUSED_SYSCALLS) + 2)
    row("limits", "limits_set", memory=limits.memory_mb, file=limits.file_mb, files=limits.open_files,
        output=limits.output_chars)
    try:
        boundary_or_refuse("local")
        lines.append(text.t("sandbox.explain.holds"))
    except SandboxUnavailable as exc:
        lines.append(str(exc))
    return lines
