import type { ErrorBody } from '@edgekeep/contract/errors';
import type { Tier } from '@edgekeep/contract/tiers';

/**
 * A failed call: the error body's fields when the server answered one, no code when it did not (network
 * failure, timeout, a body that is not an error body). `tier` is the area whose session the call used, if any.
 */
export class ApiFailure extends Error {
  readonly code: number | undefined;
  readonly extra: unknown;
  readonly errors: NonNullable<ErrorBody['errors']>;
  constructor(
    readonly status: number,
    body: Partial<ErrorBody> | undefined,
    readonly tier: Tier | undefined,
  ) {
    super(body?.message ?? '');
    this.code = typeof body?.code === 'number' ? body.code : undefined;
    this.extra = body?.extra;
    this.errors = body?.errors ?? [];
  }
}

/** A failure whose handling already happened where it was raised (for example a self check that ended the session). */
export class HandledFailure extends Error {}
