from gq.cli import run

run()
