from tritonscope.cli import run

run()
