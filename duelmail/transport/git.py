"""Play by git: a repository holds one folder per game (``KIND-GAMEID/genesis.toml``, ``r0007-s1.toml``...).

Only the ``git`` binary is used (``subprocess``). Per-seat file names mean concurrent answers add
different files, so a rebase never conflicts on a turn. The README files the tool keeps are merged
with git's built-in ``union`` driver (``.gitattributes``) and rewritten after every rebase, so they
never block a sync either. Nothing here trusts a commit: ``tree_files`` and ``read`` hand incoming files
to the caller, which verifies them before anything is applied.

"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from duelmail.errors import DuelmailError
from duelmail.protocol.turnfile import MAX_FILE, FormatError
from duelmail.transport.archive import TURN_NAME
from duelmail.util.classes import dataclass
from duelmail.util.fs import atomic_write

ATTRIBUTES = "README.md merge=union\n*/README.md merge=union\nfinished/*.md merge=union\n"
GAME_DIR = re.compile(r"[a-z][a-z0-9_]*-[0-9a-f]{12}")
LISTING = re.compile(r"finished/[0-9]{4}-[0-9]{2}\.md")  # the finished games of a month (the top README links them)
BATCH = 4096  # blobs read by one ``git cat-file --batch`` (a few MB of turn files)
CLEAN = "duelmail-clean"  # in the git folder: the last sync ended and left nothing uncommitted
SPLIT_AT = 100_000  # files in git's index from which the clone is made sparse (``GitRepo.sparse``), else split
_CONE_NAME = re.compile(r"[A-Za-z0-9._-]+")  # a folder a cone names (nothing git's patterns would escape)
SLOW = 3600  # seconds a git command that walks the whole working tree once may take (making a clone sparse)
SPARSE = "duelmail.sparse"  # in a clone's config: duelmail made it a sparse checkout (and keeps its cone)
# Nothing of duelmail's lies outside the cone (a folder is put in it before anything is written there), so git need
# not look for such files: without this, every command that reads a sparse index stats each folder left out.
EXPECT = "sparse.expectfilesoutsideofpatterns"
SHELF = "finished-games"  # the branch a club's finished games move to, so the branch in play holds few of them
SHELVE_AT = 100  # finished games in the branch in play from which a sync moves them all to ``SHELF``


class GitError(DuelmailError):
    """A git command failed, or a folder is not a usable game repository."""


class PushRefused(GitError):
    """The host refused a push for a reason of its own (a protected branch, a pre-receive hook), not because the
    branch moved: pushing again changes nothing. The message quotes git's reason and what the host said."""


# how 'git push' reports a ref it did not update: " ! [rejected]        HEAD -> main (fetch first)",
# " ! [remote rejected] HEAD -> main (pre-receive hook declined)"
_PUSH_STATUS = re.compile(r"^\s*! \[(rejected|remote rejected)\][^(\n]*\((.*)\)\s*$", re.M)
_MOVED = ("fetch first", "non-fast-forward", "cannot lock ref", "failed to update ref", "failed to lock",
          "incorrect old value", "but expected", "stale info")  # another push got there first


def _push_outcome(stderr: str) -> tuple[bool, str]:
    """(whether the branch moved meanwhile, the host's own reason for refusing the push or "")."""
    moved, refused = False, ""
    for kind, reason in _PUSH_STATUS.findall(stderr):
        if kind == "rejected" or any(m in reason for m in _MOVED):
            moved = True
        elif not refused:
            refused = reason.strip()
    return moved, refused


def is_turn_path(path: str) -> bool:
    parts = path.split("/")
    return (len(parts) == 2 and bool(GAME_DIR.fullmatch(parts[0]))
            and (parts[1] == "genesis.toml" or bool(TURN_NAME.fullmatch(parts[1]))))


VIEWS = ("README.md", "table.svg", "replay.html")  # what the tool keeps beside each game's files


def is_ours(path: str) -> bool:
    """A path duelmail writes in a repository: a game's files and views, the index README, .gitattributes."""
    parts = path.split("/")
    if len(parts) == 1:
        return path in ("README.md", ".gitattributes")
    if LISTING.fullmatch(path):
        return True
    return is_turn_path(path) or len(parts) == 2 and bool(GAME_DIR.fullmatch(parts[0])) and parts[1] in VIEWS


def _clean_message(message: str) -> str:
    """A commit message as ``git commit -m`` leaves it: trailing spaces cut, blank lines at either end dropped and
    runs of them made one, a newline at the end."""
    lines, out = [line.rstrip() for line in message.splitlines()], []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


@dataclass
class Incoming:
    path: str  # inside the repository
    commit: str  # the commit that added it (short hash)
    text: str
    blob: str


