"""Issue 40: ``cardlab completion bash|zsh`` prints a completion script made from the parser;
bash, given the script, completes commands, options and choices."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from cardlab.cli.main import COMMANDS, main


def _script(shell: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


def _bash_completes(script: str, words: list[str]) -> list[str]:
    """What bash offers for the last word of ``words`` with the script loaded."""
    quoted = " ".join(f"'{w}'" for w in words)
    program = (f"source /dev/stdin <<'EOF'\n{script}\nEOF\nCOMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; "
               f"_shtab_cardlab cardlab '{words[-1]}' '{words[-2]}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_options_and_choices(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script("bash", capsys)
    assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0
    assert _bash_completes(script, ["cardlab", "bri"]) == ["bridge"]
    assert set(_bash_completes(script, ["cardlab", "poker", ""])) >= {name for g, name in COMMANDS if g == "poker"}
    assert _bash_completes(script, ["cardlab", "poker", "icm", "1,2", "--pay"]) == ["--payouts"]
    assert "omaha" in _bash_completes(script, ["cardlab", "poker", "equity", "AsKs", "--game", ""])


def test_zsh_script_names_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script("zsh", capsys)
    assert script.startswith("#compdef cardlab")
    assert all(name in script for _, name in COMMANDS) and "--payouts" in script
    if shutil.which("zsh"):
        assert subprocess.run(["zsh", "-n"], input=script, text=True).returncode == 0


def test_an_unknown_shell_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["completion", "bsh"])
    assert stop.value.code == 2 and "did you mean 'bash'?" in capsys.readouterr().err
