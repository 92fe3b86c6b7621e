"""The output folder: written beside it, switched in whole, one build at a time.

A build writes its products into a staging folder next to the output folder, on the same
filesystem (`.build.staging-<pid>-<random>` for `build/`), lists them with their sha256 in
`.edition-manifest.json`, and then exchanges the two folders in one `renameat2(RENAME_EXCHANGE)`:
at every moment, even if the process is killed, the output folder is the whole previous build or
the whole new one, and stays a real folder (not a symlink, which `cp -r` would copy dangling).
The previous generation, now in the staging folder, is then removed.

A lock on a file beside the output (`.build.lock`) keeps a second build out. While it is held,
every staging folder of that output is a killed build's, and is removed. An output folder that
holds files the manifest does not list (files no build made) is refused unless forced.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from ..errors import EditionError, interrupts_as_errors, os_error_parts, warn

MANIFEST = ".edition-manifest.json"
LIBC = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
RENAME_EXCHANGE = 2
PACKAGE = Path(str(resources.files("edition")))


def sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def files_under(folder: Path) -> list[str]:
    """Relative paths of everything under `folder` that is not a folder (symbolic links included)."""
    found = []
    for root, folders, files in os.walk(folder):
        here = Path(root)
        found += [
            (here / name).relative_to(folder).as_posix()
            for name in files + [f for f in folders if (here / f).is_symlink()]
        ]
    return sorted(found)


def listing(root: Path, paths: list[str] | None = None) -> list[str]:
    """`sha256sum` lines of the files under `root` (or of `paths` in it), sorted."""
    found = (
        paths
        if paths is not None
        else [p for p in files_under(root) if "__pycache__" not in Path(p).parts and not (root / p).is_symlink()]
    )
    return [f"{sha256(root / p)}  ./{p}\n" for p in sorted(found)]


def code_listing() -> list[str]:
    """The package's code (its schemas and data included) and pyproject.toml: what every build reads
    besides its sources."""
    lines = listing(PACKAGE)
    pyproject = PACKAGE.parent / "pyproject.toml"
    if pyproject.is_file():
        lines.append(f"{sha256(pyproject)}  pyproject.toml\n")
    return lines


def digest(lines: list[str]) -> str:
    return hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()


def inputs_digest(sources_dir: Path) -> str:
    """The sha256 of what a build reads: the sources, the package's code, the schemas and
    pyproject.toml, listed as `sha256sum` lists them folder by folder. The Makefile computes the
    same digest with coreutils, and builds only when it differs from the manifest's."""
    return digest(listing(sources_dir) + code_listing())


