// sysbench's oltp table shape for the benches that build it themselves: id INT primary key, k INT
// with index k_1, c CHAR(120) and pad CHAR(60) as groups of 11 random digits joined by '-' (as
// sysbench's oltp_common.lua makes them), from a seeded xorshift32, so every run gets the same rows.

export const CREATE = `CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '',
  pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id))`;
export const INDEX = 'CREATE INDEX k_1 ON sbtest1 (k)';

/** A seeded xorshift32 and sysbench's digit groups drawn from it. */
export function sbtestRandom(seed = 0x9e3779b9) {
  let state = seed;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const digits = (groups) => {
    const parts = [];
    for (let g = 0; g < groups; g++) {
      let s = '';
      for (let d = 0; d < 11; d++) s += String(next() % 10);
      parts.push(s);
    }
    return parts.join('-');
  };
  return { next, digits };
}
