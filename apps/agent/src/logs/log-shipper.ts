import { agentProtocol } from '@edgekeep/contract';
import type { ApiClient } from '../sync/api-client';
import { backoffDelay, sleep } from '../sync/backoff';
import type { Log } from '../sync/log';
import { createLogReader } from './log-reader';
import { readPosition, writePosition, type Position } from './offsets';
import { parseAccessLine } from './parse-line';
import { parseStreamLine } from './parse-stream-line';
import type { AgentMetrics } from '../metrics/metrics';
import type { DiskWatch } from '../report/disk-watch';

export type LogShipperOptions = {
  api: Pick<ApiClient, 'logs'>;
  /** The log (absolute path), the name its position is kept under, and its kind (default the HTTP access log). */
  file: string;
  name: string;
  kind?: LogKind;
  stateDir: string;
  log: Log;
  flushMs?: number;
  pollMs?: number;
  maxLines?: number;
  maxBytes?: number;
  chunkBytes?: number;
  /** How long a rotated file is still read after the log's path changed (nginx workers reopen one by one). */
  rotateGraceMs?: number;
  backoff?: { baseMs?: number; capMs?: number };
  metrics?: Pick<AgentMetrics, 'linesShipped' | 'shipFailures'>;
  /** Told how each write of the position went (a full disk is reported). */
  disk?: Pick<DiskWatch, 'failed' | 'wrote'>;
};

export type LogKind = 'access' | 'stream';
const PARSERS: Record<LogKind, (o: { line: string }) => object | undefined> = { access: parseAccessLine, stream: parseStreamLine };

type Batch = { lines: string[]; ends: number[]; bytes: number; end: number; since: number | undefined };
const NEWLINE = 0x0a;

type Shipping = Position & { file: string };
/** A position with its file's identity; a file without one yet is named by its inode and the time reading it began. */
const identified = (p: Position): Shipping => ({ ...p, file: p.file ?? `${p.inode}:${Date.now()}` });

/**
 * Tails a log (the access log, or the stream log of the L4 ports) and ships it as gzip NDJSON batches (by size and by time). Memory stays bounded: one chunk
 * is read at a time and reading stops while a full batch waits to be taken. The position on disk moves only after
 * the control plane took a batch, so a restart loses no line; a batch sent again after an answer that did not
 * arrive carries the same file identity and line offsets, by which the control plane takes each line once.
 */
export const runLogShipper = async (o: LogShipperOptions & { signal: AbortSignal }) => {
  const { api, stateDir, name, signal, kind = 'access', flushMs = 2000, pollMs = 250, maxLines = agentProtocol.LOG_BATCH_MAX.lines, maxBytes = agentProtocol.LOG_BATCH_MAX.bytes } = o;
  const chunkBytes = o.chunkBytes ?? 256 * 1024;
  const reader = createLogReader({ file: o.file, chunkBytes });
  const emptyBatch = (end: number): Batch => ({ lines: [], ends: [], bytes: 0, end, since: undefined });

  let committed: Position | undefined;
  while (!signal.aborted && !committed) {
    committed = await reader.open({ position: await readPosition({ stateDir, log: name }) });
    if (!committed) await sleep({ ms: pollMs, signal });
  }
  if (!committed) return;
  let position = identified(committed);
  /** The position in memory is ahead of the one on disk: a write failed (a full disk) and is tried again. */
  let unsaved = false;
  /**
   * Moves the position; a write that fails keeps it in memory, so a batch the control plane took is never sent
   * again while the agent runs. Should it stop before the write works, the batch goes again from the position on
   * disk and the control plane takes each line once (by file identity and offset).
   */
  const save = async (value: Shipping) => {
    position = value;
    await writePosition({ stateDir, log: name, value }).then(
      () => {
        unsaved = false;
        o.disk?.wrote();
      },
      (err: Error) => {
        if (!unsaved) o.log({ msg: 'log position not written, kept in memory until a write works', log: name, error: err.message });
        unsaved = true;
        o.disk?.failed(err);
      },
    );
  };
  await save(position);

  let readPos = position.offset;
  let batch = emptyBatch(readPos);
  let skipping = false;
  let rotatedAt: number | undefined;

  const consume = (chunk: Buffer) => {
    let at = 0;
    if (skipping) {
      const end = chunk.indexOf(NEWLINE);
      if (end < 0) {
        readPos += chunk.length;
        batch.end = readPos;
        return;
      }
      at = end + 1;
      skipping = false;
    }
    for (;;) {
      if (batch.lines.length >= maxLines || batch.bytes >= maxBytes) break;
      const end = chunk.indexOf(NEWLINE, at);
      if (end < 0) break;
      const record = PARSERS[kind]({ line: chunk.subarray(at, end).toString('utf8') });
      at = end + 1;
      if (record) {
        const json = JSON.stringify({ ...record, offset: readPos + at });
        batch.lines.push(json);
        batch.ends.push(readPos + at);
        batch.bytes += json.length + 1;
        batch.since ??= Date.now();
      }
    }
    if (at === 0 && chunk.length === chunkBytes && chunk.indexOf(NEWLINE) < 0) {
      o.log({ msg: 'skipping a log line longer than the read chunk', offset: readPos });
      skipping = true;
      at = chunk.length;
    }
    readPos += at;
    batch.end = readPos;
  };

  const ship = async () => {
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        const accepted = await api.logs({ ndjson: batch.lines.join('\n') + '\n', file: position.file, kind });
        if (accepted <= 0) throw new Error('the control plane took no line of the batch');
        o.metrics?.linesShipped.inc({ log: o.name }, Math.min(accepted, batch.lines.length));
        const offset = accepted >= batch.lines.length ? batch.end : batch.ends[accepted - 1];
        await save({ ...position, offset });
        readPos = offset;
        skipping = false;
        batch = emptyBatch(offset);
        return;
      } catch (err) {
        o.metrics?.shipFailures.inc({ log: o.name });
        const ms = backoffDelay({ attempt, ...o.backoff });
        o.log({ msg: 'log batch not shipped', error: (err as Error).message, lines: batch.lines.length, retryInMs: ms });
        await sleep({ ms, signal });
      }
    }
  };

  while (!signal.aborted) {
    const full = batch.lines.length >= maxLines || batch.bytes >= maxBytes;
    if (full || (batch.since !== undefined && Date.now() - batch.since >= flushMs)) {
      await ship();
      continue;
    }
    if (!batch.lines.length && batch.end > position.offset) await save({ ...position, offset: batch.end });
    const chunk = await reader.read({ offset: readPos });
    if (chunk.length) {
      consume(chunk);
      continue;
    }
    if ((await reader.size()) < readPos) {
      o.log({ msg: 'log truncated, reading it from the start', log: name });
      readPos = 0;
      batch = emptyBatch(0);
      await save(identified({ inode: position.inode, offset: 0 }));
      continue;
    }
    if (await reader.rotated()) {
      rotatedAt ??= Date.now();
      if (Date.now() - rotatedAt >= (o.rotateGraceMs ?? 1000)) {
        if (batch.lines.length) {
          await ship();
          continue;
        }
        const next = await reader.open({});
        rotatedAt = undefined;
        if (next) {
          await save(identified(next));
          readPos = 0;
          batch = emptyBatch(0);
        }
        continue;
      }
    }
    if (unsaved) await save(position);
    await sleep({ ms: pollMs, signal });
  }
  await reader.close();
};
