import dgram from 'node:dgram';

const encodeName = (name: string) =>
  Buffer.concat([...name.split('.').filter(Boolean).map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);

/** The question's name and where the question ends. */
function readQuestion(msg: Buffer) {
  const labels: string[] = [];
  let at = 12;
  while (msg[at] !== 0) {
    labels.push(msg.subarray(at + 1, at + 1 + msg[at]).toString());
    at += msg[at] + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 5 };
}

/**
 * A tiny authoritative DNS server on 127.0.0.1 for tests: answers CNAME questions from `records` (name →
 * target), NODATA for names in `empty`, SERVFAIL for names in `failing`, NXDOMAIN for everything else.
 */
export async function startDnsServer(records: Record<string, string>, empty: string[] = [], failing: string[] = []) {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, peer) => {
    const { name, end } = readQuestion(msg);
    const target = records[name];
    const known = target !== undefined || empty.includes(name);
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(failing.includes(name) ? 0x8582 : known ? 0x8580 : 0x8583, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(target ? 1 : 0, 6);
    const parts = [header, msg.subarray(12, end)];
    if (target) {
      const rdata = encodeName(target);
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0);
      fixed.writeUInt16BE(5, 2);
      fixed.writeUInt16BE(1, 4);
      fixed.writeUInt32BE(60, 6);
      fixed.writeUInt16BE(rdata.length, 10);
      parts.push(fixed, rdata);
    }
    socket.send(Buffer.concat(parts), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}
