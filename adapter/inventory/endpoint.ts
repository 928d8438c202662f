/** "127.0.0.1:80", "*:5353", "[::1]:8080", "[fe80::1%lo0]:5353": address, port and family as lsof and netstat print them. */
export function hostPort(text: string): { address: string; port: number; family: 4 | 6 } {
  const at = text.lastIndexOf(':');
  const host = text.slice(0, at);
  const v6 = host.startsWith('[');
  const address = v6 ? host.slice(1, -1) : host;
  return { address, port: Number(text.slice(at + 1)) || 0, family: v6 || address.includes(':') ? 6 : 4 };
}
