// Rollup plugins that swap three of markdown-it's dependencies for what a browser already has, in
// the drop-in bundle only (`task-surface/components` keeps markdown-it's own dependencies).
import { decodeHTMLStrict } from 'entities';

/** A virtual module standing in for the package `name`. */
const shim = (name, code) => ({
  name: `shim-${name}`,
  resolveId: (id) => (id === name ? `\0shim-${name}` : null),
  load: (id) => (id === `\0shim-${name}` ? code : null),
});

/**
 * markdown-it always constructs a LinkifyIt, but only calls it when `linkify: true`, which the
 * markdown policy never sets. An inert class keeps ~11 KB of URL grammar out of the bundle;
 * test/components/markdown.test.ts checks that bare URLs stay text (linkify off).
 */
export const inertLinkify = shim(
  'linkify-it',
  'export class LinkifyIt { test() { return false; } match() { return null; } matchAtStart() { return null; } }',
);

/**
 * markdown-it turns a link's host into ASCII with punycode.js (and back, for an autolink's text).
 * In a browser the URL parser does the first (`new URL()` applies the same IDNA mapping; a host it
 * refuses throws, which markdown-it catches as it does punycode's errors), and an autolink's text
 * keeps the host as written in ASCII (`xn--…`), which is also the form that shows a look-alike host.
 */
export const browserPunycode = shim(
  'punycode.js',
  'export default { toASCII: (host) => new URL(`http://${host}/`).hostname, toUnicode: (host) => host };',
);

/**
 * uc.micro is Unicode's categories as long regular expressions; markdown-it tests punctuation (P)
 * and symbols (S) with them. The browser's own Unicode property escapes say the same in a few bytes.
 */
export const browserUcMicro = shim(
  'uc.micro',
  ['export const Any = /[\\s\\S]/u;', ...['Cc', 'Cf', 'P', 'S', 'Z'].map((c) => `export const ${c} = /\\p{${c}}/u;`)].join('\n'),
);

/**
 * The named character references markdown-it decodes: HTML 4's 252 (Latin-1, Greek, arrows,
 * mathematical symbols, typographic punctuation) and `&apos;`, with their HTML5 values (read here,
 * at build time, from the `entities` package markdown-it uses). Its table of all 2,231 HTML5 names
 * is ~16 KB gzip; a rarer name (`&HilbertSpace;`) stays as written, as an unknown name does.
 * Numeric references (`&#x27E8;`) are decoded by markdown-it itself, whatever the character.
 */
export const HTML4_ENTITIES = `quot amp apos lt gt nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg
macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute
Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc
Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil
egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute
ucirc uuml yacute thorn yuml OElig oelig Scaron scaron Yuml fnof circ tilde Alpha Beta Gamma Delta Epsilon Zeta Eta
Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega alpha beta gamma delta epsilon zeta
eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega thetasym upsih piv ensp
emsp thinsp zwnj zwj lrm rlm ndash mdash lsquo rsquo sbquo ldquo rdquo bdquo dagger Dagger bull hellip permil prime
Prime lsaquo rsaquo oline frasl euro image weierp real trade alefsym larr uarr rarr darr harr crarr lArr uArr rArr dArr
hArr forall part exist empty nabla isin notin ni prod sum minus lowast radic prop infin ang and or cap cup int there4
sim cong asymp ne equiv le ge sub sup nsub sube supe oplus otimes perp sdot lceil rceil lfloor rfloor lang rang loz
spades clubs hearts diams`.split(/\s+/);

/** The table as runs of consecutive code points, `<first in base 36> <name> <name>…` (half the gzip size of a JSON object). */
function entityRuns() {
  const byCodePoint = HTML4_ENTITIES.map((name) => [name, decodeHTMLStrict(`&${name};`).codePointAt(0)]).sort((a, b) => a[1] - b[1]);
  const runs = [];
  for (const [name, codePoint] of byCodePoint) {
    const last = runs.at(-1);
    if (last && last.next === codePoint) {
      last.names.push(name);
      last.next++;
    } else runs.push({ start: codePoint, names: [name], next: codePoint + 1 });
  }
  return runs.map((run) => `${run.start.toString(36)} ${run.names.join(' ')}`).join(',');
}

export const smallEntities = shim(
  'entities',
  `const table = new Map();
for (const run of ${JSON.stringify(entityRuns())}.split(',')) {
  const [first, ...names] = run.split(' ');
  let codePoint = parseInt(first, 36);
  for (const name of names) table.set(name, String.fromCodePoint(codePoint++));
}
export function decodeHTMLStrict(text) {
  const name = /^&([A-Za-z][A-Za-z0-9]*);$/.exec(text)?.[1];
  return (name !== undefined && table.get(name)) || text;
}`,
);
