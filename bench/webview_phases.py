#!/usr/bin/env python3
"""The phases of one `clawperator webview` call after its forward, timed one by one.

Usage: webview_phases.py PORT SELECTOR SAMPLES [ADB_SERVER_PORT SERIAL SOCKET]

PORT is a local port `adb forward tcp:0 localabstract:webview_devtools_remote_<pid>` made (the
caller keeps it for all samples). Each sample does what `clawperator webview query` and `click`
do over it (src/service/webview.cpp, src/webview/cdp_client.cpp), each on a new connection as
they do: GET /json/list; the WebSocket handshake to the page; one Runtime.evaluate (query's
one DevTools call); one Runtime.evaluate plus three Input.dispatchMouseEvent (click's four), each timed.
The expressions are short stand-ins for the CLI's scripts (src/webview/scripts.cpp): what is
timed is the round trip, not the page's work. Prints one line per phase: NAME MEDIAN_US.

With ADB_SERVER_PORT, SERIAL and SOCKET (the DevTools socket's name), also what the adb calls
cost when spoken to the adb server from the process itself (docs/wire-protocol.md: a 4-hex-digit
length, the request, OKAY or FAIL), as exec speaks its broadcast, instead of by an adb client
process each: `shell:echo hi`, the socket listing, `forward:tcp:0;localabstract:SOCKET`,
`killforward:tcp:PORT`, and GET /json/list over a `localabstract:SOCKET` stream of the device's
transport (no forward at all). Standard library only.
"""

import base64
import json
import os
import socket
import statistics
import sys
import time


def recv_until(sock, marker):
    data = b""
    while marker not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def http_get(port, path):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     "Connection: close\r\n\r\n".encode())
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if b"chunked" in head.lower():
        out = b""
        while body:
            size_line, _, rest = body.partition(b"\r\n")
            size = int(size_line, 16)
            if size == 0:
                break
            out += rest[:size]
            body = rest[size + 2:]
        body = out
    return json.loads(body)


class WebSocket:
    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                          .encode())
        head = recv_until(self.sock, b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError("no WebSocket upgrade: " + head[:200].decode(errors="replace"))
        self.buffer = head.partition(b"\r\n\r\n")[2]
        self.next_id = 0

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the WebSocket closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def _frame(self):
        b0, b1 = self._read(2)
        length = b1 & 0x7F
        if length == 126:
            length = int.from_bytes(self._read(2), "big")
        elif length == 127:
            length = int.from_bytes(self._read(8), "big")
        return b0 & 0x0F, self._read(length)

    def call(self, method, params):
        self.next_id += 1
        payload = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        else:
            header += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)
        while True:
            opcode, data = self._frame()
            if opcode != 1:
                continue
            message = json.loads(data)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result")

    def close(self):
        self.sock.close()


def adb_connect(server_port):
    sock = socket.create_connection(("127.0.0.1", server_port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def adb_request(sock, text):
    data = text.encode()
    sock.sendall(b"%04x" % len(data) + data)
    status = sock.recv(4, socket.MSG_WAITALL)
    if status != b"OKAY":
        length = int(sock.recv(4, socket.MSG_WAITALL), 16)
        raise RuntimeError(f"{text}: {sock.recv(length, socket.MSG_WAITALL).decode()}")


def read_to_end(sock):
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def adb_wire_phases(server_port, serial, socket_name, samples):
    def on_device(service, send=b""):
        with adb_connect(server_port) as sock:
            adb_request(sock, "host:transport:" + serial)
            adb_request(sock, service)
            sock.sendall(send)
            return read_to_end(sock)

    def on_host(service):
        with adb_connect(server_port) as sock:
            adb_request(sock, f"host-serial:{serial}:{service}")
            return read_to_end(sock)

    listing = "cat /proc/net/unix; ps -A -o PID,NAME; echo clawperator-exit:$?"
    get = b"GET /json/list HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    phases = {"wire_echo": [], "wire_listing": [], "wire_forward": [], "wire_killforward": [],
              "wire_json_list_without_forward": []}
    for _ in range(samples):
        t0 = time.perf_counter()
        on_device("shell:echo hi")
        t1 = time.perf_counter()
        on_device("shell:" + listing)
        t2 = time.perf_counter()
        # OKAY for the request, then OKAY and the port adb chose (length-prefixed).
        answer = on_host(f"forward:tcp:0;localabstract:{socket_name}")
        t3 = time.perf_counter()
        on_host(f"killforward:tcp:{int(answer[8:])}")
        t4 = time.perf_counter()
        body = on_device("localabstract:" + socket_name, get)
        t5 = time.perf_counter()
        if b"webSocketDebuggerUrl" not in body:
            raise RuntimeError("no page list over localabstract: " + body[:200].decode())
        for name, a, b in (("wire_echo", t0, t1), ("wire_listing", t1, t2),
                           ("wire_forward", t2, t3), ("wire_killforward", t3, t4),
                           ("wire_json_list_without_forward", t4, t5)):
            phases[name].append((b - a) * 1e6)
    return phases


def main():
    port, selector, samples = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    sel = json.dumps(selector)
    query = (f"(() => {{ const all = document.querySelectorAll({sel}); return {{count: all.length,"
             " matches: Array.from(all).slice(0, 50).map(e => ({tag: e.tagName,"
             " text: e.innerText, rect: e.getBoundingClientRect().toJSON()}))}; })()")
    target = (f"(() => {{ const e = document.querySelector({sel}); e.scrollIntoView({{block:"
              " 'center'}); const r = e.getBoundingClientRect(); return {x: r.x + r.width / 2,"
              " y: r.y + r.height / 2}; })()")
    phases = {"json_list": [], "websocket": [], "query_evaluate": [], "click_evaluate": [],
              "mouseMoved": [], "mousePressed": [], "mouseReleased": [], "close": []}
    for _ in range(samples):
        t0 = time.perf_counter()
        pages = http_get(port, "/json/list")
        t1 = time.perf_counter()
        url = next(p["webSocketDebuggerUrl"] for p in pages if p.get("type") == "page")
        ws = WebSocket(port, "/" + url.split("/", 3)[3])
        t2 = time.perf_counter()
        evaluate = {"returnByValue": True, "awaitPromise": True}
        ws.call("Runtime.evaluate", dict(evaluate, expression=query))
        t3 = time.perf_counter()
        point = ws.call("Runtime.evaluate", dict(evaluate, expression=target))["result"]["value"]
        phases["click_evaluate"].append((time.perf_counter() - t3) * 1e6)
        for kind, button, buttons in (("mouseMoved", "none", 0), ("mousePressed", "left", 1),
                                      ("mouseReleased", "left", 0)):
            sent = time.perf_counter()
            ws.call("Input.dispatchMouseEvent", {"type": kind, "x": point["x"], "y": point["y"],
                                                 "button": button, "buttons": buttons,
                                                 "clickCount": 1})
            phases[kind].append((time.perf_counter() - sent) * 1e6)
        t4 = time.perf_counter()
        ws.close()
        t5 = time.perf_counter()
        for name, a, b in (("json_list", t0, t1), ("websocket", t1, t2),
                           ("query_evaluate", t2, t3), ("close", t4, t5)):
            phases[name].append((b - a) * 1e6)
    if len(sys.argv) > 4:
        phases.update(adb_wire_phases(int(sys.argv[4]), sys.argv[5], sys.argv[6], samples))
    for name, values in phases.items():
        print(f"{name} {statistics.median(values):.0f}")


if __name__ == "__main__":
    main()
