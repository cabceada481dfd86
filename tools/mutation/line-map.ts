/**
 * Where the lines of a report's source are in today's file. The listed equivalents
 * (equivalent-survivors.json) name today's lines, while a committed report may have been judged on
 * an older version of the file (a report is re-run group by group, hours apart): its mutants are
 * matched through the lines both versions share unchanged (a longest common subsequence), and a
 * mutant on a line that changed since matches no entry.
 */
export function lineMap(before: string, after: string): (line: number) => number | undefined {
  if (before === after) return (line) => line;
  const a = before.split('\n');
  const b = after.split('\n');
  // LCS table from the end: lcs[i][j] = common lines of a[i..] and b[j..] (files of a few
  // hundred lines: a few hundred thousand cells).
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const map = new Map<number, number>();
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) map.set(++i, ++j);
    else if (lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else j++;
  }
  return (line) => map.get(line);
}
