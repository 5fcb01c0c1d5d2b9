#!/usr/bin/env python3
"""Execute a notebook headless with nbclient, in the interpreter that runs this script.

Usage: python tools/run_notebook.py NOTEBOOK [--out EXECUTED.ipynb] [--timeout SECONDS]

The kernel is this interpreter (sys.executable), through a kernel spec written to a
temporary JUPYTER_PATH entry, so no user- or system-wide "python3" kernel spec can
redirect the run to another environment. Cells run with the notebook's folder as the
working directory. Any cell error fails the run (non-zero exit) and prints the traceback.
"""
import argparse
import json
import os
import sys
import tempfile

KERNEL = "mxgo-run-notebook"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebook")
    ap.add_argument("--out", help="where to write the executed notebook (default: not written)")
    ap.add_argument("--timeout", type=int, default=600, help="per-cell timeout in seconds")
    args = ap.parse_args()

    if not os.path.isfile(args.notebook):
        sys.exit("run_notebook.py: %s does not exist" % args.notebook)

    with tempfile.TemporaryDirectory(prefix="mxgo-kernels-") as jp:
        spec_dir = os.path.join(jp, "kernels", KERNEL)
        os.makedirs(spec_dir)
        with open(os.path.join(spec_dir, "kernel.json"), "w") as f:
            json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                       "display_name": "mxgo (%s)" % sys.executable, "language": "python"}, f)
        os.environ["JUPYTER_PATH"] = jp + os.pathsep + os.environ.get("JUPYTER_PATH", "")

        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError

        nb = nbformat.read(args.notebook, as_version=4)
        workdir = os.path.dirname(os.path.abspath(args.notebook))
        client = NotebookClient(nb, kernel_name=KERNEL, timeout=args.timeout,
                                resources={"metadata": {"path": workdir}})
        try:
            client.execute()
        except CellExecutionError as e:
            print("run_notebook.py: %s failed:\n%s" % (args.notebook, e), file=sys.stderr)
            sys.exit(1)
        finally:
            if args.out:
                os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
                nbformat.write(nb, args.out)
    cells = sum(1 for c in nb.cells if c.cell_type == "code")
    print("run_notebook.py: %s ok (%d code cells)" % (args.notebook, cells))


if __name__ == "__main__":
    main()
