import { join } from 'node:path';
import { agentProtocol } from '@edgekeep/contract';
import { z } from 'zod';
import { readJson, writeFileAtomic } from './files';

/** What enrolment gave this node, kept in `STATE_DIR/identity.json` (0600: the credential is a secret). */
const identity = agentProtocol.enrollResult.extend({ apiUrl: z.url() });
export type Identity = agentProtocol.EnrollResult & { apiUrl: string };

const file = ({ stateDir }: { stateDir: string }) => join(stateDir, 'identity.json');

export const readIdentity = async ({ stateDir }: { stateDir: string }): Promise<Identity | undefined> => {
  const parsed = identity.safeParse(await readJson({ file: file({ stateDir }) }));
  return parsed.success ? parsed.data : undefined;
};

export const writeIdentity = ({ stateDir, value }: { stateDir: string; value: Identity }) =>
  writeFileAtomic({ file: file({ stateDir }), content: JSON.stringify(value, null, 2) + '\n', mode: 0o600 });
