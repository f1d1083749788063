#!/usr/bin/env python3
"""A local PEP 503 + PEP 658 simple index in front of PyPI, so pip resolves from metadata only.

PyPI's simple pages as this project's machines see them advertise no PEP 658 metadata, so
`pip install --dry-run` downloads every candidate wheel in full (TensorFlow ~500 MB, cuDNN
~700 MB). This proxy serves:

  /simple/<project>/        PyPI's page (https://pypi.org/simple/<project>/; kept in memory for
                            the run and on disk for a day), every wheel link rewritten to
                            /files/<path>#sha256=... with data-dist-info-metadata and
                            data-core-metadata ("sha256=<hash>" once the metadata is cached,
                            else "true"). Sdist links are kept as they are.
  /files/<path>.metadata    the wheel's *.dist-info/METADATA, read with HTTP range requests
                            (wheelzip.py) and cached on disk.
  /files/<path>             a real download: 302 to https://files.pythonhosted.org/<path>.

pip >= 25.3 then resolves from metadata alone (`pip install --dry-run --report`); older pip (23.2.1
here) reads the metadata too but downloads the chosen wheels after resolving (pypa/pip#12603,
fixed by pypa/pip#13482), through the 302.

Cache: ${TFGPU_PYPI_CACHE:-${XDG_CACHE_HOME:-~/.cache}/tfgpu-tests/pypi-meta}.

CLI:    pypi_meta_proxy.py [--port N] [--verbose]   (first stdout line: the base URL;
        pip's index is <base>/simple; a summary on stderr at exit; Ctrl-C / SIGTERM stops)
Python: with MetaProxy() as url: ... pip --index-url url + "/simple" ...
"""
import argparse
import hashlib
import html
import os
import re
import signal
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wheelzip  # noqa: E402

PYPI_SIMPLE = "https://pypi.org/simple/"
FILES_HOST = "https://files.pythonhosted.org"
PAGE_TTL = 86400
USER_AGENT = "tfgpu-tests-pypi-meta-proxy/1"


class IndexError_(Exception):
    """One-line error fetching an index page."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


_pages = {}
_pages_lock = threading.Lock()


def fetch_simple_page(project, ttl=PAGE_TTL):
    """PyPI's PEP 503 HTML page for project (memory for the run, disk for ttl seconds)."""
    norm = normalize(project)
    with _pages_lock:
        if norm in _pages:
            return _pages[norm]
    path = os.path.join(wheelzip.cache_dir(), "simple", norm + ".html")
    try:
        if time.time() - os.path.getmtime(path) < ttl:
            with open(path, "rb") as f:
                page = f.read().decode("utf-8")
            with _pages_lock:
                _pages[norm] = page
            return page
    except OSError:
        pass
    req = urllib.request.Request(PYPI_SIMPLE + norm + "/", headers={"Accept": "text/html", "User-Agent": USER_AGENT})
    last = None
    for attempt in range(3):
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                page = r.read().decode("utf-8")
            break
        except urllib.error.HTTPError as e:
            if e.code == 404:
                raise IndexError_(404, "%s: not on PyPI (404)" % norm)
            last = "HTTP %d" % e.code
        except (urllib.error.URLError, OSError) as e:
            last = str(getattr(e, "reason", e))
        time.sleep(1 + 2 * attempt)
    else:
        raise IndexError_(502, "%s: PyPI page unavailable: %s" % (norm, last))
    wheelzip.cache_put(path, page.encode("utf-8"))
    with _pages_lock:
        _pages[norm] = page
    return page


ANCHOR = re.compile(r"<a\s+([^>]*?)\s*>(.*?)</a>", re.S | re.I)
ATTR = re.compile(r'([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*"([^"]*)"')


def parse_links(page):
    """[(filename, url-with-fragment, {attr: value})] for every anchor of a PEP 503 page."""
    out = []
    for m in ANCHOR.finditer(page):
        attrs = {k.lower(): html.unescape(v) for k, v in ATTR.findall(m.group(1))}
        if "href" not in attrs:
            continue
        out.append((html.unescape(m.group(2)).strip(), attrs["href"], attrs))
    return out


def _metadata_cache_file(url):
    return os.path.join(wheelzip.cache_dir(), "wheels", wheelzip.cache_key(url), "METADATA")


class _State:
    def __init__(self, verbose):
        self.verbose = verbose
        self.frag = {}  # /packages/... path -> "sha256=..."
        self.lock = threading.Lock()
        self.counts = {"pages": 0, "metadata": 0, "metadata_cached": 0, "redirects": 0, "errors": 0}

    def bump(self, key):
        with self.lock:
            self.counts[key] += 1


