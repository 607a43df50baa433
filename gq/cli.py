"""Entry point of `gq`: the command group, and the one place errors become exit codes.

Exit codes: 0 success; 1 a check found a violation; 2 bad input (one line on stderr, nothing
written); 3 a kernel gave up (its error flag, with what it saw).
"""

from __future__ import annotations

import sys

import click

from gq import __version__
from gq.bench_queues_cli import bench_queues
from gq.bfs_cli import bfs
from gq.info_cli import info
from gq.plan_cli import plan
from gq.queues_cli import queues
from gq.render_cli import bench, render
from gq.sssp_cli import bench_sssp, sssp
from queues_cuda.errors import GQError, KernelError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="gq")
def main() -> None:
    """gpu-queues: concurrent GPU queues, and what they drive.

    \b
      gq info                  what this machine offers (backends, GPU, compilers, cache)
      gq render SCENE          render a scene (TOML, or a .glb/.gltf model) to PNG
      gq bench render ...      rays per second of every queue against the compaction baseline
      gq bench sssp ...        every shortest-path algorithm on growing graphs (time vs edges)
      gq bench queues ...      successful queue operations per second (balanced, split kernels)
      gq bfs GRAPH             breadth-first search driven by a queue (or --generate kron)
      gq plan MAP.png          the cheapest route across a map (or --generate maze)
      gq sssp GRAPH            shortest paths from one source (or --generate seed-dag)
      gq queues check ...      prove a queue linearizable and FIFO on this machine
    """


main.add_command(info)
main.add_command(queues)
main.add_command(render)
main.add_command(bench)
main.add_command(plan)
main.add_command(sssp)
main.add_command(bfs)
bench.add_command(bench_sssp)
bench.add_command(bench_queues)


def run(argv: list[str] | None = None) -> None:
    try:
        code = main.main(args=argv, prog_name="gq", standalone_mode=False)
    except GQError as exc:
        click.echo(f"gq: error: {exc}", err=True)
        sys.exit(2)
    except click.UsageError as exc:
        click.echo(f"gq: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except click.Abort:
        click.echo("gq: interrupted", err=True)
        sys.exit(130)
    except KernelError as exc:
        click.echo(f"gq: kernel error: {exc}", err=True)
        sys.exit(3)
    sys.exit(code if isinstance(code, int) else 0)
