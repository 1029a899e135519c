/**
 * The key a client address is counted under, wherever one client's share is bounded (its
 * connections, what it may reserve of the disk): IPv4 as is (also when IPv4-mapped), IPv6 by its
 * /64, the block one subscriber usually gets, so that one host cannot take a fresh address each time.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return '';
  const plain = address.split('%')[0]!.toLowerCase();
  if (!plain.includes(':')) return plain;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = plain.split('::');
  const first = head === '' ? [] : head.split(':');
  const last = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? first
      : [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}
