/** Where the agent says what it does: one structured record a call (never a credential or a key). */
export type Log = (record: { msg: string } & Record<string, unknown>) => void;

/** One JSON object a line on stderr, which journald keeps. */
export const jsonLog: Log = (record) => process.stderr.write(JSON.stringify({ time: new Date().toISOString(), ...record }) + '\n');
