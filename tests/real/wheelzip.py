#!/usr/bin/env python3
"""Reads members of a remote wheel (a zip file) with HTTP range requests, stdlib only.

A wheel is read from its end: the end-of-central-directory record (EOCD, and the ZIP64 EOCD
locator/record when present) gives the central directory's offset and size; the central
directory gives each member's local-header offset, sizes and compression; the local header
gives where the data starts; the data is stored (method 0) or raw deflate (method 8).

To read only `*.dist-info/METADATA` of a big wheel (TensorFlow: ~20 000 members, a
central directory of several MB) the last 64 KiB are fetched first: the dist-info entries
are written last, so their central-directory entries usually lie in that tail, found by a
chain of entries that ends exactly at the directory's end. Otherwise the whole directory
is fetched.

Everything read is cached on disk, keyed by the URL's `#sha256=` fragment when it has one
(else by the URL): `${TFGPU_PYPI_CACHE:-${XDG_CACHE_HOME:-~/.cache}/tfgpu-tests/pypi-meta}`.

API: list_members(url) -> [name], read_member(url, name) -> bytes, read_metadata(url) -> bytes.
Errors: WheelZipError with a one-line message.
CLI: wheelzip.py URL [MEMBER]   (no MEMBER: list the members; MEMBER 'METADATA': the metadata)
"""
import hashlib
import json
import os
import re
import struct
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

USER_AGENT = "tfgpu-tests-wheelzip/1 (+range reads of wheel metadata)"
TAIL = 65536 + 22 + 20 + 56  # max EOCD comment + EOCD + ZIP64 locator + ZIP64 EOCD
TIMEOUT = 60
RETRIES = 3

EOCD_SIG = b"PK\x05\x06"
Z64_LOC_SIG = b"PK\x06\x07"
Z64_EOCD_SIG = b"PK\x06\x06"
CD_SIG = b"PK\x01\x02"
LOCAL_SIG = b"PK\x03\x04"

stats = {"requests": 0, "bytes": 0}
_stats_lock = threading.Lock()


class WheelZipError(Exception):
    """One-line error: a bad zip, an HTTP error, a missing member."""


def cache_dir():
    d = os.environ.get("TFGPU_PYPI_CACHE")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "tfgpu-tests", "pypi-meta")
    return d


def _short(url):
    plain = urllib.parse.urldefrag(url)[0]
    return plain.rsplit("/", 1)[-1] or plain


def cache_key(url):
    """sha256 of the wheel when the URL names it (#sha256=...), else a hash of the URL."""
    frag = urllib.parse.urldefrag(url)[1]
    m = re.fullmatch(r"sha256=([0-9a-fA-F]{64})", frag or "")
    if m:
        return "sha256-" + m.group(1).lower()
    return "url-" + hashlib.sha256(urllib.parse.urldefrag(url)[0].encode()).hexdigest()


def _cache_path(url, *parts):
    return os.path.join(cache_dir(), "wheels", cache_key(url), *parts)


