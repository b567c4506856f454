"""Builds the Python package pawntb's extension through CMake.

The package's metadata is in pyproject.toml; this file adds what setuptools
cannot read from there: the extension, built by python/CMakeLists.txt, and
the version, which is the CMake project's; and, for a Python without the
`wheel` package, a bdist_wheel command of its own. Everything it writes goes
under build/python/ (the CMake build, setuptools' build tree and egg-info), so
the source tree stays clean.
"""

import base64
import csv
import hashlib
import io
import importlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import setuptools
from setuptools import Command, Extension, setup
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
            "-DCMAKE_BUILD_TYPE=Release",
            # This Python's headers, also when the build directory was last
            # configured for another Python of the same version (FindPython
            # keeps the include directory it found first).
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-DPython_INCLUDE_DIR={sysconfig.get_path('include')}",
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


def wheel_tag():
    """The wheel's tag (PEP 425) for an extension of this Python: cp311-cp311-
    linux_x86_64 for CPython 3.11 on x86-64 Linux, as the `wheel` package
    writes it. The ABI comes from the interpreter's SOABI (cpython-311-x86_64-
    linux-gnu: cp311; cpython-313t-...: cp313t)."""
    implementation = {"cpython": "cp", "pypy": "pp"}.get(sys.implementation.name,
                                                          sys.implementation.name)
    python = f"{implementation}{sys.version_info.major}{sys.version_info.minor}"
    soabi = sysconfig.get_config_var("SOABI") or ""
    if soabi.startswith("cpython-"):
        abi = "cp" + soabi.split("-")[1]
    else:
        abi = "_".join(soabi.split("-")[:2]).replace(".", "_") or "none"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if platform == "linux_x86_64" and sys.maxsize <= 2**32:
        platform = "linux_i686"  # a 32-bit Python on a 64-bit kernel
    return f"{python}-{abi}-{platform}"


def requires_dist(requires_txt):
    """Requires-Dist lines (core metadata 2.1) from an egg-info's requires.txt,
    whose [extra], [:marker] and [extra:marker] sections hold conditional
    requirements."""
    lines, marker = [], ""
    for line in requires_txt.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            extra, _, condition = line[1:-1].partition(":")
            conditions = [f"({condition})"] if condition else []
            conditions += [f'extra == "{extra}"'] if extra else []
            marker = " and ".join(conditions)
        else:
            lines.append(f"Requires-Dist: {line}; {marker}" if marker else f"Requires-Dist: {line}")
    return lines


class BdistWheel(Command):
    """bdist_wheel for a Python that has no `wheel` package (setuptools before
    70.1 has no bdist_wheel of its own), as pyenv's and Debian's ensurepip
    venvs: a wheel (PEP 427) is a zip of the built tree and a .dist-info
    directory with METADATA, WHEEL and RECORD, which the standard library
    writes. setuptools' dist_info command (pip's metadata step) calls
    egg2dist(). Where `wheel` or setuptools has bdist_wheel, theirs is used."""

    description = "build a wheel (PEP 427) with the standard library"
    user_options = [("dist-dir=", "d", "directory to put the wheel in")]

    def initialize_options(self):
        self.dist_dir = None

    def finalize_options(self):
        self.dist_dir = self.dist_dir or "dist"

    def egg2dist(self, egg_info_dir, dist_info_dir):
        """Writes dist_info_dir/METADATA from egg_info_dir's PKG-INFO and
        requires.txt (the one thing setuptools' dist_info needs of bdist_wheel)."""
        egg_info, dist_info = Path(egg_info_dir), Path(dist_info_dir)
        headers, blank, body = (egg_info / "PKG-INFO").read_text(encoding="utf-8").partition("\n\n")
        requires = egg_info / "requires.txt"
        if requires.is_file() and "\nRequires-Dist:" not in headers:
            headers = "\n".join([headers, *requires_dist(requires.read_text(encoding="utf-8"))])
        if dist_info.exists():
            shutil.rmtree(dist_info)
        dist_info.mkdir(parents=True)
        (dist_info / "METADATA").write_text(headers + blank + body, encoding="utf-8")
        for name in ("entry_points.txt", "top_level.txt"):  # as the `wheel` package
            if (egg_info / name).is_file():
                shutil.copy2(egg_info / name, dist_info / name)

    def run(self):
        self.run_command("build")
        build_lib = Path(self.get_finalized_command("build").build_lib)
        self.run_command("egg_info")
        egg_info_dir = self.get_finalized_command("egg_info").egg_info
        dist = self.distribution
        name = re.sub(r"[^\w\d.]+", "_", dist.get_name())
        version = dist.get_version().replace("-", "_")
        dist_info_name = f"{name}-{version}.dist-info"
        dist_info = Path(self.get_finalized_command("build").build_temp) / dist_info_name
        self.egg2dist(egg_info_dir, dist_info)
        (dist_info / "WHEEL").write_text(
            "Wheel-Version: 1.0\n"
            f"Generator: pawntb setup.py (setuptools {setuptools.__version__})\n"
            "Root-Is-Purelib: false\n"
            f"Tag: {wheel_tag()}\n", encoding="utf-8")
        files = [(path, path.relative_to(build_lib).as_posix())
                 for path in sorted(build_lib.rglob("*")) if path.is_file()]
        files += [(path, f"{dist_info_name}/{path.name}")
                  for path in sorted(dist_info.iterdir()) if path.is_file()]
        wheel = Path(self.dist_dir) / f"{name}-{version}-{wheel_tag()}.whl"
        wheel.parent.mkdir(parents=True, exist_ok=True)
        partial = wheel.with_name(wheel.name + ".tmp")
        record = io.StringIO()
        rows = csv.writer(record, lineterminator="\n")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
            for path, name_in_wheel in files:
                data = path.read_bytes()
                digest = hashlib.sha256(data).digest()
                hashed = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
                rows.writerow([name_in_wheel, f"sha256={hashed}", len(data)])
                archive.write(path, name_in_wheel)
            rows.writerow([f"{dist_info_name}/RECORD", "", ""])
            archive.writestr(f"{dist_info_name}/RECORD", record.getvalue())
        os.replace(partial, wheel)
        self.announce(f"wrote {wheel}", 2)


def has_bdist_wheel():
    """Whether setuptools (70.1 and later) or the `wheel` package supplies
    bdist_wheel."""
    for module in ("setuptools.command.bdist_wheel", "wheel.bdist_wheel"):
        try:
            importlib.import_module(module)
            return True
        except ImportError:
            pass
    return False


def check_editable_wheel():
    """An editable install (pip install -e .) needs the `wheel` package with
    setuptools before 70.1: say so plainly instead of "No module named
    'wheel'"."""
    if "editable_wheel" in sys.argv and not has_bdist_wheel():
        sys.exit("pawntb: an editable install (pip install -e .) needs the Python package "
                 f"`wheel`, which this Python ({sys.executable}) lacks: install without -e, "
                 "or with Debian's python3 (python3-wheel) in a venv made with "
                 "--system-site-packages")


check_editable_wheel()
(ROOT / BUILD_BASE).mkdir(parents=True, exist_ok=True)
setup(
    version=project_version(),
    ext_modules=[CMakeExtension("pawntb._pawntb")],
    cmdclass={"build_ext": BuildWithCMake,
              **({} if has_bdist_wheel() else {"bdist_wheel": BdistWheel})},
    options={"build": {"build_base": str(BUILD_BASE)},
             "egg_info": {"egg_base": str(BUILD_BASE)}},
    zip_safe=False,
)
