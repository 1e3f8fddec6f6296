import type { ImageProfile } from './image-profiles.ts';

/** A checked image request, with every default filled in: what the vendor clients draw. */
export type ImageJob = {
  prompt: string;
  count: number;
  /** `WxH`, or `auto` when the model picks (GPT image models only). */
  size: string;
  /** Pixel size, undefined for `auto`. */
  width: number | undefined;
  height: number | undefined;
  /** Undefined when the client left it to the model (`auto` or absent). */
  quality: string | undefined;
  responseFormat: 'b64_json' | 'url';
  outputFormat: 'png' | 'jpeg' | 'webp' | undefined;
  background: 'transparent' | 'opaque' | 'auto' | undefined;
  style: 'vivid' | 'natural' | undefined;
  moderation: 'low' | 'auto' | undefined;
  outputCompression: number | undefined;
  user: string | undefined;
  profile: ImageProfile;
};
