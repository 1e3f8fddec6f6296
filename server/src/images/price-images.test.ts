import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CatalogModel } from '../catalog/price-list.ts';
import type { ImagePriceTier } from './image-price-tiers.ts';
import { priceImageMicros, priceTierMicros } from './price-images.ts';

const model: CatalogModel = {
  id: 'gpt-image-1',
  displayName: 'GPT Image 1',
  family: 'OpenAI',
  kind: 'image',
  contextLength: 32_000,
  maxOutputTokens: 0,
  inputRateMicros: 0,
  outputRateMicros: 0,
  cachedInputRateMicros: null,
  perRequestMicros: 33_600,
  listInputRateMicros: 0,
  listOutputRateMicros: 0,
  listCachedInputRateMicros: null,
  listPerRequestMicros: 42_000,
  supportsTools: false,
  supportsVision: true,
  priceEffectiveAtMs: 0,
  createdAtMs: 0,
};

const tiers: ImagePriceTier[] = [
  { quality: 'low', size: '1024x1024', listPerRequestMicros: 11_000 },
  { quality: 'medium', size: '1024x1024', listPerRequestMicros: 42_000 },
  { quality: 'high', size: '1024x1024', listPerRequestMicros: 167_000 },
  { quality: 'high', size: '1536x1024', listPerRequestMicros: 250_000 },
  { quality: 'hd', size: null, listPerRequestMicros: 80_000 },
  { quality: 'hd', size: '1792x1024', listPerRequestMicros: 120_000 },
];

const price = (key: { quality?: string; size?: string }, tierList: readonly ImagePriceTier[] = tiers) =>
  priceImageMicros(model, { tiers: tierList, key: { quality: key.quality, size: key.size } });

describe('priceImageMicros', () => {
  it('charges the flat per-request price when the model has no tiers or no tier matches', () => {
    assert.equal(price({ quality: 'high', size: '1024x1024' }, []), 33_600);
    assert.equal(price({ quality: 'ultra', size: '1024x1024' }), 33_600);
  });

  it('prices a tier in proportion to the flat price, so the discount carries over', () => {
    assert.equal(price({ quality: 'high', size: '1536x1024' }), 200_000);
    assert.equal(price({ quality: 'medium', size: '1024x1024' }), 33_600);
    assert.equal(price({ quality: 'low', size: '1024x1024' }), 8_800);
  });

  it('rounds a fraction of a micro-dollar up, once per image', () => {
    const discounted = { ...model, perRequestMicros: 33_333 };
    const low = tiers[0];
    assert.ok(low);
    assert.equal(priceTierMicros(discounted, low), 8_731, '33333 × 11000 / 42000 = 8730.07…');
  });

  it('takes the most specific matching tier', () => {
    assert.equal(price({ quality: 'hd', size: '1792x1024' }), 96_000);
    assert.equal(price({ quality: 'hd', size: '1024x1024' }), 64_000);
  });

  it('prices an unknown quality or size at the dearest image it could be', () => {
    assert.equal(price({ size: '1024x1024' }), 133_600);
    assert.equal(price({ quality: 'low' }), 33_600, 'never below the flat price');
    assert.equal(price({}), 200_000);
  });
});
