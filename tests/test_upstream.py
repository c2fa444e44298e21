"""--upstream: a seed's checkout read at run time, every fault one line naming the folder and file."""

import subprocess

import pytest

from tcgtui.errors import UserError
from tcgtui.upstream import load


def test_a_file_of_the_checkout_is_read(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "prompt.txt").write_text("hello\n", encoding="utf-8")
    up = load("--upstream", str(tmp_path))
    assert up.has("src/prompt.txt") and not up.has("src/other.txt")
    assert up.text("src/prompt.txt", "github.com/example/seed") == "hello\n"


def test_a_missing_file_names_folder_file_and_repository(tmp_path):
    up = load("--upstream", str(tmp_path))
    with pytest.raises(UserError) as err:
        up.text("src/prompt.txt", "github.com/example/seed")
    line = str(err.value)
    assert "\n" not in line and str(tmp_path) in line and "src/prompt.txt" in line and "example/seed" in line


def test_not_a_folder_is_refused(tmp_path):
    with pytest.raises(UserError, match="--upstream: .* is not a folder"):
        load("--upstream", str(tmp_path / "nope"))


def test_a_git_checkout_is_described_by_its_commit(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "f").write_text("x")
    subprocess.run(["git", "-C", str(tmp_path), "add", "f"], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
                   check=True)
    described = load("--upstream", str(tmp_path)).describe()
    assert described["path"] == str(tmp_path.resolve()) and len(described["commit"]) == 40


HOSTILE = {"unary": "-" * 100_000 + "1\n",                     # the parser runs out of memory
           "attributes": "a" + ".b" * 200_000 + "\n",             # the parser recurses past its stack
           "nul": "x = 1\0\n"}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_python_in_the_checkout_is_one_line_for_every_seed_reader(kind):
    from tcgtui.engine.duel.seed_wording import DuelWording, WordingError as DuelError
    from tcgtui.engine.eleusis.seed_prompter import SeedWording as EleusisWording, WordingError as EleusisError
    from tcgtui.engine.tcg.seed.prompt import SeedWording as CardWording, WordingError as CardError

    source = HOSTILE[kind]
    for reader, error in ((DuelWording, DuelError), (EleusisWording, EleusisError), (CardWording, CardError)):
        with pytest.raises(error) as refused:
            reader.read(lambda path: source)
        assert "\n" not in str(refused.value) and "is not Python this protocol can read" in str(refused.value)


def test_a_huge_file_in_the_checkout_is_refused_without_being_read_whole(tmp_path):
    from tcgtui.userfiles import MAX_BYTES
    big = tmp_path / "src" / "agents.py"
    big.parent.mkdir()
    with big.open("wb") as fh:                       # sparse: past the general limit without writing it
        fh.truncate(MAX_BYTES - 1)
    with pytest.raises(UserError, match=r"^--upstream .*agents.py: larger than") as refused:
        load("--upstream", str(tmp_path)).text("src/agents.py", "example/seed")
    assert "\n" not in str(refused.value)
