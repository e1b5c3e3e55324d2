import { describe, expect, it } from 'vitest';
import { ownParams } from './list-params';

describe('ownParams', () => {
  const search = new URLSearchParams('tab=domains&page=2&keywords=shop&origins.page=3&origins.pageSize=25');
  it("gives the main list the undotted parameters but the screen's own (tab, site, module): the API refuses a parameter a call does not take", () => {
    expect(ownParams(new URLSearchParams('site=3&module=7&tab=domains&keywords=shop'))).toEqual([['keywords', 'shop']]);
    expect(ownParams(search)).toEqual([
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
