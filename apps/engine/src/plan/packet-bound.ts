import type { BindCtx } from './bind-expr.js';

/** The smallest max_allowed_packet (1024): a string this short never needs the variable read. */
const SURELY_FITS = Math.floor(1024 / 3);

/**
 * A string function's result against max_allowed_packet, as MariaDB bounds CONCAT, CONCAT_WS,
 * INSERT and REPLACE: a result of more bytes (UTF-8) than it is NULL with warning 1301
 * (ER_WARN_ALLOWED_PACKET_OVERFLOWED), so no value grows past what a row may carry.
 */
export function withinPacket(ctx: BindCtx, name: string, s: string): string | null {
  // a character is at most 3 UTF-8 bytes per UTF-16 unit
  if (s.length <= SURELY_FITS) return s;
  const max = Number(ctx.env.sysVar('max_allowed_packet', undefined).v);
  if (s.length * 3 <= max || Buffer.byteLength(s) <= max) return s;
  overflowed(ctx, name, max);
  return null;
}

/**
 * LPAD and RPAD as MariaDB bounds them, before building: `count` characters of utf8mb4 (4 bytes
 * each at most) past max_allowed_packet are NULL with warning 1301. Returns whether it is over.
 */
export function padOverPacket(ctx: BindCtx, name: string, count: number): boolean {
  if (count * 4 <= 1024) return false;
  const max = Number(ctx.env.sysVar('max_allowed_packet', undefined).v);
  if (count * 4 <= max) return false;
  overflowed(ctx, name, max);
  return true;
}

function overflowed(ctx: BindCtx, name: string, max: number): void {
  ctx.env.warn(1301, `Result of ${name}() was larger than max_allowed_packet (${max}) - truncated`);
}