class Staging:
    """The next generation of the output folder, being written beside it."""

    def __init__(self, out: Path, root: Path, previous: dict[str, str]):
        self.out = out  # the output folder, which holds the previous build until the switch
        self.root = root
        self.previous = previous  # the previous build's files: path -> sha256
        self.timings: dict[str, float] = {}  # seconds of the stages that time themselves

    def inside(self, relative: str) -> Path:
        """The staged path of `relative`, which must resolve inside the staging folder."""
        path = self.root / relative
        if not path.resolve().is_relative_to(self.root.resolve()):
            raise EditionError(path, "would be written outside the build folder; nothing was written there")
        return path

    def under(self, folder: str) -> Staging:
        """The staging of one product folder (a chapter's build), its previous files included."""
        prefix = f"{folder}/"
        previous = {p[len(prefix) :]: h for p, h in self.previous.items() if p.startswith(prefix)}
        return Staging(self.out / folder, self.inside(folder), previous)

    def write(self, relative: str, data: bytes | str) -> Path:
        path = self.inside(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)  # it may be a hard link into the previous build
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        return path

    def keep(self, *products: str) -> None:
        """Carry the previous build's files over: those of the named products (top-level names), or
        all. They are hard links where the filesystem allows, so they are replaced, never written."""
        for relative in self.previous:
            if products and Path(relative).parts[0] not in products:
                continue
            target = self.root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(self.out / relative, target)
            except OSError:
                shutil.copy2(self.out / relative, target)

    def finish(self, inputs: str | None) -> None:
        files = {relative: sha256(self.root / relative) for relative in files_under(self.root)}
        manifest = {"inputs": inputs, "files": files}
        (self.root / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


@contextmanager
def staged(out: Path, sources_dir: Path, force: bool, carry: bool, complete: bool = True) -> Iterator[Staging]:
    """A staging folder for the next generation of `out`, switched in if the block succeeds and
    removed if it fails. With `carry` it starts with the previous build's products (`collate`
    replaces only some); otherwise, if the build is `complete` (built from all the sources as they
    are), the manifest records the digest of the inputs."""
    target = out.resolve()
    if target.exists() and not target.is_dir():
        raise EditionError(out, "is a file, not a folder: choose another --out")
    if sources_dir.resolve().is_relative_to(target):
        raise EditionError(out, "holds the sources: choose another --out")
    blocking = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise EditionError(out, f"{blocking} is a file, not a folder: choose another --out")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with locked(target, out):
            sweep(target)
            previous = made_before(target, out, force)
            check_replaceable(target)
            inputs = inputs_digest(sources_dir) if complete and not carry else None
            root = target.with_name(f".{target.name}.staging-{os.getpid()}-{secrets.token_hex(4)}")
            root.mkdir()
            staging = Staging(out, root, previous)
            try:
                with interrupts_as_errors(out, f"{out} is left as it was"):
                    if carry:
                        staging.keep()
                    yield staging
                    staging.finish(inputs)
                target.mkdir(exist_ok=True)  # so that there is always a folder to exchange with
                switch(root, target)
            except BaseException:
                shutil.rmtree(root, ignore_errors=True)
                raise
            remove_previous(root)
    except OSError as error:
        path, what = os_error_parts(error)
        raise EditionError(path or out, f"{what}; {out} is left as it was") from None


@contextmanager
def locked(target: Path, out: Path) -> Iterator[None]:
    """Hold the lock of `target`, or stop at once if another build holds it. The lock file stays:
    removing it would let two builds lock two different files."""
    with open(target.with_name(f".{target.name}.lock"), "a+", encoding="utf-8") as handle:
        if not take_lock(handle):
            handle.seek(0)
            holder = handle.read().strip() or "?"
            raise EditionError(out, f"another build into it is running (pid {holder})") from None
        handle.truncate(0)
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield


def take_lock(handle, wait_for_orphans: float = 10.0) -> bool:
    """flock the file; where the build that holds it is dead (its pid, written in the file, is
    gone), its workers are dying with it (the parent-death signal), so wait for them a moment."""
    deadline = time.monotonic() + wait_for_orphans
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            handle.seek(0)
            if alive(handle.read().strip()) or time.monotonic() > deadline:
                return False
            time.sleep(0.05)


def alive(pid: str) -> bool:
    """Whether the process of that pid exists (an unreadable pid counts as alive)."""
    try:
        os.kill(int(pid), 0)
    except (ValueError, OverflowError):
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def sweep(target: Path) -> None:
    """Remove what killed builds left beside `target` (none is running: the lock is held). A
    previous generation parked by the fallback switch is put back if `target` is missing."""
    for sibling in sorted(target.parent.iterdir()):
        if sibling.name.startswith(f".{target.name}.previous-") and not target.exists():
            os.rename(sibling, target)
        elif sibling.name.startswith((f".{target.name}.previous-", f".{target.name}.staging-")):
            try:
                remove(sibling)
            except OSError as error:  # its name is no new build's, so it stands in no one's way
                warn(
                    EditionError(
                        error.filename or sibling, f"{error.strerror}: a previous build's leftover could not be removed"
                    )
                )


def made_before(target: Path, out: Path, force: bool) -> dict[str, str]:
    """The previous build's files from its manifest. Files it does not list are not the build's
    to delete: they stop the build unless forced."""
    try:
        made = json.loads((target / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        made = {}
    present = [p for p in files_under(target) if p != MANIFEST]
    foreign = [p for p in present if p not in made]
    if foreign and not force:
        listed = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise EditionError(
            out, f"holds files no build made ({listed}): choose another --out, or --force to delete them"
        )
    return {p: made[p] for p in present if p in made}


def check_replaceable(target: Path) -> None:
    """The previous generation is deleted after the switch: a folder of it that cannot be written
    (read-only, immutable) stops the build before anything has changed."""
    for root, _, _ in os.walk(target):
        if not os.access(root, os.W_OK):
            raise EditionError(root, "cannot be written (read-only or immutable), so the build cannot replace it")


def switch(staging: Path, target: Path) -> None:
    """Put `staging` in place of `target` in one step; the previous generation ends at `staging`."""
    if exchange(staging, target):
        return
    # Where the filesystem cannot exchange, three renames: a kill after the first leaves no
    # `target` but the previous generation parked, which the next build's sweep puts back.
    parked = staging.with_name(staging.name.replace(".staging-", ".previous-", 1))
    os.rename(target, parked)
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(parked, target)
        raise
    os.rename(parked, staging)


def exchange(a: Path, b: Path) -> bool:
    """renameat2(a, b, RENAME_EXCHANGE); False where the C library or the filesystem cannot."""
    renameat2 = getattr(LIBC, "renameat2", None)  # glibc >= 2.28
    if renameat2 is None:
        return False
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def remove(folder: Path) -> None:
    """shutil.rmtree, naming in its error the full path of what could not be removed."""

    def fail(function, path, excinfo):
        raise OSError(excinfo[1].errno, excinfo[1].strerror, path) from None

    shutil.rmtree(folder, onerror=fail)


def remove_previous(root: Path) -> None:
    """The previous generation removed; what cannot be is a warning, since the new build is in place."""
    try:
        remove(root)
    except OSError as error:
        warn(
            EditionError(
                error.filename or root,
                f"{error.strerror}: the new build is in place, "
                "but the previous one could not be removed (the next build removes it)",
            )
        )
