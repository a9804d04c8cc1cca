/**
 * A URL as the startup banner may print it: scheme, user name, host, port and path. The password,
 * query and fragment are where keys and tokens hide (`postgres://u:pw@db`, `?api-key=…`): the
 * password is left out, a query or fragment shows as `?…`. Whatever is not a URL prints as `…`, and
 * the URL parser percent-encodes control characters, so an environment variable cannot forge a line.
 */
export function shownUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '…';
  }
  const tail = url.search !== '' || url.hash !== '' ? '?…' : '';
  const path = url.pathname === '/' && !text.endsWith('/') ? '' : url.pathname;
  return `${url.protocol}//${url.username ? `${url.username}@` : ''}${url.host}${path}${tail}`;
}
