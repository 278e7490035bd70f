"""Locks, wheelhouses, recipe tags and agent-folder image fields, without a Docker engine.

Wheels are real (built here with hatchling); the host-pip download runs fully offline against a
``--find-links`` folder, so the code path a user takes is the one tested.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.agents import FolderAgent, load_agent
from pytest_mlebench.errors import AgentError, SandboxError
from pytest_mlebench.sandbox.docker import wheelhouse
from pytest_mlebench.sandbox.docker.profiles import PROFILES, check_profile, profile_dir
from pytest_mlebench.sandbox.docker.recipe import Recipe, folder_files
from tests.wheels import agent_folder, build_wheel, lock_for

GOOD = "a" * 64


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"), "mlimage-probe", "1.0", "v1")


def write(tmp_path: Path, text: str, name: str = "requirements.lock") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_lock_reads_pins_with_continuations_and_comments(tmp_path: Path) -> None:
    text = f"# header\nfoo-bar==1.2 \\\n    --hash=sha256:{GOOD} \\\n    --hash=sha256:{'b' * 64}\n"
    text += f"Baz[extra]==3 --hash=sha256:{GOOD}  # why\n\n--index-url https://example.invalid\n"
    text += f'qux==4 ; python_version >= "3.8" \\\n    --hash=sha256:{GOOD}\n'
    text += "    # via foo-bar\n"
    pins = wheelhouse.read_lock(write(tmp_path, text))
    assert [(p.name, p.version, len(p.hashes)) for p in pins] == [
        ("foo-bar", "1.2", 2),
        ("Baz", "3", 1),
        ("qux", "4", 1),
    ]
    assert pins[0].key == "foo_bar"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("foo>=1.0 --hash=sha256:" + GOOD, "is not pinned"),
        ("foo==1.0\n", "has no --hash=sha256"),
        ("foo==1.0 --hash=md5:abc\n", "has no --hash=sha256"),
        ("# nothing\n", "pins no package"),
    ],
)
def test_a_bad_lock_says_what_is_wrong_and_how_to_fix_it(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(SandboxError, match=message) as caught:
        wheelhouse.read_lock(write(tmp_path, text))
    assert "line" in str(caught.value) or "no package" in str(caught.value)


def test_a_prepared_wheelhouse_serves_the_lock(tmp_path: Path, wheel: Path) -> None:
    lock = write(tmp_path, lock_for(wheel))
    found = wheelhouse.use_wheelhouse(lock, wheel.parent, progress=lambda line: None)
    assert list(found.values()) == [wheel]


def test_a_missing_air_gapped_wheelhouse_says_how_to_fill_it(tmp_path: Path, wheel: Path) -> None:
    lock = write(tmp_path, lock_for(wheel))
    with pytest.raises(SandboxError, match="does not exist") as caught:
        wheelhouse.use_wheelhouse(lock, tmp_path / "absent", progress=lambda line: None)
    assert "pip download --no-deps --require-hashes" in str(caught.value)
    assert "--platform manylinux_2_36_x86_64" in str(caught.value)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SandboxError, match=r"lacks mlimage_probe==1\.0; on a machine"):
        wheelhouse.use_wheelhouse(lock, empty, progress=lambda line: None)


def test_a_wheel_with_the_wrong_hash_is_refused(tmp_path: Path, wheel: Path) -> None:
    lock = write(tmp_path, lock_for(wheel, digests={wheel: GOOD}))
    with pytest.raises(SandboxError, match="hash mismatch") as caught:
        wheelhouse.use_wheelhouse(lock, wheel.parent, progress=lambda line: None)
    assert "mlimage_probe==1.0" in str(caught.value)


def test_the_host_pip_fills_the_cached_wheelhouse_offline(
    tmp_path: Path, wheel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real download: the host's pip, --require-hashes, the image's target platform."""
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheel.parent))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    lock = write(tmp_path, lock_for(wheel))
    lines: list[str] = []
    found = wheelhouse.fill_wheelhouse(lock, wheelhouse.default_wheelhouse(), lines.append)
    assert found["mlimage_probe"].parent == tmp_path / "cache" / "mlebench" / "wheels"
    assert any(line.startswith("downloading 1 of 1 wheels") for line in lines)
    lines.clear()
    wheelhouse.fill_wheelhouse(lock, wheelhouse.default_wheelhouse(), lines.append)
    assert lines == [
        f"wheelhouse {found['mlimage_probe'].parent}: all 1 wheels of requirements.lock are there"
    ]


