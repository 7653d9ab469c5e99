"""Start the web server: bind first (so port 0 picks a free port and the URL is known), then serve."""

from __future__ import annotations

import ipaddress
import logging
import os
import signal
import socket
import sys
import webbrowser

from solver.core.errors import MjError

HEADER_SECONDS = 10.0  # a connection's request must come whole within this of its opening or of the last answer


def protocol():
    """uvicorn's h11 protocol with a deadline for each request's headers: a connection whose next request has not come
    whole within HEADER_SECONDS (of its opening, or of the answer before) is closed. uvicorn has no such limit: a few
    hundred connections that never finish their headers (slowloris) held every file descriptor (QA)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderDeadline(H11Protocol):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._late = self.loop.call_later(HEADER_SECONDS, self._headers_late, self.cycle)

        def _headers_late(self, waiting) -> None:
            if self.cycle is waiting and not self.transport.is_closing():  # (no request began since it was armed)
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._late.cancel()
            self._arm()

        def connection_lost(self, exc) -> None:
            self._late.cancel()
            super().connection_lost(exc)

    return HeaderDeadline


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        # (listening at once: the URL is printed at the app's start-up, before uvicorn's own listen(), and a client
        # that connected on seeing it was refused (CI, under load); now it waits in the backlog to be accepted)
        sock.listen(2048)
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


def loopback(host: str) -> bool:
    """Whether the server listens on this machine only (the default): then a Host not its own is refused."""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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

    # (the Host check guards a loopback server against DNS rebinding; one on the network answers to whatever name its
    # LAN gives it, vm.lan or a router's, QA; no proxy's X-Forwarded-For is trusted: one address, one address's games)
    app = create_app(workers, catalogue_files, timeout, on_ready=ready, guarded=True, check_host=loopback(host))
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2, proxy_headers=False, http=protocol())
    # (a stop during a long answer is normal: its request is answered "the server is stopping", not logged as an error)
    logging.getLogger("uvicorn.error").addFilter(lambda record: "graceful shutdown exceeded" not in record.getMessage())
    if hasattr(signal, "SIGHUP"):  # (a closed terminal stops the server as SIGTERM does: uvicorn's own clean stop)
        signal.signal(signal.SIGHUP, lambda *_: os.kill(os.getpid(), signal.SIGTERM))
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        sys.stdout.flush()
