"""GPU tests carry the marker `gpu` and are skipped, with the reason, where no GPU answers; `run_gq`
calls gq as a user does."""

import pytest


def pytest_collection_modifyitems(config, items):
    if not any("gpu" in item.keywords for item in items):
        return
    from queues_cuda.backend import gpu_status

    info, why = gpu_status()
    if info is None:
        skip = pytest.mark.skip(reason=f"no GPU: {why}")
        for item in items:
            if "gpu" in item.keywords:
                item.add_marker(skip)


@pytest.fixture
def run_gq(capsys):
    """gq's own entry point, with its error mapping and exit codes: run_gq(*args) -> (exit code,
    stdout, stderr)."""
    from gq import cli

    def call(*args):
        with pytest.raises(SystemExit) as exc:
            cli.run([str(a) for a in args])
        out = capsys.readouterr()
        return exc.value.code, out.out, out.err

    return call


@pytest.fixture
def host_harness(tmp_path):
    """Compile a C++ harness (source text that includes the project's headers) into a shared
    library and load it: host_harness(source, stem) -> ctypes.CDLL. Skips where no C++ compiler is."""
    import ctypes
    import subprocess

    from queues_cuda.build import CXX_FLAGS, INCLUDE_DIR, cxx

    def build(source: str, stem: str):
        exe = cxx()
        if exe is None:
            pytest.skip("no C++ compiler")
        src, target = tmp_path / f"{stem}.cpp", tmp_path / f"{stem}.so"
        src.write_text(source)
        subprocess.run([exe, *CXX_FLAGS, f"-I{INCLUDE_DIR}", str(src), "-o", str(target)], check=True)
        return ctypes.CDLL(str(target))

    return build
