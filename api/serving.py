"""`strata serve` in several processes: uvicorn's supervisor over one listening socket, with Nagle off.

uvicorn binds the socket it shares with its worker processes without naming the protocol (``proto`` 0), and
asyncio sets TCP_NODELAY only on connections accepted from a socket that says IPPROTO_TCP. Without it, a
keep-alive client (what agents use) waited for the delayed ACK on every response: p50 96 ms instead of 46 ms
for the same searches, one client at a time. The socket is re-declared as TCP before the workers start.
"""

from __future__ import annotations

import socket

import uvicorn
from uvicorn.supervisors import Multiprocess

APP = "strata.api.app:app_from_environment"


class _TcpConfig(uvicorn.Config):
    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto == 0:
            tcp = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
            tcp.set_inheritable(True)
            return tcp
        return sock


def serve_processes(host: str, port: int, count: int) -> None:
    """Run ``count`` API processes on one port (settings from the environment, as each process reads them)."""
    config = _TcpConfig(APP, factory=True, host=host, port=port, workers=count)
    Multiprocess(config, sockets=[config.bind_socket()]).run()