def rewrite_page(state, page):
    def one(m):
        attrs_text = m.group(1)
        attrs = {k.lower(): html.unescape(v) for k, v in ATTR.findall(attrs_text)}
        href = attrs.get("href", "")
        base, frag = urllib.parse.urldefrag(href)
        u = urllib.parse.urlsplit(base)
        if not (u.path.endswith(".whl") and base.startswith(FILES_HOST + "/")):
            return m.group(0)
        with state.lock:
            state.frag[u.path] = frag
        new_href = "/files" + u.path + ("#" + frag if frag else "")
        meta_attr = attrs.get("data-dist-info-metadata") or attrs.get("data-core-metadata")
        if not meta_attr:
            try:
                with open(_metadata_cache_file(href), "rb") as f:
                    meta_attr = "sha256=" + hashlib.sha256(f.read()).hexdigest()
            except OSError:
                meta_attr = "true"
        rest = ATTR.sub(lambda a: "" if a.group(1).lower() in ("href", "data-dist-info-metadata", "data-core-metadata")
                        else a.group(0), attrs_text).strip()
        return '<a href="%s" data-dist-info-metadata="%s" data-core-metadata="%s"%s>%s</a>' % (
            html.escape(new_href), meta_attr, meta_attr, (" " + rest) if rest else "", m.group(2))
    return ANCHOR.sub(one, page)


class Handler(BaseHTTPRequestHandler):
    server_version = "tfgpu-pypi-meta-proxy/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        if self.server.state.verbose:
            sys.stderr.write("proxy: " + (fmt % args) + "\n")

    def _send(self, code, body, ctype="text/plain; charset=utf-8", headers=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, code, msg):
        self.server.state.bump("errors")
        sys.stderr.write("proxy: %s\n" % msg)
        self._send(code, (msg + "\n").encode())

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        state = self.server.state
        path = urllib.parse.urlsplit(self.path).path
        try:
            m = re.fullmatch(r"/simple/([^/]+)/?", path)
            if m:
                page = fetch_simple_page(urllib.parse.unquote(m.group(1)))
                state.bump("pages")
                body = rewrite_page(state, page).encode("utf-8")
                return self._send(200, body, "text/html; charset=utf-8")
            if path in ("/simple", "/simple/"):
                return self._send(200, b"<!DOCTYPE html><html><body>tfgpu PEP 658 proxy</body></html>\n",
                                  "text/html; charset=utf-8")
            if path.startswith("/files/packages/"):
                upath = path[len("/files"):]
                if upath.endswith(".whl.metadata"):
                    wpath = upath[:-len(".metadata")]
                    with state.lock:
                        frag = state.frag.get(wpath, "")
                    url = FILES_HOST + wpath + ("#" + frag if frag else "")
                    cached = os.path.exists(_metadata_cache_file(url))
                    data = wheelzip.read_metadata(url)
                    state.bump("metadata_cached" if cached else "metadata")
                    return self._send(200, data, "application/octet-stream")
                state.bump("redirects")
                sys.stderr.write("proxy: real download, redirected: %s\n" % upath.rsplit("/", 1)[-1])
                return self._send(302, b"", headers=[("Location", FILES_HOST + upath)])
            return self._error(404, "not found: %s" % path)
        except IndexError_ as e:
            return self._error(e.code, str(e))
        except wheelzip.WheelZipError as e:
            return self._error(502, str(e))
        except (BrokenPipeError, ConnectionResetError):
            return None


class MetaProxy:
    """with MetaProxy() as url: pip ... --index-url url + '/simple'"""

    def __init__(self, port=0, verbose=False):
        self.port, self.verbose = port, verbose
        self.server = None
        self.thread = None

    def start(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        self.server.state = _State(self.verbose)
        self.thread = threading.Thread(target=self.server.serve_forever, name="pypi-meta-proxy", daemon=True)
        self.thread.start()
        return self.url

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    @property
    def counts(self):
        return dict(self.server.state.counts)

    def stop(self):
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False


def main(argv):
    ap = argparse.ArgumentParser(description="Local PEP 658 simple index in front of PyPI (metadata by range requests).")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    ap.add_argument("--verbose", action="store_true", help="log every request on stderr")
    args = ap.parse_args(argv[1:])
    proxy = MetaProxy(args.port, args.verbose)
    try:
        url = proxy.start()
    except OSError as e:
        print("pypi_meta_proxy: cannot listen on 127.0.0.1:%d: %s" % (args.port, e.strerror or e), file=sys.stderr)
        return 2
    print(url, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    counts = proxy.counts
    proxy.stop()
    print("pypi_meta_proxy: %s; %d range requests, %d bytes" % (
        ", ".join("%s=%d" % kv for kv in counts.items()), wheelzip.stats["requests"], wheelzip.stats["bytes"]),
        file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
