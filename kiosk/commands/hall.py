"""`tableside hall --broker HOST:PORT --http PORT --data DIR`: the director's board.

Subscribes to every table of the hall on the broker, keeps the hall record in
`DIR/hall.db`, and serves the live board, the overlays and the results over HTTP
(docs/hall.md). The director's password comes from `--director-password` or the
environment's TABLESIDE_DIRECTOR_PASSWORD; without one a fresh one is printed at start.

`tableside hall verify TABLE JOURNAL --data DIR`: compare a kiosk's journal (read only) with
the hall's copy of it and say where they differ (exit 1 when they do).
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import sys
from pathlib import Path


def main(args: argparse.Namespace) -> int:
    if args.action:
        if args.action[0] != "verify" or len(args.action) != 3:
            print("usage: tableside hall verify TABLE JOURNAL --data DIR", file=sys.stderr)
            return 2
        return verify(args.action[1], Path(args.action[2]), Path(args.data), args.hall)
    return serve(args)


def serve(args: argparse.Namespace) -> int:
    from aiohttp import web

    from kiosk.config.hall import parse_broker
    from kiosk.hall.listener import HallListener
    from kiosk.hall.record import HallRecord
    from kiosk.hall.server import HallServer

    if not args.broker:
        print("--broker: the hall's MQTT broker is needed (HOST:PORT)", file=sys.stderr)
        return 2
    try:
        broker = parse_broker(args.broker)
    except ValueError as exc:
        print(f"--broker: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
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
    server = HallServer(record, listener, password, session_s=args.session_hours * 3600)
    listener.start()
    try:
        print(f"the hall's board: http://{args.bind}:{args.http}/", flush=True)
        web.run_app(server.app(), host=args.bind, port=args.http, print=None, shutdown_timeout=2)
    finally:
        listener.stop()
        record.close()
    return 0


def verify(table: str, journal: Path, data: Path, hall: str) -> int:
    import sqlite3

    from kiosk.engine.journal import JournalError
    from kiosk.hall.witness import compare

    path = data / "hall.db"
    if not path.is_file():
        print(f"{path}: no hall record here (--data is the hall's folder)", file=sys.stderr)
        return 2
    from kiosk.hall.record import HallRecord

    record = HallRecord(path)
    try:
        halls = sorted({t["hall"] for t in record.tables() if t["table"] == table})
        if hall == "+":
            if len(halls) != 1:
                known = ", ".join(halls) or "none"
                print(f"{path}: table {table} is in halls: {known}; say which with --hall",
                      file=sys.stderr)  # fmt: skip
                return 2
            hall = halls[0]
        try:
            box, differences = compare(record, hall, table, journal)
        except (JournalError, sqlite3.DatabaseError) as exc:
            print(f"{journal}: {exc}", file=sys.stderr)
            return 2
        breaks = [b for b in record.breaks(hall, table) if b["outbox"] == box]
    finally:
        record.close()
    held = f"hall {hall}, table {table}, {box}"
    for b in breaks:
        print(f"{held}: the hall saw the chain break at entry {b['seq']}: {b['reason']}")
    if not differences:
        print(f"{journal}: agrees with the hall's copy ({held})")
        return 1 if breaks else 0
    first = differences[0]
    print(f"{journal}: differs from the hall's copy ({held}) from match {first.match}, "
          f"entry {first.seq} on; {len(differences)} entries differ:")  # fmt: skip
    for d in differences:
        print(f"  {d}")
    return 1


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "hall",
        help="the tournament director's live board (MQTT); `hall verify TABLE JOURNAL`",
        usage="tableside hall --broker HOST:PORT --data DIR [options]\n"
        "       tableside hall verify TABLE JOURNAL --data DIR [--hall HALL]",
    )
    p.add_argument("action", nargs="*", metavar="verify TABLE JOURNAL",
                   help="compare a kiosk's journal with the hall's copy")  # fmt: skip
    p.add_argument("--broker", metavar="HOST:PORT", help="the hall's MQTT broker")
    p.add_argument("--http", type=int, default=8080, metavar="PORT", help="the board's port")
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDRESS", help="the board's address")
    p.add_argument("--data", required=True, metavar="DIR", help="where the hall record is kept")
    p.add_argument("--hall", default="+", help="only this hall's tables (default: every hall)")
    p.add_argument("--user", help="MQTT user name (the director's)")
    p.add_argument("--password", help="MQTT password")
    p.add_argument("--tls-ca", metavar="FILE", help="connect with TLS, trusting this CA")
    p.add_argument("--keepalive", type=int, default=15, help="MQTT keep-alive in seconds")
    p.add_argument("--director-password", help="the password that unlocks the board")
    p.add_argument("--session-hours", type=float, default=8.0,
                   help="a director's login lasts this long (default 8)")  # fmt: skip
    p.set_defaults(handler="kiosk.commands.hall:main")
