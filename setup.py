"""Builds the Python package pawntb's extension through CMake.

The package's metadata is in pyproject.toml; this file adds what setuptools
cannot read from there: the extension, built by python/CMakeLists.txt, and
the version, which is the CMake project's. Everything it writes goes under
build/python/ (the CMake build, setuptools' build tree and egg-info), so the
source tree stays clean.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILD_BASE = Path("build") / "python"


def project_version():
    """The VERSION of project(pawntb ...) in the top CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    found = re.search(r"project\(pawntb\s+VERSION\s+([0-9.]+)", text)
    if not found:
        raise RuntimeError("CMakeLists.txt: no project(pawntb VERSION ...)")
    return found.group(1)


class CMakeExtension(Extension):
    """An extension that CMake builds: setuptools compiles no sources."""

    def __init__(self, name):
        super().__init__(name, sources=[])


class BuildWithCMake(build_ext):
    """Configures python/CMakeLists.txt, builds pawntb_python, and installs the
    component `python` (the extension and the tables) into the package tree."""

    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        prefix = target.parent.parent  # the directory that holds pawntb/
        cmake_build = Path(self.build_temp).resolve() / "cmake"
        configure = [
            "cmake", "-S", str(ROOT / "python"), "-B", str(cmake_build),
            "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}",
        ]
        try:  # the pybind11 that this Python has, if it says where its CMake files are
            import pybind11
            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except (ImportError, AttributeError):
            pass  # CMake looks in the system's places (Debian: pybind11-dev)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        build = ["cmake", "--build", str(cmake_build), "--target", "pawntb_python",
                 "--parallel", jobs]
        install = ["cmake", "--install", str(cmake_build), "--component", "python",
                   "--prefix", str(prefix)]
        for command in (configure, build, install):
            subprocess.run(command, check=True)
        if not target.is_file():
            raise RuntimeError(f"CMake built no {target.name} in {target.parent}: is CMake's "
                               f"Python ({sys.executable}) the one that builds the wheel?")

    def copy_extensions_to_source(self):
        """An editable install (pip install -e .) runs the package from
        python/pawntb: the tables go there too, next to the extension."""
        super().copy_extensions_to_source()
        tables = Path(self.build_lib) / "pawntb" / "share"
        if tables.is_dir():
            shutil.copytree(tables, ROOT / "python" / "pawntb" / "share", dirs_exist_ok=True)


def check_wheel_package():
    """pip's metadata and wheel steps need the `wheel` package (setuptools < 70
    does): say so plainly instead of setuptools' "invalid command
    'bdist_wheel'"."""
    if {"bdist_wheel", "dist_info", "editable_wheel"} & set(sys.argv):
        try:
            import wheel  # noqa: F401
        except ImportError:
            sys.exit("pawntb: building a wheel needs the Python package `wheel`, which this "
                     f"Python ({sys.executable}) lacks: use Debian's python3 with "
                     "tools/install-deps.sh (python3-wheel), in a venv made with "
                     "--system-site-packages")


check_wheel_package()
(ROOT / BUILD_BASE).mkdir(parents=True, exist_ok=True)
setup(
    version=project_version(),
    ext_modules=[CMakeExtension("pawntb._pawntb")],
    cmdclass={"build_ext": BuildWithCMake},
    options={"build": {"build_base": str(BUILD_BASE)},
             "egg_info": {"egg_base": str(BUILD_BASE)}},
    zip_safe=False,
)
