"""Reading back the app's screenshots for the real-window and web-page smoke tests: a PNG decoder
(8-bit RGB/RGBA, every filter type; standard library only), one pixel, a colour comparison with
a tolerance, the drawn items of one kind from the JSON report the app writes beside a PNG, and
the checks every screenshot gets (its size, not an empty picture) before its own."""
import struct
import zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "unexpected PNG format"
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    return w, h, bpp, rows

def pixel(img, x, y):
    w, h, bpp, rows = img
    x, y = int(x), int(y)
    return tuple(rows[y][x * bpp:x * bpp + 3])

def close(a, b, tol=8):
    return all(abs(p - q) <= tol for p, q in zip(a, b))

def items(rep, kind):
    """Drawn items of `kind`; "bar:chosen" also asks for the item's state."""
    kind, _, state = kind.partition(":")
    return [i for i in rep["items"]
            if i["kind"] == kind and (not state or i.get("state") == state)]


def run_checks(label, img, rep, size, checks, fail):
    """The image's size and colours, then each check(label, rep, img, palette)."""
    if (img[0], img[1]) != size:
        fail(f"{label}: image is {img[0]}x{img[1]}, expected {size[0]}x{size[1]}")
    colours = {pixel(img, x, y) for x in range(0, img[0], 37) for y in range(0, img[1], 23)}
    if len(colours) < 12:
        fail(f"{label}: only {len(colours)} distinct colours: an empty picture?")
    pal = {k: tuple(v) for k, v in rep["palette"].items()}
    for c in checks:
        c(label, rep, img, pal)
