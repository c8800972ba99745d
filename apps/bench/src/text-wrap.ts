/** The width the CLI lays its text out for: the terminal's columns, or 100 when not a terminal. */
export function outputWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number {
  const columns = stream.isTTY === true ? stream.columns : undefined;
  return columns !== undefined && columns > 0 ? Math.max(40, columns) : 100;
}

/**
 * `text` broken into lines of at most `width` characters, at spaces where it can be (a word
 * longer than a line is cut). Existing line breaks are kept. Every line but the first starts
 * with `indent` (counted in the width).
 */
export function wrapText(text: string, width: number, indent = ''): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    // the first line keeps its own leading spaces; later lines start with the indent
    const lead = out.length === 0 ? (/^ */.exec(paragraph)?.[0] ?? '') : indent;
    const start = lead;
    let line = start;
    const flush = (): void => {
      out.push(line.trimEnd());
      line = indent;
    };
    const words = paragraph.split(' ').filter((w) => w !== '');
    if (words.length === 0) out.push(start.trimEnd());
    for (const word of words) {
      const empty = line === start || line === indent;
      const gap = empty ? '' : ' ';
      if (line.length + gap.length + word.length <= width) {
        line += gap + word;
        continue;
      }
      if (!empty) flush();
      let rest = word;
      while (line.length + rest.length > width) {
        const take = Math.max(1, width - line.length);
        line += rest.slice(0, take);
        rest = rest.slice(take);
        flush();
      }
      line += rest;
    }
    if (line !== start && line !== indent) out.push(line.trimEnd());
  }
  return out;
}
