import { edge } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { nginxForTests } from '../test/nginx-harness';
import { runLua } from '../test/lua-runner';

const nginx = await nginxForTests('the Lua runtime tests need nginx with Lua');

const lua = (s: string) => JSON.stringify(s);

describe.skipIf(!nginx.ok)('edgekeep.iplist (in nginx LuaJIT)', () => {
  it('keys addresses exactly like the contract does', async () => {
    const addresses = ['0.0.0.0', '10.1.2.3', '255.255.255.255', '::', '::1', '2001:db8::1', 'fe80::1:2', '2001:DB8:0:0:1::', '1::ffff:1.2.3.4'];
    const keys = await runLua<string[]>({
      code: `local ip = require "edgekeep.iplist"; local out = {}
        for _, a in ipairs({${addresses.map(lua).join(',')}}) do out[#out + 1] = ip.key(a) end
        return out`,
    });
    expect(keys).toEqual(addresses.map((a) => (a.includes(':') ? '6' : '4') + edge.ipKey(a)));
  });

  it('treats IPv4-mapped IPv6 as IPv4 and refuses what is not an address', async () => {
    const out = await runLua<(string | boolean)[]>({
      code: `local ip = require "edgekeep.iplist"
        return { ip.key("::ffff:192.0.2.1"), ip.key("256.1.1.1") or false, ip.key("1:2:3") or false, ip.key("1::2::3") or false, ip.key("x") or false }`,
    });
    expect(out).toEqual(['4c0000201', false, false, false, false]);
  });

  it('turns CIDR blocks and ranges into key ranges', async () => {
    const out = await runLua<string[][]>({
      code: `local ip = require "edgekeep.iplist"; local out = {}
        for _, e in ipairs({ "192.0.2.0/24", "10.0.0.0/9", "0.0.0.0/0", "192.0.2.7/32", "2001:db8::/33", "10.0.0.5-10.0.0.9", "10.0.0.9-10.0.0.5", "1.2.3.4/33" }) do
          local lo, hi = ip.range(e); out[#out + 1] = { lo or "", hi or "" }
        end
        return out`,
    });
    expect(out).toEqual([
      ['4c0000200', '4c00002ff'],
      ['40a000000', '40a7fffff'],
      ['400000000', '4ffffffff'],
      ['4c0000207', '4c0000207'],
      ['620010db8000000000000000000000000', '620010db87fffffffffffffffffffffff'],
      ['40a000005', '40a000009'],
      ['', ''],
      ['', ''],
    ]);
  });

  it('finds addresses in merged lists by bisection', async () => {
    const out = await runLua<boolean[]>({
      code: `local ip = require "edgekeep.iplist"
        local list = ip.compile({ "10.0.0.0/8", "10.1.0.0/16", "192.0.2.5", "192.0.2.1-192.0.2.3", "2001:db8::/32", "not an ip" })
        local out = { list.count == 4 }
        for _, a in ipairs({ "10.200.3.4", "192.0.2.2", "192.0.2.4", "192.0.2.5", "2001:db8:ffff::1", "2001:db9::", "11.0.0.0" }) do
          out[#out + 1] = ip.contains(list, ip.key(a))
        end
        return out`,
    });
    expect(out).toEqual([true, true, true, false, true, true, false, false]);
  });
});
