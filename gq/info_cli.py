"""`gq info`: what this machine offers: backends, GPU, compilers and the build cache."""

from __future__ import annotations

import shutil

import click

from queues_cuda import build
from queues_cuda.backend import gpu_status
from queues_cuda.queues import QUEUES


def _nvrtc_version() -> str | None:
    try:
        from cuda.bindings import nvrtc
    except ImportError:
        return None
    err, major, minor = nvrtc.nvrtcVersion()
    return f"{major}.{minor}" if err == nvrtc.nvrtcResult.NVRTC_SUCCESS else None


@click.command()
def info() -> None:
    """Show backends, the GPU, compilers and the cache folder."""
    gpu, why = gpu_status()
    cxx = build.cxx()
    rows = [
        ("backend cpu", f"yes: {build.compiler_version(cxx)} ({cxx})" if cxx else "no: no C++ compiler (set CXX)"),
        ("backend cuda", f"yes: {gpu['name']}, {gpu['arch']}, {gpu['sms']} SMs, {gpu['memory_gib']} GiB, "
                         f"CuPy {gpu['cupy']}, driver {gpu['driver']}" if gpu else f"no: {why}"),
        ("--backend auto", "cuda" if gpu else "cpu"),
    ]
    nvrtc, nvcc = _nvrtc_version(), shutil.which("nvcc")
    checks = [f"NVRTC {nvrtc} (cuda-bindings)"] if nvrtc else []
    checks += [f"nvcc ({nvcc})"] if nvcc else []
    rows.append(("sm_90 compile check", ", ".join(checks) if checks else "none: pip install 'gpu-queues[compile]'"))
    rows.append(("build cache", str(build.cache_dir())))
    rows.append(("queues", ", ".join(f"{k} ({q.title})" for k, q in QUEUES.items())))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        click.echo(f"{key:<{width}}  {value}")
