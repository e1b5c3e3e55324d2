import { generateSecret, generateURI, verify } from 'otplib';

const PERIOD = 30;

export const newTotpSecret = () => generateSecret();
export const totpUri = (secret: string, label: string) => generateURI({ issuer: 'EdgeKeep', label, secret });

/**
 * RFC 6238 check with one step of drift either side. A code of a step at or before `lastStep` is refused,
 * so no code is accepted twice. Answers the step to remember, or null.
 */
export async function checkTotp(secret: string, code: string, lastStep: number | null): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: PERIOD,
    ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
  }).catch(() => ({ valid: false as const }));
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
