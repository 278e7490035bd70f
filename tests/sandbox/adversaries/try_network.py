"""Adversary: try every way out of the sandbox's network. Prints ``REACHED <what>`` on success."""

import os
import socket
import urllib.request

attempts = 0


def reached(what):
    print("REACHED", what, flush=True)


for host, port in [("1.1.1.1", 53), ("8.8.8.8", 443), ("deb.debian.org", 80), ("pypi.org", 443)]:
    attempts += 1
    try:
        socket.create_connection((host, port), timeout=3).close()
        reached(f"tcp {host}:{port}")
    except OSError:
        pass

attempts += 1
try:
    socket.getaddrinfo("kaggle.com", 443)
    reached("dns kaggle.com")
except OSError:
    pass

attempts += 1
try:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.sendto(b"ping", ("8.8.8.8", 53))
    reached("udp 8.8.8.8:53")
except OSError:
    pass

attempts += 1
try:
    urllib.request.urlopen("http://deb.debian.org/debian/", timeout=3)
    reached("http deb.debian.org")
except OSError:
    pass

for path in ("/var/run/docker.sock", "/run/docker.sock"):
    attempts += 1
    if os.path.exists(path):
        reached(f"docker socket {path}")

print(f"network attempts: {attempts}", flush=True)
