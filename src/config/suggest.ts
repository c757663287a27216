/**
 * "Did you mean …" for a misspelled name (a flag, a configuration field or group, a wallet command or
 * option): the known name nearest in edit distance, when it is near enough to be a typo.
 */

/**
 * The candidate closest to `word` (case-insensitive optimal-string-alignment distance: insert, delete,
 * substitute, swap two neighbours), or undefined when none is within max(1, ⌊length / 3⌋) edits.
 */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(1, Math.floor(w.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** `; did you mean X?` for a message, or "" when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>, prefix = ""): string {
  const c = closestName(word, candidates);
  return c === undefined ? "" : `; did you mean ${prefix}${c}?`;
}

function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++)
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = v;
    }
  return d[rows * cols - 1]!;
}
