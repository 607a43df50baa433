"""GPU tests carry the marker `gpu` and are skipped, with the reason, where no GPU answers."""

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
