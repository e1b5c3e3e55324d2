import { appendFile, mkdtemp, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../test/wait-for';
import { runLogShipper, type LogShipperOptions } from './log-shipper';

const line = (uri: string) => JSON.stringify({ msec: '1795291507.5', site: '1', domain: 'a.example.com', uri, status: '200' }) + '\n';

type Sent = { file: string; lines: { uri: string; offset: number }[] };

/**
 * A control plane's log intake that takes batches while `up`, recording each batch's URIs; every batch that
 * reaches it, taken or not, is in `sent`. While `answerLost` it takes nothing but the answer does not arrive.
 */
const fakeIntake = () => {
  const intake = {
    up: true,
    answerLost: false,
    sent: [] as Sent[],
    batches: [] as string[][],
    uris: () => intake.batches.flat(),
    logs: async ({ ndjson, file }: { ndjson: string; file: string }) => {
      if (!intake.up) throw new Error('control plane away');
      const lines = ndjson.trim().split('\n').map((l) => JSON.parse(l) as { uri: string; offset: number });
      intake.sent.push({ file, lines });
      if (intake.answerLost) throw new Error('no answer');
      intake.batches.push(lines.map((l) => l.uri));
      return lines.length;
    },
  };
  return intake;
};

describe('runLogShipper', () => {
  let dir: string;
  let file: string;
  let intake: ReturnType<typeof fakeIntake>;
  let controller: AbortController;
  let running: Promise<void>;

  const start = (extra: Partial<LogShipperOptions> = {}) => {
    controller = new AbortController();
    running = runLogShipper({
      api: intake,
      file,
      name: 'access',
      stateDir: dir,
      log: () => undefined,
      flushMs: 20,
      pollMs: 10,
      rotateGraceMs: 50,
      backoff: { baseMs: 10, capMs: 40 },
      signal: controller.signal,
      ...extra,
    });
  };
  const stop = async () => {
    controller.abort();
    await running;
  };
  const uris = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `/${tag}/${i}`);
  const write = (list: string[]) => appendFile(file, list.map(line).join(''));
  const savedOffset = async () => JSON.parse(await readFile(join(dir, 'log-offsets.json'), 'utf8')).access.offset as number;
  const arrived = (list: string[]) => waitFor({ what: list.at(-1) ?? '', check: () => list.every((u) => intake.uris().includes(u)), timeoutMs: 5000 });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ek-shipper-'));
    file = join(dir, 'access.json');
    intake = fakeIntake();
  });
  afterEach(async () => {
    await stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('ships in batches of at most maxLines and waits for a line to end', async () => {
    await write(uris(7, 'a'));
    await appendFile(file, line('/partial').slice(0, 30));
    start({ maxLines: 3 });
    await arrived(uris(7, 'a'));
    expect(intake.batches.map((b) => b.length)).toEqual([3, 3, 1]);
    expect(intake.uris()).not.toContain('/partial');
    await appendFile(file, line('/partial').slice(30));
    await arrived(['/partial']);
  });

  it('keeps unsent lines while the control plane is away, reading no further than one full batch', async () => {
    intake.up = false;
    await write(uris(50, 'b'));
    start({ maxLines: 5 });
    await new Promise((r) => setTimeout(r, 150));
    expect(JSON.parse(await readFile(join(dir, 'log-offsets.json'), 'utf8')).access.offset).toBe(0);
    intake.up = true;
    await arrived(uris(50, 'b'));
    expect(intake.uris()).toEqual(uris(50, 'b'));
    expect(Math.max(...intake.batches.map((b) => b.length))).toBe(5);
  });

  it('goes on from its saved offset after a restart, and follows a rotation to the new file', async () => {
    await write(uris(5, 'c'));
    start();
    await arrived(uris(5, 'c'));
    await stop();
    await write(uris(5, 'd'));
    await rename(file, `${file}.1`);
    await write(uris(5, 'e'));
    start();
    await arrived([...uris(5, 'd'), ...uris(5, 'e')]);
    expect(intake.uris()).toEqual([...uris(5, 'c'), ...uris(5, 'd'), ...uris(5, 'e')]);
  });

  it('gives each line the offset where it ends in the file, and each batch the file it comes from', async () => {
    await write(uris(3, 'h'));
    start();
    await arrived(uris(3, 'h'));
    const [batch] = intake.sent;
    const ends = uris(3, 'h').map((_, i) => uris(i + 1, 'h').map(line).join('').length);
    expect(batch.lines.map((l) => l.offset)).toEqual(ends);
    expect(batch.file).toMatch(new RegExp(`^${(await stat(file)).ino}:\\d+$`));
  });

  it('sends a batch whose answer was lost again under the same file identity and offsets', async () => {
    intake.answerLost = true;
    await write(uris(4, 'i'));
    start();
    await waitFor({ what: 'two attempts', check: () => intake.sent.length >= 2 });
    intake.answerLost = false;
    await arrived(uris(4, 'i'));
    expect(new Set(intake.sent.map((s) => JSON.stringify(s))).size).toBe(1);
  });

  it('keeps the file identity across a restart and gives a rotated-in or truncated file a new one', async () => {
    const files = () => [...new Set(intake.sent.map((s) => s.file))];
    await write(uris(2, 'j'));
    start();
    await arrived(uris(2, 'j'));
    await stop();
    await write(uris(2, 'k'));
    start();
    await arrived(uris(2, 'k'));
    expect(files()).toHaveLength(1);
    await rename(file, `${file}.1`);
    await write(uris(2, 'l'));
    await arrived(uris(2, 'l'));
    expect(files()).toHaveLength(2);
    await truncate(file, 0);
    await waitFor({ what: 'the truncation to be seen', check: async () => (await savedOffset()) === 0 });
    await write(uris(2, 'm'));
    await arrived(uris(2, 'm'));
    expect(files()).toHaveLength(3);
    expect(intake.sent.at(-1)?.lines.map((l) => l.offset)).toEqual([line('/m/0').length, line('/m/0').length + line('/m/1').length]);
  });

  it('reads a truncated log from its start and skips lines longer than a chunk', async () => {
    await write(uris(3, 'f'));
    start({ chunkBytes: 512 });
    await arrived(uris(3, 'f'));
    await truncate(file, 0);
    await waitFor({ what: 'the truncation to be seen', check: async () => (await savedOffset()) === 0 });
    await writeFile(file, line('/g/0') + line('/' + 'x'.repeat(2000)) + line('/g/1'));
    await arrived(['/g/0', '/g/1']);
    expect(intake.uris()).toEqual([...uris(3, 'f'), '/g/0', '/g/1']);
  });

  it('ships the stream log as its own kind, beside the access log, each with its own position', async () => {
    const streamFile = join(dir, 'stream.json');
    const kinds: { kind?: string; lines: { siteId: number; outcome: string; offset: number }[] }[] = [];
    const stream = (ip: string, status: string) => JSON.stringify({ msec: '1795291507.5', site: '4', port: '9000', protocol: 'TCP', clientIp: ip, status, bytesSent: '7', bytesReceived: '2' }) + '\n';
    await writeFile(streamFile, stream('203.0.113.9', '200') + stream('203.0.113.50', '403'));
    await write(uris(2, 'h'));
    const streamController = new AbortController();
    const streaming = runLogShipper({
      api: { logs: async ({ ndjson, kind }) => (kinds.push({ kind, lines: ndjson.trim().split('\n').map((l) => JSON.parse(l)) }), 2) },
      file: streamFile, name: 'stream', kind: 'stream', stateDir: dir, log: () => undefined, flushMs: 20, pollMs: 10, signal: streamController.signal,
    });
    start();
    await arrived(uris(2, 'h'));
    await waitFor({ what: 'the stream batch', check: () => kinds.length > 0, timeoutMs: 5000 });
    streamController.abort();
    await streaming;
    expect(kinds[0].kind).toBe('stream');
    const [passed, dropped] = [stream('203.0.113.9', '200'), stream('203.0.113.50', '403')];
    expect(kinds[0].lines.map((l) => [l.siteId, l.outcome, l.offset])).toEqual([[4, 'pass', passed.length], [4, 'drop', passed.length + dropped.length]]);
    await waitFor({ what: 'both positions', check: async () => Object.keys(JSON.parse(await readFile(join(dir, 'log-offsets.json'), 'utf8'))).sort().join() === 'access,stream', timeoutMs: 5000 });
  });
});
