"""`tableside hall --broker HOST:PORT --http PORT --data DIR`: the director's board.

Subscribes to every table of the hall on the broker, keeps the hall record in
`DIR/hall.db`, and serves the live board, the overlays and the results over HTTP
(docs/hall.md). The director's password comes from `--director-password` or the
environment's TABLESIDE_DIRECTOR_PASSWORD; without one a fresh one is printed at start.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path


def main(args: argparse.Namespace) -> int:
    from aiohttp import web

    from kiosk.hall.listener import HallListener
    from kiosk.hall.record import HallRecord
    from kiosk.hall.server import HallServer
    from kiosk.hall.settings import parse_broker

    try:
        broker = parse_broker(args.broker)
    except ValueError as exc:
        print(f"--broker: {exc}", file=sys.stderr)
        return 2
    data = Path(args.data)
    try:
        record = HallRecord(data / "hall.db")
    except Exception as exc:
        print(f"{data / 'hall.db'}: cannot open the hall record: {exc}", file=sys.stderr)
        return 1
    password = args.director_password or os.environ.get("TABLESIDE_DIRECTOR_PASSWORD", "")
    if not password:
        password = secrets.token_urlsafe(9)
        print(f"the director's password for this run: {password}", flush=True)
    listener = HallListener(
        record,
        broker,
        hall=args.hall,
        username=args.user or "",
        password=args.password or "",
        tls_ca=args.tls_ca,
        keepalive=args.keepalive,
    )
    server = HallServer(record, listener, password)
    listener.start()
    try:
        print(f"the hall's board: http://{args.bind}:{args.http}/", flush=True)
        web.run_app(server.app(), host=args.bind, port=args.http, print=None, shutdown_timeout=2)
    finally:
        listener.stop()
        record.close()
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("hall", help="the tournament director's live board (MQTT)")
    p.add_argument("--broker", required=True, metavar="HOST:PORT", help="the hall's MQTT broker")
    p.add_argument("--http", type=int, default=8080, metavar="PORT", help="the board's port")
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDRESS", help="the board's address")
    p.add_argument("--data", required=True, metavar="DIR", help="where the hall record is kept")
    p.add_argument("--hall", default="+", help="only this hall's tables (default: every hall)")
    p.add_argument("--user", help="MQTT user name (the director's)")
    p.add_argument("--password", help="MQTT password")
    p.add_argument("--tls-ca", metavar="FILE", help="connect with TLS, trusting this CA")
    p.add_argument("--keepalive", type=int, default=15, help="MQTT keep-alive in seconds")
    p.add_argument("--director-password", help="the password that unlocks the board")
    p.set_defaults(handler="kiosk.commands.hall:main")