def _cache_get(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def cache_put(path, data):
    """Atomic write (temp file + rename): concurrent readers never see half a file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _get_range(url, start=None, end=None, suffix=None):
    """Returns (bytes, total_size). start/end inclusive, or suffix = the last N bytes."""
    plain = urllib.parse.urldefrag(url)[0]
    rng = "bytes=-%d" % suffix if suffix is not None else "bytes=%d-%d" % (start, end)
    last = None
    for attempt in range(RETRIES):
        req = urllib.request.Request(plain, headers={"Range": rng, "User-Agent": USER_AGENT,
                                                     "Accept-Encoding": "identity"})
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
                if r.status != 206:
                    raise WheelZipError("%s: server ignored the range request (HTTP %d), refusing to download the whole file"
                                        % (_short(url), r.status))
                cr = r.headers.get("Content-Range", "")
                m = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+|\*)", cr.strip())
                if not m:
                    raise WheelZipError("%s: bad Content-Range %r" % (_short(url), cr))
                data = r.read()
                with _stats_lock:
                    stats["requests"] += 1
                    stats["bytes"] += len(data)
                total = int(m.group(3)) if m.group(3) != "*" else None
                return data, total
        except urllib.error.HTTPError as e:
            if e.code == 416 and suffix is not None:
                raise WheelZipError("%s: HTTP 416 (file smaller than a zip end record?)" % _short(url))
            if e.code < 500 and e.code != 429:
                raise WheelZipError("%s: HTTP %d %s" % (_short(url), e.code, e.reason))
            last = "HTTP %d %s" % (e.code, e.reason)
        except (urllib.error.URLError, OSError) as e:
            last = str(getattr(e, "reason", e))
        time.sleep(1 + 2 * attempt)
    raise WheelZipError("%s: %s (after %d tries)" % (_short(url), last, RETRIES))


def _parse_eocd(url, tail, tail_start):
    """Returns (cd_offset, cd_size, entries) from the tail of the file."""
    i = tail.rfind(EOCD_SIG)
    while i >= 0 and len(tail) - i >= 22:
        (_sig, _disk, _cddisk, _n_here, n, cd_size, cd_off, clen) = struct.unpack("<4sHHHHIIH", tail[i:i + 22])
        if i + 22 + clen == len(tail):
            break
        i = tail.rfind(EOCD_SIG, 0, i)
    else:
        raise WheelZipError("%s: not a zip file (no end-of-central-directory record)" % _short(url))
    if cd_off == 0xFFFFFFFF or cd_size == 0xFFFFFFFF or n == 0xFFFF:
        loc = i - 20
        if loc < 0 or tail[loc:loc + 4] != Z64_LOC_SIG:
            raise WheelZipError("%s: ZIP64 end record without its locator" % _short(url))
        (_s, _d, z64_off, _disks) = struct.unpack("<4sIQI", tail[loc:loc + 20])
        rel = z64_off - tail_start
        if rel < 0 or tail[rel:rel + 4] != Z64_EOCD_SIG:
            raise WheelZipError("%s: bad ZIP64 end-of-central-directory record" % _short(url))
        (_s, _sz, _vm, _vn, _d, _cdd, _nh, n, cd_size, cd_off) = struct.unpack("<4sQHHIIQQQQ", tail[rel:rel + 56])
    return cd_off, cd_size, n


def _parse_cd(url, buf, prefix=False):
    """Parses central-directory entries from buf; returns {name: [local_off, csize, usize, method]}.
    prefix: buf is the start of a directory; stop quietly at the first entry it cuts."""
    out = {}
    p = 0
    while p < len(buf):
        if prefix and (p + 46 > len(buf) or p + 46 + sum(struct.unpack("<HHH", buf[p + 28:p + 34])) > len(buf)):
            break
        if buf[p:p + 4] != CD_SIG or p + 46 > len(buf):
            raise WheelZipError("%s: corrupt central directory at entry %d" % (_short(url), len(out)))
        (_sig, _vm, _vn, _flags, method, _t, _d, _crc, csize, usize, nlen, xlen, clen, _disk, _ia, _ea,
         loff) = struct.unpack("<4sHHHHHHIIIHHHHHII", buf[p:p + 46])
        name_b = buf[p + 46:p + 46 + nlen]
        extra = buf[p + 46 + nlen:p + 46 + nlen + xlen]
        if len(name_b) != nlen or len(extra) != xlen:
            raise WheelZipError("%s: truncated central directory" % _short(url))
        if 0xFFFFFFFF in (csize, usize, loff):
            q = 0
            while q + 4 <= len(extra):
                hid, hlen = struct.unpack("<HH", extra[q:q + 4])
                if hid == 1:
                    vals = extra[q + 4:q + 4 + hlen]
                    k = 0
                    if usize == 0xFFFFFFFF:
                        usize = struct.unpack("<Q", vals[k:k + 8])[0]; k += 8
                    if csize == 0xFFFFFFFF:
                        csize = struct.unpack("<Q", vals[k:k + 8])[0]; k += 8
                    if loff == 0xFFFFFFFF:
                        loff = struct.unpack("<Q", vals[k:k + 8])[0]; k += 8
                    break
                q += 4 + hlen
        name = name_b.decode("utf-8", "replace")
        out[name] = [loff, csize, usize, method]
        p += 46 + nlen + xlen + clen
    return out


def _tail_entries(url, tail, tail_start, cd_off, cd_end):
    """The central-directory entries that lie wholly in the tail: the first candidate entry
    start whose chain of entries ends exactly at the directory's end."""
    lo = max(cd_off, tail_start) - tail_start
    hi = cd_end - tail_start
    region = tail[lo:hi]
    p = region.find(CD_SIG)
    while p >= 0:
        try:
            return _parse_cd(url, region[p:])
        except (WheelZipError, struct.error):
            p = region.find(CD_SIG, p + 1)
    return {}


class _Wheel:
    def __init__(self, url):
        self.url = url
        self.index = None      # full directory {name: [...]}
        self.partial = None    # tail entries only
        self.size = None
        self.tail = None
        self.tail_start = None
        self.cd = None


def _open_tail(url):
    w = _Wheel(url)
    tail, total = _get_range(url, suffix=TAIL)
    if total is None:
        raise WheelZipError("%s: server did not say the file size" % _short(url))
    w.size, w.tail, w.tail_start = total, tail, total - len(tail)
    cd_off, cd_size, _n = _parse_eocd(url, tail, w.tail_start)
    if cd_off + cd_size > total:
        raise WheelZipError("%s: central directory beyond the end of the file" % _short(url))
    w.cd = (cd_off, cd_size)
    if cd_off >= w.tail_start:
        w.index = _parse_cd(url, tail[cd_off - w.tail_start:cd_off - w.tail_start + cd_size])
    else:
        w.partial = _tail_entries(url, tail, w.tail_start, cd_off, cd_off + cd_size)
    return w


def _load_full_index(w):
    if w.index is None:
        cd_off, cd_size = w.cd
        need_end = min(cd_off + cd_size, w.tail_start) - 1
        head, _ = _get_range(w.url, cd_off, need_end) if need_end >= cd_off else (b"", None)
        buf = head + w.tail[max(0, cd_off - w.tail_start):cd_off + cd_size - w.tail_start]
        if len(buf) != cd_size:
            raise WheelZipError("%s: short read of the central directory" % _short(w.url))
        w.index = _parse_cd(w.url, buf)
    return w.index


_index_lock = threading.Lock()


def _index(url, full=True):
    """Returns (entries, wheel-or-None). full=False may return only the tail entries."""
    path = _cache_path(url, "index.json")
    cached = _cache_get(path)
    if cached is not None:
        try:
            return json.loads(cached), None
        except ValueError:
            pass
    w = _open_tail(url)
    if w.index is None and not full:
        return w.partial, w
    idx = _load_full_index(w)
    cache_put(path, json.dumps(idx, separators=(",", ":")).encode())
    return idx, w


def _extract(url, name, entry):
    loff, csize, usize, method = entry
    slack = 30 + len(name.encode()) + 256
    data, _ = _get_range(url, loff, loff + slack + csize - 1)
    if data[:4] != LOCAL_SIG:
        raise WheelZipError("%s: no local header for %s" % (_short(url), name))
    nlen, xlen = struct.unpack("<HH", data[26:30])
    start = 30 + nlen + xlen
    if start + csize > len(data):
        more, _ = _get_range(url, loff + len(data), loff + start + csize - 1)
        data += more
    raw = data[start:start + csize]
    if method == 0:
        out = raw
    elif method == 8:
        try:
            out = zlib.decompressobj(-15).decompress(raw)
        except zlib.error as e:
            raise WheelZipError("%s: %s: bad deflate data (%s)" % (_short(url), name, e))
    else:
        raise WheelZipError("%s: %s: unsupported compression method %d" % (_short(url), name, method))
    if len(out) != usize:
        raise WheelZipError("%s: %s: size %d, directory says %d" % (_short(url), name, len(out), usize))
    return out


def list_members(url):
    """Names of every member of the wheel at url."""
    idx, _ = _index(url, full=True)
    return list(idx)


def _member_path(url, name):
    return _cache_path(url, "m", hashlib.sha256(name.encode()).hexdigest()[:32])


def read_member(url, name):
    """Bytes of one member (cached)."""
    path = _member_path(url, name)
    data = _cache_get(path)
    if data is not None:
        return data
    idx, _ = _index(url, full=True)
    if name not in idx:
        raise WheelZipError("%s: no member %s" % (_short(url), name))
    data = _extract(url, name, idx[name])
    cache_put(path, data)
    return data


def find_metadata_name(names, url=""):
    metas = [n for n in names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
    if len(metas) != 1:
        raise WheelZipError("%s: %d *.dist-info/METADATA members" % (_short(url), len(metas)))
    return metas[0]


def read_metadata(url):
    """Bytes of the wheel's *.dist-info/METADATA (cached; reads only the zip's tail when it can)."""
    path = _cache_path(url, "METADATA")
    data = _cache_get(path)
    if data is not None:
        return data
    idx, w = _index(url, full=False)
    metas = [n for n in idx if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
    if not metas and w is not None and w.index is None:
        # Some wheels (TF 2.21) write the dist-info first: try the directory's first 64 KiB.
        cd_off, cd_size = w.cd
        head, _ = _get_range(url, cd_off, min(cd_off + 65536, w.tail_start) - 1)
        idx = _parse_cd(url, head, prefix=True)
        metas = [n for n in idx if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
    if not metas and w is not None:
        idx = _load_full_index(w)
        cache_put(_cache_path(url, "index.json"), json.dumps(idx, separators=(",", ":")).encode())
    name = find_metadata_name(idx, url)
    data = _extract(url, name, idx[name])
    cache_put(path, data)
    return data


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: wheelzip.py URL [MEMBER|METADATA]", file=sys.stderr)
        return 2
    try:
        if len(argv) == 2:
            for n in list_members(argv[1]):
                print(n)
        elif argv[2] == "METADATA":
            sys.stdout.buffer.write(read_metadata(argv[1]))
        else:
            sys.stdout.buffer.write(read_member(argv[1], argv[2]))
    except WheelZipError as e:
        print("wheelzip: %s" % e, file=sys.stderr)
        return 1
    print("wheelzip: %d range requests, %d bytes" % (stats["requests"], stats["bytes"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
