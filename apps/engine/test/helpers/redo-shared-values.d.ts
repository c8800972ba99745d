export function keyOf(workerNo: number, seq: number): Uint8Array;
export function valueOf(cycleNo: number, workerNo: number, seq: number): Uint8Array;
