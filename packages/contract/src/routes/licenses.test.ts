import { describe, expect, it } from 'vitest';
import { permissionKeys } from '../permissions';
import { licenseFields } from '../schemas/licenses';
import { licenseRoutes } from './licenses';

const terms = { name: 'Pro', days: 365, siteLimit: 0, nodeLimit: 1, zoneLimit: 0, domainLimit: 0, autoSSLLimit: 0, portLimit: 0, portType: '7', nodeMonitorSeconds: 60 };

describe('license calls', () => {
  it('each needs a permission key its tier has', () => {
    for (const route of Object.values(licenseRoutes)) {
      expect(route.tier === 'admin' || route.tier === 'client', route.id).toBe(true);
      expect(permissionKeys(route.tier as 'admin' | 'client'), route.id).toContain(route.permission);
    }
  });

  it('serves the spec paths of the admin license calls and the offline activation', () => {
    const paths = Object.values(licenseRoutes).map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(expect.arrayContaining([
      'GET license', 'POST license', 'PUT license', 'DELETE license', 'POST license/issuing', 'GET license/{userId}/order',
      'PUT license/{userId}/order', 'GET license/offlines', 'PUT license/offline', 'DELETE license/offline',
      'POST license/offline/issuing', 'DELETE license/offline/register', 'PUT offline/license', 'PUT offline/license/updateKey',
    ]));
  });

  it('takes 0 as an unlimited count and refuses negative or fractional ones', () => {
    expect(licenseFields.safeParse(terms).success).toBe(true);
    for (const bad of [{ siteLimit: -1 }, { nodeLimit: 1.5 }, { portType: '4' }, { days: 0 }]) {
      expect(licenseFields.safeParse({ ...terms, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
