"""Backend choice: ``cuda`` when a GPU answers, else ``cpu``; explicit choices are honoured or
refused with a clear error, never silently swapped."""

from __future__ import annotations

from functools import lru_cache

from .errors import GQError

BACKENDS = ("auto", "cuda", "cpu")


@lru_cache(maxsize=1)
def gpu_status() -> tuple[dict | None, str]:
    """(properties of GPU 0, or None; the reason when there is none)."""
    try:
        import cupy
    except ImportError:
        return None, "CuPy is not installed (pip install 'gpu-queues[cuda]')"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CuPy raises its own CUDARuntimeError when no driver answers
        return None, f"no CUDA driver answered ({exc.__class__.__name__}: {exc})"
    if count == 0:
        return None, "no CUDA device found"
    props = cupy.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    info = {
        "name": name,
        "arch": f"sm_{props['major']}{props['minor']}",
        "sms": int(props["multiProcessorCount"]),
        "memory_gib": round(props["totalGlobalMem"] / 2**30, 1),
        "driver": cupy.cuda.runtime.driverGetVersion(),
        "runtime": cupy.cuda.runtime.runtimeGetVersion(),
        "cupy": cupy.__version__,
    }
    return info, ""


def resolve(name: str) -> str:
    """Map a --backend value to the backend that will run; raise GQError if it cannot."""
    if name not in BACKENDS:
        raise GQError(f"--backend: unknown backend {name!r}; allowed: {', '.join(BACKENDS)}")
    if name == "cpu":
        return "cpu"
    info, why = gpu_status()
    if name == "cuda" and info is None:
        raise GQError(f"--backend cuda: no GPU available: {why}")
    return "cuda" if info is not None else "cpu"
