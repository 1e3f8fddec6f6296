import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import type { PublicModelList } from '../../../contract/models.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { preparePythonEnvironment } from '../support/conformance/python-part.ts';
import { runProcess } from '../support/conformance/run-process.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** One image request per vendor API, the size each must come back in, and the price tier it falls in. */
const cases = [
  { request: { model: 'gpt-image-1', n: 2, size: '1024x1536', quality: 'medium' }, quality: 'medium' },
  { request: { model: 'dall-e-3', n: 1, size: '1024x1792', response_format: 'b64_json' }, quality: 'standard' },
  { request: { model: 'gemini-2.5-flash-image', n: 1, size: '1248x832' } },
  { request: { model: 'imagen-4.0-generate-001', n: 2, size: '1280x896' } },
  { request: { model: 'flux-pro-1.1', n: 2, size: '768x512' } },
  { request: { model: 'flux-dev', n: 1, size: '512x256', output_format: 'jpeg' } },
  { request: { model: 'gpt-image-1', n: 1, size: '1536x1024', quality: 'low', output_format: 'webp' }, quality: 'low' },
] as const;

/**
 * The official OpenAI SDK for Python: `client.images.generate` for each case. Every image is decoded far enough to
 * prove it whole: a PNG's chunk CRCs and its inflated IDAT exactly height × (1 + width × channels) bytes, a JPEG's
 * frame size and a scan that runs to the end-of-image marker, a WebP's RIFF and VP8L headers. One JSON line per case
 * reports what came back.
 */
const script = `
import base64, json, os, struct, sys, zlib
from openai import OpenAI

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}

def decode_png(data):
    assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "PNG signature"
    chunks, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind, body = data[offset + 4:offset + 8], data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        assert zlib.crc32(kind + body) == crc, "chunk CRC"
        chunks.append((kind, body))
        offset += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert interlace == 0
    pixels = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    row = 1 + (width * CHANNELS[colour] * depth + 7) // 8
    assert len(pixels) == height * row, "IDAT holds every row"
    assert all(pixels[y * row] <= 4 for y in range(height)), "filter bytes"
    return "png", width, height

def decode_jpeg(data):
    assert data[:2] == b"\\xff\\xd8", "JPEG start of image"
    offset, size = 2, None
    while True:
        assert data[offset] == 0xFF
        marker = data[offset + 1]
        (length,) = struct.unpack(">H", data[offset + 2:offset + 4])
        if 0xC0 <= marker <= 0xC3:
            height, width = struct.unpack(">HH", data[offset + 5:offset + 9])
            size = (width, height)
        offset += 2 + length
        if marker == 0xDA:
            break
    assert size, "a frame before the scan"
    scan = data[offset:-2]
    for index in range(len(scan) - 1):
        if scan[index] == 0xFF:
            assert scan[index + 1] == 0 or 0xD0 <= scan[index + 1] <= 0xD7, "only stuffing or restarts in the scan"
    assert data[-2:] == b"\\xff\\xd9", "the scan ends with EOI"
    return "jpeg", size[0], size[1]

def decode_webp(data):
    assert data[:4] == b"RIFF" and data[8:16] == b"WEBPVP8L" and data[20] == 0x2F, "a lossless WebP"
    assert struct.unpack("<I", data[4:8])[0] == len(data) - 8, "RIFF size"
    (header,) = struct.unpack("<I", data[21:25])
    return "webp", (header & 0x3FFF) + 1, ((header >> 14) & 0x3FFF) + 1

def decode(data):
    if data[:4] == b"RIFF":
        return decode_webp(data)
    return decode_jpeg(data) if data[:2] == b"\\xff\\xd8" else decode_png(data)

client = OpenAI(base_url=os.environ["GATEWAY_BASE_URL"], api_key=os.environ["GATEWAY_API_KEY"], max_retries=0)
for case in json.loads(os.environ["IMAGE_CASES"]):
    result = client.images.generate(prompt="a harbour at night", **case)
    images = [decode(base64.b64decode(image.b64_json)) for image in result.data]
    extra = result.model_extra or {}
    print(json.dumps({
        "model": extra.get("model"),
        "cost": extra.get("cost"),
        "formats": [image[0] for image in images],
        "sizes": [f"{image[1]}x{image[2]}" for image in images],
    }))
    sys.stdout.flush()
`;

type CaseResult = { model: string; cost: number; formats: string[]; sizes: string[] };

describe('image generation through the official OpenAI SDK for Python', () => {
  let gateway: TestGateway;
  let python: string;
  let workDir: string;

  before(async () => {
    python = await preparePythonEnvironment();
    gateway = await startTestGateway();
    workDir = mkdtempSync(path.join(tmpdir(), 'images-python-'));
  });
  after(async () => {
    rmSync(workDir, { recursive: true, force: true });
    await gateway.close();
  });

  test('every image vendor answers images of the requested size, and the ledger shows n × price', async () => {
    const user = await gateway.createUserWithKey({ balanceMicros: 10_000_000 });
    const db = gateway.gateway.database.db;
    const balanceBefore = await sumLedgerAccount(db, userLedgerAccount(user.userId));
    const scriptPath = path.join(workDir, 'generate_images.py');
    writeFileSync(scriptPath, script);
    const run = await runProcess(python, [scriptPath], {
      env: {
        GATEWAY_BASE_URL: `${gateway.url}/v1`,
        GATEWAY_API_KEY: user.key,
        IMAGE_CASES: JSON.stringify(cases.map((testCase) => testCase.request)),
      },
    });
    assert.equal(run.exitCode, 0, run.output);
    const results = run.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as CaseResult);
    assert.equal(results.length, cases.length, run.output);
    const priceList = (await (await fetch(`${gateway.url}/api/models`)).json()) as PublicModelList;
    let expectedTotalMicros = 0;
    for (const [index, testCase] of cases.entries()) {
      const { model, n, size } = testCase.request;
      const quality = 'quality' in testCase ? testCase.quality : undefined;
      const listed = priceList.data.find((entry) => entry.id === model);
      const tier = listed?.image_price_tiers?.find((item) => item.quality === quality && item.size === size);
      const expectedMicros = n * Math.round((tier?.usd_per_request ?? listed?.usd_per_request ?? 0) * 1_000_000);
      expectedTotalMicros += expectedMicros;
      const result = results[index];
      assert.equal(result?.model, model);
      assert.deepEqual(
        result?.sizes,
        Array.from({ length: n }, () => size),
        model,
      );
      const format = 'output_format' in testCase.request ? testCase.request.output_format : 'png';
      assert.deepEqual(
        result?.formats,
        Array.from({ length: n }, () => format),
        `${model}: decoded as ${format}`,
      );
      assert.ok(expectedMicros > 0);
      assert.equal(result?.cost, microsToUsd(expectedMicros), `${model}: cost is n × the listed price`);
    }
    const balanceAfter = await sumLedgerAccount(db, userLedgerAccount(user.userId));
    assert.equal(balanceBefore - balanceAfter, expectedTotalMicros, 'the ledger debits exactly the sum of n × price');
  });
});
