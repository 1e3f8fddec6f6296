/** The Redis server `npm test` started; its absence is an error, never a silent skip. */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('TEST_REDIS_URL is not set: run the suite with `npm test`, which starts Redis');
  return url;
}