class GitRepo:
    """A working clone (or a fresh repository) driven through the ``git`` binary."""

    def __init__(self, path: Path | str, author: tuple[str, str] | None = None):
        self.path = Path(path)
        self.author = author  # used only when the repository has no user.name/user.email of its own
        self.aside: list[str] = []  # what was set aside in the clone (symbolic links someone pushed), in words
        self._staged: dict[str, None] = {}  # paths ``add`` staged that git's index does not hold yet (``flush``)
        self._index_moved = False  # git's index was changed otherwise since the last commit: it is committed whole
        self._git_dir: Path | None = None  # (``git_dir``, asked of git once)
        self.cone: set[str] | None = None  # a sparse clone of duelmail's (``sparse``): the folders in its cone

    # -- plumbing ---------------------------------------------------------------------------
    def git(self, *args: str, check: bool = True, input: str | bytes | None = None,
            env: dict[str, str] | None = None, timeout: float = 120, raw: bool = False) -> subprocess.CompletedProcess:
        """Run git here; text in and out, or bytes when ``raw`` (or ``input`` is bytes)."""
        base = dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_EDITOR="true", LC_ALL="C")
        if self.author and not self._has_user():
            name, addr = self.author
            base.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=addr, GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=addr)
        env = {**base, **(env or {})}
        try:
            res = subprocess.run(["git", "-C", str(self.path), *args], capture_output=True, env=env, input=input,
                                 text=not (raw or isinstance(input, bytes)), timeout=timeout)
        except FileNotFoundError:
            raise GitError("the 'git' program is not installed (apt-get install git)") from None
        except subprocess.TimeoutExpired:
            raise GitError(f"{self.path}: git {' '.join(args)} did not end in {timeout:.0f} s (stopped); the next sync "
                           "goes on from where it stopped") from None
        if check and res.returncode != 0:
            said = res.stderr or res.stdout
            said = said.decode(errors="replace") if isinstance(said, bytes) else said
            raise GitError(f"{self.path}: git {' '.join(args)} failed: {said.strip()}")
        return res

    def _has_user(self) -> bool:
        """Whether git knows who commits here (repository, global or system config); else ``author`` is used."""
        if getattr(self, "_user", None) is None:
            try:
                res = subprocess.run(["git", "-C", str(self.path), "config", "--get", "user.email"],
                                     capture_output=True, text=True, timeout=30)
                self._user = res.returncode == 0 and bool(res.stdout.strip())
            except FileNotFoundError:
                self._user = False
        return self._user

    def out(self, *args: str) -> str:
        return self.git(*args).stdout.strip()

    # -- set-up ------------------------------------------------------------------------------
    def is_repo(self) -> bool:
        if not self.path.is_dir():
            return False
        res = self.git("rev-parse", "--show-toplevel", check=False)
        return res.returncode == 0 and Path(res.stdout.strip()).resolve() == self.path.resolve()

    def init(self) -> bool:
        """Make the folder a game repository (``git init`` when it is not one); True if it was created."""
        created = False
        if not self.is_repo():
            if self.path.exists() and any(self.path.iterdir()):
                raise GitError(f"{self.path}: not a git repository and not empty; use an empty folder or a clone")
            self.path.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")
            self._git_dir = None  # (a folder inside another repository named that one's)
            created = True
        if self.attributes():
            self.add(".gitattributes")
            self.commit("duelmail: README files and finished-game listings merge by union (the tool writes them)")
        return created

    def attributes(self) -> bool:
        """``.gitattributes`` merges the files the tool keeps by union: the lines it lacks are added (not staged);
        whether it changed."""
        attrs = self.plain(".gitattributes")
        text = attrs.read_text(errors="replace") if attrs.exists() else ""
        missing = [line for line in ATTRIBUTES.splitlines() if line not in text.splitlines()]
        if missing:
            atomic_write(attrs, text + ("" if not text or text.endswith("\n") else "\n") + "".join(
                f"{line}\n" for line in missing))
        return bool(missing)

    def split_index(self, most: int | None = None) -> bool:
        """From ``most`` files on, keep git's index in two files (``core.splitIndex``): a shared one, the whole
        repository's, written once, and a small one of what changed since, which is all a ``git update-index``
        writes; in version 4 (each path stored as what it adds to the one before). Set in this clone's config, never
        globally, once: a clone whose index grows past ``most`` gets it at its next sync (git reads a split index;
        libgit2 does not, so a smaller clone's is left as git writes it, and so is a clone whose config says
        ``core.splitIndex = false``). True when it was set now."""
        most = SPLIT_AT if most is None else most
        if self.cone is not None or self._entries() < most:
            return False
        if self.git("config", "--get", "core.splitIndex", check=False).returncode == 0:
            return False  # set already, or set to false by whoever keeps the clone: left as it is
        self.git("config", "core.splitIndex", "true")
        self.git("config", "index.version", "4")
        self.flush()
        self.git("update-index", "--index-version", "4")
        self.git("update-index", "--split-index")  # the shared index: written once, here
        return True

    def _entries(self) -> int:
        """How many entries git's index holds, read from its header (a split index: its shared part's too)."""
        counts = []
        for p in [self.git_dir / "index", *self.git_dir.glob("sharedindex.*")]:
            try:
                with open(p, "rb") as f:
                    head = f.read(12)  # "DIRC", version, entries
            except OSError:
                continue
            if len(head) == 12 and head[:4] == b"DIRC":
                counts.append(int.from_bytes(head[8:], "big"))
        return max(counts, default=0)

    def sparse(self, keep, most: int | None = None) -> bool:
        """From ``most`` files on (``SPLIT_AT``), make the clone a sparse checkout in cone mode with a sparse index
        (in its own config, never globally): its working tree holds the root's files and the folders ``keep()``
        names (called only then: the games in play, ``finished/``), and git's index a line per file of those and
        one per folder left out, so that a turn's ``update-index`` reads some 10,000 entries, not 1.34 M. The
        folders left out stay in the repository (every read of the history is of git's objects); a folder is put
        back in the cone before anything is written in it (``widen``) and a finished game's leaves it (``narrow``).
        A clone whose keeper configured a sparse checkout (or ``core.sparseCheckout = false``) is left alone.
        Sets ``cone`` when the clone is duelmail's sparse one; True when it was made sparse now."""
        most = SPLIT_AT if most is None else most
        info = self.git_dir / "info" / "sparse-checkout"
        if self.cone is not None or (not info.exists() and self._entries() < most):
            return False
        config = self._sparse_config()
        if config.get(SPARSE) != "true":
            if "core.sparsecheckout" in config:
                return False  # the keeper's own choice: left as it is
            self.git("config", SPARSE, "true")  # first: a sync killed below does it again, as duelmail's
        elif config.get("core.sparsecheckout", "true") != "true":
            return False  # set to false since: the keeper's choice (true, with its cone: ``load_cone`` read it)
        self.flush()
        if self.git("config", "--type=bool", "--get", "core.splitIndex", check=False).stdout.strip() == "true":
            self.git("config", "--unset", "core.splitIndex")  # git makes no sparse index of a split one
            self.git("update-index", "--no-split-index", timeout=SLOW)
        folders = sorted({f for f in keep() if _CONE_NAME.fullmatch(f) and f not in (".", "..", ".git")})
        info.parent.mkdir(exist_ok=True)  # the cone written first: a sync killed in ``set`` below is finished by
        atomic_write(info, "/*\n!/*/\n" + "".join(f"/{f}/\n" for f in folders))  # the next (``recover``)
        self.git("sparse-checkout", "set", "--cone", "--sparse-index", "--stdin", input="".join(
            f"{f}\n" for f in folders), timeout=SLOW)  # once: every file left out is taken out of the working tree
        if EXPECT not in config:  # (set by whoever keeps the clone: left as it is)
            self.git("config", EXPECT, "true")
        self.cone = self._read_cone(info)
        return True

    def unsparse(self, most: int | None = None) -> bool:
        """Undo ``sparse`` once HEAD holds fewer than ``most`` files again (its finished games moved to their own
        branch): every file of HEAD back in the working tree, an ordinary clone (one that grows past ``most`` again
        is made sparse again). Only duelmail's own sparse clone; True when it was undone now."""
        most = SPLIT_AT if most is None else most
        if self.cone is None or self.git("ls-tree", "-r", "-z", "--name-only", "HEAD").stdout.count("\0") >= most:
            return False
        self.flush()
        self.git("sparse-checkout", "disable", timeout=SLOW)
        for key in (SPARSE, "core.sparseCheckout", "index.sparse"):
            for scope in ("--local", "--worktree"):  # (git's sparse-checkout writes the worktree's own config)
                self.git("config", scope, "--unset", key, check=False)
        (self.git_dir / "info" / "sparse-checkout").unlink(missing_ok=True)
        self.cone = None
        return True

    def _sparse_config(self) -> dict[str, str]:
        """``core.sparseCheckout`` (any scope, the worktree's included), ``duelmail.sparse`` and ``EXPECT``, as
        set."""
        res = self.git("config", "--get-regexp", rf"^(core\.sparsecheckout|duelmail\.sparse|{re.escape(EXPECT)})$",
                       check=False)
        return dict(line.partition(" ")[::2] for line in res.stdout.splitlines())

    def load_cone(self) -> None:
        """Read ``cone`` when this is duelmail's sparse clone (one ``git config`` when the clone has a
        ``sparse-checkout`` file at all)."""
        info = self.git_dir / "info" / "sparse-checkout"
        if self.cone is None and info.exists():
            config = self._sparse_config()
            if config.get(SPARSE) == "true" and config.get("core.sparsecheckout") == "true":
                self.cone = self._read_cone(info)
                if EXPECT not in config:  # a clone made sparse before duelmail set it
                    self.git("config", EXPECT, "true")

    @staticmethod
    def _read_cone(info: Path) -> set[str]:
        """The top folders a cone-mode ``sparse-checkout`` file names (``/folder/``)."""
        return {line.strip("/") for line in info.read_text(errors="replace").splitlines()
                if re.fullmatch(r"/[^/*!#\\]+/", line)}

    def outside(self, folder: str) -> bool:
        """Whether ``folder`` (a top folder) is left out of this sparse clone's working tree."""
        return self.cone is not None and folder not in self.cone

    def export_head(self, dest: Path, ref: str = "HEAD") -> Path:
        """HEAD's (or ``ref``'s) game folders written into ``dest`` (``git archive``: what a sparse clone leaves out of
        its working tree too, and the finished games' branch), for what reads games from folders (``git site``); a
        folder ``dest`` holds already is left as it is. ``dest``."""
        import tarfile

        folders = [item.partition("\t")[2] for item in self.git("ls-tree", "-z", ref).stdout.split("\0")
                   if item.split(" ", 2)[1:2] == ["tree"] and not (dest / item.partition("\t")[2]).exists()]
        names = [n for n in folders if GAME_DIR.fullmatch(n)]
        others = [n for n in folders if not GAME_DIR.fullmatch(n) and n != "finished" and not n.startswith(".")
                  and "\n" not in n]  # a folder its club renamed: a game's if it holds a genesis
        if others:
            res = self.git("cat-file", "--batch-check", input="".join(f"{ref}:{n}/genesis.toml\n" for n in others))
            names += [n for n, line in zip(others, res.stdout.splitlines(), strict=False)
                      if line.split()[1:2] == ["blob"]]
        if names:
            proc = subprocess.Popen(["git", "-C", str(self.path), "archive", "--format=tar", ref, "--", *names],
                                    stdout=subprocess.PIPE)
            with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
                tar.extractall(dest, filter="data")  # (no link, no path out of dest: whatever was pushed)
            if proc.wait():
                raise GitError(f"{self.path}: git archive {ref} failed")
        return dest

    def left_out(self, path: str) -> bool:
        """Whether ``path`` lies in a folder left out of this sparse clone's working tree (a root file never)."""
        return "/" in path and self.outside(path.split("/", 1)[0])

    def widen(self, folders) -> None:
        """Put these top folders in the cone (``git sparse-checkout add``: their files come into the working
        tree) before anything is written in them; nothing for a clone that is not duelmail's sparse one."""
        new = sorted({f for f in folders if self.outside(f) and _CONE_NAME.fullmatch(f) and f not in (".", "..")})
        if new:
            self.flush()
            self.git("sparse-checkout", "add", "--stdin", input="".join(f"{f}\n" for f in new))
            self.cone = (self.cone or set()) | set(new)

    def narrow(self, drop) -> bool:
        """Take these top folders out of the cone (``git sparse-checkout set``: their files leave the working
        tree, not the repository); only when everything is committed. Whether it did."""
        gone = {f for f in drop if self.cone is not None and f in self.cone}
        if not gone:
            return False
        self.flush()
        self.git("sparse-checkout", "set", "--cone", "--sparse-index", "--stdin", input="".join(
            f"{f}\n" for f in sorted(self.cone - gone)))
        self.cone = self.cone - gone
        return True

    def remote(self) -> str | None:
        remotes = self.out("remote").split()
        return "origin" if "origin" in remotes else (remotes[0] if remotes else None)

    def branch(self) -> str:
        name = self.git("symbolic-ref", "--short", "-q", "HEAD", check=False).stdout.strip()
        if not name:
            raise GitError(f"{self.path}: HEAD is detached (check out a branch first)")
        return name

    def has_commits(self) -> bool:
        return self.git("rev-parse", "-q", "--verify", "HEAD", check=False).returncode == 0

    # -- commits -----------------------------------------------------------------------------
    def commit(self, message: str, author: tuple[str, str] | None = None) -> bool:
        """Commit what is staged, authored by ``author`` (name, email) if given; False when nothing is staged.

        Built by git's plumbing, never ``git commit``: that one checks every file of the working tree (one ``lstat``
        each, some 1.27 M in a club's repository of 10,000 long games). The tree is HEAD's with only the folders of
        the paths ``add`` staged made again (``_tree_with``: ``hash-object`` of those files, ``ls-tree`` and
        ``mktree`` of their folders and of the root), so git's index, a line per file of the whole repository, is
        neither read nor written to build it; it is brought up to date once, after (``flush``). When the index was
        changed otherwise (``git add -A``, ``git rm --cached``), or there is no HEAD yet, the tree is the index's
        (``write-tree``). Then ``commit-tree`` and ``update-ref``: an ordinary commit, signed when
        ``commit.gpgsign`` is set; git's commit hooks do not run."""
        try:
            res = self.git("rev-parse", "HEAD^{commit}", "HEAD^{tree}", "--", check=False)  # (one process for both)
            ids = [x for x in res.stdout.split() if re.fullmatch(r"[0-9a-f]{40,64}", x)]
            parent, base = ids if res.returncode == 0 and len(ids) == 2 else ("", "")
            tree = self._tree_with(base, list(self._staged)) if parent and self._staged and not self._index_moved \
                else None
            if tree is None:
                self.flush()
                tree = self.out("write-tree")
            self._index_moved = False
            if parent and base == tree:
                return False
            if not parent and tree == self.out("hash-object", "-t", "tree", "/dev/null"):
                return False
            made = self._commit_tree(tree, parent, message, author)
            self.git("update-ref", "-m", f"commit: {message.splitlines()[0] if message else ''}", "HEAD", made,
                     parent or "0" * 40)
            return True
        finally:
            self.flush()  # git's index: the staged paths, once

    def _commit_tree(self, tree: str, parent: str | None, message: str,
                     author: tuple[str, str] | None = None) -> str:
        """A commit of ``tree`` on ``parent`` (``commit-tree``; signed when ``commit.gpgsign`` is set): its id."""
        env = {"GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1]} if author else None
        sign = ["-S"] if self.git("config", "--type=bool", "commit.gpgsign", check=False).stdout.strip() == \
            "true" else []
        return self.git("commit-tree", tree, *(["-p", parent] if parent else []), *sign,
                        input=_clean_message(message), env=env).stdout.strip()

    def _tree_with(self, base: str, paths: list[str]) -> str | None:
        """Tree ``base`` (HEAD's) with ``paths`` as the working tree holds them (a path gone from it: taken
        out), only their folders made again; None when a path is anything but a plain file or nothing (a folder,
        a symbolic link): then the caller commits the index."""
        import stat

        files, modes, gone = [], [], []
        for rel in paths:
            try:
                st = os.lstat(self.path / rel)
            except FileNotFoundError:
                gone.append(rel)
                continue
            except NotADirectoryError:
                return None
            if not stat.S_ISREG(st.st_mode) or not rel or rel.startswith("/") or "//" in rel or "\n" in rel or \
                    any(part in ("", ".", "..", ".git") for part in rel.split("/")):
                return None
            files.append(rel)
            modes.append("100755" if st.st_mode & 0o111 else "100644")
        ids = self.git("hash-object", "-w", "--stdin-paths", input="".join(f"{f}\n" for f in files)).stdout.split() \
            if files else []
        if len(ids) != len(files):
            raise GitError(f"{self.path}: git hash-object gave {len(ids)} ids for {len(files)} files")
        changes: dict = {}  # a nested dict of the changed names: an entry ("mode blob id"), None (gone), a folder
        for rel, entry in [*((f, f"{m} blob {i}") for f, m, i in zip(files, modes, ids, strict=True)),
                           *((g, None) for g in gone)]:
            *folders, name = rel.split("/")
            at = changes
            for part in folders:
                if not isinstance(at.get(part), dict):
                    at[part] = {}
                at = at[part]
            at[name] = entry
        return self._mktree(base, changes, root=True)

    def _mktree(self, old: str | None, changes: dict, root: bool = False) -> str | None:
        """Tree ``old`` (an object name; None: none) with ``changes`` made (see ``_tree_with``); None when it is
        left empty (git keeps no empty folder), but the root's id always.

        Made from the tree's own bytes (``cat-file tree``) and written by ``hash-object -t tree``, which checks its
        form: ``ls-tree`` and ``mktree`` would look up each entry's object, some 70 ms for a root of 10,000 game
        folders of distinct files."""
        entries = _tree_entries(self.git("cat-file", "tree", old, raw=True).stdout, len(old) // 2) if old else {}
        for name, change in changes.items():
            key = name if isinstance(name, bytes) else name.encode()
            if isinstance(change, dict):
                mode, oid = entries.get(key, (b"", b""))
                sub = self._mktree(oid.hex() if mode == b"40000" else None, change)
                if sub is None:
                    entries.pop(key, None)
                else:
                    entries[key] = (b"40000", bytes.fromhex(sub))
            elif change is None:
                entries.pop(key, None)
            else:
                mode, _, oid = change.split()
                entries[key] = (mode.lstrip("0").encode(), bytes.fromhex(oid))
        if not entries and not root:
            return None
        ordered = sorted(entries.items(), key=lambda e: e[0] + b"/" if e[1][0] == b"40000" else e[0])  # git's order
        data = b"".join(b"%s %s\0%s" % (mode, name, oid) for name, (mode, oid) in ordered)
        return self.git("hash-object", "-t", "tree", "-w", "--stdin", input=data).stdout.decode().strip()

    def folders(self, ref: str = "HEAD") -> dict[str, str]:
        """The top folders of ``ref``'s tree: the tree id of each, by name (one ``cat-file``)."""
        res = self.git("rev-parse", "-q", "--verify", f"{ref}^{{tree}}", check=False)
        if res.returncode != 0:
            return {}
        tree = res.stdout.strip()
        entries = _tree_entries(self.git("cat-file", "tree", tree, raw=True).stdout, len(tree) // 2)
        return {name.decode(errors="replace"): oid.hex() for name, (mode, oid) in entries.items() if mode == b"40000"}

    def shelf(self) -> str | None:
        """The tip of the finished games' branch (``SHELF``) as this clone last saw it: the remote's, else its own."""
        remote = self.remote()
        for ref in ([f"refs/remotes/{remote}/{SHELF}"] if remote else []) + [f"refs/heads/{SHELF}"]:
            res = self.git("rev-parse", "-q", "--verify", f"{ref}^{{commit}}", check=False)
            if res.returncode == 0:
                return res.stdout.strip()
        return None

    def shelve(self, names: list[str], attempts: int = 5) -> list[str]:
        """Put these top folders of HEAD's tree on the finished games' branch (``SHELF``) and push it: the names it
        holds after, which the caller may take out of the branch in play. A folder the branch holds already keeps
        its files, and those only HEAD's copy holds are added (``_merged``). The branch is made from the
        remote's tip, fetched first; a push that lost a race is made again on the new tip. A host that refuses the
        branch: nothing is moved, and ``aside`` says why."""
        remote = self.remote()
        head = self.folders()
        names = [n for n in names if n in head]
        for _ in range(attempts):
            base = None
            if remote is not None:
                res = self.git("fetch", "-q", "--no-recurse-submodules", remote,
                               f"+refs/heads/{SHELF}:refs/remotes/{remote}/{SHELF}", check=False)
                if res.returncode == 0:
                    base = self.out("rev-parse", f"refs/remotes/{remote}/{SHELF}^{{commit}}")
                elif "couldn't find remote ref" not in res.stderr:
                    raise GitError(f"{self.path}: git fetch of {SHELF} failed: {res.stderr.strip()}")
            else:
                base = self.shelf()
            there = self.folders(base) if base else {}
            changes = {n: f"040000 tree {self._merged(there.get(n), head[n])}" for n in names
                       if there.get(n) != head[n]}
            if not changes:
                return names
            tree = self._mktree(self.out("rev-parse", f"{base}^{{tree}}") if base else None, changes, root=True)
            made = self._commit_tree(tree, base, f"duelmail: {len(changes)} finished game"
                                     f"{'s' if len(changes) != 1 else ''} from {self.branch()}")
            self.git("update-ref", f"refs/heads/{SHELF}", made)
            if remote is None:
                return names
            res = self.git("push", "-q", remote, f"refs/heads/{SHELF}:refs/heads/{SHELF}", check=False)
            if res.returncode == 0:
                self.git("update-ref", f"refs/remotes/{remote}/{SHELF}", made)
                return names
            moved, refused = _push_outcome(res.stderr)
            if refused or not moved:
                self.aside.append(f"{remote} did not take the branch {SHELF} ({refused or res.stderr.strip()[:200]}): "
                                  f"the finished games stay where they are")
                return []
        self.aside.append(f"the branch {SHELF} kept moving on {remote}: the finished games stay where they are")
        return []

    def _merged(self, old: str | None, new: str) -> str:
        """Folder ``old`` (a tree id, on the finished games' branch) with the files only ``new`` holds added: a file
        pushed into a game's folder after it was moved is not lost when the folder is moved again, and a move never
        replaces a file the branch holds (whatever someone pushed under its name in the branch in play since)."""
        if old is None or old == new:
            return new
        kept = _tree_entries(self.git("cat-file", "tree", old, raw=True).stdout, len(old) // 2)
        added = _tree_entries(self.git("cat-file", "tree", new, raw=True).stdout, len(new) // 2)
        return self._mktree(old, {n: f"{m.decode()} {'tree' if m == b'40000' else 'blob'} {o.hex()}"
                                  for n, (m, o) in added.items() if n not in kept}) or old

    def drop_folders(self, names: list[str]) -> None:
        """Take these top folders out of git's index and the working tree (the next ``commit`` takes the index)."""
        import shutil

        if not names:
            return
        self.flush()
        self.git("rm", "-r", "-q", "--cached", "--ignore-unmatch", "--sparse", "--pathspec-from-file=-",
                 "--pathspec-file-nul", input="".join(f"{n}\0" for n in names), timeout=SLOW,
                 env={"GIT_LITERAL_PATHSPECS": "1"})  # (a name is a name, never a pattern)
        for n in names:
            where = self.path / n
            if where.is_dir() and not where.is_symlink():
                shutil.rmtree(where)
        self._index_moved = True

    def add(self, *paths: str) -> None:
        """Stage these paths as they are in the working tree (a path gone from it: taken out of the index). Kept
        here until the next ``commit`` (or ``flush``), which updates git's index of them all at once."""
        self._staged.update(dict.fromkeys(paths))

    def flush(self) -> None:
        """Bring git's index up to date with the paths ``add`` staged: one ``update-index``, which reads and writes
        the whole index (a line per file of the repository)."""
        if self._staged:
            paths, self._staged = list(self._staged), {}
            self.git("update-index", "--add", "--remove", "--", *paths)

    # -- what we read and write ----------------------------------------------------------------
    def plain(self, rel: str, folder: bool = False) -> Path:
        """``rel`` in the clone, safe to read and write: a symbolic link (or anything not a plain file or folder)
        at it or at a folder above it, pushed by someone, is set aside first (taken out of the index and the
        clone, and said in ``aside``), so nothing is ever read or written outside the repository through it."""
        parts = rel.split("/")
        if len(parts) > 1:
            self.widen(parts[:1])  # a folder left out of a sparse clone's working tree: put back in first
        for k in range(1, len(parts) + 1):
            sub = "/".join(parts[:k])
            p = self.path / sub
            want_dir = k < len(parts) or folder
            if p.is_symlink() or (p.exists() and not (p.is_dir() if want_dir else p.is_file())):
                what = "a symbolic link" if p.is_symlink() else "not a plain file or folder"
                self.flush()
                self.git("rm", "-rq", "--cached", "--ignore-unmatch", "--", sub)
                self._index_moved = True
                if p.is_symlink() or not p.is_dir():
                    p.unlink()
                else:
                    import shutil

                    shutil.rmtree(p)
                self.aside.append(f"{sub} was {what} (pushed by someone): set aside, nothing read or written "
                                  "through it; duelmail's own files go in its place")
        return self.path / rel

    # -- after a kill --------------------------------------------------------------------------
    @property
    def git_dir(self) -> Path:
        if self._git_dir is None:
            self._git_dir = Path(self.out("rev-parse", "--absolute-git-dir"))
        return self._git_dir

    def recover(self, stale: float = 600) -> list[str]:
        """Put back in order what a sync killed half-way left, so this one goes on: a rebase or merge in progress
        is aborted (this sync rebases again), an index lock (or a sparse checkout's) older than ``stale`` seconds (a git
        killed while writing; a running git holds it for less) is removed, and a change of ours left staged, unstaged or
        untracked (game files, README files, pictures, replay pages) is committed. What it did, in words.

        The working tree is looked at (``git status``: an ``lstat`` of every file) only when the last sync did not
        end (no ``CLEAN`` mark in the git folder: killed, failed, or a clone no sync has finished in); the mark is
        taken away here and put back by ``mark_clean`` when this sync ends."""
        import time

        done = []
        gd = self.git_dir
        self.load_cone()
        clean = (gd / CLEAN).exists()
        (gd / CLEAN).unlink(missing_ok=True)
        if (gd / "rebase-merge").exists() or (gd / "rebase-apply").exists():
            if self.git("rebase", "--abort", check=False).returncode != 0:
                self.git("rebase", "--quit", check=False)
            done.append("a rebase stopped half-way was undone")
        if (gd / "MERGE_HEAD").exists():
            self.git("merge", "--abort", check=False)
            done.append("a merge stopped half-way was undone")
        for lock in (gd / "index.lock", gd / "info" / "sparse-checkout.lock"):
            try:
                if time.time() - lock.stat().st_mtime > stale:
                    lock.unlink()
                    done.append(f"a stale {lock.name} (left by a git that was killed) was removed")
            except FileNotFoundError:
                pass
        if clean and not done:
            return done
        if self.cone is not None:  # a sparse clone: what a killed ``sparse-checkout`` left, put as its cone says
            self.git("sparse-checkout", "reapply", check=False, timeout=SLOW)
        return done + self.commit_leftovers()

    def commit_leftovers(self) -> list[str]:
        """Commit a change of ours left staged, unstaged or untracked (a sync stopped half-way, a README edited by
        hand): ``git status``, which looks at every file of the working tree. What it did, in words."""
        ours = [path for path in self.changed() if is_ours(path) and not self.left_out(path)]
        if ours:
            self.git("add", "-A", "--", *ours)
            self._index_moved = True
            if self.commit("duelmail: finish a sync that was stopped half-way"):
                return [f"committed what a stopped sync had left ({len(ours)} files)"]
        return []

    def mark_clean(self) -> None:
        """This sync ended with everything of its own committed: the next one need not look at the working tree."""
        try:
            (self.git_dir / CLEAN).write_text("")
        except OSError:
            pass  # without the mark the next sync looks at the working tree: slower, never wrong

    def changed(self) -> list[str]:
        """Paths with a change not committed (staged, unstaged or untracked)."""
        self.flush()
        out = self.git("status", "--porcelain=v1", "-z", "--untracked-files=all").stdout
        paths, fields = [], out.split("\0")
        i = 0
        while i < len(fields):
            entry = fields[i]
            if len(entry) > 3:
                paths.append(entry[3:])
                if entry[0] in "RC":  # a rename names its origin in the next field
                    i += 1
            i += 1
        return paths

    def tracked(self, under: str) -> set[str]:
        """The paths git tracks (in its index) under a folder."""
        self.flush()
        return set(self.git("ls-files", "-z", "--", under).stdout.split("\0")) - {""}

    def committed(self, folders: list[str]) -> dict[str, str]:
        """The blob id of each file HEAD holds under these folders, by path (read from HEAD's trees alone: the
        index, a line per file of the whole repository, is not read)."""
        if not folders or not self.has_commits():
            return {}
        out = {}
        for entry in self.git("ls-tree", "-r", "-z", "HEAD", "--", *folders).stdout.split("\0"):
            meta, _, path = entry.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                out[path] = parts[2]
        return out

    # -- remote ------------------------------------------------------------------------------
    def fetch(self) -> str | None:
        """Fetch the remote; the upstream ref to compare with (None without a remote or branch there)."""
        remote = self.remote()
        if remote is None:
            return None
        self.git("fetch", "-q", "--no-recurse-submodules", remote)  # (else git reads its whole index)
        ref = f"{remote}/{self.branch()}"
        if self.git("rev-parse", "-q", "--verify", ref, check=False).returncode != 0:
            return None
        return ref

    def tree_files(self, ref: str) -> list[tuple[str, str]]:
        """(path, blob id) of every game file in ``ref``'s tree."""
        out = []
        for line in self.out("ls-tree", "-r", ref).splitlines():
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob" and is_turn_path(path):
                out.append((path, parts[2]))
        return out

    def history_files(self, ref: str) -> list[tuple[str, str, str]]:
        """(path, blob id, short commit) of every version of every game file committed in ``ref``'s history,
        those of ``ref``'s tree first: a file someone later overwrote or deleted is still read, so a squatter
        cannot hide a turn that was pushed once."""
        found: dict[tuple[str, str], str] = {}
        commit = ""
        log = self.out("log", "--format=C %h", "--raw", "--no-abbrev", "--no-renames", "-m", ref)
        for line in log.splitlines():
            if line.startswith("C "):
                commit = line[2:9]  # --no-abbrev lengthens %h too
                continue
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) == 5 and set(parts[3]) != {"0"} and is_turn_path(path):
                found.setdefault((path, parts[3]), commit)
        tree = [pb for pb in self.tree_files(ref) if pb in found]
        now = set(tree)  # built once: a first sync reads some 1.27 M files in a club of 10,000 long games
        rest = [pb for pb in found if pb not in now]
        return [(p, b, found[(p, b)]) for p, b in tree + rest]

    def history_since(self, since: str, ref: str) -> tuple[list[tuple[str, str, str]], set[str]] | None:
        """``history_files`` of the commits of ``ref`` that ``since`` lacks (``git log since..ref``: after a
        force-push, every rewritten commit), and the game folders any of them touched (a file added, changed or
        deleted); None when ``since`` is no commit here (a fresh clone, a pruned history): then read it all."""
        res = self.git("log", "--format=C %h", "--raw", "--no-abbrev", "--no-renames", "-m", f"{since}..{ref}", "--",
                       check=False)
        if res.returncode != 0:
            return None
        found: dict[tuple[str, str], str] = {}
        touched: set[str] = set()
        commit = ""
        for line in res.stdout.splitlines():
            if line.startswith("C "):
                commit = line[2:9]
                continue
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) != 5:
                continue
            top = path.split("/", 1)[0]
            if "/" in path and GAME_DIR.fullmatch(top):
                touched.add(top)
            if set(parts[3]) != {"0"} and is_turn_path(path):
                found.setdefault((path, parts[3]), commit)
        if not found:
            return [], touched
        now = set()  # the versions in ref's tree first, as ``history_files`` orders them
        for line in self.out("diff", "--raw", "--no-abbrev", "--no-renames", since, ref, "--").splitlines():
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) == 5:
                now.add((path, parts[3]))
        tree = [pb for pb in found if pb in now]
        rest = [pb for pb in found if pb not in now]
        return [(p, b, found[(p, b)]) for p, b in tree + rest], touched

    def blob_at(self, ref: str, path: str) -> str | None:
        """The text of ``path`` in ``ref`` (None if it is not there)."""
        res = self.git("show", f"{ref}:{path}", check=False)
        return res.stdout if res.returncode == 0 else None

    def read_many(self, wanted: list[tuple[str, str, str]]) -> list[Incoming | FormatError]:
        """``read`` of many files at once, (path, blob id, short commit) each, in order: two git processes in all
        (``cat-file --batch-check`` for the sizes, ``--batch`` for the texts), whatever their number, so a first
        sync of a club's history is linear in its files. A blob far larger than any duelmail file is never read:
        its place holds the error saying so (so does a blob git cannot find)."""
        if not wanted:
            return []
        res = subprocess.run(["git", "-C", str(self.path), "cat-file", "--batch-check"], input="".join(
            f"{b}\n" for _, b, _ in wanted), capture_output=True, text=True, timeout=1200,
            env=dict(os.environ, LC_ALL="C"))
        sizes = res.stdout.splitlines()
        if res.returncode or len(sizes) != len(wanted):
            raise GitError(f"{self.path}: git cat-file --batch-check failed: {res.stderr.strip()}")
        out: list[Incoming | FormatError] = []
        small = []
        for (path, blob, commit), line in zip(wanted, sizes, strict=True):
            parts = line.split()
            where = f"{path} (commit {commit})"
            if len(parts) != 3 or parts[0] != blob or parts[1] != "blob":
                out.append(FormatError(f"{where}: git holds no file {blob}"))
            elif int(parts[2]) > 4 * MAX_FILE:  # never read a pushed blob of any size into memory
                out.append(FormatError(f"{where}: {parts[2]} bytes is far larger than any duelmail file"))
            else:
                out.append(None)  # type: ignore[arg-type]  (filled below)
                small.append(len(out) - 1)
        for at in range(0, len(small), BATCH):  # a batch at a time: memory bounded whatever the history's size
            some = small[at:at + BATCH]
            for k, data in zip(some, self.blobs([wanted[k][1] for k in some]), strict=True):
                path, blob, commit = wanted[k]
                try:
                    out[k] = Incoming(path, commit, data.decode("utf-8"), blob)
                except UnicodeDecodeError as e:
                    out[k] = FormatError(f"{path} (commit {commit}): not UTF-8 text (byte {e.start})")
        return out

    def read(self, ref: str, path: str, blob: str, commit: str | None = None) -> Incoming:
        """A file's text and the (short) commit that added it (default: the last of ``ref``'s to change it)."""
        commit = commit or self.out("log", "-1", "--format=%h", ref, "--", path)
        size = int(self.out("cat-file", "-s", blob))
        if size > 4 * MAX_FILE:  # never read a pushed blob of any size into memory
            raise FormatError(f"{path} (commit {commit}): {size} bytes is far larger than any duelmail file")
        return Incoming(path, commit, self.git("cat-file", "blob", blob).stdout, blob)

    @property
    def _refused_log(self) -> Path:
        return self.git_dir / "duelmail-refused"

    def refused(self) -> set[str]:
        """Blob ids already refused here (reported once, not at every sync)."""
        p = self._refused_log
        return set(p.read_text().split()) if p.exists() else set()

    def remember_refused(self, blobs) -> None:
        if blobs:
            p = self._refused_log
            atomic_write(p, "".join(f"{b}\n" for b in sorted(self.refused() | set(blobs))))

    def holds(self, ref: str) -> bool:
        """Whether ``ref``'s commit is HEAD or in its history (nothing to rebase onto)."""
        return self.git("merge-base", "--is-ancestor", ref, "HEAD", check=False).returncode == 0

    def integrate(self, ref: str) -> None:
        """Rebase local commits onto ``ref``; a turn never conflicts, a README is merged by union and rewritten
        afterwards. On any other conflict (a game folder someone replaced by a symbolic link) the rebase is undone,
        the branch takes ``ref`` as it is and the caller writes this home's files again on top: the home holds
        every file the local commits held. The commits set aside stay under ``refs/duelmail/kept/``."""
        self.flush()
        if not self.has_commits():
            self.git("reset", "-q", "--hard", ref)
            return
        res = self.git("rebase", "-q", "-X", "theirs", ref, check=False)
        if res.returncode != 0:
            files = self.git("diff", "--name-only", "--diff-filter=U", check=False).stdout.split()
            self.git("rebase", "--abort", check=False)
            head = self.out("rev-parse", "--short", "HEAD")
            if self.changed():
                raise GitError(f"{self.path}: rebasing onto {ref} stopped on {', '.join(files) or 'an error'}, "
                               f"and the clone holds changes that are not duelmail's: commit or remove them "
                               f"({(res.stderr or res.stdout).strip().splitlines()[0]})")
            self.git("update-ref", f"refs/duelmail/kept/{head}", "HEAD")
            self.git("reset", "-q", "--hard", ref)
            self.aside.append(f"rebasing onto {ref} stopped on {', '.join(files[:3]) or 'an error'}: took {ref} "
                              f"as it is and wrote this home's files again on top (the commits it replaced are "
                              f"kept as refs/duelmail/kept/{head})")

    def push(self) -> bool:
        """Push the branch; False when the remote moved meanwhile (fetch, rebase, and push again)."""
        remote = self.remote()
        if remote is None:
            return True
        branch = self.branch()
        res = self.git("push", "-q", remote, f"HEAD:refs/heads/{branch}", check=False)
        if res.returncode == 0:
            return True
        moved, refused = _push_outcome(res.stderr)
        if refused:
            said = [line.removeprefix("remote:").strip() for line in res.stderr.splitlines()
                    if line.startswith("remote:") and line.removeprefix("remote:").strip()]
            raise PushRefused(f"{self.path}: {remote} refused the push to its branch {branch} ({refused})"
                              + (f", saying: {' / '.join(said[:5])[:400]}" if said else "")
                              + ". Nothing was pushed; the commits wait in this clone until the host takes them "
                                "(the branch's protection, or the hook, is the repository owner's to change)")
        if moved:
            return False
        raise GitError(f"{self.path}: git push failed: {res.stderr.strip()}")

    def fast_forward(self, ref: str, most: int = 1000) -> bool:
        """Move the branch to ``ref`` when HEAD is in its history, writing only the files the commits since changed
        (their blobs by ``git cat-file --batch``, then ``update-ref``; git's index of those paths is updated by the
        next ``commit`` or ``flush``, once): git's own
        fast-forward (``merge``, ``rebase``) checks every file of the working tree, some 110,000 in a club's
        repository of 10,000 games. False, with nothing changed, when this is no plain fast-forward: a local commit,
        more than ``most`` paths, anything but plain files at them (a symbolic link, a submodule), a working tree that
        differs from HEAD at one of them (a change git would not overwrite), or attributes other than duelmail's (a
        filter or an end-of-line rule would make git's files differ from their blobs): then ``integrate``."""
        if not self.has_commits() or self.git("merge-base", "--is-ancestor", "HEAD", ref, check=False).returncode:
            return False
        head, new = self.out("rev-parse", "HEAD"), self.out("rev-parse", f"{ref}^{{commit}}")
        fields = self.git("diff", "--raw", "-z", "--no-abbrev", "--no-renames", head, new, "--").stdout.split("\0")
        changes = []  # (path, blob id in HEAD or None, blob id in ref, mode in ref: 000000 when it is gone)
        for meta, path in zip(fields[0::2], fields[1::2], strict=False):
            parts = meta.lstrip(":").split()
            if len(parts) != 5 or not path:
                return False
            if parts[0] not in ("000000", "100644", "100755") or parts[1] not in ("000000", "100644", "100755"):
                return False
            changes.append((path, None if parts[0] == "000000" else parts[2], parts[3], parts[1]))
        if len(changes) > most or any(self.left_out(path) for path, _, _, _ in changes) \
                or not all(self._as_in_head(path, blob) for path, blob, _, _ in changes):
            return False  # (a folder out of a sparse clone's cone: git's own fast-forward, through its sparse index)
        attrs = self.path / ".gitattributes"
        ours = set(ATTRIBUTES.splitlines())
        if any(path == ".gitattributes" or path.endswith("/.gitattributes") for path, _, _, _ in changes) or (
                attrs.is_file() and any(line.strip() and not line.startswith("#") and line not in ours
                                        for line in attrs.read_text(errors="replace").splitlines())):
            return False
        keep = {path: (blob, mode) for path, _, blob, mode in changes if mode != "000000"}
        gone = [path for path, _, _, mode in changes if mode == "000000"]
        for path, data in zip(keep, self.blobs([blob for blob, _ in keep.values()]), strict=True):
            (self.path / path).parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path / path, data, mode=0o755 if keep[path][1] == "100755" else 0o644, durable=False)
        for path in gone:
            (self.path / path).unlink(missing_ok=True)
            for parent in Path(path).parents:  # a folder left empty goes, as git's own checkout does
                folder = self.path / parent
                if str(parent) == "." or folder.is_symlink() or not folder.is_dir() or any(folder.iterdir()):
                    break
                folder.rmdir()
        self.add(*keep, *gone)  # git's index of them: updated once, with the sync's own commit if it makes one
        self.git("update-ref", "-m", f"duelmail: fast-forward to {ref}", "HEAD", new, head)
        return True

    def blobs(self, ids: list[str]) -> list[bytes]:
        """The contents of these blobs, in order (one ``git cat-file --batch``; bytes, whatever they hold)."""
        if not ids:
            return []
        res = subprocess.run(["git", "-C", str(self.path), "cat-file", "--batch"], input="".join(
            f"{i}\n" for i in ids).encode(), capture_output=True, timeout=120, env=dict(os.environ, LC_ALL="C"))
        data, out, at = res.stdout, [], 0
        for i in ids:
            end = data.find(b"\n", at)  # (never ``data[at:]``: a copy of the rest at each blob is quadratic)
            parts = data[at:end].split() if end >= 0 else []
            if res.returncode or len(parts) != 3 or parts[0].decode() != i or parts[1] != b"blob":
                raise GitError(f"{self.path}: git cat-file could not read blob {i}")
            size = int(parts[2])
            at = end + 1
            out.append(data[at:at + size])
            at += size + 1
        return out

    def _as_in_head(self, path: str, blob: str | None) -> bool:
        """Whether the working tree holds ``path`` as HEAD does (``blob``; None: absent), through plain folders."""
        where = self.path
        for part in path.split("/")[:-1]:
            where = where / part
            if where.is_symlink() or (where.exists() and not where.is_dir()):
                return False
        p = self.path / path
        if blob is None:
            return not p.exists() and not p.is_symlink()
        if p.is_symlink() or not p.is_file():
            return False
        return blob_id(p.read_bytes()) == blob


def _tree_entries(data: bytes, size: int) -> dict[bytes, tuple[bytes, bytes]]:
    """A tree object's entries as git stores them: name -> (mode, object id's ``size`` bytes), in its order."""
    entries, at, find = {}, 0, data.find
    while at < len(data):
        space = find(b" ", at)
        nul = find(b"\0", space)
        if space < 0 or nul < 0 or nul + 1 + size > len(data):
            raise GitError(f"a tree object of {len(data)} bytes is cut short at byte {at}")
        entries[data[space + 1:nul]] = (data[at:space], data[nul + 1:nul + 1 + size])
        at = nul + 1 + size
    return entries


def blob_id(data: bytes) -> str:
    """The id git gives a file holding ``data`` (``git hash-object``)."""
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()
