"""Several API processes share one socket declared as TCP, so asyncio sets TCP_NODELAY on its connections."""

from __future__ import annotations

import socket

from strata.api.serving import APP, _TcpConfig


def test_the_shared_socket_is_tcp_so_accepted_connections_get_nodelay() -> None:
    config = _TcpConfig(APP, factory=True, host="127.0.0.1", port=0, workers=2)
    listener = config.bind_socket()
    try:
        assert listener.proto == socket.IPPROTO_TCP and listener.get_inheritable()
        listener.listen(1)
        with socket.create_connection(listener.getsockname()):
            accepted, _ = listener.accept()
            with accepted:
                # asyncio's transport sets TCP_NODELAY only on sockets whose proto says TCP.
                assert accepted.proto == socket.IPPROTO_TCP
    finally:
        listener.close()
