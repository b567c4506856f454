"""The examples of docs/python.md and of the package's docstrings run as
doctests, and the stubs name everything the package has."""

import ast
import doctest
from pathlib import Path

import pawntb
from conftest import REPO


def test_docs_python_md_examples(monkeypatch):
    monkeypatch.chdir(REPO)  # the examples open data/ files by relative path
    monkeypatch.delenv("PAWNTB_TABLE", raising=False)
    failed, tried = doctest.testfile(str(REPO / "docs" / "python.md"), module_relative=False,
                                     optionflags=doctest.ELLIPSIS, verbose=False)
    assert tried > 20 and failed == 0


def test_package_docstring_examples(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PAWNTB_TABLE", raising=False)
    failed, tried = doctest.testmod(pawntb, optionflags=doctest.ELLIPSIS)
    assert tried > 3 and failed == 0


def stub_names():
    """The names the stub file gives at its top level and in each class."""
    tree = ast.parse((Path(pawntb.__file__).parent / "_pawntb.pyi").read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return top, members


def test_stubs_name_everything_and_every_function_has_a_docstring():
    top, members = stub_names()
    from pawntb import _pawntb

    public = {n for n in dir(_pawntb) if not n.startswith("_")} | {"__version__"}
    assert public == top - {n for n in top if n.startswith("_") and n != "__version__"}
    for cls in (pawntb.Table, pawntb.Result, pawntb.Move, pawntb.Value):
        names = {n for n in vars(cls) if not n.startswith("_")}
        assert names == {n for n in members[cls.__name__] if not n.startswith("_")}, cls
        assert cls.__doc__
        for name in names:
            assert getattr(cls, name).__doc__, f"{cls.__name__}.{name} has no docstring"
    for name in pawntb.__all__:
        assert getattr(pawntb, name).__doc__ or name == "__version__", name
    assert (Path(pawntb.__file__).parent / "py.typed").is_file()
