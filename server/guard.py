"""Who may drive the API: requests from another site's page and Host names that are not this machine's are refused.

A page on any site the player visits could otherwise make the server compute (a POST with no body is sent without
asking first; an <img> fetches any GET), and by DNS rebinding read the answers too (QA, security). The API is for
this server's own pages and for programs: a browser says where a request comes from (Sec-Fetch-Site, Origin), a
program (curl, a script) says nothing and is let through."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request

from server.respond import error


def own_names() -> frozenset[str]:
    """The names this machine answers to besides IP addresses: localhost and its host name (also as name.local)."""
    name = socket.gethostname().lower()
    return frozenset({"localhost", name, f"{name}.local"})


def host_ok(host: str, names: frozenset[str]) -> bool:
    """An IP address (a phone on the network opens one), localhost or one of its subdomains, or this machine's name;
    not another domain (a rebinding attack's name resolving to this machine)."""
    name = host.lower().rsplit(":", 1)[0] if not host.startswith("[") else host[1:].split("]", 1)[0]
    name = name.removesuffix(".")  # (localhost. is localhost: a fully qualified name, QA)
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name in names or name.endswith(".localhost")


def cross_site(request: Request) -> str | None:
    """Where a browser says the request comes from another site's page: that site, else None. Over plain HTTP to
    a LAN address Chromium sends no Sec-Fetch-Site (QA): then Origin (`null` from a sandboxed frame) and, for a GET
    an <img> makes, the Referer say it."""
    host = request.headers.get("host", "").lower()
    origin = request.headers.get("origin")
    if origin == "null":
        return "a sandboxed page"
    if origin and urlsplit(origin).netloc.lower() != host:
        return origin
    if request.headers.get("sec-fetch-site") in ("cross-site", "same-site"):
        return origin or "another site"
    referer = request.headers.get("referer")
    if not origin and referer and urlsplit(referer).netloc.lower() != host:
        return f"{urlsplit(referer).scheme}://{urlsplit(referer).netloc}"
    return None


class Guard:
    """On every /api/ route: 403 for a request from another site's page, and with `check_host` (mj serve; the tests'
    client calls itself testserver) for a Host that is not this machine's."""

    def __init__(self, app: Any, check_host: bool = False):
        self.app, self.names = app, own_names() if check_host else None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            request = Request(scope)
            host = request.headers.get("host", "")
            other = cross_site(request)
            if self.names is not None and not host_ok(host, self.names):
                response = error(403, f"error: this server answers to its address and localhost, not to '{host[:60]}'",
                                 "ERR_FORBIDDEN")
                return await response(scope, receive, send)
            if other is not None:
                response = error(403, f"error: a request from another site's page ({other[:60]}) is refused: the API "
                                      "is for this server's own pages and for programs", "ERR_FORBIDDEN")
                return await response(scope, receive, send)
        await self.app(scope, receive, send)
