import { threadId } from 'node:worker_threads';

/**
 * The calling thread's latch owner id: worker `threadId` + 1, so the main thread is 1 and 0 is
 * free to mean "no owner" (no "neutral thread id" is ever needed, unlike `pthread_t`). Ids are
 * never reused while a process lives, so a stale owner slot can never match a live thread.
 */
export const THREAD_ID: number = threadId + 1;
