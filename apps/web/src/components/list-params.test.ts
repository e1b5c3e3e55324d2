import { describe, expect, it } from 'vitest';
import { ownParams } from './list-params';

describe('ownParams', () => {
  const search = new URLSearchParams('tab=domains&page=2&keywords=shop&origins.page=3&origins.pageSize=25');
  it('gives the main list the undotted parameters', () => {
    expect(ownParams(search)).toEqual([
      ['tab', 'domains'],
      ['page', '2'],
      ['keywords', 'shop'],
    ]);
  });
  it("gives a scoped list its own parameters without the scope's prefix", () => {
    expect(ownParams(search, 'origins')).toEqual([
      ['page', '3'],
      ['pageSize', '25'],
    ]);
  });
});
