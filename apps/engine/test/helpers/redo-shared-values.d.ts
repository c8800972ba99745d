export function keyOf(workerNo: number, seq: number): Uint8Array;
export function valueFor(cycleNo: number, workerNo: number, seq: number): Uint8Array;
