import assert from 'node:assert/strict';

/** The format and pixel size in an image's header (PNG IHDR or JPEG start of frame): the bytes really are one. */
export function readImageSize(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
    return `png ${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
  }
  assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xd8], 'a PNG or a JPEG');
  const frame = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  assert.ok(frame > 0, 'a baseline frame');
  return `jpeg ${bytes.readUInt16BE(frame + 7)}x${bytes.readUInt16BE(frame + 5)}`;
}
