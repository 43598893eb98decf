#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of the VM's screen checks (scripts/vm-boot-screen.sh).

usage: screen-agent.py DIR

Listens on qmp.sock (QEMU's QMP monitor connects to it) and on
screen.sock (the guest's second serial port, ttyS1, connects to it), then
writes the directory holding the two into DIR/ready.  The sockets are not
in DIR: a socket's path must fit in 107 bytes, and DIR is under whatever
directory the repository was cloned into.  They are in a directory of
their own under $TMPDIR (or /tmp when that is too long), removed when the
agent exits.  The guest asks, one line at a time:

  hello                      -> "hello"
  check NAME PATTERN ARGS... -> QEMU's own screendump of the VM's display is
                                compared pixel for pixel with the picture
                                PATTERN ARGS describes, computed here without
                                anything from the guest's memory:
                                "pass NAME" or "fail NAME REASON"
  save NAME                  -> the screendump is kept as DIR/NAME.png:
                                "saved NAME"

Each verdict is also logged to DIR/agent.log as "dxgpmo-screen: PASS NAME"
or "dxgpmo-screen: FAIL NAME REASON", which scripts/check.sh counts.  The
screendumps stay in DIR as NAME.ppm.  The agent exits when QEMU goes away.
"""
import json
import os
import re
import shutil
import signal
import socket
import struct
import sys
import tempfile
import zlib

ACCEPT_TIMEOUT = 120
# Room left in sockaddr_un's 108 bytes for "/screen.sock" and the NUL.
SOCKET_DIR_MAX = 107 - len('/screen.sock')


def listener(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(1)
    s.settimeout(ACCEPT_TIMEOUT)
    return s


class Qmp:
    def __init__(self, conn):
        self.f = conn.makefile('rw', encoding='utf-8', newline='\n')
        self.reply()                        # the greeting
        self.call('qmp_capabilities')

    def reply(self):
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError('QMP closed')
            msg = json.loads(line)
            if 'event' not in msg:
                return msg

    def call(self, cmd, **args):
        req = {'execute': cmd}
        if args:
            req['arguments'] = args
        self.f.write(json.dumps(req) + '\n')
        self.f.flush()
        msg = self.reply()
        if 'error' in msg:
            raise RuntimeError('%s: %s' % (cmd, msg['error'].get('desc')))
        return msg.get('return')


def read_ppm(path):
    """(width, height, bytes RGB) of a binary P6 file with maxval 255."""
    with open(path, 'rb') as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b'#':
            pos = data.index(b'\n', pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    if fields[0] != b'P6' or fields[3] != b'255':
        raise ValueError('not an 8-bit P6 PPM')
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos:pos + w * h * 3]


def write_png(path, w, h, rgb):
    def chunk(kind, body):
        c = struct.pack('>I', len(body)) + kind + body
        return c + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff)
    stride = w * 3
    raw = b''.join(b'\0' + rgb[y * stride:(y + 1) * stride] for y in range(h))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n')
        f.write(chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b'IDAT', zlib.compress(raw, 6)))
        f.write(chunk(b'IEND', b''))


# The picture of the scan-out test (selftests/dxgpmo_scanout_test.c draws
# it into the object; this is an independent implementation of the same
# definition):
#   everywhere: r = x * 255 / (w - 1), g = y * 255 / (h - 1),
#               b = seed if 16x16 checker cell (x>>4 ^ y>>4) is even,
#                   else 255 - seed                       (CPU, through MAP)
#   rows sy .. sy+sh-1: r = (x + seed) & 255, g = (y - sy) * 6 & 255,
#               b = 255 - (x & 255)                       (edu engine, ADL)
#   stage 2, rectangle rx, ry, rw, rh: r = 255, g = (x - rx) * 4 & 255,
#               b = (y - ry) * 4 & 255                    (CPU, then DirtyFB)
def scanout_pixel(x, y, a):
    if (a['stage'] >= 2 and a['rx'] <= x < a['rx'] + a['rw'] and
            a['ry'] <= y < a['ry'] + a['rh']):
        return (255, (x - a['rx']) * 4 & 255, (y - a['ry']) * 4 & 255)
    if a['sy'] <= y < a['sy'] + a['sh']:
        return ((x + a['seed']) & 255, (y - a['sy']) * 6 & 255,
                255 - (x & 255))
    s = a['seed']
    return (x * 255 // (a['w'] - 1), y * 255 // (a['h'] - 1),
            s if not ((x >> 4) ^ (y >> 4)) & 1 else 255 - s)


SCANOUT_ARGS = ('w', 'h', 'sy', 'sh', 'rx', 'ry', 'rw', 'rh', 'seed', 'stage')


def compare(w, h, rgb, pattern, args):
    if pattern != 'scanout' or len(args) != len(SCANOUT_ARGS):
        return 'unknown pattern %s/%d' % (pattern, len(args))
    a = dict(zip(SCANOUT_ARGS, (int(v) for v in args)))
    if (w, h) != (a['w'], a['h']):
        return 'screen is %dx%d, expected %dx%d' % (w, h, a['w'], a['h'])
    bad, first = 0, None
    for y in range(h):
        row = rgb[y * w * 3:(y + 1) * w * 3]
        for x in range(w):
            want = scanout_pixel(x, y, a)
            got = tuple(row[x * 3:x * 3 + 3])
            if got != want:
                bad += 1
                if first is None:
                    first = (x, y, got, want)
    if bad:
        x, y, got, want = first
        return ('%d of %d pixels differ, first at %d,%d: '
                'rgb %02x%02x%02x, expected %02x%02x%02x' %
                ((bad, w * h, x, y) + got + want))
    return None


def socket_dir():
    base = os.environ.get('TMPDIR') or '/tmp'
    # mkdtemp's name adds "/dxgpmo-screen." and 8 characters.  QEMU reads
    # a "," in a chardev's path as the next option; blanks are kept out too.
    if (len(base) + 24 > SOCKET_DIR_MAX or not os.path.isabs(base) or
            not re.fullmatch(r'[A-Za-z0-9/._-]+', base) or
            not os.access(base, os.W_OK | os.X_OK)):
        base = '/tmp'
    return tempfile.mkdtemp(prefix='dxgpmo-screen.', dir=base)


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        return 0
    if len(sys.argv) != 2 or sys.argv[1].startswith('-'):
        print(__doc__.strip().split('\n\n')[1] +
              '\n(screen-agent.py --help says more)', file=sys.stderr)
        return 2
    d = os.path.abspath(sys.argv[1])
    log = open(os.path.join(d, 'agent.log'), 'a', buffering=1)
    sockets = None
    try:
        sockets = socket_dir()
        return serve(d, log, sockets)
    finally:
        if sockets:
            shutil.rmtree(sockets, ignore_errors=True)


def serve(d, log, sockets):
    qmp_l = listener(os.path.join(sockets, 'qmp.sock'))
    scr_l = listener(os.path.join(sockets, 'screen.sock'))
    with open(os.path.join(d, 'ready.new'), 'w') as f:
        f.write(sockets + '\n')
    os.rename(os.path.join(d, 'ready.new'), os.path.join(d, 'ready'))
    try:
        qmp_c, _ = qmp_l.accept()
        scr_c, _ = scr_l.accept()
    except socket.timeout:
        log.write('dxgpmo-screen: QEMU did not connect\n')
        return 1
    qmp_c.settimeout(None)
    scr_c.settimeout(None)
    qmp = Qmp(qmp_c)
    guest = scr_c.makefile('rw', encoding='ascii', errors='replace',
                           newline='\n')
    for line in guest:
        words = line.split()
        if not words:
            continue
        reply = None
        if words[0] == 'hello':
            reply = 'hello'
        elif words[0] in ('check', 'save') and len(words) >= 2:
            name = os.path.basename(words[1])
            ppm = os.path.join(d, name + '.ppm')
            try:
                qmp.call('screendump', filename=ppm)
                w, h, rgb = read_ppm(ppm)
                if words[0] == 'save':
                    write_png(os.path.join(d, name + '.png'), w, h, rgb)
                    reply = 'saved ' + name
                    why = None
                else:
                    why = compare(w, h, rgb, words[2] if len(words) > 2
                                  else '', words[3:])
            except (OSError, ValueError, RuntimeError) as e:
                why = 'screendump: %s' % e
            if words[0] == 'check' or why:
                verdict = 'FAIL %s %s' % (name, why) if why else \
                    'PASS ' + name
                log.write('dxgpmo-screen: %s\n' % verdict)
                reply = ('fail %s %s' % (name, why)) if why else \
                    'pass ' + name
        else:
            reply = 'error unknown request'
        guest.write(reply + '\n')
        guest.flush()
    return 0


if __name__ == '__main__':
    # vm-boot-screen.sh ends a stuck agent with SIGTERM: clean up then too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        sys.exit(main())
    except EOFError:
        sys.exit(0)
