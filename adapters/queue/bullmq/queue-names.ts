/** One queue carries every named job; its Redis keys start with the configured prefix. */
export const QUEUE_NAME = 'collections';
