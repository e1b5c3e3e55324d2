/** Whether a certificate's names cover a domain: a wildcard name covers exactly one more label. */
export const covers = (names: string[], domain: string) =>
  names.some((n) => {
    if (n === domain) return true;
    if (!n.startsWith('*.')) return false;
    const suffix = n.slice(1);
    const label = domain.slice(0, -suffix.length);
    return domain.endsWith(suffix) && label.length > 0 && !label.includes('.');
  });
