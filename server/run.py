"""Start the web server: bind first (so port 0 picks a free port and the URL is known), then serve."""

from __future__ import annotations

import socket
import sys
import webbrowser

from solver.core.errors import MjError


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise MjError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return sock


def lan_address() -> str | None:
    """This machine's address on its network (the one a route out would use; no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # (TEST-NET-1: a connect on UDP only picks the route)
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, workers: int = 2,
          catalogue_files: tuple[str, ...] = (), timeout: float | None = 300.0) -> None:
    import uvicorn

    from server.app import create_app

    sock = bind(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"

    lan = lan_address() if host in ("0.0.0.0", "::") else None

    def ready() -> None:  # after the workers are started; the socket is already bound
        print(f"mj serve: {url}  (Ctrl-C stops)", flush=True)
        if lan:  # (QA: http://0.0.0.0:8765/ is no address a phone can open)
            print(f"mj serve: phones on this network open http://{lan}:{sock.getsockname()[1]}/", flush=True)
        if open_browser:
            webbrowser.open(url)

    app = create_app(workers, catalogue_files, timeout, on_ready=ready, guarded=True)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        sys.stdout.flush()
