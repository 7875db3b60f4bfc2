"""No command writes onto what it reads or keeps: one guard for every output option of every command.

The grammar declares what a command writes and reads by the types of its options (:mod:`planner.commands.argtypes`):
``out_file``/``out_folder`` options are outputs, ``in_file`` and ``feed`` options inputs; a command's companion files
(the handout's PNG pages beside its PDF) are patterns in its defaults (``out_companions``). :func:`declare` reads
them off the parser once; :func:`guard` runs before the handler and refuses, in one line and before anything is
computed or written, an output that is (by its resolved path, so also through a symlink, or by its inode, so also
through a hard link) the state file or one of SQLite's files beside it, a file inside the cache folder, an input of
the run (a feed folder counts with every file in it), or another output of the same run.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from planner import config
from planner.commands import argtypes
from planner.errors import InputError
from planner.util.i18n import N_, _

OUTPUT_TYPES = (argtypes.out_file, argtypes.out_folder)
INPUT_TYPES = (argtypes.in_file, argtypes.feed)
STATE_SIBLINGS = ("", "-wal", "-shm", "-journal")  # SQLite's files of one database


def declare(parser: argparse.ArgumentParser) -> None:
    """Record on every command of ``parser`` (as defaults ``outputs`` and ``inputs``: option names) which of its
    options it writes to and which it reads from, by their types."""
    for action in parser._actions:  # argparse has no public walk over its actions
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                declare(sub)
    opts = [a for a in parser._actions if a.option_strings and a.type is not None]
    outs = tuple((a.dest, a.option_strings[0], a.type is argtypes.out_folder) for a in opts if a.type in OUTPUT_TYPES)
    ins = tuple((a.dest, a.option_strings[0]) for a in opts if a.type in INPUT_TYPES)
    if outs:
        parser.set_defaults(outputs=outs, inputs=ins)
    if any(not folder for _dest, _opt, folder in outs):
        parser.add_argument("--force", action="store_true",
                            help=N_("replace an output file that exists (never the state, the cache or an input)"))


@dataclass(frozen=True)
class _Kept:
    """Something a run must not write onto: ``path`` (every file below it when ``folder``); ``refusal`` is the
    whole message (fields ``{option}``, ``{path}``, ``{kept}``, ``{input}``)."""

    path: Path
    refusal: str
    folder: bool = False
    input: str = ""


def guard(args: argparse.Namespace) -> None:
    """Refuse (:class:`InputError`, exit 2) an output of this run that would replace what it reads or keeps, or
    another of its outputs; nothing is written before this has passed."""
    outs = [(opt, Path(getattr(args, dest)), folder) for dest, opt, folder in getattr(args, "outputs", ())
            if getattr(args, dest, None)]
    if not outs:
        return
    kept = list(_kept(args))
    claimed: list[tuple[str, Path]] = []
    for opt, path, folder in outs:
        if folder:  # a folder the command writes new files into: only never into the cache
            _refuse_inside(opt, path, str(path), [k for k in kept if k.path == config.cache_root()])
            continue
        for claim in [path, *_companions(args, path)]:
            # a companion is named with the output it goes beside: "--out h.pdf (h-join.pdf beside it)"
            shown = str(path) if claim == path else _("{path} ({companion} beside it)").format(path=path,
                                                                                             companion=claim.name)
            _refuse_inside(opt, claim, shown, kept)
            refuse_existing(args, opt, claim, shown)
            for other_opt, other in claimed:
                if _same(claim, other):
                    raise InputError(_("{option} {path}: is also written by {other} of this command: nothing "
                                       "written").format(option=opt, path=shown, other=other_opt))
            claimed.append((opt, claim))


def refuse_existing(args: argparse.Namespace, opt: str, path: Path, shown: str | None = None) -> None:
    """Refuse (:class:`InputError`) to write ``path`` when a file is there (a pattern: any file it matches) and
    the command was not given ``--force``: a run replaces no file it did not create."""
    if getattr(args, "force", False):
        return
    hits = sorted(path.parent.glob(path.name)) if _pattern(path) else [path] if os.path.lexists(path) else []
    if hits and hits[0] == path:
        raise InputError(_("{option} {path}: the file exists; pass --force to replace it: nothing written").format(
            option=opt, path=shown or path))
    if hits:
        raise InputError(_("{option} {path}: {existing} exists; pass --force to replace it: nothing written").format(
            option=opt, path=shown or path, existing=hits[0]))


def _kept(args: argparse.Namespace) -> Iterator[_Kept]:
    from planner.store.db import default_state_path  # only when a command with outputs runs

    state = default_state_path()
    for suffix in STATE_SIBLINGS:
        yield _Kept(state.with_name(state.name + suffix),
                    _("{option} {path}: is the state file {kept} (every game, token and ledger): nothing written"))
    yield _Kept(config.cache_root(), _("{option} {path}: is inside the cache folder {kept}: nothing written"),
                folder=True)
    yield _Kept(config.config_path(), _("{option} {path}: is the config file {kept}: nothing written"))
    for dest, opt in getattr(args, "inputs", ()):
        value = getattr(args, dest, None)
        if dest == "feed" and not value:
            value = config.default_feed()
        if dest == "game" and not value:
            value = config.default_game()
        if not value or str(value).startswith(("http://", "https://")):
            continue  # a URL's copy lives in the cache
        if dest == "game" and (value == "none" or (not str(value).endswith(".toml") and not Path(value).exists())):
            continue  # a shipped game, read from the package
        p = Path(value).expanduser()
        yield _Kept(p, _("{option} {path}: is {kept}, which this command reads ({input}): nothing written"),
                    folder=p.is_dir(), input=opt)


def _companions(args: argparse.Namespace, path: Path) -> list[Path]:
    """The files a command writes beside an output (patterns of its ``out_companions``)."""
    return [path.with_name(pattern.format(stem=path.stem)) for pattern in getattr(args, "out_companions", ())]


def _refuse_inside(opt: str, claim: Path, shown: str, kept: list[_Kept]) -> None:
    for k in kept:
        if _same(claim, k.path) or (k.folder and _below(claim, k.path)):
            raise InputError(k.refusal.format(option=opt, path=shown, kept=k.path, input=k.input))


def _resolved(p: Path) -> Path:
    try:
        return p.expanduser().resolve()
    except (OSError, RuntimeError):  # a symlink loop: compared as given
        return p.expanduser().absolute()


def _same(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` are one file: one resolved path (a pattern in ``a`` or ``b`` matches the other),
    or one inode (a hard link)."""
    ra, rb = _resolved(a), _resolved(b)
    if ra == rb or (_pattern(a) and fnmatch.fnmatchcase(str(rb), str(ra))) or \
            (_pattern(b) and fnmatch.fnmatchcase(str(ra), str(rb))):
        return True
    try:
        return os.path.samefile(ra, rb)
    except OSError:  # one of them does not exist: not the same file
        return False


def _pattern(p: Path) -> bool:
    return any(c in p.name for c in "*?[")


def _below(claim: Path, folder: Path) -> bool:
    """True when ``claim`` lies inside ``folder`` (resolved), or is a hard link of a file in it."""
    rc, rf = _resolved(claim), _resolved(folder)
    if rc.is_relative_to(rf):
        return True
    try:
        st = os.stat(rc)
    except OSError:
        return False
    if st.st_nlink < 2 or not rf.is_dir():
        return False
    for root, _dirs, files in os.walk(rf):
        for name in files:
            try:
                other = os.stat(os.path.join(root, name), follow_symlinks=False)
            except OSError:
                continue
            if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
                return True
    return False
