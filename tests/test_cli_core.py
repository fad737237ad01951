"""The command line's common behaviour: dispatch, exit codes, one-line errors."""

import subprocess
import sys

import pytest

from layoutcheck import LayoutError, cli
from layoutcheck.layout import LayoutBase


def run_cli(*argv):
    return subprocess.run([sys.executable, "-m", "layoutcheck", *argv],
                          capture_output=True, text=True, timeout=120)


def test_python_dash_m_lists_every_command():
    r = run_cli("--help")
    assert r.returncode == 0
    for name in cli.COMMANDS:
        assert name in r.stdout


def test_no_command_is_a_usage_error():
    assert run_cli().returncode == 2


def test_unknown_command_is_a_usage_error_on_one_line():
    r = run_cli("frobnicate")
    assert r.returncode == 2
    assert "invalid choice" in r.stderr and "Traceback" not in r.stderr


def test_layout_error_becomes_exit_2_and_one_line(capsys, monkeypatch):
    def boom(args):
        raise LayoutError("shape entry at mode (0) is 0", position=3, text="(0):(1)")

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    parser._subparsers._group_actions[0].choices["show"].set_defaults(_run=boom)
    assert cli.main(["show", "x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["layoutcheck show: shape entry at mode (0) is 0 at position 3 in '(0):(1)'"]


def test_internal_error_is_one_line_unless_debug(capsys, monkeypatch):
    def boom(args):
        raise RuntimeError("kaput")

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    parser._subparsers._group_actions[0].choices["show"].set_defaults(_run=boom)
    assert cli.main(["show", "x"]) == 2
    assert "internal error: RuntimeError: kaput" in capsys.readouterr().err
    assert cli.main(["--debug", "show", "x"]) == 2  # never 1: that means "a check failed"
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: kaput" in err


def test_layout_value_is_immutable_hashable_and_structural():
    a, b = LayoutBase((2, 3), (1, 2)), LayoutBase.parse("(_2,3):(1,_2)")
    assert a == b and hash(a) == hash(b) and str(a) != str(b)
    assert len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.x = 1
    assert LayoutBase.parse("(2,(3,4))") == LayoutBase((2, (3, 4)), (1, (2, 6)))
    assert str(LayoutBase.parse("(2,(3,4))")) == "(2,(3,4)):(_1,(2,6))"
