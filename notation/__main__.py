"""``python -m notation``: the command line, as the ``notation`` script runs it.

Run from a checkout without the package installed, the dependencies (lark, click,
rich) may be missing: say so in one line and how to install them, not with a
traceback.
"""

import sys

try:
    from notation.cli import main

    # Inside the call too: a plain `check` imports click and lark only when it needs them.
    main()
except ModuleNotFoundError as exc:
    if exc.name is None or exc.name.split(".")[0] == "notation":
        raise
    sys.stderr.write(
        f"notation: the package {exc.name!r} it needs is not installed for {sys.executable}; "
        "install the toolkit with its dependencies: python3 -m pip install .\n"
    )
    sys.exit(2)
