"""The record every benchmark JSON carries: the caller's $GQ_COMMIT wins over the checkout's git
(a GPU machine's copy of the tree may hold a .git of another commit)."""

from queues_cuda import provenance as P


def test_the_callers_commit_wins_over_git(monkeypatch):
    monkeypatch.setenv("GQ_COMMIT", "abc1234")
    monkeypatch.setenv("GQ_DIRTY", "0")
    monkeypatch.setattr(P, "_git", lambda *args: "f" * 40)  # a checkout of some other commit
    record = P.provenance(command=["tool", "arg"], note="x")
    assert (record["commit"], record["dirty"], record["command"], record["note"]) == ("abc1234", "0", "tool arg", "x")


def test_git_without_the_callers_commit(monkeypatch):
    monkeypatch.delenv("GQ_COMMIT", raising=False)
    answers = {("rev-parse", "HEAD"): "f" * 40, ("status", "--porcelain"): " M a.py"}
    monkeypatch.setattr(P, "_git", lambda *args: answers[args])
    record = P.provenance(command=["tool"])
    assert (record["commit"], record["dirty"]) == ("f" * 40, True)


def test_neither_git_nor_the_caller(monkeypatch):
    monkeypatch.delenv("GQ_COMMIT", raising=False)
    monkeypatch.setattr(P, "_git", lambda *args: None)
    record = P.provenance(command=["tool"])
    assert (record["commit"], record["dirty"]) == ("unknown", "unknown")
