import { z } from 'zod';

const ipv4 = z.ipv4();
const ipv6 = z.ipv6();

/** A comparable form of an address: eight hex digits for IPv4, 32 for IPv6; undefined when it is not one. */
export const ipKey = (ip: string): string | undefined => {
  if (ipv4.safeParse(ip).success) {
    return ip
      .split('.')
      .map((o) => Number(o).toString(16).padStart(2, '0'))
      .join('');
  }
  if (!ipv6.safeParse(ip).success) return undefined;
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const last = right.length ? right : left;
  if (last.length && last[last.length - 1].includes('.')) {
    const v4 = ipKey(last.pop() as string) as string;
    last.push(v4.slice(0, 4), v4.slice(4));
  }
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => g.padStart(4, '0').toLowerCase()).join('');
};

/** Spec §5: an IP list entry is an address, a CIDR block, or a range of two addresses of one family joined by a dash. */
export const ipEntry = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine(
    (v) => {
      if (v.includes('/')) return z.cidrv4().safeParse(v).success || z.cidrv6().safeParse(v).success;
      if (!v.includes('-')) return ipKey(v) !== undefined;
      const [from, to, ...rest] = v.split('-');
      const a = ipKey(from);
      const b = ipKey(to ?? '');
      return rest.length === 0 && a !== undefined && b !== undefined && a.length === b.length && a <= b;
    },
    { message: 'an IP, a CIDR block or a range a-b' },
  );
