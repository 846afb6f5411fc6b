#!/usr/bin/env python3
"""oracle-batch.py GENERATOR - runs a command-line generator many times in one Python process.

Each line of standard input holds the arguments of one run (split as a shell would); its output
follows on standard output, then a line "--end--". Starting Python once instead of once per
position keeps the comparison quick. The generator runs as its own main program each time.
"""
import contextlib
import io
import runpy
import shlex
import sys


def main():
    generator = sys.argv[1]
    for line in sys.stdin:
        args = shlex.split(line)
        if not args:
            continue
        out = io.StringIO()
        sys.argv = [generator] + args
        with contextlib.redirect_stdout(out):
            try:
                runpy.run_path(generator, run_name="__main__")
            except SystemExit as stop:
                if stop.code not in (None, 0):
                    print("oracle-batch: run failed (%s): %s" % (stop.code, line.strip()), file=sys.stderr)
        sys.stdout.write(out.getvalue())
        sys.stdout.write("--end--\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
