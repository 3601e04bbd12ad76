#!/usr/bin/env python3
"""Established wss:// latency under a flood of TLS handshakes (issue 28, finding 2).

One established session (past its hello) sends a WebSocket ping every 20 ms and times each pong:
first for QUIET seconds alone, then for FLOOD seconds while other processes open TCP connections
as fast as they can, send a ClientHello (made once by Python's ssl module) and wait for the
server's first flight, then close. Prints one JSON object: the ping round trips (p50, p99, max
in ms) quiet and during the flood, and the handshakes the flood began and got answered.

usage: tls-flood.py PORT TOKEN [QUIET_SECONDS] [FLOOD_SECONDS] [FLOODERS]
"""
import json
import multiprocessing
import os
import socket
import ssl
import struct
import sys
import time


def client_hello():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def frame(opcode, payload):
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked if len(payload) < 126 else (
        bytes([0x80 | opcode, 0x80 | 126]) + struct.pack(">H", len(payload)) + mask + masked)


def read_frame(stream):
    head = stream.recv(2)
    while len(head) < 2:
        head += stream.recv(2 - len(head))
    length = head[1] & 0x7F
    if length == 126:
        length = struct.unpack(">H", stream.recv(2))[0]
    elif length == 127:
        length = struct.unpack(">Q", stream.recv(8))[0]
    payload = b""
    while len(payload) < length:
        payload += stream.recv(length - len(payload))
    return head[0] & 0x0F, payload


def session(port, token):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    raw = socket.create_connection(("127.0.0.1", port))
    raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    stream = context.wrap_socket(raw, server_hostname="localhost")
    stream.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        head += stream.recv(1)
    stream.sendall(frame(1, json.dumps({"type": "hello", "token": token}).encode()))
    while b"welcome" not in read_frame(stream)[1]:
        pass
    return stream


def ping_round_trips(stream, seconds):
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sent = time.monotonic()
        stream.sendall(frame(9, b"rtt"))
        while True:
            opcode, _ = read_frame(stream)
            if opcode == 0xA:
                break
        times.append((time.monotonic() - sent) * 1000)
        time.sleep(0.02)
    return times


def flood(port, hello, seconds, counts):
    end = time.monotonic() + seconds
    began = answered = 0
    while time.monotonic() < end:
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=2)
            began += 1
            connection.sendall(hello)
            if connection.recv(4096):
                answered += 1
            connection.close()
        except OSError:
            pass
    counts.put((began, answered))


def figures(times):
    ordered = sorted(times)
    pick = lambda fraction: round(ordered[min(len(ordered) - 1, int(len(ordered) * fraction))], 2)
    return {"p50_ms": pick(0.5), "p99_ms": pick(0.99), "max_ms": round(ordered[-1], 2), "pings": len(ordered)}


def main():
    port, token = int(sys.argv[1]), sys.argv[2]
    quiet = float(sys.argv[3]) if len(sys.argv) > 3 else 3
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 8.5
    flooders = int(sys.argv[5]) if len(sys.argv) > 5 else 4
    stream = session(port, token)
    calm = ping_round_trips(stream, quiet)
    hello = client_hello()
    counts = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=flood, args=(port, hello, seconds, counts)) for _ in range(flooders)]
    for worker in workers:
        worker.start()
    during = ping_round_trips(stream, seconds)
    began = answered = 0
    for _ in workers:
        b, a = counts.get()
        began, answered = began + b, answered + a
    for worker in workers:
        worker.join()
    print(json.dumps({"quiet": figures(calm), "flood": figures(during), "handshakes_begun": began,
                      "handshakes_answered": answered}))


if __name__ == "__main__":
    main()
