import { describe, expect, it } from 'vitest';
import { chosenZone } from './use-meta-zones';

describe('chosenZone', () => {
  const one = [{ value: 7 }];
  const two = [{ value: 7 }, { value: 9 }];

  it('takes the zone of the URL', () => {
    expect(chosenZone({ zoneID: '9', zones: two })).toBe(9);
    expect(chosenZone({ zoneID: 9, zones: one })).toBe(9);
  });

  it("takes the client's only zone when the URL names none", () => {
    expect(chosenZone({ zoneID: undefined, zones: one })).toBe(7);
  });

  it('leaves the choice to the user among several zones, or while they load', () => {
    expect(chosenZone({ zoneID: undefined, zones: two })).toBeUndefined();
    expect(chosenZone({ zoneID: '', zones: [] })).toBeUndefined();
  });
});
