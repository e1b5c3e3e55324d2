import { SMTPServer } from 'smtp-server';

export type SunkMail = { to: string[]; user?: string; raw: string };

/** A real SMTP server (no TLS) that keeps every message; with `auth`, it takes that user and password only. */
export async function startSmtpSink(auth?: { user: string; pass: string }) {
  const mails: SunkMail[] = [];
  const server = new SMTPServer({
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !auth,
    onAuth(a, _session, done) {
      if (auth && a.username === auth.user && a.password === auth.pass) return done(null, { user: a.username });
      done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), user: session.user === undefined ? undefined : String(session.user), raw: text });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
