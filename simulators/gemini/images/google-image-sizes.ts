/** Pixel size of each aspect ratio Gemini 2.5 Flash Image draws (1290 output tokens each). */
export const geminiImageSizes: Readonly<Record<string, readonly [number, number]>> = {
  '1:1': [1024, 1024],
  '2:3': [832, 1248],
  '3:2': [1248, 832],
  '3:4': [864, 1184],
  '4:3': [1184, 864],
  '4:5': [896, 1152],
  '5:4': [1152, 896],
  '9:16': [768, 1344],
  '16:9': [1344, 768],
  '21:9': [1536, 672],
};

/** Pixel size of each aspect ratio of Imagen 4 at the default `imageSize` of 1K. */
export const imagenSizes: Readonly<Record<string, readonly [number, number]>> = {
  '1:1': [1024, 1024],
  '3:4': [896, 1280],
  '4:3': [1280, 896],
  '9:16': [768, 1408],
  '16:9': [1408, 768],
};

export const geminiImageOutputTokens = 1290;
