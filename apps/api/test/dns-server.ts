import dgram from 'node:dgram';

const encodeName = (name: string) =>
  Buffer.concat([...name.split('.').filter(Boolean).map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);

/** The question's name, its type and where the question ends. */
function readQuestion(msg: Buffer) {
  const labels: string[] = [];
  let at = 12;
  while (msg[at] !== 0) {
    labels.push(msg.subarray(at + 1, at + 1 + msg[at]).toString());
    at += msg[at] + 1;
  }
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at + 1), end: at + 5 };
}

/** One answer record about the question's name. */
function answer(type: number, rdata: Buffer) {
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0);
  fixed.writeUInt16BE(type, 2);
  fixed.writeUInt16BE(1, 4);
  fixed.writeUInt32BE(60, 6);
  fixed.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([fixed, rdata]);
}

const TXT = 16;

/**
 * A tiny authoritative DNS server on 127.0.0.1 for tests: answers CNAME questions from `records` (name →
 * target) and TXT questions from `texts` (name → values), NODATA for names in `empty` and for a name known by the
 * other table, SERVFAIL for names in `failing`, NXDOMAIN for everything else.
 */
export async function startDnsServer(records: Record<string, string>, empty: string[] = [], failing: string[] = [], texts: Record<string, string[]> = {}) {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, peer) => {
    const { name, type, end } = readQuestion(msg);
    const target = type === TXT ? undefined : records[name];
    const values = type === TXT ? (texts[name] ?? []) : [];
    const answers = target ? [answer(5, encodeName(target))] : values.map((v) => answer(TXT, Buffer.concat([Buffer.from([v.length]), Buffer.from(v)])));
    const known = records[name] !== undefined || texts[name] !== undefined || empty.includes(name);
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(failing.includes(name) ? 0x8582 : known ? 0x8580 : 0x8583, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, msg.subarray(12, end), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}
