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
