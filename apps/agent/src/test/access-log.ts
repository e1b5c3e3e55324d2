import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ACCESS_LOG } from '../render';
import { waitFor } from './wait-for';

/** The last access log entry of `uri` on the node at `prefix`, once nginx wrote it (it logs after answering). */
export const loggedLine = ({ prefix, uri }: { prefix: string; uri: string }) =>
  waitFor({
    what: `the access log line of ${uri}`,
    check: async () => {
      const lines = (await readFile(join(prefix, ACCESS_LOG), 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
      return lines.map((l) => JSON.parse(l) as Record<string, string>).findLast((e) => e.uri === uri);
    },
  });
