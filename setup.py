"""Install the folders ``engine/``, ``opponents/`` and ``locales/`` as ``tcgtui.engine`` and so on.

pyproject.toml holds everything else; only this mapping needs code, because
setuptools' package finder cannot rename a folder.  New subpackages (a new
game under ``engine/``) are found without editing this file.
"""

from setuptools import find_packages, setup

MAPPED = ("engine", "opponents", "locales")

packages = find_packages(include=["tcgtui", "tcgtui.*"])
packages += [f"tcgtui.{p}" for p in find_packages(include=[*MAPPED, *(f"{m}.*" for m in MAPPED)])]

setup(packages=packages, package_dir={"tcgtui": "tcgtui", **{f"tcgtui.{m}": m for m in MAPPED}})