def test_a_download_failure_names_the_lock(
    tmp_path: Path, wheel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))  # no wheel there
    lock = write(tmp_path, lock_for(wheel))
    with pytest.raises(SandboxError, match="downloading the wheels of .* failed"):
        wheelhouse.fill_wheelhouse(lock, tmp_path / "house", lambda line: None)


def test_lock_lines_come_from_a_pip_report() -> None:
    report = {
        "install": [
            {
                "metadata": {"name": "Zeta", "version": "2"},
                "download_info": {"url": "u", "archive_info": {"hashes": {"sha256": GOOD}}},
            },
            {
                "metadata": {"name": "alpha", "version": "1"},
                "download_info": {"url": "u", "archive_info": {"hashes": {"sha256": GOOD}}},
            },
        ]
    }
    assert wheelhouse.lock_lines(report) == [
        f"alpha==1 \\\n    --hash=sha256:{GOOD}",
        f"Zeta==2 \\\n    --hash=sha256:{GOOD}",
    ]


def test_the_shipped_ml_lock_pins_everything_with_hashes() -> None:
    pins = wheelhouse.read_lock(profile_dir("ml") / "requirements.lock")
    names = {pin.key for pin in pins}
    assert {"torch", "torchvision", "torchaudio", "lightgbm", "xgboost", "catboost"} <= names
    assert {"scikit_learn", "transformers", "timm", "opencv_python_headless", "nltk"} <= names


def test_unknown_profile_is_a_clear_error() -> None:
    assert check_profile("ml") == "ml" and set(PROFILES) == {"base", "ml"}
    with pytest.raises(SandboxError, match="unknown image profile 'gpu'; choose one of base, ml"):
        check_profile("gpu")


def test_a_recipe_tag_follows_its_inputs(tmp_path: Path) -> None:
    lock = write(tmp_path, f"a==1 --hash=sha256:{GOOD}\n")
    recipe = Recipe("x", "repo", {"Dockerfile": b"FROM x"}, base="base:1", lock=lock)
    same = Recipe("x", "repo", {"Dockerfile": b"FROM x"}, base="base:1", lock=lock)
    assert recipe.tag == same.tag and recipe.tag.startswith("repo:")
    assert (
        Recipe("x", "repo", {"Dockerfile": b"FROM y"}, base="base:1", lock=lock).tag != recipe.tag
    )
    assert (
        Recipe("x", "repo", {"Dockerfile": b"FROM x"}, base="base:2", lock=lock).tag != recipe.tag
    )
    before = recipe.tag
    lock.write_text(f"a==2 --hash=sha256:{GOOD}\n")
    assert recipe.tag != before


def test_folder_files_skip_caches_and_a_wheelhouse(tmp_path: Path) -> None:
    for name in ("Dockerfile", "sub/start.sh", "__pycache__/x.pyc", "wheelhouse/a.whl"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    assert sorted(folder_files(tmp_path)) == ["Dockerfile", "sub/start.sh"]


def test_an_agent_folder_with_a_dockerfile_carries_its_image(tmp_path: Path) -> None:
    folder = agent_folder(
        tmp_path / "agent", f"a==1 --hash=sha256:{GOOD}\n", module="a", profile="ml"
    )
    agent = load_agent(str(folder))
    assert isinstance(agent, FolderAgent) and agent.image is not None
    assert (agent.image.profile, agent.image.dockerfile) == ("ml", "Dockerfile")
    assert agent.image.lock == folder / "requirements.lock"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"image": "gpu"}, "image 'gpu' is not a profile; choose base or ml"),
        ({"dockerfile": "Missing.Dockerfile"}, "dockerfile 'Missing.Dockerfile' is not a file"),
        ({"requirements": "absent.lock"}, "requirements 'absent.lock' is not a file"),
        ({"requirements": "loose.txt"}, "has no --hash=sha256"),
        ({"dockerfile": None}, "'image' needs a 'dockerfile'"),
    ],
)
def test_bad_image_fields_fail_when_the_agent_loads(
    tmp_path: Path, change: dict[str, str | None], message: str
) -> None:
    import yaml

    folder = agent_folder(tmp_path / "agent", f"a==1 --hash=sha256:{GOOD}\n", module="a")
    (folder / "loose.txt").write_text("a==1\n")
    config = yaml.safe_load((folder / "config.yaml").read_text())
    config["probe"].update(change)
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    with pytest.raises(AgentError, match=message):
        load_agent(str(folder))
