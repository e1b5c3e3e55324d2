import { describe, expect, it } from 'vitest';
import { portLinesError } from './add-ports-modal';

describe('layer-4 port lines (spec §5)', () => {
  it('takes ports one per line and from-to ranges within 1000–65000', () => {
    expect(portLinesError('2222\n3000-3005\n65000\n1000')).toBeUndefined();
  });

  it('refuses reserved ports and ports out of range with "Port not allowed"', () => {
    for (const text of ['3311', '3306', '6379', '9100', '61000', '61199', '999', '65001', '60990-61005']) expect(portLinesError(text), text).toBe('portNotAllowed');
  });

  it('refuses what is not a port or a range', () => {
    for (const text of ['abc', '22 23', '3005-3000', '1.5']) expect(portLinesError(text), text).toBe('portInvalid');
  });

  it('refuses a port given twice', () => {
    expect(portLinesError('2222\n2220-2225')).toBe('duplicate');
  });
});
