import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/**
 * `sync; echo 3 > /proc/sys/vm/drop_caches`: the next read of any file goes to the disk. Needs
 * root; returns whether it worked, so a run can say whether its "cold" reads were cold.
 */
export function dropOsCache(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    return true;
  } catch {
    return false;
  }
}
