/** Calls of a Telegram-compatible bot API: `{base}/bot{token}/{method}`, answers `{ ok, result }` or `{ ok: false, description }`. */

export class BotApiError extends Error {
  constructor(
    message: string,
    /** The API refused the token (401/404): retrying will not help. */
    readonly badToken: boolean,
  ) {
    super(message);
  }
}

type Update = { update_id: number; message?: { text?: string; chat?: { id: number | string } } };

async function callBot<T>(base: string, token: string, method: string, body: object): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new BotApiError(`bot API unreachable: ${(err as Error).message}`, false);
  }
  const answer = (await res.json().catch(() => null)) as { ok?: boolean; result?: T; description?: string } | null;
  if (res.ok && answer?.ok) return answer.result as T;
  // Never echo the URL: it carries the token.
  throw new BotApiError(`bot API ${method}: HTTP ${res.status} ${answer?.description ?? ''}`.trim(), res.status === 401 || res.status === 404);
}

export const getMe = (base: string, token: string) => callBot<{ id: number; username?: string }>(base, token, 'getMe', {});

/** The updates since `offset`; the next offset is one past the last one seen. */
export const getUpdates = (base: string, token: string, offset: number) => callBot<Update[]>(base, token, 'getUpdates', { offset, timeout: 0 });

export const sendMessage = (base: string, token: string, chatId: string, text: string) =>
  callBot<{ message_id: number }>(base, token, 'sendMessage', { chat_id: chatId, text, disable_web_page_preview: true });
