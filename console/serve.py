"""`mj serve`: the local web page (server/, docs/web.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from console.common import CatalogueOpt, errors
from solver.api import open_catalogue


def serve(host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback by default; 0.0.0.0 lets phones on the same network in, and the address they open is printed).")] = "127.0.0.1",
          port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")] = 8000,
          open_: Annotated[bool, typer.Option("--open", help="Open the page in the default browser.")] = False,
          workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=32, help="Solver worker processes.")] = 2,
          timeout: Annotated[float, typer.Option("--timeout", min=1, help="Stop a request after this many seconds.")] = 300,
          catalogue: CatalogueOpt = None) -> None:
    """A local web page for the same answers: tiles to click, analysis, scores (docs/web.md).

    Example: mj serve --open
    """
    from server.run import serve as run_server

    with errors():
        open_catalogue(catalogue or ())  # a bad catalogue file is a usage error here, not on every request
        try:
            run_server(host, port, open_, workers, tuple(catalogue or ()), timeout)
        except KeyboardInterrupt:  # (Ctrl-C or SIGTERM is how a server is stopped: no error, QA)
            typer.echo("mj serve: stopped")
