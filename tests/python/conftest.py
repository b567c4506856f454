"""Shared fixtures of the Python package's tests (tools/test.sh runs them on
the package installed in a venv; see docs/python.md, "Tests")."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # oracle.py

REPO = Path(__file__).resolve().parents[2]
TABLE_4X4 = REPO / "data" / "4x4-k4.pawntb"
TABLE_3X3 = REPO / "data" / "3x3-k3.pawntb"


@pytest.fixture(scope="session")
def table():
    """The committed 4x4 table, by its path in the source tree."""
    import pawntb

    with pawntb.open_table(TABLE_4X4) as t:
        yield t


@pytest.fixture(scope="session")
def cli():
    """The pawntb command of a build, for answers that do not go through the
    Python package: $PAWNTB_CLI (tools/test.sh sets it), else build/tools/pawntb."""
    given = os.environ.get("PAWNTB_CLI")
    path = Path(given).resolve() if given else REPO / "build" / "tools" / "pawntb"
    if not path.is_file():
        if given:
            pytest.fail(f"PAWNTB_CLI={given}: no such file")
        pytest.skip(f"no pawntb command at {path}: build it, or set PAWNTB_CLI")
    return path


def run_cli(cli, *args, input_text=None):
    """Runs the pawntb command; its stdout, after checking that it succeeded."""
    done = subprocess.run([str(cli), *map(str, args)], input=input_text, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout
