import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  /** Without SMTP the log shows this line (for example the sign-in code), so a fresh machine can sign in. */
  hint?: string;
};
export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

/** SMTP when SMTP_URL is set; otherwise each mail is written to DATA_DIR/outbox/ as an .eml file. */
export function createMailer(opts: { smtpUrl?: string; dataDir: string; from: string; log: Logger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
        opts.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await builder.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[<>@]/g, '')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      opts.log.info({ to: mail.to, subject: mail.subject, file, hint: mail.hint }, 'mail written to outbox (no SMTP_URL)');
    },
    close: () => builder.close(),
  };
}
