import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Sent = { token: string; chatId: string; text: string };
type Update = { update_id: number; message: { message_id: number; text: string; chat: { id: number; type: 'private' } } };

/**
 * A local stand-in for a Telegram-compatible bot API: `POST /bot<token>/<method>` with getMe, getUpdates and
 * sendMessage. Known tokens only; messages a chat "sends" to the bot are queued as updates; `failNext` makes the
 * next calls answer 502, as a failing API would.
 */
export async function startFakeBot() {
  const tokens = new Set<string>();
  const updates: Update[] = [];
  const sent: Sent[] = [];
  const calls: string[] = [];
  let failures = 0;
  let nextId = 1000;

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const answer = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!match) return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token, method] = match;
      calls.push(method);
      if (failures > 0) {
        failures--;
        return answer(502, { ok: false, error_code: 502, description: 'Bad Gateway' });
      }
      if (!tokens.has(token)) return answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const body = (raw ? JSON.parse(raw) : {}) as { offset?: number; chat_id?: string | number; text?: string };
      if (method === 'getMe') return answer(200, { ok: true, result: { id: Number(token.split(':')[0]), is_bot: true, username: 'edgekeep_test_bot' } });
      if (method === 'getUpdates') return answer(200, { ok: true, result: updates.filter((u) => u.update_id >= (body.offset ?? 0)) });
      if (method === 'sendMessage') {
        sent.push({ token, chatId: String(body.chat_id), text: String(body.text) });
        return answer(200, { ok: true, result: { message_id: sent.length } });
      }
      return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    calls,
    addToken: (token: string) => tokens.add(token),
    /** A chat writes to the bot. */
    chatSays(chatId: number, text: string) {
      nextId++;
      updates.push({ update_id: nextId, message: { message_id: nextId, text, chat: { id: chatId, type: 'private' } } });
    },
    failNext: (n: number) => (failures = n),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeBot = Awaited<ReturnType<typeof startFakeBot>>;
